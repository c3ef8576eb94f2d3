// Package controllertest is the conformance suite of controller.Controller,
// in the spirit of testing/fstest and hackpadfs' fstest: every component of
// the simulated cluster (the controllers, the scheduler, the kubelets)
// passes the same checks, run from its own package's tests:
//
//	func TestConformance(t *testing.T) {
//		t.Parallel()
//		controllertest.Run(t, controllertest.Options{
//			Name: gc.Component,
//			New:  func() controller.Controller { return gc.New() },
//		})
//	}
//
// The checks run on states of real simulations: each built-in scenario run
// by the engine until it settles (a second in which no component wrote
// anything), and the same scenario in the middle of its work (a second or
// two after its objects were applied, and just after its last action).
//
//   - Level-based: on a settled state a second pass writes nothing to the
//     store (its resourceVersion, which events advance too, is unchanged).
//     A controller without state (its Clone returns itself) must not write
//     on the first pass either: the engine's own instance just found
//     nothing to do there.
//   - Clones are independent: a clone and its source, each run on its own
//     copy of the same state for a while, do exactly the same, whichever
//     runs first; advancing one leaves the other where it was.
//   - Every sync record names its controller, which is also Name().
package controllertest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/scenario"
	"converge/core/simtest"
	"converge/core/simtest/simrun"
	"converge/core/store"
)

// Options says which controller to check.
type Options struct {
	// Name is the controller's component name: what Name returns and what
	// every sync record carries.
	Name string
	// New returns a new controller, as the engine makes it.
	New func() controller.Controller
	// Scenarios names the built-in scenarios whose states the checks run
	// on; nil means the whole library.
	Scenarios []string
}

// CloneSeconds is how long the clone check runs a clone and its source.
const CloneSeconds = 30

// T is the part of *testing.T the checks use.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	FailNow()
}

// state is one store to check a controller on.
type state struct {
	name    string // "settled at 95s"
	store   *store.Store
	settled bool
}

// Run runs the checks on o's controller, one subtest per scenario and check.
func Run(t *testing.T, o Options) {
	t.Helper()
	require.NotNil(t, o.New, "Options.New")
	c := o.New()
	require.Equal(t, o.Name, c.Name(), "Name")
	require.Equal(t, o.Name, c.Clone().Name(), "a clone's Name")
	names := o.Scenarios
	if names == nil {
		names = simrun.BuiltinNames(t)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			states := statesOf(t, simrun.Builtin(t, name))
			t.Run("SecondPassWritesNothing", func(t *testing.T) {
				t.Parallel()
				for _, st := range states {
					if st.settled {
						secondPassWritesNothing(t, o, st)
					}
				}
			})
			t.Run("CloneIsIndependent", func(t *testing.T) {
				t.Parallel()
				for _, st := range states {
					cloneIsIndependent(t, o, st)
				}
			})
			t.Run("RecordsNameTheController", func(t *testing.T) {
				t.Parallel()
				for _, st := range states {
					recordsNameTheController(t, o, st)
				}
			})
		})
	}
}

// statesOf runs scn in the engine and keeps copies of its store: a second
// and two seconds after t=0, the second after its last action (a step that
// is not an expect), and settled after its end.
func statesOf(t *testing.T, scn *scenario.Scenario) []state {
	t.Helper()
	s := simrun.New(t, scn)
	busy := []int64{1, 2}
	last := int64(0)
	for _, st := range scn.Steps {
		if st.Expect == nil {
			last = max(last, int64(st.At/time.Second)+1)
		}
	}
	if last > busy[len(busy)-1] {
		busy = append(busy, last)
	}
	var out []state
	for _, sec := range busy {
		s.SeekTo(sec)
		out = append(out, state{name: fmt.Sprintf("busy at %ds", sec), store: copyOf(s.Store())})
	}
	simrun.Settle(t, s)
	out = append(out, state{name: fmt.Sprintf("settled at %ds", s.T()), store: copyOf(s.Store()), settled: true})
	return out
}

// copyOf copies a store with its clock, so that advancing one leaves the other.
func copyOf(s *store.Store) *store.Store { return s.Clone(s.Clock().Clone()) }

func stateless(c controller.Controller) bool { return c.Clone() == c }

func secondPassWritesNothing(t T, o Options, st state) {
	t.Helper()
	s := copyOf(st.store)
	c := o.New()
	first := simtest.Sync(s, c)
	if stateless(c) {
		assert.Zero(t, first.Writes, "%s: a controller without state wrote where the engine's own instance had nothing to do: %s",
			st.name, describe(first))
	}
	second := simtest.Sync(s, c)
	assert.Zero(t, second.Writes, "%s: the second pass wrote: %s", st.name, describe(second))
}

func cloneIsIndependent(t T, o Options, st state) {
	t.Helper()
	c := o.New()
	simtest.Sync(copyOf(st.store), c) // the controller learns the state, if it keeps any
	first, second := c.Clone(), c.Clone()
	want := runFor(t, first, copyOf(st.store))
	assert.Equal(t, want, runFor(t, c, copyOf(st.store)), "%s: the source, run after a clone of it, does something else", st.name)
	assert.Equal(t, want, runFor(t, second, copyOf(st.store)), "%s: a clone, run after its source, does something else", st.name)
}

// runFor runs c on s for CloneSeconds seconds and returns what it did,
// second by second, and the objects it left, as text.
func runFor(t T, c controller.Controller, s *store.Store) string {
	t.Helper()
	type second struct {
		Records []controller.SyncRecord `json:"records"`
		Events  []store.EmittedEvent    `json:"events"`
		Writes  int64                   `json:"writes"`
	}
	var seconds []second
	for i := 0; i < CloneSeconds; i++ {
		simtest.Advance(s, time.Second)
		p := simtest.Sync(s, c)
		seconds = append(seconds, second{p.Log.Records, p.Emitted, p.Writes})
	}
	objects := map[string][]api.Object{}
	for _, kind := range []string{api.KindNode, api.KindDeployment, api.KindReplicaSet, api.KindPod,
		api.KindConfigMap, api.KindService, api.KindEndpoints, api.KindEvent} {
		objects[kind] = s.List(kind)
	}
	b, err := json.MarshalIndent(map[string]any{"seconds": seconds, "objects": objects}, "", " ")
	require.NoError(t, err)
	return string(b)
}

func recordsNameTheController(t T, o Options, st state) {
	t.Helper()
	s := copyOf(st.store)
	c := o.New()
	for i := 0; i < 3; i++ {
		for _, r := range simtest.Sync(s, c).Log.Records {
			assert.Equal(t, o.Name, r.Controller, "%s: record %+v", st.name, r)
		}
		simtest.Advance(s, time.Second)
	}
}

// describe lists what a pass did, for a failure message.
func describe(p simtest.Pass) string {
	var out []string
	for _, r := range p.Log.Records {
		if r.Action != "" {
			out = append(out, r.Object+": "+r.Action)
		}
	}
	for _, e := range p.Emitted {
		out = append(out, "event "+e.Reason+" "+e.Object+": "+e.Message)
	}
	b, _ := json.Marshal(out)
	return fmt.Sprintf("%d writes %s", p.Writes, b)
}
