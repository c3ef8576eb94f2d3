package sim

import (
	"fmt"
	"maps"
	"sort"
	"time"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/controller"
	"converge/core/controller/endpoints"
	"converge/core/kubectl"
	"converge/core/kubelet"
	"converge/core/manifest"
	"converge/core/scenario"
	"converge/core/store"
)

// MaxRounds bounds the control-plane rounds of one tick.
const MaxRounds = 8

// DefaultCheckpointEvery is how many seconds apart checkpoints are taken.
const DefaultCheckpointEvery = 10

// MaxCheckpoints bounds the checkpoints kept; beyond it every other one is dropped.
const MaxCheckpoints = 256

// Options tunes an engine.
type Options struct {
	// CheckpointEvery is the spacing of checkpoints in seconds; 0 means
	// DefaultCheckpointEvery, a negative value disables them.
	CheckpointEvery int
}

// Sim is one simulation. It is not safe for concurrent use.
type Sim struct {
	scn   *scenario.Scenario
	opts  Options
	state *state
	// checkpoints, sorted by t; checkpoints[0] is always t=0.
	checkpoints []*state
	// samples holds the summary of each second computed so far.
	samples []Sample
	// console holds the waiting commands run from the console (Run) that
	// only read: they are no step, so they live beside the state.
	console     []*consoleWait
	nextConsole int
}

// state is everything that changes while the simulation runs; a checkpoint
// is a copy of it.
type state struct {
	t       int64
	clock   *clock.Clock
	store   *store.Store
	plane   []controller.Controller
	kubelet *kubelet.Controller
	// prevEndpoints are the Endpoints objects at the end of the previous tick.
	prevEndpoints []*api.Endpoints
	// next is the index of the next step to run.
	next int
	// tick holds the outputs of tick t.
	tick Tick
	// expects holds the outcome of each expect step run so far, by step index.
	expects map[int]StepResult
	// waits are the waiting steps still running, in the order they
	// started; progress is everything each waiting step (running or ended)
	// has printed so far, by step index.
	waits    []*waiting
	progress map[int]StepResult
}

func (st *state) clone() *state {
	c := st.clock.Clone()
	out := &state{t: st.t, clock: c, store: st.store.Clone(c), next: st.next, tick: st.tick,
		prevEndpoints: st.prevEndpoints, kubelet: st.kubelet.Clone().(*kubelet.Controller),
		expects: make(map[int]StepResult, len(st.expects))}
	for k, v := range st.expects {
		out.expects[k] = v
	}
	out.progress = maps.Clone(st.progress)
	out.waits = make([]*waiting, len(st.waits))
	for i, w := range st.waits {
		x := *w
		x.w = w.w.Clone()
		out.waits[i] = &x
	}
	out.plane = make([]controller.Controller, len(st.plane))
	for i, p := range st.plane {
		out.plane[i] = p.Clone()
	}
	return out
}

// Tick is what happened during one second, beyond the state itself.
type Tick struct {
	Events  []store.EmittedEvent       `json:"events"`
	Steps   []StepResult               `json:"steps"`
	Syncs   []controller.SyncRecord    `json:"syncs"`
	Traffic []endpoints.ServiceTraffic `json:"traffic"`
}

// StepResult is the outcome of one step, as the trace's "steps" list shows it.
type StepResult struct {
	At     string `json:"at"`
	Action string `json:"action"`
	OK     bool   `json:"ok"`
	Output string `json:"output"`
	Error  string `json:"error"`
	// Index is the step's position in the scenario (-1 for an object applied at t=0
	// or a read-only command run from the console).
	Index int `json:"-"`
	// Expect is true for expect steps.
	Expect bool `json:"-"`
	// Waiting is set while a waiting command (rollout status, wait,
	// drain) goes on: it printed Output in this second and is not done.
	// Its later seconds' results carry its At and Action, the output of
	// that second, and, in the last one, its outcome (see waits.go).
	Waiting bool `json:"waiting,omitempty"`
	// Follow identifies a waiting command run from the console that only
	// reads (0: none), for Progress.
	Follow int `json:"-"`
}

