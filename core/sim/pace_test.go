package sim

import (
	"bytes"
	"io/fs"
	"path"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest"
	"converge/scenarios"
)

// firstSeconds is the trace of scn's first n seconds (or to its end) from
// New with opts.
func firstSeconds(t *testing.T, s *Sim, n int64) []byte {
	t.Helper()
	var b bytes.Buffer
	end := min(int64(s.Duration().Seconds()), n)
	for {
		require.NoError(t, s.WriteTraceLine(&b))
		b.WriteByte('\n')
		if s.T() >= end {
			return b.Bytes()
		}
		s.Step(1)
	}
}

// TestNewPacedIsNew: New with a Pace (the page's open in slices, which
// parks between the pieces of tick 0) builds the simulation New builds
// without one: the same trace, byte for byte, for every scenario of the
// library and for a rollout of 1,000 pods, whose tick 0 creates,
// schedules and starts hundreds of pods. Pace is called between the
// pieces (each pod placed, each node's kubelet pass) and never after New.
func TestNewPacedIsNew(t *testing.T) {
	t.Parallel()
	names, err := fs.Glob(scenarios.FS, "*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	type tc struct {
		name string
		src  func(t *testing.T) []byte
	}
	var tcs []tc
	for _, name := range names {
		tcs = append(tcs, tc{name, func(t *testing.T) []byte {
			data, err := fs.ReadFile(scenarios.FS, name)
			require.NoError(t, err)
			return data
		}})
	}
	tcs = append(tcs, tc{"1,000 pods on 20 nodes", func(*testing.T) []byte {
		return []byte(simtest.RolloutYAML(simtest.RolloutOptions{Name: "big", Duration: "60s", Nodes: 20, PodsPerNode: 110,
			Replicas: 1000, Image: "nginx:1.25", Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}}))
	}})
	for _, c := range tcs {
		t.Run(path.Base(c.name), func(t *testing.T) {
			t.Parallel()
			src := c.src(t)
			whole, err := New(parse(t, string(src)), Options{})
			require.NoError(t, err)
			calls := 0
			paced, err := New(parse(t, string(src)), Options{Pace: func() { calls++ }})
			require.NoError(t, err)
			atNew := calls
			assert.Positive(t, atNew, "Pace is called while New runs")
			assert.Equal(t, string(firstSeconds(t, whole, 60)), string(firstSeconds(t, paced, 60)))
			assert.Equal(t, atNew, calls, "Pace is not called after New")
			if c.name == "1,000 pods on 20 nodes" {
				// Tick 0 creates and places the 1,000 pods (the
				// ReplicaSet controller's 500 a pass): each placement
				// is a piece.
				assert.Greater(t, atNew, 1000, "each pod placed and each node's pass is a piece")
			}
		})
	}
}

// TestStepPacedIsStep: StepPaced (the page's play, which parks between the
// pieces of a second when a frame has used its budget) computes the second
// Step computes: the same trace, byte for byte, over the first minute of
// every scenario of the library and over a rollout of 1,000 pods, whose
// busiest seconds create, schedule and start hundreds of pods. While it
// runs, the readers show the second before, whole: at its pace points T
// is the second before and the trace line written there is that second's,
// as written once it was computed.
func TestStepPacedIsStep(t *testing.T) {
	t.Parallel()
	names, err := fs.Glob(scenarios.FS, "*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	srcs := map[string]string{}
	for _, name := range names {
		data, err := fs.ReadFile(scenarios.FS, name)
		require.NoError(t, err)
		srcs[path.Base(name)] = string(data)
	}
	const big = "1,000 pods on 20 nodes"
	srcs[big] = simtest.RolloutYAML(simtest.RolloutOptions{Name: "big", Duration: "40s", Nodes: 20, PodsPerNode: 110,
		Replicas: 1000, Image: "nginx:1.25", Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}})
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			whole, err := New(parse(t, src), Options{})
			require.NoError(t, err)
			want := firstSeconds(t, whole, 60)
			paced, err := New(parse(t, src), Options{})
			require.NoError(t, err)
			var got, line bytes.Buffer
			end := min(int64(paced.Duration().Seconds()), 60)
			calls, checked, most := 0, 0, 0
			for {
				line.Reset()
				require.NoError(t, paced.WriteTraceLine(&line))
				got.Write(line.Bytes())
				got.WriteByte('\n')
				if paced.T() >= end {
					break
				}
				before, n := paced.T(), 0
				paced.StepPaced(func() {
					calls++
					n++
					if n%97 != 1 {
						return
					}
					checked++
					require.Equal(t, before, paced.T(), "the readers show the second before")
					var mid bytes.Buffer
					require.NoError(t, paced.WriteTraceLine(&mid))
					require.Equal(t, line.String(), mid.String(), "the trace line mid-second is the second before's")
				})
				most = max(most, n)
				require.Equal(t, before+1, paced.T())
			}
			assert.Equal(t, string(want), got.String())
			assert.Positive(t, calls, "StepPaced calls pace")
			assert.Positive(t, checked)
			if name == big {
				// The rollout's busiest second has a piece for each pod
				// placed and each node's kubelet pass.
				assert.Greater(t, most, 100, "each pod placed and each node's pass is a piece")
			}
			// Step after StepPaced paces nothing.
			before := calls
			paced.SeekTo(0)
			paced.Step(3)
			assert.Equal(t, before, calls)
		})
	}
}
