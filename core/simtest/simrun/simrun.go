// Package simrun holds the test helpers that need the engine: scenarios
// parsed from text or loaded from the built-in library, simulations of them,
// and settled states. It stands apart from core/simtest because the engine
// imports every package whose own tests use simtest.
package simrun

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/sim"
	"converge/scenarios"
)

// Parse parses a scenario written in a test, failing the test on any
// problem. Problems name the file test.yaml.
func Parse(t testing.TB, src string) *scenario.Scenario {
	t.Helper()
	scn, probs := scenario.Parse([]byte(src), "test.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	return scn
}

// Builtin loads the built-in scenario name, failing the test on any problem.
func Builtin(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	data, err := fs.ReadFile(scenarios.FS, name+".yaml")
	require.NoError(t, err)
	scn, probs := scenario.Parse(data, name+".yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	return scn
}

// BuiltinNames lists the built-in scenarios, by name, in file order.
func BuiltinNames(t testing.TB) []string {
	t.Helper()
	files, err := fs.Glob(scenarios.FS, "*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strings.TrimSuffix(f, ".yaml")
	}
	return names
}

// New prepares a simulation of scn at t=0 with the default options.
func New(t testing.TB, scn *scenario.Scenario) *sim.Sim {
	t.Helper()
	s, err := sim.New(scn, sim.Options{})
	require.NoError(t, err)
	return s
}

// Load parses src and prepares its simulation at t=0.
func Load(t testing.TB, src string) *sim.Sim {
	t.Helper()
	return New(t, Parse(t, src))
}

// MaxSettle is how far past its scenario's end Settle looks for a quiet second.
const MaxSettle = 300

// Settle runs s to the end of its scenario, then on, one second at a time,
// until a second in which nothing was written to the store: no object and
// no event. The state it stops at is settled: every component ran against
// it, at its time, and had nothing to do. It fails the test when no such
// second comes within MaxSettle seconds.
func Settle(t testing.TB, s *sim.Sim) {
	t.Helper()
	s.SeekTo(int64(s.Duration().Seconds()))
	for i := 0; i < MaxSettle; i++ {
		rv := s.Store().ResourceVersion()
		s.Step(1)
		if s.Store().ResourceVersion() == rv {
			return
		}
	}
	require.Failf(t, "never settles", "scenario %s: something was written every second up to t=%d", s.Scenario().Name, s.T())
}