// New prepares a simulation of scn at t=0 (tick 0 has run).
func New(scn *scenario.Scenario, opts Options) (*Sim, error) {
	if opts.CheckpointEvery == 0 {
		opts.CheckpointEvery = DefaultCheckpointEvery
	}
	s := &Sim{scn: scn, opts: opts}
	st, err := s.initial()
	if err != nil {
		return nil, err
	}
	s.state = st
	s.checkpoints = []*state{st.clone()}
	return s, nil
}

func (s *Sim) initial() (*state, error) {
	scn := s.scn
	c := clock.New(api.Epoch)
	tol := int64(scn.Cluster.Timings.PodEvictionTimeout / time.Second)
	st := &state{clock: c, store: store.New(store.Options{Clock: c, Seed: scn.Seed, DefaultTolerationSeconds: tol,
		EventTTL: scn.Cluster.Timings.EventTTL}),
		expects: map[int]StepResult{}}
	st.kubelet = kubelet.New(kubelet.Options{Images: kubeletImages(scn.Cluster)})
	st.plane = newPlane(scn)
	for _, n := range scn.Cluster.Nodes {
		if _, err := st.store.Create(newNode(n)); err != nil {
			return nil, fmt.Errorf("node %s: %w", n.Name, err)
		}
	}
	var applied []StepResult
	for _, d := range scn.Objects {
		r := kubectl.Apply(s.env(st), []api.Object{d.Object.DeepCopyObject()})
		applied = append(applied, StepResult{At: "0s", Action: "apply " + objectRef(d.Object), OK: r.OK(),
			Output: r.Output, Error: r.Error, Index: -1})
	}
	st.progress = map[int]StepResult{}
	s.runTick(st, applied)
	s.record(st)
	return st, nil
}

func objectRef(o api.Object) string {
	return store.ShortRef(api.KindOf(o), o.GetObjectMeta().Name)
}

func newNode(n scenario.NodeSpec) *api.Node {
	capacity := api.ResourceList{}
	if q, err := api.ParseQuantity(n.CPU); err == nil {
		capacity[api.ResourceCPU] = q
	}
	if q, err := api.ParseQuantity(n.Memory); err == nil {
		capacity[api.ResourceMemory] = q
	}
	if q, err := api.ParseQuantity(fmt.Sprint(n.Pods)); err == nil {
		capacity[api.ResourcePods] = q
	}
	now := api.NewTime(api.Epoch)
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: n.Name, Labels: map[string]string{
		"kubernetes.io/hostname": n.Name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}}}
	node.Status.Capacity = capacity
	node.Status.Allocatable = capacity.DeepCopy()
	node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady",
		Message: "kubelet is posting ready status", LastHeartbeatTime: now, LastTransitionTime: now}}
	return node
}

// Env returns a kubectl environment on the current state, for read-only
// commands (the console's completion, `converge kubectl`).
func (s *Sim) Env() *kubectl.Env { return s.env(s.state) }

func (s *Sim) env(st *state) *kubectl.Env {
	return &kubectl.Env{Store: st.store, Decode: manifest.DecodeObjects}
}

// T returns the current simulated second.
func (s *Sim) T() int64 { return s.state.t }

// Now returns the current simulated time.
func (s *Sim) Now() time.Time { return s.state.clock.Now() }

// Store returns the current state's store; treat it as read-only.
func (s *Sim) Store() *store.Store { return s.state.store }

// Scenario returns the scenario, including steps added at run time.
func (s *Sim) Scenario() *scenario.Scenario { return s.scn }

// Duration returns how long the scenario runs.
func (s *Sim) Duration() time.Duration { return s.scn.Duration }

// Tick returns the outputs of the current second.
func (s *Sim) Tick() Tick { return s.state.tick }

// Step advances the simulation by n seconds (n < 1 is treated as 1).
func (s *Sim) Step(n int) {
	if n < 1 {
		n = 1
	}
	for i := 0; i < n; i++ {
		s.advance()
	}
}

func (s *Sim) advance() {
	st := s.state
	st.clock.Advance(time.Second)
	st.t++
	s.runTick(st, nil)
	s.record(st)
	if s.opts.CheckpointEvery > 0 && st.t%int64(s.opts.CheckpointEvery) == 0 {
		s.checkpoint()
	}
}

