package export

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/scenario"
)

// step writes one scenario step at its second.
func (g *script) step(st scenario.Step) error {
	g.endWaits(int64(st.At / time.Second))
	g.wait(st.At)
	if g.res != nil {
		g.res.at = st.At
	}
	switch {
	case st.Kubectl != "":
		g.kubectlStep(st)
	case len(st.Apply) > 0:
		return g.applyStep(st)
	case st.Fault != nil:
		g.faultStep(st.Fault)
	case st.Expect != nil:
		g.expectStep(st.Expect)
	case st.Note != nil:
		g.comment("note: " + st.Note.Plain())
	default:
		g.comment(st.Action() + ": not something kubectl can replay")
		g.line("note " + shQuote(st.Action()+": not replayed"))
	}
	return nil
}

// kubectlStep runs a kubectl step, with the scenario's node names and the
// simulation's pod names turned into the cluster's, if the policy lets it
// (policy.go): else it is a comment that says why, or a node step that runs
// only with CONVERGE_NODE_STEPS=1.
func (g *script) kubectlStep(st scenario.Step) {
	cmd, err := kubectl.Parse(st.Kubectl)
	if err != nil {
		// The scenario's load checks kubectl steps, so only a line that is
		// kubectl's own help gets here.
		g.leftOut("kubectl "+st.Kubectl, "it is not a command Converge simulates")
		return
	}
	v, why := g.judgeCommand(cmd)
	if v == leaveOut {
		g.leftOut("kubectl "+st.Kubectl, why)
		return
	}
	words, notes := g.commandWords(cmd)
	for _, n := range notes {
		g.comment(n)
	}
	if v == nodeOptIn {
		g.nodeStep(st, cmd, words)
		return
	}
	g.runWords(st, words)
}

// leftOut writes a step the replay leaves out: a comment with why, and a
// line printed at its second.
func (g *script) leftOut(step, why string) {
	g.leftOuts++
	g.comment("LEFT OUT: " + step + "\n(" + why + ")")
	g.line("note " + shQuote(oneLine(step)+": left out: "+why))
}

// nodeStep writes a cordon, uncordon, drain, taint or delete of the
// scenario's nodes: node_step runs it only with CONVERGE_NODE_STEPS=1, after
// it has noted what to put back on exit (each node's schedulability, each
// taint the step adds, each node deleted, which cannot be put back). A
// drain runs in the background, as the simulation's goes on beside the
// later steps while it retries evictions and waits for the pods to go
// (waits.go); a step with expectError must fail with it.
func (g *script) nodeStep(st scenario.Step, cmd *kubectl.Command, words []string) {
	g.nodeSteps++
	var before []string
	nodes, specs := cmd.Args, []string(nil)
	switch cmd.Path[0] {
	case "taint":
		nodes = nil
		for _, a := range cmd.Args[1:] {
			if len(specs) > 0 || strings.ContainsAny(a, "=:") || strings.HasSuffix(a, "-") {
				specs = append(specs, a)
				continue
			}
			nodes = append(nodes, a)
		}
	case "delete":
		nodes = deletedNodes(cmd)
	}
	for _, n := range nodes {
		node := "$NODE_" + strconv.Itoa(g.nodeIndex(n)+1)
		switch cmd.Path[0] {
		case "delete":
			before = append(before, `"gone:`+node+`"`)
			continue
		case "taint":
		default:
			before = append(before, `"node:`+node+`"`)
			continue
		}
		for _, spec := range specs {
			if strings.HasSuffix(spec, "-") {
				continue
			}
			g.taints[n+"\x00"+taintKey(spec)] = true
			undo := taintKey(spec)
			if e := taintEffect(spec); e != "" {
				undo += ":" + e
			}
			before = append(before, `"untaint:`+node+`:`+dqEscape(undo)+`-"`)
		}
	}
	run := "-- step " + shQuote(st.Kubectl) + " " + strings.Join(words, " ")
	switch {
	case cmd.Path[0] == "drain":
		run = "-- " + g.background(st, words)
	case st.ExpectError != "":
		run = "-- step_fails " + shQuote(st.Kubectl) + " " + shQuote(st.ExpectError) + " " + strings.Join(words, " ")
	}
	g.line("node_step " + shQuote(st.Kubectl) + " " + strings.Join(append(before, run), " "))
}

func (g *script) runWords(st scenario.Step, words []string) {
	text := shQuote(st.Kubectl)
	g.res.flush(g)
	if g.waitsInBackground(st, words) {
		return
	}
	if st.ExpectError != "" {
		g.line("step_fails " + text + " " + shQuote(st.ExpectError) + " " + strings.Join(words, " "))
		return
	}
	g.line("step " + text + " " + strings.Join(words, " "))
}

