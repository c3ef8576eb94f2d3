package sim

import (
	"fmt"
	"slices"
	"time"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/controller"
	"converge/core/controller/endpoints"
	"converge/core/controller/gitops"
	"converge/core/kubectl"
	"converge/core/kubelet"
	"converge/core/manifest"
	"converge/core/metrics"
	"converge/core/scenario"
	"converge/core/store"
)

// MaxRounds bounds the control-plane rounds of one tick.
const MaxRounds = 8

// DefaultCheckpointEvery is how many seconds apart checkpoints start.
const DefaultCheckpointEvery = 10

// DefaultCheckpointWork is how many store writes (creates, updates,
// deletes; not events) a checkpoint is taken after, at the end of the
// second that reaches them, however few seconds that is: a rollout's
// seconds write hundreds of objects each and cost a thousand times a quiet
// second, so spacing by time alone left a seek into a rollout replaying
// most of it (BenchmarkSeek). A seek replays at most this many writes
// beyond those of its target second, or CheckpointEvery seconds.
const DefaultCheckpointWork = 1000

// MaxCheckpoints bounds the checkpoints kept; beyond it they are thinned
// (see Options.MemoryBudget).
const MaxCheckpoints = 256

// DefaultMemoryBudget is the estimated heap the checkpoints may hold
// beyond the live state: 256 MiB.
const DefaultMemoryBudget = 256 << 20

// Options tunes an engine.
type Options struct {
	// CheckpointEvery is the spacing of checkpoints in seconds at the
	// start; 0 means DefaultCheckpointEvery, a negative value disables them
	// (but for t=0).
	CheckpointEvery int
	// CheckpointWork is the store writes after which a checkpoint is taken
	// even before CheckpointEvery seconds; 0 means DefaultCheckpointWork, a
	// negative value spaces them by time alone.
	CheckpointWork int
	// MemoryBudget bounds the bytes the checkpoints hold beyond what they
	// share with the live state and with one another, as estimated
	// (Memory): when a checkpoint would exceed it, or MaxCheckpoints, the
	// spacing doubles and the checkpoints off the new spacing go. 0 means
	// DefaultMemoryBudget; a negative value means no budget (the count
	// still bounds them).
	MemoryBudget int64
	// Pace, when set, is called between the pieces of New's work: the
	// objects applied, each controller's pass of tick 0, each pod the
	// scheduler places or a ReplicaSet creates or deletes, each pod's and
	// each node's kubelet pass, the first checkpoint. A
	// caller that must not block for long (the page, opening 10,000 pods)
	// parks there and resumes later; Pace must not touch the simulation,
	// which is then the same as without it (TestNewPacedIsNew). New
	// forgets it: later ticks are not cut, but for StepPaced's.
	Pace func()
}

// Sim is one simulation. It is not safe for concurrent use.
type Sim struct {
	scn   *scenario.Scenario
	opts  Options
	state *state
	// checkpoints, sorted by t; checkpoints[0] is always t=0.
	checkpoints []*state
	// every is the checkpoints' spacing now (Options.CheckpointEvery, then
	// doubled each time they are thinned); 0 when there are none. work is
	// the same in store writes (Options.CheckpointWork; 0: by time alone).
	every, work int64
	// cpBytes is the sum of the checkpoints' bytes.
	cpBytes int64
	// samples holds the summary of each second computed so far.
	samples []Sample
	// lineSize is the length of the last TraceLine, to size the next.
	lineSize int
	// Scratch of one tick, kept to spare allocations: the sync log (merged
	// into the tick's syncs), the index mergeSyncs builds, and the events
	// (copied into the tick's, at their size).
	log     controller.SyncLog
	lastKey map[syncKey]int
	emitted []store.EmittedEvent
	// console holds the waiting commands run from the console (Run) that
	// only read: they are no step, so they live beside the state.
	console     []*consoleWait
	nextConsole int
	// pace is Options.Pace while New runs, StepPaced's pace while it
	// runs, nil otherwise.
	pace func()
	// live is, while StepPaced runs, the state it computes the second in,
	// while state is a copy of the second before, which the readers show;
	// nil otherwise.
	live *state
}

