package controllertest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/controller"
	"converge/core/simtest/simrun"
)

// recorder is a T that keeps the failures instead of failing the test.
type recorder struct{ errors []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) FailNow() { panic(r) }

// check runs one check and returns its failures.
func check(f func(T)) (errors []string) {
	r := &recorder{}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
		errors = r.errors
	}()
	f(r)
	return r.errors
}

// fake is a controller with the faults the suite looks for.
type fake struct {
	name     string
	writes   bool // writes an event on every Sync
	misnamed bool // its records carry another name
	shared   bool // its clones share its counter
	// stateless makes Clone return the controller itself.
	stateless bool
	n         *int // Syncs so far, shown in its records
}

func newFake(f fake) func() controller.Controller {
	return func() controller.Controller {
		c := f
		c.n = new(int)
		return &c
	}
}

func (f *fake) Name() string { return f.name }

func (f *fake) Clone() controller.Controller {
	if f.stateless {
		return f
	}
	c := *f
	if !f.shared {
		c.n = new(int)
		*c.n = *f.n
	}
	return &c
}

func (f *fake) Sync(ctx *controller.Context) {
	*f.n++
	name := f.name
	if f.misnamed {
		name = "someone-else"
	}
	ctx.Record(controller.SyncRecord{Controller: name, Object: "node/node-1", Observed: fmt.Sprintf("sync %d", *f.n), InSync: true})
	if f.writes {
		for _, n := range ctx.Store.Nodes() {
			ctx.Event(n, f.name, "Normal", "Poked", "poked again")
		}
	}
}

// TestTheChecksCatchTheirFaults runs each check on a controller that is
// right and on one with the fault the check is for.
func TestTheChecksCatchTheirFaults(t *testing.T) {
	t.Parallel()
	states := statesOf(t, simrun.Builtin(t, "basic-loop"))
	require.Len(t, states, 4, "busy at 1s and 2s and after the last step, settled")
	settled := states[3]
	require.True(t, settled.settled)
	tests := []struct {
		name  string
		fake  fake
		check func(T, Options, state)
		fails string
	}{
		{"a quiet controller passes the second pass", fake{}, secondPassWritesNothing, ""},
		{"writing on every pass is caught", fake{writes: true}, secondPassWritesNothing, "the second pass wrote"},
		{"a stateless controller writing on the first pass is caught", fake{writes: true, stateless: true}, secondPassWritesNothing,
			"a controller without state wrote"},
		{"independent clones pass", fake{}, cloneIsIndependent, ""},
		{"clones sharing state are caught", fake{shared: true}, cloneIsIndependent, "does something else"},
		{"records that name the controller pass", fake{}, recordsNameTheController, ""},
		{"records naming another component are caught", fake{misnamed: true}, recordsNameTheController, "someone-else"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fake.name = "fake-controller"
			o := Options{Name: "fake-controller", New: newFake(tc.fake)}
			errs := check(func(r T) { tc.check(r, o, settled) })
			if tc.fails == "" {
				assert.Empty(t, errs)
				return
			}
			require.NotEmpty(t, errs)
			assert.Contains(t, fmt.Sprint(errs), tc.fails)
		})
	}
}