func (g *script) applyStep(st scenario.Step) error {
	for _, d := range st.Apply {
		if why := judgeObject(d); why != "" {
			g.leftOut(st.Action(), why)
			return nil
		}
	}
	body, err := manifests(st.Apply, g.imageMap)
	if err != nil {
		return err
	}
	text := shQuote(st.Action())
	if st.ExpectError != "" {
		g.line("step_fails " + text + " " + shQuote(st.ExpectError) + " apply -f - " + heredoc(body))
		return nil
	}
	g.line("step " + text + " apply -f - " + heredoc(body))
	return nil
}

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shQuote(w)
	}
	return out
}

// commandWords renders cmd as bash words for kubectl: its command words,
// arguments and flags (cmd.String's normalized form), with node names as
// "$NODE_i" and generated pod names as "$(pod NAME)". rollout status gets
// --watch=false, as the simulation runs it (it cannot block on a watch), and
// a namespace flag is dropped, since the replay has its own namespace. It
// returns comments for what it changed.
func (g *script) commandWords(cmd *kubectl.Command) ([]string, []string) {
	var notes []string
	args := g.rewriteArgs(cmd)
	words := append([]string(nil), quoteAll(cmd.Path)...)
	dashed := false
	for _, a := range cmd.Args {
		dashed = dashed || strings.HasPrefix(a, "-")
	}
	if !dashed {
		words = append(words, args...)
	}
	watch := false
	for _, f := range cmd.Flags {
		switch f.Name {
		case "namespace":
			notes = append(notes, fmt.Sprintf("The step names the namespace %s; the replay runs it in its own.", f.Value))
			continue
		case "watch":
			watch = true
		}
		words = append(words, shQuote("--"+f.Name+"="+f.Value))
	}
	if strings.Join(cmd.Path, " ") == "rollout status" && !watch {
		words = append(words, noWatch)
	}
	if dashed {
		words = append(words, "--")
		words = append(words, args...)
	}
	return words, notes
}

// rewriteArgs quotes cmd's arguments, writing node and pod names as the
// cluster's: every argument of cordon, uncordon and drain is a node; else
// TYPE/NAME, or TYPE followed by names (up to the first KEY=VALUE or KEY-
// of label, annotate and taint).
func (g *script) rewriteArgs(cmd *kubectl.Command) []string {
	out := quoteAll(cmd.Args)
	defer g.mapSetImage(cmd, out)
	switch cmd.Path[0] {
	case "cordon", "uncordon", "drain":
		for i, a := range cmd.Args {
			out[i] = g.nodeWord("", a)
		}
		return out
	}
	for i, a := range cmd.Args {
		if typ, name, ok := strings.Cut(a, "/"); ok {
			out[i] = g.nameWord(typ, typ+"/", name, a)
		}
	}
	if len(cmd.Args) > 1 && !strings.Contains(cmd.Args[0], "/") {
		typ := cmd.Args[0]
		for i := 1; i < len(cmd.Args); i++ {
			a := cmd.Args[i]
			if strings.Contains(a, "=") || strings.HasSuffix(a, "-") || strings.Contains(a, "/") {
				break
			}
			out[i] = g.nameWord(typ, "", a, a)
		}
	}
	return out
}

// nameWord is the word for an object name of resource type typ: a node's
// variable, a generated pod's lookup, or the word quoted as is.
func (g *script) nameWord(typ, prefix, name, word string) string {
	r, ok := api.LookupResource(typ)
	switch {
	case !ok:
	case r.Kind == api.KindNode:
		return g.nodeWord(prefix, name)
	case r.Kind == api.KindPod && !g.pods[name], g.res.generated(r.Kind, name):
		return g.res.word(r.Kind, prefix, name)
	}
	return shQuote(word)
}

// nodeWord is "PREFIX$NODE_i" for the scenario's node name, or the word
// quoted as is for a name that is not one of its nodes.
func (g *script) nodeWord(prefix, name string) string {
	for i, n := range g.scn.Cluster.Nodes {
		if n.Name == name {
			return `"` + dqEscape(prefix) + "$NODE_" + strconv.Itoa(i+1) + `"`
		}
	}
	return shQuote(prefix + name)
}

