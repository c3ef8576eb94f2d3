package sim

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/scenarios"
)

// TestCheckpointsKeepWithinTheBudget: with a budget far below what
// checkpoints every 10 s would hold, the spacing doubles until they fit;
// the survivors sit on the spacing, t=0 stays, and seeking from them gives
// the trace of the straight run.
func TestCheckpointsKeepWithinTheBudget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		budget int64
	}{
		{"unlimited", -1},
		{"default", 0},
		{"400 KiB", 400 << 10},
		{"100 KiB", 100 << 10},
		{"1 byte", 1},
	}
	scn := load(t, scenarios.FS, "rolling-update.yaml")
	want := bytes.Split(bytes.TrimSuffix(trace(t, scn, Options{CheckpointEvery: -1}), []byte("\n")), []byte("\n"))
	end := int64(len(want) - 1)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := New(load(t, scenarios.FS, "rolling-update.yaml"), Options{MemoryBudget: tc.budget})
			require.NoError(t, err)
			s.SeekTo(end)
			m := s.Memory()
			cps := s.Checkpoints()
			require.Equal(t, int64(0), cps[0], "t=0 is always a checkpoint")
			assert.Equal(t, len(cps), m.Checkpoints)
			assert.Greater(t, m.State, int64(0))
			if tc.budget > 0 {
				assert.Greater(t, m.Every, int64(DefaultCheckpointEvery), "the budget is below what every 10 s holds")
				if len(cps) > 1 {
					assert.LessOrEqual(t, m.Bytes, tc.budget, "thinned to fit")
				}
			}
			if tc.budget <= 0 {
				assert.Equal(t, int64(DefaultCheckpointEvery), m.Every, "nothing to thin")
				assert.Len(t, cps, int(end/DefaultCheckpointEvery)+1)
			}
			for _, c := range cps[1:] {
				assert.Zero(t, c%m.Every, "checkpoint %d is on the spacing %d", c, m.Every)
			}
			for _, at := range []int64{end - 1, 3, end / 2, 31, 0, end} {
				s.SeekTo(at)
				got, err := s.TraceLine()
				require.NoError(t, err)
				require.Equal(t, string(want[at]), string(got), "trace line at %ds after seeking", at)
			}
		})
	}
}

// TestMemoryCountsWhatCheckpointsDoNotShare: the estimate of a checkpoint
// is what it holds beyond the one before it, so a quiet cluster's
// checkpoints cost far less than the first.
func TestMemoryCountsWhatCheckpointsDoNotShare(t *testing.T) {
	t.Parallel()
	s, err := New(rolloutScenario(t, 1000, 20, 600), Options{})
	require.NoError(t, err)
	s.SeekTo(600)
	first := s.checkpoints[0].bytes
	last := s.checkpoints[len(s.checkpoints)-1].bytes
	assert.Greater(t, first, int64(1000*1000), "t=0 holds 1,000 pods")
	assert.Less(t, last, first/20, "a quiet 10 s changes a few objects")
	var sum int64
	for _, c := range s.checkpoints {
		sum += c.bytes
	}
	assert.Equal(t, sum, s.Memory().Bytes)
}

// TestCheckpointsFollowTheWork: in a rollout of 1,000 pods (thousands of
// writes a second) checkpoints are spaced by store writes as well as by
// seconds, so that a seek to any second replays fewer than Work writes and
// Every seconds before it; and seeking still gives the straight run's
// trace.
func TestCheckpointsFollowTheWork(t *testing.T) {
	t.Parallel()
	const end = 60
	straight, err := New(rolloutScenario(t, 1000, 20, end), Options{CheckpointEvery: -1})
	require.NoError(t, err)
	writes := []int64{straight.Store().Writes()}
	for straight.T() < end {
		straight.Step(1)
		writes = append(writes, straight.Store().Writes())
	}
	s, err := New(rolloutScenario(t, 1000, 20, end), Options{})
	require.NoError(t, err)
	s.SeekTo(end)
	m := s.Memory()
	require.Equal(t, int64(DefaultCheckpointEvery), m.Every, "nothing to thin")
	require.Equal(t, int64(DefaultCheckpointWork), m.Work)
	cps := s.Checkpoints()
	assert.Greater(t, len(cps), end/DefaultCheckpointEvery+1, "the rollout's seconds have checkpoints of their own: %v", cps)
	for at := int64(1); at < end; at++ {
		from := s.SeekStart(at)
		assert.Less(t, at-1-from, m.Every, "seek to %d from %d", at, from)
		assert.Less(t, writes[at-1]-writes[from], m.Work, "seek to %d from %d replays the writes before it", at, from)
	}
	for _, at := range []int64{12, 15, 11, 40} {
		s.SeekTo(at)
		straight.SeekTo(at)
		got, err := s.TraceLine()
		require.NoError(t, err)
		want, err := straight.TraceLine()
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "trace line at %ds after seeking", at)
	}
}