// state is everything that changes while the simulation runs; a checkpoint
// is a copy of it.
type state struct {
	t       int64
	clock   *clock.Clock
	store   *store.Store
	plane   []planeMember
	kubelet *kubelet.Controller
	metrics *metrics.Server
	// prevEndpoints are the Endpoints objects at the end of the previous tick.
	prevEndpoints []*api.Endpoints
	// next is the index of the next step to run.
	next int
	// tick holds the outputs of tick t.
	tick Tick
	// line caches the trace line's fields that are not object lists, as
	// JSON (WriteTraceLine); nil until a line is written in this tick, and
	// never cloned.
	line [][]byte
	// expects holds the outcome of each expect step run so far, by step index.
	expects map[int]StepResult
	// results holds the outcome of every step run so far, by step index,
	// as it was in the second it ran (StepResults).
	results map[int]StepResult
	// bytes is, for a checkpoint, the heap it holds that the checkpoint
	// before it does not (unsharedBytes).
	bytes int64
	// waits are the waiting steps still running, in the order they
	// started; progress is everything each waiting step (running or ended)
	// has printed so far, by step index.
	waits    []*waiting
	progress map[int]StepResult
	// tallies is the last pass over the pods of the samples (rollout.go);
	// never cloned.
	tallies *tallies
}

// gitops is the state's GitOps reconciler, or nil.
func (st *state) gitops() *gitops.Controller {
	for _, p := range st.plane {
		if g, ok := p.Controller.(*gitops.Controller); ok {
			return g
		}
	}
	return nil
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
	// Note is set on a note step: Output is its plain text, Note what the
	// page needs to show it (docs/trace.md).
	Note *NoteResult `json:"note,omitempty"`
	// Follow identifies a waiting command run from the console that only
	// reads (0: none), for Progress.
	Follow int `json:"-"`
	// Refused is set on Run's result when the API server or kubectl
	// refused a command that would change the cluster: it did not become a
	// step and the clock did not move.
	Refused bool `json:"-"`
	// wrote is set when the step's command wrote to the store.
	wrote bool
}

// NoteResult is a note step in the trace: its text as written (the
// Markdown subset of docs/scenarios.md), and its pause and focus.
type NoteResult struct {
	Text  string `json:"text"`
	Pause bool   `json:"pause,omitempty"`
	Focus string `json:"focus,omitempty"`
}

// New prepares a simulation of scn at t=0 (tick 0 has run).
func New(scn *scenario.Scenario, opts Options) (*Sim, error) {
	if opts.CheckpointEvery == 0 {
		opts.CheckpointEvery = DefaultCheckpointEvery
	}
	if opts.MemoryBudget == 0 {
		opts.MemoryBudget = DefaultMemoryBudget
	}
	if opts.CheckpointWork == 0 {
		opts.CheckpointWork = DefaultCheckpointWork
	}
	s := &Sim{scn: scn, opts: opts, every: int64(max(opts.CheckpointEvery, 0)), pace: opts.Pace}
	s.opts.Pace = nil
	defer func() { s.pace = nil }()
	if s.every > 0 {
		s.work = int64(max(opts.CheckpointWork, 0))
	}
	st, err := s.initial()
	if err != nil {
		return nil, err
	}
	s.state = st
	s.yield()
	cp := st.clone()
	s.yield()
	cp.bytes = cp.unsharedBytes(nil)
	s.checkpoints, s.cpBytes = []*state{cp}, cp.bytes
	return s, nil
}

// yield calls Options.Pace while New runs (between its pieces).
func (s *Sim) yield() {
	if s.pace != nil {
		s.pace()
	}
}

func (s *Sim) initial() (*state, error) {
	scn := s.scn
	c := clock.New(api.Epoch)
	tol := int64(scn.Cluster.Timings.PodEvictionTimeout / time.Second)
	st := &state{clock: c, store: store.New(store.Options{Clock: c, Seed: scn.Seed, DefaultTolerationSeconds: tol,
		EventTTL: scn.Cluster.Timings.EventTTL}),
		expects: map[int]StepResult{}}
	st.kubelet = kubelet.New(kubelet.Options{Images: kubeletImages(scn.Cluster)})
	st.metrics = metrics.New()
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
		s.yield()
	}
	st.progress = map[int]StepResult{}
	s.runTick(st, applied)
	s.yield()
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
	env := &kubectl.Env{Store: st.store, Decode: manifest.DecodeObjects}
	if st.metrics != nil && st.metrics.Serving() {
		env.Metrics = st.metrics
	}
	return env
}