// expectStep checks an expect with kubectl get -o jsonpath.
func (g *script) expectStep(e *scenario.Expect) {
	text := shQuote(e.String())
	tmpl, err := JSONPath(e.Path)
	if err != nil {
		g.comment(fmt.Sprintf("expect %s: %v, so the replay cannot check it", e, err))
		g.line("note " + shQuote("expect "+e.String()+": not checked (see the script)"))
		return
	}
	r := api.ResourceFor(e.Kind)
	target := shQuote(r.Singular + "/" + e.Name)
	switch {
	case e.Kind == api.KindNode:
		target = g.nodeWord(r.Singular+"/", e.Name)
	case e.Kind == api.KindPod && !g.pods[e.Name], g.res.generated(e.Kind, e.Name):
		target = g.res.word(e.Kind, r.Singular+"/", e.Name)
	}
	typ, want := valueType(e.Value)
	if off, ok := simTime(e.Value); ok {
		typ, want = "time", strconv.FormatInt(off, 10)
	}
	line := "expect " + text + " " + target + " " + shQuote(tmpl) + " " + shQuote(string(e.Op)) + " " + typ + " " + shQuote(want)
	if z, ok := e.Zero(); ok {
		_, zs := valueType(z)
		line += " " + shQuote("zero:"+zs)
		if len(e.Path) > 1 {
			if parent, err := JSONPath(e.Path[:len(e.Path)-1]); err == nil {
				line += " " + shQuote("parent:"+parent)
			}
		}
	}
	g.res.flush(g)
	g.line(line)
}

// valueType is how the expect helper compares a value, and the value as
// kubectl's JSONPath prints it.
func valueType(v any) (string, string) {
	switch x := v.(type) {
	case nil:
		return "null", ""
	case bool:
		return "bool", strconv.FormatBool(x)
	case json.Number:
		return "number", string(x)
	case string:
		return "string", x
	}
	return "string", fmt.Sprint(v)
}

// faultStep says what to do by hand for a fault.
func (g *script) faultStep(f *scenario.Fault) {
	text := shQuote(f.String())
	switch f.Type {
	case scenario.FaultNodeDown:
		node := g.nodeWord("", f.Target)
		g.comment(fmt.Sprintf(`fault %s: the node's kubelet stops (no heartbeats; nothing on it runs).
A kind node is a container: docker stop %s
Elsewhere: stop the kubelet on the machine (systemctl stop kubelet). Cordon
and drain evict at once instead, where the simulation's node goes NotReady
after nodeMonitorGracePeriod and its pods are evicted after podEvictionTimeout.`, f, node))
		g.line("fault " + text + ` "docker stop ` + strings.Trim(node, `"`) + `"`)
	case scenario.FaultNodeUp:
		node := g.nodeWord("", f.Target)
		g.comment(fmt.Sprintf("fault %s: the node's kubelet starts again.\nA kind node: docker start %s (elsewhere: systemctl start kubelet).", f, node))
		g.line("fault " + text + ` "docker start ` + strings.Trim(node, `"`) + `"`)
	case scenario.FaultCrashPod:
		p := g.podExpr(f.Target)
		g.res.flush(g)
		g.comment(fmt.Sprintf("fault %s: the pod's container exits; the kubelet restarts it.\n  kubectl exec --namespace \"$namespace\" %s -- kill 1\n(kill 1 ends the container's main process when it handles SIGTERM.)", f, p))
		g.line("fault " + text + ` "kubectl exec --namespace $namespace ` + strings.Trim(p, `"`) + ` -- kill 1"`)
	case scenario.FaultCrashDeployment:
		sel := g.selectorOf(f.Target)
		g.comment(fmt.Sprintf("fault %s: the containers of every pod of the Deployment exit.\n  for p in $(kubectl get pods --namespace \"$namespace\" -l %s -o name); do\n    kubectl exec --namespace \"$namespace\" \"$p\" -- kill 1\n  done", f, shQuote(sel)))
		g.line("fault " + text + " " + shQuote("kill 1 in each pod of deployment/"+f.Target+" (see the script)"))
	default:
		g.comment("fault " + f.String() + ": cause it by hand")
		g.line("fault " + text + " " + shQuote("see the scenario"))
	}
}

// podExpr is the pod's name as a word: "$(pod NAME)" for a name the
// simulation chose, the name quoted for one the scenario declares.
func (g *script) podExpr(name string) string {
	if g.pods[name] {
		return shQuote(name)
	}
	return g.res.word(api.KindPod, "", name)
}

// selectorOf is the label selector of the Deployment name among the
// scenario's objects, in -l form (app=web), or app=NAME when it is not one
// of them.
func (g *script) selectorOf(name string) string {
	for _, d := range g.scn.Objects {
		dep, ok := d.Object.(*api.Deployment)
		if !ok || dep.Name != name || dep.Spec.Selector == nil || len(dep.Spec.Selector.MatchLabels) == 0 {
			continue
		}
		keys := make([]string, 0, len(dep.Spec.Selector.MatchLabels))
		for k := range dep.Spec.Selector.MatchLabels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + dep.Spec.Selector.MatchLabels[k]
		}
		return strings.Join(parts, ",")
	}
	return "app=" + name
}
