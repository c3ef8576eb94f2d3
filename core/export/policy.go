package export

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/manifest"
)

// The replay script's policy (docs/sharing.md, "What the replay runs"): a
// scenario comes from anyone (a share link is opened because someone sent
// it), and its replay runs against the user's cluster, so the script is
// safe by construction, whatever the scenario holds:
//
//   - it acts only inside its own namespace, on the namespaced kinds the
//     simulator models, through the commands and flags Converge simulates;
//   - it never reads a local file or a URL (-f, -k, --from-file,
//     --from-env-file, --patch-file, -o jsonpath-file=...) and never sends
//     a raw request (--raw);
//   - it leaves out, with a comment saying why, every step that would act
//     elsewhere: --all-namespaces, a change to a node or to a kind Converge
//     does not model (a namespace, say), a pod with privileges or with the
//     host's paths, network, processes or ports, a Service opened on every
//     node, a priority that could preempt other namespaces' pods, and the
//     flags the simulation itself refuses;
//   - the node steps a scenario teaches (cordon, uncordon, drain, taint and
//     delete of the scenario's own nodes, by name, never --all or a
//     selector) run only when the user opts in with CONVERGE_NODE_STEPS=1,
//     and the script undoes them on exit, but for a deleted node, which it
//     says how to bring back.

// verdict is what the policy decides for a step.
type verdict int

const (
	// runIt runs the step in the replay's namespace.
	runIt verdict = iota
	// nodeOptIn runs the step only with CONVERGE_NODE_STEPS=1.
	nodeOptIn
	// leaveOut writes the step as a comment that says why.
	leaveOut
)

// readOnly are the commands that change nothing.
var readOnly = map[string]bool{
	"get": true, "describe": true, "rollout history": true, "rollout status": true,
	"wait": true, "api-resources": true, "version": true,
}

// fileFlags read a local file, a directory or a URL.
var localFlags = map[string]string{
	"filename":      "-f reads a local file or a URL",
	"kustomize":     "-k reads a local directory",
	"from-file":     "--from-file reads a local file",
	"from-env-file": "--from-env-file reads a local file",
	"patch-file":    "--patch-file reads a local file",
}

// refusedFlags are flags the simulation refuses (so no scenario can teach
// them) or that reach beyond the namespace.
var refusedFlags = map[string]string{
	"raw":            "--raw sends a request to any path of the API server",
	"all-namespaces": "--all-namespaces reaches every namespace of the cluster",
	"server-side":    "the simulation does not simulate --server-side",
	"append-hash":    "the simulation does not simulate --append-hash",
	"sort-by":        "the simulation does not simulate --sort-by",
	"field-selector": "the simulation does not simulate --field-selector",
	"from":           "the simulation does not simulate set env --from",
	"watch-only":     "the simulation does not simulate --watch-only",
	"prune":          "--prune deletes objects the step does not name",
}

// nodeCommands are the commands on nodes a scenario may teach, with
// `delete node` (judgeCommand).
var nodeCommands = map[string]bool{"cordon": true, "uncordon": true, "drain": true, "taint": true}

// judgeCommand decides what the replay does with a kubectl step, and why
// when it is not simply run.
func (g *script) judgeCommand(cmd *kubectl.Command) (verdict, string) {
	path := strings.Join(cmd.Path, " ")
	for _, f := range cmd.Flags {
		if why, ok := localFlags[f.Name]; ok {
			return leaveOut, why
		}
		if why, ok := refusedFlags[f.Name]; ok && f.Value != "false" {
			return leaveOut, why
		}
		switch f.Name {
		case "output":
			format, _, _ := strings.Cut(f.Value, "=")
			if strings.HasSuffix(format, "file") {
				return leaveOut, "-o " + format + " reads a local file"
			}
		case "watch":
			if path != "rollout status" && f.Value != "false" {
				return leaveOut, "the simulation does not simulate --watch"
			}
		case "patch":
			if why := hostileJSON(f.Value); why != "" {
				return leaveOut, "the patch " + why
			}
		}
	}
	if readOnly[path] {
		return runIt, ""
	}
	if nodeCommands[path] {
		return g.judgeNodeCommand(cmd)
	}
	types := argTypes(cmd)
	if path == "delete" && len(types) > 0 && allNodes(types) {
		return g.judgeNodeCommand(cmd)
	}
	if strings.HasPrefix(path, "create ") {
		types = []string{cmd.Path[1]} // create deployment, create configmap
	}
	if len(types) == 0 {
		return leaveOut, "it names no kind the replay can check"
	}
	for _, t := range types {
		r, ok := api.LookupResource(t)
		switch {
		case !ok:
			return leaveOut, fmt.Sprintf("%q is not a kind Converge models, so the step could act outside the replay's namespace", t)
		case !r.Namespaced:
			return leaveOut, fmt.Sprintf("it changes %s, which are outside the replay's namespace", r.Plural)
		}
	}
	return runIt, ""
}

