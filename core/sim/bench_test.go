package sim

// The engine's benchmarks, one per figure of docs/performance.md:
//
//	go test -run '^$' -bench . -benchmem ./core/sim
//
// Names are benchstat's (Benchmark/key=value); the figures beyond ns/op are
// reported as metrics. The scenarios are testdata/perf/*.yaml, which
// TestPerfScenariosAreCurrent keeps equal to perfScenarios.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest"
)

// perfScenario is one scenario of the benchmarks: a Deployment of
// replicas pods on nodes nodes (each with room for the rollout's surge)
// that rolls to a new image at 10s and runs for seconds.
type perfScenario struct {
	name                     string
	replicas, nodes, seconds int
}

// perfScenarios are the benchmarks' scenarios, written to testdata/perf so
// that the command line's figures can be measured on the same files.
var perfScenarios = []perfScenario{
	{"perf-500", 500, 50, 600},
	{"perf-5000", 5000, 50, 600},
	{"page-1000", 1000, 20, 600},
	{"limits-24h", 10000, 500, 86400},
}

func (p perfScenario) yaml() string {
	return simtest.RolloutYAML(simtest.RolloutOptions{Name: p.name, Duration: fmt.Sprintf("%ds", p.seconds),
		Nodes: p.nodes, PodsPerNode: max(250, p.replicas*5/4/p.nodes+1), Replicas: p.replicas, Image: "nginx:1.25",
		Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}})
}

// rolloutScenario is a `replicas`-pod Deployment on `nodes` nodes that rolls
// to a new image at 10s and runs for `seconds`.
func rolloutScenario(tb testing.TB, replicas, nodes, seconds int) *scenario.Scenario {
	tb.Helper()
	src := perfScenario{"bench", replicas, nodes, seconds}.yaml()
	scn, probs := scenario.Parse([]byte(src), "bench.yaml")
	require.False(tb, probs.HasErrors(), "%v", probs)
	return scn
}

func TestPerfScenariosAreCurrent(t *testing.T) {
	t.Parallel()
	for _, p := range perfScenarios {
		file := filepath.Join("testdata", "perf", p.name+".yaml")
		if *update {
			require.NoError(t, os.WriteFile(file, []byte(p.yaml()), 0o644))
		}
		got, err := os.ReadFile(file)
		require.NoError(t, err, "run go test ./core/sim -update to write it")
		require.Equal(t, p.yaml(), string(got), "%s: run go test ./core/sim -update", file)
	}
}

// BenchmarkRollout runs a whole rolling update without output (what
// `converge run` costs before it prints): 600 simulated seconds, an image
// change at 10s, 50 nodes. Comparing the two sizes gives how the cost grows
// with the replicas.
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

// BenchmarkTrace is `converge run --output jsonl` without the process: the
// same rollout with every trace line written (to io.Discard).
func BenchmarkTrace(b *testing.B) {
	for _, replicas := range []int{500, 5000} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			scn := rolloutScenario(b, replicas, 50, 600)
			b.ReportAllocs()
			var written int64
			for b.Loop() {
				s, err := New(scn, Options{CheckpointEvery: -1})
				require.NoError(b, err)
				w := &countingWriter{}
				for {
					require.NoError(b, s.WriteTraceLine(w))
					if s.T() == 600 {
						break
					}
					s.Step(1)
				}
				written = w.n
			}
			b.ReportMetric(float64(written)/(1<<20), "trace-MiB")
		})
	}
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)

