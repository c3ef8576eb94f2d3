package scenario

import (
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
	"converge/core/manifest"
	"converge/core/store"
)

// Problem and Problems are core/manifest's: FILE:LINE:COL: message.
type (
	Problem  = manifest.Problem
	Problems = manifest.Problems
)

// Limits of one scenario. The sizes are the store's (store.MaxNodes bounds
// cluster.nodes, store.MaxPods a node's pods), checked here too so that a
// scenario that would reach them is refused at load time, at its line.
const (
	// MaxReplicas bounds the replicas the objects ask for in total: no more
	// than the pods the store holds.
	MaxReplicas = store.MaxPods
	// MaxDuration bounds duration, at and the timings.
	MaxDuration = 24 * time.Hour
	// DefaultSeed is the seed of a scenario that does not set one.
	DefaultSeed = 1
	// Tail is how long a scenario without a duration runs after its last step.
	Tail = 60 * time.Second
)

// Scenario is a parsed scenario file.
type Scenario struct {
	Name        string
	Title       string
	Description string
	Seed        uint64
	// Duration is how long to simulate: as written, or 60s after the last step.
	Duration time.Duration
	Cluster  Cluster
	// Objects are applied at t=0, in order: when the scenario has
	// variants, those of the selected one (see variants.go).
	Objects []manifest.Doc
	// Variants are the scenario's what-ifs, in file order; nil for none.
	Variants []Variant
	// Steps are sorted by At, in file order within a second.
	Steps []Step
	// Notes are the notes of parsing (such as dropped server-set fields).
	Notes Problems

	// src is the scenario's YAML document; Marshal writes it back.
	src *yaml.Node
	// srcSteps holds the at of each entry of src's steps, in file order.
	srcSteps []time.Duration
	// durationSet records that the file sets duration.
	durationSet bool
	// selected is the index of the variant Objects are from; base holds the
	// objects as written, before any patch.
	selected int
	base     []manifest.Doc
}

// Cluster is the simulated cluster.
type Cluster struct {
	Nodes   []NodeSpec
	Timings Timings
	// Images says how listed images behave; unlisted images are healthy
	// with DefaultImage's timings (see Image).
	Images map[string]ImageSpec
	// GitOps is the GitOps reconciler and its repository, or nil.
	GitOps *GitOps
}

// NodeSpec is one node: its name and capacity.
type NodeSpec struct {
	Name   string
	CPU    string
	Memory string
	Pods   int
}

// Timings are the control plane's timings.
type Timings struct {
	// NodeMonitorGracePeriod is how long a node's heartbeats may be missing
	// before it is NotReady (Kubernetes 1.32 and later: 50s).
	NodeMonitorGracePeriod time.Duration
	// NodeMonitorPeriod is how often the node lifecycle controller checks
	// the nodes' heartbeats (kube-controller-manager's
	// --node-monitor-period, 5s).
	NodeMonitorPeriod time.Duration
	// PodEvictionTimeout is how long pods tolerate a NotReady or unreachable
	// node before they are evicted (300s).
	PodEvictionTimeout time.Duration
	// EventTTL is how long the API server keeps an event after its last
	// write (kube-apiserver's --event-ttl, 1h).
	EventTTL time.Duration
}

// ImageSpec is how a simulated image behaves (docs/scenarios.md, "Image
// behaviour").
type ImageSpec struct {
	PullSeconds              int32 // image pull time; default 2
	StartSeconds             int32 // container start until Running; default 1
	ReadySeconds             int32 // Running until the app answers any probe or request; default 0
	CrashAfterSeconds        int32 // the container exits this long after each start; 0: never
	PullFail                 bool  // ErrImagePull, then ImagePullBackOff, forever
	PullFailures             int32 // each node's first N pulls of the image fail, then it pulls; 0: none
	NeverReady               bool  // the readiness probe never passes
	UnreadyAfterSeconds      int32 // the readiness endpoint fails from this long after each start; 0: never
	ReadinessFlapSeconds     int32 // the readiness endpoint alternates pass/fail with this period; 0: no flapping
	LivenessFailAfterSeconds int32 // the app hangs (probes and requests time out) this long after each start; 0: never
	ShutdownSeconds          int32 // how long the app takes to exit after SIGTERM; default 0
	ExitCode                 int32 // the exit code after SIGTERM; default 0
}

// Defaults of the cluster.
const (
	DefaultNodeCount              = 3
	DefaultNodeCPU                = "4"
	DefaultNodeMemory             = "8Gi"
	DefaultNodePods               = 110
	DefaultNodeMonitorGracePeriod = 50 * time.Second
	DefaultNodeMonitorPeriod      = 5 * time.Second
	DefaultPodEvictionTimeout     = 300 * time.Second
	DefaultEventTTL               = time.Hour
)

