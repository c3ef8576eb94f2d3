package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/kubectl/yamlprint"
	"converge/core/manifest"
	"converge/core/scenario"
)

// KubectlOptions are the choices of Kubectl.
type KubectlOptions struct {
	// File names the scenario in the script's header and in its mismatch
	// lines ("rolling-update.yaml"); "" is the scenario's name plus .yaml.
	File string
	// Version is Converge's version, for the header.
	Version string
	// Images maps the simulation's images to the real ones the replay
	// runs, over DefaultImageMap (images.go); an empty, non-nil map keeps
	// every name.
	Images map[string]string
}

// KindCluster is the name of the kind cluster the script's header creates;
// its worker nodes are KindCluster-worker, KindCluster-worker2, ...
const KindCluster = "converge"

// Kubectl returns a bash script that replays scn on a real cluster
// (docs/sharing.md, "Replay on a cluster"):
//
//   - it creates a namespace of its own ($NAMESPACE, default
//     converge-NAME) and applies the scenario's objects there through
//     `kubectl apply -f -` and a quoted here-document (nothing in it
//     expands), printed as kubectl prints YAML; if the cluster refuses
//     them the replay stops;
//   - each kubectl and apply step runs at its second, counted from the
//     start (at waits with sleep); a step that fails is printed and the
//     replay goes on, as in the simulation; expectError checks the error;
//   - each expect is a `kubectl get KIND/NAME -o jsonpath=...` whose value
//     is compared as the simulation compares it; a mismatch is printed as
//     `converge run` prints it and the replay goes on;
//   - each fault is a comment with what to do by hand (docker stop of the
//     kind node, kubectl exec ... kill 1), and a line printed at its second;
//   - the scenario's nodes are the cluster's worker nodes, in order
//     ($NODE_1, $NODE_2, ...), and the ReplicaSets and pods the simulation
//     named are pinned to the cluster's (resolve.go); its images are mapped
//     to real ones (images.go).
//
// It exits 0 when every expect held, 1 when one did not and 2 when it
// could not start. The script is the same bytes for the same scenario.
func Kubectl(scn *scenario.Scenario, opts KubectlOptions) ([]byte, error) {
	g := &script{scn: scn, file: opts.File, pods: declaredPods(scn), taints: map[string]bool{},
		res: newResolver(scn), imageMap: opts.imageMap(scn)}
	if g.file == "" {
		g.file = scn.Name + ".yaml"
	}
	// The steps first, to count what the header says about them.
	if err := g.objects(); err != nil {
		return nil, err
	}
	for i, st := range scn.Steps {
		g.index = i
		if err := g.step(st); err != nil {
			return nil, err
		}
	}
	g.watchesEnd()
	body := g.b.String()
	g.b.Reset()
	g.header(opts.Version)
	g.settings()
	g.b.WriteString(helpers)
	g.b.WriteString(pinHelpers)
	g.b.WriteString(watchHelpers)
	g.b.WriteString(begin)
	if g.nodeSteps > 0 {
		vars := make([]string, len(scn.Cluster.Nodes))
		for i := range vars {
			vars[i] = "$NODE_" + strconv.Itoa(i+1)
		}
		g.b.WriteString(strings.ReplaceAll(nodeStepsBanner, "${nodes[*]}", strings.Join(vars, " ")))
	}
	g.b.WriteString(confirm)
	g.b.WriteString(body)
	g.b.WriteString(epilogue)
	return []byte(g.b.String()), nil
}

// script is the replay script being written.
type script struct {
	b    strings.Builder
	scn  *scenario.Scenario
	file string
	// pods are the names of the pods the scenario declares (objects and
	// apply steps): other pod names are the simulation's own.
	pods map[string]bool
	// at is the second of the last `at` written; -1 before the first.
	at int64
	// leftOuts counts the steps the policy leaves out, nodeSteps those it
	// runs only with CONVERGE_NODE_STEPS=1 (policy.go).
	leftOuts, nodeSteps int
	// taints are the node taints (NODE, NUL, KEY) that node steps add.
	taints map[string]bool
	// res pins the simulation's generated names (resolve.go).
	res *resolver
	// images maps the simulation's images to real ones (images.go).
	imageMap map[string]string
	// index is the position in the scenario of the step being written.
	index int
}

func (g *script) line(s string) { g.b.WriteString(s + "\n") }

// comment writes each line of text as a comment.
func (g *script) comment(text string) {
	for _, l := range strings.Split(strings.TrimRight(visible(text), "\n"), "\n") {
		g.line(strings.TrimRight("# "+l, " "))
	}
}