// BenchmarkTraceLine is one trace line of 1,000 pods: encoded whole (a
// state restored from a checkpoint has no caches), written again in the
// same second (from the caches), and a step with its line, cycling through
// the rollout and after it (what the JS API's step(1) costs).
func BenchmarkTraceLine(b *testing.B) {
	scn := rolloutScenario(b, 1000, 20, 600)
	b.Run("encoded", func(b *testing.B) {
		s, err := New(scn, Options{})
		require.NoError(b, err)
		s.SeekTo(30)
		b.ReportAllocs()
		for b.Loop() {
			s.SeekTo(29) // a checkpoint restore and 9 seconds
			s.Step(1)
			if err := s.WriteTraceLine(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		s, err := New(scn, Options{CheckpointEvery: -1})
		require.NoError(b, err)
		s.SeekTo(30)
		require.NoError(b, s.WriteTraceLine(io.Discard))
		b.ReportAllocs()
		for b.Loop() {
			if err := s.WriteTraceLine(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stepped", func(b *testing.B) {
		s, err := New(scn, Options{CheckpointEvery: -1})
		require.NoError(b, err)
		s.SeekTo(9)
		require.NoError(b, s.WriteTraceLine(io.Discard))
		b.ReportAllocs()
		for b.Loop() {
			if s.T() == 600 {
				b.StopTimer()
				s, err = New(scn, Options{CheckpointEvery: -1})
				require.NoError(b, err)
				s.SeekTo(9)
				require.NoError(b, s.WriteTraceLine(io.Discard))
				b.StartTimer()
			}
			s.Step(1)
			if err := s.WriteTraceLine(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSeek seeks to scattered seconds of a computed 10-minute, 1,000-pod
// rollout (checkpoints every 10 s): what the page's scrubber does. It
// reports the slowest seek too.
func BenchmarkSeek(b *testing.B) {
	scn := rolloutScenario(b, 1000, 20, 600)
	s, err := New(scn, Options{})
	require.NoError(b, err)
	s.SeekTo(600)
	b.ReportAllocs()
	i := 0
	var worst time.Duration
	for b.Loop() {
		i++
		start := time.Now()
		s.SeekTo(int64((i * 7919) % 600))
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst)/float64(time.Millisecond), "worst-ms/seek")
}

// BenchmarkSeekIntoRollout seeks to each of the first 30 seconds of a
// computed 1,000-pod rollout (it starts at 10s: thousands of writes a
// second), backwards from its end, with checkpoints spaced by time alone
// and by time or work (the default): the seeks that replay a rollout's
// seconds. It reports the slowest seek and the seconds replayed in all.
func BenchmarkSeekIntoRollout(b *testing.B) {
	scn := rolloutScenario(b, 1000, 20, 60)
	for _, mode := range []struct {
		name string
		work int
	}{{"checkpoints=time", -1}, {"checkpoints=work", 0}} {
		b.Run(mode.name, func(b *testing.B) {
			s, err := New(scn, Options{CheckpointWork: mode.work})
			require.NoError(b, err)
			s.SeekTo(60)
			var worst time.Duration
			var replayed int64
			for b.Loop() {
				for t := int64(30); t > 0; t-- {
					s.SeekTo(60)
					replayed += t - s.SeekStart(t)
					start := time.Now()
					s.SeekTo(t)
					worst = max(worst, time.Since(start))
				}
			}
			b.ReportMetric(float64(worst)/float64(time.Millisecond), "worst-ms/seek")
			b.ReportMetric(float64(replayed)/float64(b.N), "replayed-s/op")
			b.ReportMetric(float64(len(s.Checkpoints())), "checkpoints")
		})
	}
}

// BenchmarkSteadySecond is one quiet second of the largest cluster the
// limits allow (500 nodes, 10,000 pods, settled): what most of a day-long
// simulation costs per second.
func BenchmarkSteadySecond(b *testing.B) {
	s, err := New(rolloutScenario(b, 10000, 500, 86400), Options{CheckpointEvery: -1})
	require.NoError(b, err)
	s.SeekTo(600)
	b.ReportAllocs()
	for b.Loop() {
		s.Step(1)
	}
}

// BenchmarkCheckpointMemory runs the largest cluster for an hour with the
// page's checkpoints (the default budget) and reports the Go heap in use
// afterwards, the checkpoints' estimated bytes, their count and spacing,
// against the same run without checkpoints.
func BenchmarkCheckpointMemory(b *testing.B) {
	scn := rolloutScenario(b, 10000, 500, 3600)
	for _, mode := range []string{"checkpoints=off", "checkpoints=default"} {
		b.Run(mode, func(b *testing.B) {
			opts := Options{}
			if mode == "checkpoints=off" {
				opts.CheckpointEvery = -1
			}
			var heap uint64
			var mem Memory
			for b.Loop() {
				s, err := New(scn, opts)
				require.NoError(b, err)
				s.SeekTo(3600)
				heap = heapInUse()
				mem = s.Memory()
				runtime.KeepAlive(s)
			}
			b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
			b.ReportMetric(float64(mem.Bytes)/(1<<20), "checkpoint-MiB")
			b.ReportMetric(float64(mem.State)/(1<<20), "state-MiB")
			b.ReportMetric(float64(mem.Total())/(1<<20), "estimate-MiB")
			b.ReportMetric(float64(mem.Checkpoints), "checkpoints")
			b.ReportMetric(float64(mem.Every), "spacing-s")
		})
	}
}

// heapInUse is the Go heap in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// BenchmarkCheckpointBudget runs the page's 1,000-pod rollout with
// budgets small enough to thin the checkpoints, and reports how many are
// left, their spacing and the slowest seek afterwards: the price of a
// smaller budget.
func BenchmarkCheckpointBudget(b *testing.B) {
	scn := rolloutScenario(b, 1000, 20, 600)
	for _, mib := range []int64{256, 16, 4} {
		b.Run(fmt.Sprintf("budget=%dMiB", mib), func(b *testing.B) {
			var mem Memory
			var seeks []time.Duration
			for b.Loop() {
				s, err := New(scn, Options{MemoryBudget: mib << 20})
				require.NoError(b, err)
				s.SeekTo(600)
				mem = s.Memory()
				for t := int64(599); t > 0; t -= 37 {
					start := time.Now()
					s.SeekTo(t)
					seeks = append(seeks, time.Since(start))
				}
			}
			b.ReportMetric(float64(mem.Checkpoints), "checkpoints")
			b.ReportMetric(float64(mem.Every), "spacing-s")
			b.ReportMetric(float64(mem.Bytes)/(1<<20), "checkpoint-MiB")
			b.ReportMetric(float64(slices.Max(seeks))/float64(time.Millisecond), "worst-ms/seek")
		})
	}
}
