//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"

	"converge/core/manifest"
	"converge/core/session"
)

// A page's simulations share one Go heap, in one wasm memory of at most
// 4 GiB, which the garbage collector needs room in: past it the runtime
// dies, and every simulation of the page with it. So the page keeps a
// memory budget (docs/limits.md): create() beyond it refuses with an error
// as a value, and a simulation's own growth is bounded by the engine (its
// checkpoints' budget). A simulation whose JS object is collected without
// dispose() is disposed by converge.js's FinalizationRegistry, so leaked
// ones do not add up.

// PageMemoryBudget is what a page's simulations may hold together, as
// their engines estimate it (sim.Sim.EstimatedBytes): 1 GiB.
const PageMemoryBudget = 1 << 30

// instanceBytes is what an instance costs beyond its simulation: its
// functions, its renderers' elements.
const instanceBytes = 64 << 10

// heapLimit is the Go runtime's soft memory limit in the page: the
// collector works harder as the heap nears it, well below the 4 GiB the
// wasm memory can grow to.
const heapLimit = 3 << 30

func init() { debug.SetMemoryLimit(heapLimit) }

// bytes is what the page's instances hold, as estimated.
func (t *instances) bytes() int64 {
	var n int64
	for _, inst := range t.byID {
		n += instanceBytes
		if inst.Sim != nil {
			n += inst.Sim.EstimatedBytes()
		}
	}
	return n
}

// ErrBudget is the refusal of a create() beyond the page's memory budget.
type ErrBudget struct {
	Instances int
	Bytes     int64
	Budget    int64
}

func (e *ErrBudget) Error() string {
	return fmt.Sprintf("the page's memory budget is spent: its %d simulations hold about %s MiB of the %s MiB it allows; dispose() some first",
		e.Instances, manifest.Thousands(e.Bytes>>20), manifest.Thousands(e.Budget>>20))
}

// checkBudget refuses a new instance when the page's are at its budget.
func (t *instances) checkBudget() error {
	if n := t.bytes(); n+instanceBytes > t.budget {
		return &ErrBudget{Instances: t.len(), Bytes: n, Budget: t.budget}
	}
	return nil
}

// failedCreate is what create returns instead of an instance: the JSON of
// {ok: false, error}, which converge.js parses.
func failedCreate(err error) string {
	return session.JSON(struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}{Error: "create: " + err.Error()})
}
