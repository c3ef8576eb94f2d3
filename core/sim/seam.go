package sim

import (
	"sort"

	"converge/core/api"
)

// The page's seams (wasm): what it needs of the engine to seek in slices
// and to keep within its memory budget (docs/limits.md).

// SeekStart is the second SeekTo(t) starts computing from: the nearest
// checkpoint at or before t when SeekTo restores one (always, going back;
// going forward, when it is ahead of the current second), else the current
// second. SeekTo(SeekStart(t)) replays nothing, and stepping t-SeekStart(t)
// seconds from there is SeekTo(t): the page seeks far in slices so.
func (s *Sim) SeekStart(t int64) int64 {
	t = max(t, 0)
	i := max(sort.Search(len(s.checkpoints), func(i int) bool { return s.checkpoints[i].t > t })-1, 0)
	if cp := s.checkpoints[i]; t < s.state.t || cp.t > s.state.t {
		return cp.t
	}
	return s.state.t
}

// Estimated sizes, measured natively on rolling updates of 1,000 and
// 10,000 pods (heap after a GC against the formula, within 15%): an object
// held by the live state with its share of the store's indexes; an object's
// entry in a checkpoint, whose maps are copies; a sample.
const (
	liveObjectBytes       = 1300
	checkpointObjectBytes = 150
	sampleBytes           = 100
)

// EstimatedBytes is about how much memory the simulation holds: its live
// state, its checkpoints and its samples. The page adds up the estimates of
// its simulations against its memory budget.
func (s *Sim) EstimatedBytes() int64 {
	n := objects(s.state) * liveObjectBytes
	for _, cp := range s.checkpoints {
		n += objects(cp) * checkpointObjectBytes
	}
	return n + int64(len(s.samples))*sampleBytes
}

// objects counts the objects a state's store holds.
func objects(st *state) int64 {
	var n int64
	for _, r := range api.Resources() {
		n += int64(st.store.Count(r.Kind))
	}
	return n
}