// argTypes are the resource types a command's arguments name: TYPE/NAME
// arguments, or a first argument TYPE[,TYPE...], up to the first KEY=VALUE
// or KEY- (of label, annotate, set image and set env).
func argTypes(cmd *kubectl.Command) []string {
	var out []string
	first := ""
	for i, a := range cmd.Args {
		if strings.Contains(a, "=") || i > 0 && strings.HasSuffix(a, "-") {
			break
		}
		if typ, _, ok := strings.Cut(a, "/"); ok {
			out = append(out, typ)
		} else if i == 0 {
			first = a
		}
	}
	if len(out) > 0 || first == "" {
		return out
	}
	return strings.Split(first, ",")
}

// judgeNodeCommand decides for cordon, uncordon, drain, taint and delete
// of nodes: only the scenario's own nodes, by name, behind
// CONVERGE_NODE_STEPS.
func (g *script) judgeNodeCommand(cmd *kubectl.Command) (verdict, string) {
	path := cmd.Path[0]
	for _, f := range cmd.Flags {
		switch f.Name {
		case "selector":
			return leaveOut, "a node selector could reach nodes that are not the scenario's"
		case "all":
			if f.Value != "false" {
				return leaveOut, "--all reaches every node of the cluster"
			}
		case "overwrite":
			if f.Value != "false" {
				return leaveOut, "--overwrite replaces a taint the replay could not put back"
			}
		}
	}
	nodes := cmd.Args
	var taints []string
	if path == "delete" {
		nodes = deletedNodes(cmd)
	}
	if path == "taint" {
		if len(cmd.Args) == 0 {
			return leaveOut, "it names no node"
		}
		if r, ok := api.LookupResource(cmd.Args[0]); !ok || r.Kind != api.KindNode {
			return leaveOut, "it taints something other than the scenario's nodes"
		}
		nodes = nil
		for _, a := range cmd.Args[1:] {
			if len(taints) > 0 || strings.ContainsAny(a, "=:") || strings.HasSuffix(a, "-") {
				taints = append(taints, a)
				continue
			}
			nodes = append(nodes, a)
		}
		if len(taints) == 0 {
			return leaveOut, "it names no taint"
		}
	}
	if len(nodes) == 0 {
		return leaveOut, "it names no node"
	}
	for _, n := range nodes {
		if g.nodeIndex(n) < 0 {
			return leaveOut, fmt.Sprintf("%q is not one of the scenario's nodes", n)
		}
	}
	for _, t := range taints {
		if !strings.HasSuffix(t, "-") {
			continue
		}
		// A taint removed that the replay did not add was there before it.
		key := taintKey(t)
		for _, n := range nodes {
			if !g.taints[n+"\x00"+key] {
				return leaveOut, fmt.Sprintf("it removes the taint %s, which the replay did not add, from %s", key, n)
			}
		}
	}
	return nodeOptIn, ""
}

// allNodes reports whether every one of the resource types is nodes.
func allNodes(types []string) bool {
	for _, t := range types {
		if r, ok := api.LookupResource(t); !ok || r.Kind != api.KindNode {
			return false
		}
	}
	return true
}

// deletedNodes are the node names of `delete node NAME...` or `delete
// node/NAME...`: what each argument names after its TYPE.
func deletedNodes(cmd *kubectl.Command) []string {
	var out []string
	for i, a := range cmd.Args {
		if _, name, ok := strings.Cut(a, "/"); ok {
			out = append(out, name)
		} else if i > 0 {
			out = append(out, a)
		}
	}
	return out
}

// taintKey is the key of a taint spec: KEY[=VALUE][:EFFECT][-].
func taintKey(spec string) string {
	spec = strings.TrimSuffix(spec, "-")
	spec, _, _ = strings.Cut(spec, ":")
	spec, _, _ = strings.Cut(spec, "=")
	return spec
}

