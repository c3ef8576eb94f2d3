package sim

import (
	"maps"
	"sort"

	"converge/core/controller"
	"converge/core/kubelet"
	"converge/core/metrics"
	"converge/core/store"
)

// Checkpoints are clones of the state taken every few seconds, or sooner
// after many store writes (due), which SeekTo restores and replays from. A clone shares every stored object and, until
// one of the two writes there, the pieces of the store that hold them
// (store.Store.Clone): a checkpoint costs what changed since the previous
// one. What that is, as estimated (unsharedBytes), is kept with each
// checkpoint; their sum stays within Options.MemoryBudget by spacing the
// checkpoints further apart when needed (thin).

// Memory is what the engine's checkpoints hold, as estimated.
type Memory struct {
	// Checkpoints is how many there are (t=0 always is one).
	Checkpoints int
	// Every is their spacing now in seconds (0: checkpoints are off), and
	// Work in store writes (0: by time alone).
	Every, Work int64
	// Bytes is the estimated heap they hold beyond the live state: for
	// each, what the one before it does not hold.
	Bytes int64
	// Budget is Options.MemoryBudget (negative: none).
	Budget int64
	// State is the estimated heap of the live state on its own (its store,
	// the components' state and the kubelets' runtime state).
	State int64
	// Caches is the estimated heap of the live store's caches (the
	// sorted orders, the objects' JSON, which it shares with the
	// checkpoints: store.Store.CacheBytes).
	Caches int64
	// Samples is the estimated heap of the summaries of the seconds
	// computed so far (Sample).
	Samples int64
}

// Total is everything the simulation holds, as estimated: the live state
// and its caches, the checkpoints beyond it, the samples. The page's
// memory budget adds up its simulations' totals (Sim.EstimatedBytes).
func (m Memory) Total() int64 { return m.State + m.Caches + m.Bytes + m.Samples }

// sampleBytes is the estimated heap of one Sample.
const sampleBytes = 100

// Memory returns what the simulation holds, as estimated. It is cheap, but
// for State and Caches, which are proportional to the number of objects.
func (s *Sim) Memory() Memory {
	return Memory{Checkpoints: len(s.checkpoints), Every: s.every, Work: s.work, Bytes: s.cpBytes, Budget: s.opts.MemoryBudget,
		State: s.state.unsharedBytes(nil), Caches: s.state.store.CacheBytes(), Samples: int64(len(s.samples)) * sampleBytes}
}

// EstimatedBytes is Memory().Total(): about how much memory the simulation
// holds. The page adds up the estimates of its simulations against its
// memory budget; Options.MemoryBudget bounds the checkpoints' share of the
// same estimate.
func (s *Sim) EstimatedBytes() int64 { return s.Memory().Total() }

// Checkpoints returns the seconds of the checkpoints, in order.
func (s *Sim) Checkpoints() []int64 {
	out := make([]int64, len(s.checkpoints))
	for i, c := range s.checkpoints {
		out[i] = c.t
	}
	return out
}

// sizer is a component whose clones can tell what they do not share.
type sizer interface {
	// UnsharedBytes estimates the heap the component holds that prev (a
	// clone of the same component, or nil) does not.
	UnsharedBytes(prev controller.Controller) int64
}

// fixedStateBytes is the estimated cost of a state beyond its store and
// components: its clock, its slices and maps, the tick's outputs.
const fixedStateBytes = 4 << 10

// unsharedBytes estimates the heap st holds that prev (the checkpoint
// before it, or nil) does not.
func (st *state) unsharedBytes(prev *state) int64 {
	var ps *store.Store
	var pk controller.Controller
	if prev != nil {
		ps, pk = prev.store, prev.kubelet
	}
	n := fixedStateBytes + st.store.UnsharedBytes(ps) + tickBytes(&st.tick)
	if k, ok := controller.Controller(st.kubelet).(sizer); ok {
		n += k.UnsharedBytes(pk)
	}
	for i, c := range st.plane {
		if z, ok := c.Controller.(sizer); ok {
			var pc controller.Controller
			if prev != nil {
				pc = prev.plane[i].Controller
			}
			n += z.UnsharedBytes(pc)
		}
	}
	return n
}