func (s *Sim) checkpoint() {
	last := s.checkpoints[len(s.checkpoints)-1]
	if last.t >= s.state.t {
		return
	}
	s.checkpoints = append(s.checkpoints, s.state.clone())
	if len(s.checkpoints) > MaxCheckpoints {
		kept := s.checkpoints[:1]
		for i := 1; i < len(s.checkpoints); i++ {
			if i%2 == 0 || i == len(s.checkpoints)-1 {
				kept = append(kept, s.checkpoints[i])
			}
		}
		s.checkpoints = kept
	}
}

// SeekTo moves the simulation to second t (clamped at 0). It restores the
// nearest checkpoint at or before t when that is closer than the current
// second (always, going backwards) and replays from there.
func (s *Sim) SeekTo(t int64) {
	if t < 0 {
		t = 0
	}
	i := sort.Search(len(s.checkpoints), func(i int) bool { return s.checkpoints[i].t > t }) - 1
	if i < 0 {
		i = 0
	}
	if cp := s.checkpoints[i]; t < s.state.t || cp.t > s.state.t {
		if t < s.state.t {
			s.stopConsole()
		}
		s.state = cp.clone()
	}
	for s.state.t < t {
		s.advance()
	}
}

// runTick does the work of second st.t (see the package doc).
func (s *Sim) runTick(st *state, pre []StepResult) {
	st.store.ExpireEvents()
	ctx := &controller.Context{Store: st.store, Log: &controller.SyncLog{}}
	tick := Tick{Steps: pre}
	tick.Steps = append(tick.Steps, s.runSteps(st, ctx)...)
	for round := 0; round < MaxRounds; round++ {
		w := st.store.Writes()
		for _, c := range st.plane {
			c.Sync(ctx)
		}
		if st.store.Writes() == w {
			break
		}
	}
	tick.Steps = append(tick.Steps, s.pollWaits(st, tick.Steps)...)
	if st == s.state {
		s.pollConsole(st)
	}
	st.kubelet.Sync(ctx)
	now := st.clock.Now()
	tick.Traffic = endpoints.Traffic(st.store.Services(), st.prevEndpoints,
		func(ns, name string) *api.Pod {
			p, err := st.store.GetPod(ns, name)
			if err != nil {
				return nil
			}
			return p
		},
		func(p *api.Pod) bool { return st.kubelet.Serving(p, now) })
	st.prevEndpoints = st.store.EndpointsList()
	tick.Events = ctx.Emitted
	tick.Syncs = mergeSyncs(ctx.Log.Records)
	st.tick = tick
}

// mergeSyncs keeps, per controller and object, every record that took a
// step and the last record when it came after them: a tick with several
// rounds shows what each did and where it ended up.
func mergeSyncs(recs []controller.SyncRecord) []controller.SyncRecord {
	type key struct{ c, o string }
	last := map[key]int{}
	for i, r := range recs {
		last[key{r.Controller, r.Object}] = i
	}
	out := make([]controller.SyncRecord, 0, len(recs))
	for i, r := range recs {
		if r.Action != "" || last[key{r.Controller, r.Object}] == i {
			out = append(out, r)
		}
	}
	return out
}

// kubeletImages is the scenario's cluster.images as the kubelets take them.
// A scenario's image always carries its timings (DefaultImage fills them
// in), so a zero pull or start time is one the file wrote: the kubelets'
// "no time at all" is a negative value, their zero being the default.
func kubeletImages(c scenario.Cluster) map[string]kubelet.Image {
	images := map[string]kubelet.Image{}
	zero := func(v int32) int32 {
		if v == 0 {
			return -1
		}
		return v
	}
	for _, name := range c.ImageNames() {
		im := c.Images[name]
		images[name] = kubelet.Image{PullSeconds: zero(im.PullSeconds), StartSeconds: zero(im.StartSeconds), ReadySeconds: im.ReadySeconds,
			CrashAfterSeconds: im.CrashAfterSeconds, PullFail: im.PullFail, PullFailures: im.PullFailures, NeverReady: im.NeverReady,
			UnreadyAfterSeconds: im.UnreadyAfterSeconds, ReadinessFlapSeconds: im.ReadinessFlapSeconds,
			LivenessFailAfterSeconds: im.LivenessFailAfterSeconds, ShutdownSeconds: im.ShutdownSeconds, ExitCode: im.ExitCode}
	}
	return images
}
