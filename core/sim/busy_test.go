package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkBusySecond times single seconds of a 1,000-pod rollout,
// restoring a checkpoint of the second before each time.
func BenchmarkBusySecond(b *testing.B) {
	scn := rolloutScenario(b, 1000, 20, 60)
	s, err := New(scn, Options{CheckpointEvery: 1})
	require.NoError(b, err)
	s.SeekTo(40)
	for _, t := range []int64{10, 12, 13, 14, 16} {
		b.Run(fmt.Sprintf("t=%d", t), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s.SeekTo(t - 1)
				b.StartTimer()
				s.Step(1)
			}
		})
	}
}
