package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest"
)

// rolloutScenario is a `replicas`-pod Deployment on `nodes` nodes that rolls
// to a new image at 10s and runs for `seconds`.
func rolloutScenario(tb testing.TB, replicas, nodes, seconds int) *scenario.Scenario {
	tb.Helper()
	src := simtest.RolloutYAML(simtest.RolloutOptions{Name: "bench", Duration: fmt.Sprintf("%ds", seconds),
		Nodes: nodes, PodsPerNode: 250, Replicas: replicas, Image: "nginx:1.25",
		Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}})
	scn, probs := scenario.Parse([]byte(src), "bench.yaml")
	require.False(tb, probs.HasErrors(), "%v", probs)
	return scn
}

// BenchmarkRollout runs a whole rolling update: 600 simulated seconds, an
// image change at 10s, 50 nodes. ns/op is the whole run; the per-tick figures
// are reported as extra metrics.
func BenchmarkRollout(b *testing.B) {
	for _, replicas := range []int{500, 5000} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			scn := rolloutScenario(b, replicas, 50, 600)
			b.ReportAllocs()
			for b.Loop() {
				s, err := New(scn, Options{CheckpointEvery: -1})
				require.NoError(b, err)
				s.Step(600)
				d := s.Snapshot().Deployments[0]
				if d.Status.UpdatedReplicas != int32(replicas) || d.Status.AvailableReplicas != int32(replicas) {
					b.Fatalf("rollout did not complete: %+v", d.Status)
				}
			}
		})
	}
}

// BenchmarkSeek seeks to random seconds of a computed 10-minute, 1,000-pod
// rollout (checkpoints every 10 s): what the page's scrubber does.
func BenchmarkSeek(b *testing.B) {
	scn := rolloutScenario(b, 1000, 20, 600)
	s, err := New(scn, Options{})
	require.NoError(b, err)
	s.SeekTo(600)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		s.SeekTo(int64((i * 7919) % 600))
	}
}

// BenchmarkTraceLine is the cost of one snapshot as JSON for 1,000 pods.
func BenchmarkTraceLine(b *testing.B) {
	s, err := New(rolloutScenario(b, 1000, 20, 600), Options{CheckpointEvery: -1})
	require.NoError(b, err)
	s.SeekTo(30)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.TraceLine(); err != nil {
			b.Fatal(err)
		}
	}
}
