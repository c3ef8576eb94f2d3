package sim

import "sort"

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