// DefaultImage is how an image not listed in cluster.images behaves.
func DefaultImage() ImageSpec {
	return ImageSpec{PullSeconds: 2, StartSeconds: 1}
}

// DefaultTimings are Kubernetes' own node lifecycle timings.
func DefaultTimings() Timings {
	return Timings{NodeMonitorGracePeriod: DefaultNodeMonitorGracePeriod, NodeMonitorPeriod: DefaultNodeMonitorPeriod,
		PodEvictionTimeout: DefaultPodEvictionTimeout, EventTTL: DefaultEventTTL}
}

// DefaultCluster is the cluster of a scenario that does not describe one:
// node-1..node-3, each with cpu 4, memory 8Gi and 110 pods.
func DefaultCluster() Cluster {
	c := Cluster{Timings: DefaultTimings()}
	for i := 1; i <= DefaultNodeCount; i++ {
		c.Nodes = append(c.Nodes, NodeSpec{Name: "node-" + string(rune('0'+i)), CPU: DefaultNodeCPU, Memory: DefaultNodeMemory, Pods: DefaultNodePods})
	}
	return c
}

// Image returns how image behaves: its cluster.images entry or DefaultImage.
func (c Cluster) Image(image string) ImageSpec {
	if s, ok := c.Images[image]; ok {
		return s
	}
	return DefaultImage()
}

// ImageNames returns the listed images, sorted.
func (c Cluster) ImageNames() []string {
	out := make([]string, 0, len(c.Images))
	for k := range c.Images {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// NodeNames returns the nodes' names in order.
func (c Cluster) NodeNames() []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = n.Name
	}
	return out
}

// Step is one timed action. Exactly one of Kubectl, Apply, Fault, Expect,
// Commit, Load and Note is set.
type Step struct {
	// At is when the step runs, a whole number of seconds from t=0.
	At time.Duration
	// Kubectl is a kubectl command line without the leading "kubectl".
	Kubectl string
	// Apply are manifests applied as `kubectl apply` would.
	Apply  []manifest.Doc
	Fault  *Fault
	Expect *Expect
	// Commit is a new commit of cluster.gitops's repository.
	Commit []CommitItem
	// Load sets the load on a Deployment's pods.
	Load *LoadStep
	// Note narrates: a caption the page shows from this second on.
	Note *Note
	// ExpectError, on a kubectl or apply step, says that the step must fail
	// with an error containing this text.
	ExpectError string
	// Line and Col are where the step is written (0 for a step added at run
	// time).
	Line, Col int

	// added is what AppendStep did, for RemoveStep: the step's node in
	// the scenario's YAML, and the duration before the step extended it.
	added *addedStep
}

// addedStep records a step added at run time.
type addedStep struct {
	node         *yaml.Node
	prevDuration time.Duration
	extended     bool
}

// Added reports whether the step was added at run time (AppendStep), so
// RemoveStep can take it out again.
func (s Step) Added() bool { return s.added != nil }

// Action renders the step for the trace: `kubectl set image deployment/web
// web=myrepo/web:2.0`, `apply deployment/web`, `fault node-down node-2`,
// `expect deployment/web .status.availableReplicas == 3`.
func (s Step) Action() string {
	switch {
	case s.Kubectl != "":
		return "kubectl " + s.Kubectl
	case len(s.Apply) > 0:
		refs := make([]string, len(s.Apply))
		for i, d := range s.Apply {
			refs[i] = objectRef(d.Object)
		}
		return "apply " + strings.Join(refs, ", ")
	case s.Fault != nil:
		return "fault " + s.Fault.String()
	case s.Expect != nil:
		return "expect " + s.Expect.String()
	case len(s.Commit) > 0:
		return commitAction(s.Commit)
	case s.Load != nil:
		return "load " + s.Load.String()
	case s.Note != nil:
		return "note"
	}
	return ""
}

// objectRef is kind/name in kubectl's lower-case singular form.
func objectRef(obj api.Object) string {
	if obj == nil {
		return "?"
	}
	return store.ShortRef(obj.GetTypeMeta().Kind, obj.GetObjectMeta().Name)
}

// sortSteps orders steps by At, keeping file order within a second.
func sortSteps(steps []Step) {
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].At < steps[j].At })
}

// defaultDuration is 60s after the last step, or 60s.
func defaultDuration(steps []Step) time.Duration {
	var last time.Duration
	for _, s := range steps {
		last = max(last, s.At)
	}
	return last + Tail
}