func (g *script) header(version string) {
	scn := g.scn
	g.line("#!/usr/bin/env bash")
	title := scn.Name
	if scn.Title != "" {
		title += ": " + oneLine(scn.Title)
	}
	g.comment(title)
	g.line("#")
	by := "converge export-kubectl"
	if version != "" {
		by += " (Converge " + version + ")"
	}
	g.comment(fmt.Sprintf(`A replay of the Converge scenario %s on a real cluster, written by
%s. It applies the scenario's objects in a
namespace of its own, runs each step at its second (counted from the start),
checks each expect with kubectl get -o jsonpath and prints each mismatch, and
says when to cause each fault by hand. A real cluster keeps its own pace (image
pulls, probes), so an expect may miss by some seconds: EXPECT_WAIT=SECONDS
tries each one again for that long.

A kind cluster with the scenario's %d nodes as workers:

  kind create cluster --name %s --config - <<'EOF'
  kind: Cluster
  apiVersion: kind.x-k8s.io/v1alpha4
  nodes:
  - role: control-plane`, g.file, by, len(scn.Cluster.Nodes), KindCluster))
	for range scn.Cluster.Nodes {
		g.comment("  - role: worker")
	}
	g.comment(fmt.Sprintf(`  EOF

Then: bash %s   (NAMESPACE=NAME chooses the namespace, default %s)

The scenario's nodes are the cluster's worker nodes (set NODE_1... to others):`, strings.TrimSuffix(path.Base(g.file), ".yaml")+".sh", namespaceLabel(scn.Name)))
	for i, n := range scn.Cluster.Nodes {
		g.comment(fmt.Sprintf("  %s is $NODE_%d (default %s)", n.Name, i+1, kindWorker(i)))
	}
	g.capacity()
	g.images()
	g.policy()
	g.imageMapComment()
	g.comment(`
Pod and ReplicaSet names are the simulation's; a real cluster chooses its own,
so the first step or expect that names one pins it to the cluster's object in
the same place: a ReplicaSet by its Deployment and revision, a pod by its
ReplicaSet, node and age (see pin_rs and pin_pod below).

Exit status: 0 when every expect held, 1 when one did not, 2 when the replay
could not start.`)
	g.line("")
}