// GitOps returns the GitOps reconciler of the current state, or nil when
// the scenario has none; treat it as read-only.
func (s *Sim) GitOps() *gitops.Controller { return s.state.gitops() }

// Metrics returns the metrics server of the current state; treat it as read-only.
func (s *Sim) Metrics() *metrics.Server { return s.state.metrics }

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

// StepPaced is Step(1) with pace called between the pieces of the second's
// work (as Options.Pace between New's): the page's play parks there when
// a frame has used its budget, and resumes in a later frame. Until it
// returns, the readers (T, Store, Tick, Env, Snapshot, WriteTraceLine,
// StepResults, Progress, ...) show the second before, a copy of the state
// taken first, never a second half computed; pace and whatever runs while
// it parks may call them, and nothing else. The second computed is the
// one Step computes (TestStepPacedIsStep).
func (s *Sim) StepPaced(pace func()) {
	s.live = s.state
	s.state, s.pace = s.live.clone(), pace
	defer func() { s.live, s.pace = nil, nil }()
	s.advance()
}

func (s *Sim) advance() {
	st := s.state
	if s.live != nil {
		st = s.live
	}
	st.clock.Advance(time.Second)
	st.t++
	s.runTick(st, nil)
	s.record(st)
	if s.every > 0 && s.due(s.checkpoints[len(s.checkpoints)-1], st) {
		s.checkpoint(st)
	}
	// StepPaced's last pace, still showing the second before: a caller
	// whose frame is spent draws the new second in the next.
	s.yield()
	s.state = st
}

// runTick does the work of second st.t (see the package doc).
func (s *Sim) runTick(st *state, pre []StepResult) {
	clear(s.log.Records)
	clear(s.emitted)
	s.log.Records = s.log.Records[:0]
	st.store.ExpireEvents()
	ctx := &controller.Context{Store: st.store, Log: &s.log, Emitted: s.emitted[:0], Metrics: st.metrics, Pace: s.pace}
	tick := Tick{Steps: pre}
	tick.Steps = append(tick.Steps, s.runSteps(st, ctx)...)
	for round := 0; round < MaxRounds; round++ {
		w := st.store.Writes()
		for _, c := range st.plane {
			prev := st.store.SetWriter(c.writer)
			c.Sync(ctx)
			st.store.SetWriter(prev)
			s.yield()
		}
		if st.store.Writes() == w {
			break
		}
	}
	tick.Steps = append(tick.Steps, s.pollWaits(st, tick.Steps)...)
	if st == s.state || st == s.live {
		s.pollConsole(st)
	}
	prev := st.store.SetWriter(store.Writer{Manager: store.ManagerKubelet, By: kubelet.Component})
	st.kubelet.Sync(ctx)
	st.store.SetWriter(prev)
	s.yield()
	st.metrics.Sync(ctx)
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
	if len(ctx.Emitted) > 0 {
		tick.Events = slices.Clone(ctx.Emitted)
	}
	s.emitted = ctx.Emitted
	tick.Syncs = s.mergeSyncs(ctx.Log.Records)
	st.tick, st.line = tick, nil
}

// mergeSyncs keeps, per controller and object, every record that took a
// step and the last record when it came after them: a tick with several
// rounds shows what each did and where it ended up.
func (s *Sim) mergeSyncs(recs []controller.SyncRecord) []controller.SyncRecord {
	if s.lastKey == nil {
		s.lastKey = map[syncKey]int{}
	}
	last := s.lastKey
	clear(last)
	for i, r := range recs {
		last[syncKey{r.Controller, r.Object}] = i
	}
	n := 0
	for i, r := range recs {
		if r.Action != "" || last[syncKey{r.Controller, r.Object}] == i {
			n++
		}
	}
	out := make([]controller.SyncRecord, 0, n)
	for i, r := range recs {
		if r.Action != "" || last[syncKey{r.Controller, r.Object}] == i {
			out = append(out, r)
		}
	}
	return out
}

// syncKey is a sync record's controller and object.
type syncKey struct{ c, o string }

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