// tickBytes estimates the heap of a tick's outputs (a checkpoint keeps
// its second's, for the snapshot at that second).
func tickBytes(t *Tick) int64 {
	const record = 160 // a sync record or event with its strings
	return int64(len(t.Events)+len(t.Syncs)+len(t.Steps)+len(t.Traffic)) * record
}

func (st *state) clone() *state {
	c := st.clock.Clone()
	out := &state{t: st.t, clock: c, store: st.store.Clone(c), next: st.next, tick: st.tick,
		prevEndpoints: st.prevEndpoints, kubelet: st.kubelet.Clone().(*kubelet.Controller),
		metrics: st.metrics.Clone().(*metrics.Server), expects: make(map[int]StepResult, len(st.expects))}
	for k, v := range st.expects {
		out.expects[k] = v
	}
	out.results = maps.Clone(st.results)
	out.progress = maps.Clone(st.progress)
	out.waits = make([]*waiting, len(st.waits))
	for i, w := range st.waits {
		x := *w
		x.w = w.w.Clone()
		out.waits[i] = &x
	}
	out.plane = make([]planeMember, len(st.plane))
	for i, p := range st.plane {
		out.plane[i] = planeMember{Controller: p.Clone(), writer: p.writer}
	}
	return out
}

// checkpoint keeps a clone of st, the current state, unless the last
// checkpoint is at or after it, then thins the checkpoints until they fit
// the budget and the count.
func (s *Sim) checkpoint(st *state) {
	last := s.checkpoints[len(s.checkpoints)-1]
	if last.t >= st.t {
		return
	}
	cp := st.clone()
	cp.bytes = cp.unsharedBytes(last)
	s.checkpoints = append(s.checkpoints, cp)
	s.cpBytes += cp.bytes
	for len(s.checkpoints) > 1 && (len(s.checkpoints) > MaxCheckpoints || s.opts.MemoryBudget >= 0 && s.cpBytes > s.opts.MemoryBudget) {
		s.thin()
	}
}

// due is whether st, a state after the checkpoint last, is far enough
// from it for a checkpoint of its own: the spacing in seconds, or in store
// writes.
func (s *Sim) due(last, st *state) bool {
	return st.t-last.t >= s.every || s.work > 0 && st.store.Writes()-last.store.Writes() >= s.work
}

// thin doubles the spacing (in seconds and in writes) and keeps, from t=0
// on, each checkpoint that is due after the last one kept, then counts
// again what each one left holds beyond the one before it.
//
// For example, with checkpoints every 10 s up to 60 s that exceed the
// budget (and few writes): the spacing becomes 20 s, those at 10, 30 and
// 50 s go, and the one at 20 s now counts what it holds beyond t=0.
func (s *Sim) thin() {
	s.every *= 2
	s.work *= 2
	kept := s.checkpoints[:1]
	for _, c := range s.checkpoints[1:] {
		if s.due(kept[len(kept)-1], c) {
			kept = append(kept, c)
		}
	}
	clear(s.checkpoints[len(kept):])
	s.checkpoints = kept
	s.recount()
}

// recount sets each checkpoint's bytes from its predecessor, and the sum.
func (s *Sim) recount() {
	s.cpBytes = 0
	for i, c := range s.checkpoints {
		var prev *state
		if i > 0 {
			prev = s.checkpoints[i-1]
		}
		c.bytes = c.unsharedBytes(prev)
		s.cpBytes += c.bytes
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
		// The clone shares the objects' JSON any state encoded
		// (store.Store.WriteJSONList).
		s.state = cp.clone()
	}
	for s.state.t < t {
		s.advance()
	}
}
