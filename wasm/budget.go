//go:build js && wasm

package main

import (
	"runtime/debug"
	"slices"

	"converge/core/session"
)

// A page's simulations share one Go heap, in one wasm memory of at most
// 4 GiB, which the garbage collector needs room in: past it the runtime
// dies, and every simulation of the page with it. So the page keeps a
// memory budget (docs/limits.md, session.PageMemoryBudget): create()
// beyond it refuses with an error as a value (session.CheckBudget), and a
// simulation's own growth is bounded by the engine (its checkpoints'
// budget). A simulation whose JS object is collected without dispose() is
// disposed by converge.js's FinalizationRegistry, so leaked ones do not
// add up.

// heapLimit is the Go runtime's soft memory limit in the page: the
// collector works harder as the heap nears it, well below the 4 GiB the
// wasm memory can grow to.
const heapLimit = 3 << 30

func init() { debug.SetMemoryLimit(heapLimit) }

// sessions are the sessions of the page's instances, by id.
func (t *instances) sessions() []*session.Session {
	ids := make([]int, 0, len(t.byID))
	for id := range t.byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]*session.Session, 0, len(ids))
	for _, id := range ids {
		out = append(out, t.byID[id].Session)
	}
	return out
}

// checkBudget refuses a new instance when the page's are at its budget.
func (t *instances) checkBudget() error {
	return session.CheckBudget(t.sessions(), t.budget)
}
