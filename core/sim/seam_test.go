package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/scenarios"
)

// TestSeekStartIsWhereSeekToReplaysFrom: moving to SeekStart(t) replays
// nothing, and stepping from there to t gives SeekTo(t)'s state, so that
// the page can do a seek in slices.
func TestSeekStartIsWhereSeekToReplaysFrom(t *testing.T) {
	t.Parallel()
	s, err := New(load(t, scenarios.FS, "rolling-update.yaml"), Options{CheckpointEvery: 10})
	require.NoError(t, err)
	s.SeekTo(95)
	tests := []struct {
		name     string
		from, to int64
		want     int64
	}{
		{"forward from the current second", 95, 100, 95},
		{"forward past a checkpoint ahead", 42, 90, 90},
		{"back to a checkpoint's second", 95, 30, 30},
		{"back between checkpoints", 95, 37, 30},
		{"to the start", 95, 0, 0},
		{"where it is", 47, 47, 47},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s.SeekTo(tc.from)
			start := s.SeekStart(tc.to)
			assert.Equal(t, tc.want, start)
			s.SeekTo(start)
			assert.Equal(t, start, s.T())
			for s.T() < tc.to {
				s.Step(1)
			}
			got, err := s.TraceLine()
			require.NoError(t, err)
			s.SeekTo(tc.to)
			want, err := s.TraceLine()
			require.NoError(t, err)
			assert.True(t, string(want) == string(got), "the trace line at %ds differs", tc.to)
		})
	}
}

// TestEstimatedBytesGrowsWithTheState: more objects and more checkpoints
// are more bytes.
func TestEstimatedBytesGrowsWithTheState(t *testing.T) {
	t.Parallel()
	small, err := New(rolloutScenario(t, 10, 2, 600), Options{})
	require.NoError(t, err)
	big, err := New(rolloutScenario(t, 1000, 20, 600), Options{})
	require.NoError(t, err)
	small.SeekTo(60)
	big.SeekTo(60)
	assert.Greater(t, big.EstimatedBytes(), 10*small.EstimatedBytes())
	before := big.EstimatedBytes()
	big.SeekTo(600)
	assert.Greater(t, big.EstimatedBytes(), before, "54 more checkpoints")
	m := big.Memory()
	assert.Equal(t, m.Total(), big.EstimatedBytes(), "one measure: the page's budget and the checkpoints' are the same estimate")
	assert.Equal(t, m.State+m.Caches+m.Bytes+m.Samples, m.Total())
	assert.LessOrEqual(t, m.Bytes, m.Budget, "the checkpoints' share stays within Options.MemoryBudget")
	assert.Equal(t, int64(601*sampleBytes), m.Samples)
}