// policy says what the replay runs and what it leaves out (policy.go).
func (g *script) policy() {
	g.comment(`
Before it changes anything the script prints kubectl's current context and
cluster and asks to go on (CONVERGE_YES=1 answers yes; without a terminal and
without it, the script stops). It acts only inside its namespace, on the kinds
Converge models, and reads no local file or URL.`)
	if g.leftOuts > 0 {
		g.comment(fmt.Sprintf("It leaves out %s that would act beyond its namespace or that\nConverge does not simulate (each is a LEFT OUT comment below).", plural(g.leftOuts, "step")))
	}
	if g.nodeSteps > 0 {
		g.comment(fmt.Sprintf(`It runs %s on the scenario's nodes (cordon, uncordon, drain, taint,
delete) only with CONVERGE_NODE_STEPS=1, off by default; then it puts back
each node's schedulability and removes the taints it added when it exits. A
drain evicts the pods of every namespace from the node; they are not put
back. A deleted node is not put back either: its kubelet registers it again
when it restarts (on kind, docker restart NODE).`, plural(g.nodeSteps, "step")))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// capacity says what the simulated nodes hold.
func (g *script) capacity() {
	nodes := g.scn.Cluster.Nodes
	if len(nodes) == 0 {
		return
	}
	same := true
	for _, n := range nodes {
		same = same && n.CPU == nodes[0].CPU && n.Memory == nodes[0].Memory && n.Pods == nodes[0].Pods
	}
	if same {
		n := nodes[0]
		g.comment(fmt.Sprintf("The simulated capacity (cpu %s, memory %s, %d pods a node) is not the cluster's.", n.CPU, n.Memory, n.Pods))
		return
	}
	g.comment("The simulated capacity is not the cluster's:")
	for _, n := range nodes {
		g.comment(fmt.Sprintf("  %s: cpu %s, memory %s, %d pods", n.Name, n.CPU, n.Memory, n.Pods))
	}
}

// images lists the simulated image behaviour a real image does not have.
func (g *script) images() {
	names := g.scn.Cluster.ImageNames()
	if len(names) == 0 {
		return
	}
	g.comment("\nThe simulation gives these images a behaviour; a real image has its own:")
	for _, name := range names {
		g.comment("  " + name + ": " + imageBehaviour(g.scn.Cluster.Images[name]))
	}
}

// imageBehaviour describes a simulated image in words.
func imageBehaviour(im scenario.ImageSpec) string {
	var parts []string
	def := scenario.DefaultImage()
	if im.PullFail {
		parts = append(parts, "its pull fails (ErrImagePull, ImagePullBackOff)")
	} else if im.PullSeconds != def.PullSeconds {
		parts = append(parts, fmt.Sprintf("pulls in %ds", im.PullSeconds))
	}
	if im.StartSeconds != def.StartSeconds {
		parts = append(parts, fmt.Sprintf("starts in %ds", im.StartSeconds))
	}
	if im.ReadySeconds > 0 {
		parts = append(parts, fmt.Sprintf("ready %ds after it runs", im.ReadySeconds))
	}
	if im.NeverReady {
		parts = append(parts, "never ready")
	}
	if im.PullFailures > 0 {
		parts = append(parts, fmt.Sprintf("its first %d pulls on each node fail", im.PullFailures))
	}
	if im.CrashAfterSeconds > 0 {
		parts = append(parts, fmt.Sprintf("exits %ds after each start", im.CrashAfterSeconds))
	}
	if im.UnreadyAfterSeconds > 0 {
		parts = append(parts, fmt.Sprintf("readiness fails from %ds after each start", im.UnreadyAfterSeconds))
	}
	if im.ReadinessFlapSeconds > 0 {
		parts = append(parts, fmt.Sprintf("readiness alternates every %ds", im.ReadinessFlapSeconds))
	}
	if im.LivenessFailAfterSeconds > 0 {
		parts = append(parts, fmt.Sprintf("hangs %ds after each start (liveness fails)", im.LivenessFailAfterSeconds))
	}
	if im.ShutdownSeconds > 0 {
		parts = append(parts, fmt.Sprintf("takes %ds to exit after SIGTERM", im.ShutdownSeconds))
	}
	if im.ExitCode != 0 {
		parts = append(parts, fmt.Sprintf("exits with code %d after SIGTERM", im.ExitCode))
	}
	if len(parts) == 0 {
		return "healthy, with the default timings"
	}
	return strings.Join(parts, ", ")
}

// kindWorker is the name kind gives its i-th worker (0-based).
func kindWorker(i int) string {
	if i == 0 {
		return KindCluster + "-worker"
	}
	return KindCluster + "-worker" + strconv.Itoa(i+1)
}

func (g *script) settings() {
	g.line("set -euo pipefail")
	g.line("export LC_ALL=C")
	g.line("")
	g.line("scenario_file=" + shQuote(g.file))
	g.line(`namespace=${NAMESPACE:-` + shQuote(namespaceLabel(g.scn.Name)) + `}`)
	// step, step_fails and watch_start give kubectl in_namespace; node_step
	// empties it for the steps on nodes, which are cluster-scoped (kubectl
	// delete warns "deleting cluster-scoped resources, not scoped to the
	// provided namespace" when it is given one).
	g.line(`in_namespace=(--namespace "$namespace")`)
	g.line(`node_steps=${CONVERGE_NODE_STEPS:-0}`)
	g.line(`expect_wait=${EXPECT_WAIT:-0}`)
	for i := range g.scn.Cluster.Nodes {
		v := "NODE_" + strconv.Itoa(i+1)
		g.line(v + "=${" + v + ":-" + kindWorker(i) + "}")
	}
	g.line("")
}

// objects applies the scenario's objects at t=0.
func (g *script) objects() error {
	g.at = 0
	g.line("# t=0: the scenario's objects")
	var docs []manifest.Doc
	for _, d := range g.scn.Objects {
		if why := judgeObject(d); why != "" {
			g.leftOut("the object "+ref(d.Object), why)
			continue
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return nil
	}
	body, err := manifests(docs, g.imageMap)
	if err != nil {
		return err
	}
	refs := make([]string, len(docs))
	for i, d := range docs {
		refs[i] = ref(d.Object)
	}
	g.line("objects " + shQuote("apply "+strings.Join(refs, ", ")) + " " + heredoc(body))
	return nil
}

// manifests prints objects as kubectl prints YAML, separated by ---,
// without a namespace (the replay's is given on the command line) and
// without a status.
func manifests(docs []manifest.Doc, images map[string]string) (string, error) {
	var parts []string
	for _, d := range docs {
		data, err := json.Marshal(d.Object)
		if err != nil {
			return "", fmt.Errorf("export %s: %w", ref(d.Object), err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			return "", fmt.Errorf("export %s: %w", ref(d.Object), err)
		}
		if md, ok := v["metadata"].(map[string]any); ok {
			delete(md, "namespace")
		}
		// kubectl apply ignores a status; the simulation's objects carry an
		// empty one.
		delete(v, "status")
		mapImages(v, images)
		parts = append(parts, yamlprint.Marshal(v))
	}
	return strings.Join(parts, "---\n"), nil
}

// heredoc is `<<'DELIM'`, a line break, body and DELIM: a quoted
// here-document, in which nothing expands.
func heredoc(body string) string {
	d := heredocDelimiter(body)
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return "<<'" + d + "'\n" + body + d
}

func ref(obj api.Object) string {
	if obj == nil {
		return "?"
	}
	r := api.ResourceFor(obj.GetTypeMeta().Kind)
	if r == nil {
		return strings.ToLower(obj.GetTypeMeta().Kind) + "/" + obj.GetObjectMeta().Name
	}
	return r.Singular + "/" + obj.GetObjectMeta().Name
}

// declaredPods are the pods the scenario's objects and apply steps name.
func declaredPods(scn *scenario.Scenario) map[string]bool {
	out := map[string]bool{}
	add := func(docs []manifest.Doc) {
		for _, d := range docs {
			if d.Object != nil && d.Object.GetTypeMeta().Kind == api.KindPod {
				out[d.Object.GetObjectMeta().Name] = true
			}
		}
	}
	add(scn.Objects)
	for _, st := range scn.Steps {
		add(st.Apply)
	}
	return out
}

// wait writes `at T` before the first step of a new second.
func (g *script) wait(at time.Duration) {
	t := int64(at / time.Second)
	if t == g.at {
		return
	}
	g.at = t
	g.line("")
	g.line("at " + strconv.FormatInt(t, 10))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