// taintEffect is the effect of a taint spec, "" without one.
func taintEffect(spec string) string {
	_, effect, _ := strings.Cut(strings.TrimSuffix(spec, "-"), ":")
	return effect
}

// nodeIndex is the 0-based index of the scenario's node name, or -1.
func (g *script) nodeIndex(name string) int {
	for i, n := range g.scn.Cluster.Nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}

// judgeObjects decides for the objects of an apply (or the scenario's
// objects): "" when the replay may apply them, else why not.
func judgeObject(d manifest.Doc) string {
	obj := d.Object
	if obj == nil {
		return "it is not an object"
	}
	r := api.ResourceFor(obj.GetTypeMeta().Kind)
	if r == nil {
		return fmt.Sprintf("%s is not a kind Converge models", obj.GetTypeMeta().Kind)
	}
	if !r.Namespaced {
		return fmt.Sprintf("%s %s is outside the replay's namespace", r.Singular, obj.GetObjectMeta().Name)
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return "it does not print"
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		return "it does not print"
	}
	if why := hostileValue(v["spec"], ""); why != "" {
		return ref(obj) + " " + why
	}
	return ""
}

// hostileJSON is hostileValue of a patch (JSON or YAML), or why it cannot
// be checked.
func hostileJSON(text string) string {
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		return "does not parse, so the replay cannot check it"
	}
	return hostileValue(v, "")
}

// hostileValue walks a value of an object's spec, or of a patch, and says
// what in it would reach beyond the namespace: the host's paths, network,
// processes or ports, privileges, a Service on every node or outside
// addresses, a priority that preempts. "" when nothing does.
func hostileValue(v any, key string) string {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if why := hostileField(k, x[k]); why != "" {
				return why
			}
			if why := hostileValue(x[k], k); why != "" {
				return why
			}
		}
	case []any:
		for _, e := range x {
			if why := hostileValue(e, key); why != "" {
				return why
			}
		}
	case string:
		// A JSON patch names its fields in paths: /spec/volumes/0/hostPath.
		if key == "path" || key == "from" {
			for _, seg := range strings.Split(x, "/") {
				if why := hostileField(seg, true); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// hostileField says why the field k with value v reaches beyond the
// namespace, or "".
func hostileField(k string, v any) string {
	on := func() bool {
		switch x := v.(type) {
		case nil:
			return false
		case bool:
			return x
		case string:
			return x != "" && x != "false"
		case float64:
			return x != 0
		case int:
			return x != 0
		}
		return true
	}
	switch k {
	case "privileged", "allowPrivilegeEscalation", "hostProcess":
		if on() {
			return "asks for privileges on the node (" + k + ")"
		}
	case "hostPath", "hostNetwork", "hostPID", "hostIPC", "hostPort":
		if on() {
			return "reaches into the node (" + k + ")"
		}
	case "capabilities":
		if m, ok := v.(map[string]any); ok && m["add"] == nil {
			return ""
		}
		if on() {
			return "adds Linux capabilities"
		}
	case "procMount":
		if s, ok := v.(string); ok && (s == "" || s == "Default") {
			return ""
		}
		return "unmasks /proc (procMount)"
	case "externalIPs", "nodePort", "externalName":
		if on() {
			return "reaches outside the namespace (" + k + ")"
		}
	case "type":
		s, _ := v.(string)
		switch s {
		case "NodePort", "LoadBalancer":
			return "opens a port on every node (type " + s + ")"
		case "Unconfined":
			return "runs unconfined by seccomp or AppArmor"
		}
	case "priorityClassName", "priority":
		if on() {
			return "has a priority that could preempt pods of other namespaces (" + k + ")"
		}
	}
	return ""
}

// sortedKeys are m's keys in order, so that the same input always gives
// the same reason.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// namespaceLabel is a valid namespace name for the replay of the scenario
// name: converge-NAME, lower-case, with every character a namespace cannot
// hold as '-', at most 63 characters, starting and ending with a letter or
// digit ("-" and "a-" give converge and converge-a).
func namespaceLabel(name string) string {
	var b strings.Builder
	b.WriteString("converge-")
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	s := b.String()
	if len(s) > 63 {
		s = s[:63]
	}
	return strings.TrimRight(s, "-")
}
