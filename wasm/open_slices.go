//go:build js && wasm

package main

import (
	"syscall/js"

	"converge/core/session"
)

// Opens in slices (docs/js-api.md, openAsync; docs/performance.md,
// "Longest task while an embed boots"). An open's work, the parse and
// sim.New's tick 0, is one call that takes seconds for the largest
// scenario (10,000 pods are created, placed and started at t=0). Here it
// runs in a goroutine that parks at the pieces core/session and core/sim
// mark (Session.Decide's pace: each controller's pass, each pod placed,
// each node's kubelet pass) once a slice has used session.SliceBudget, and
// resumes in a later task of the page (a MessageChannel message): while it
// is parked, the Go runtime is idle and returns to the page, which draws
// and answers input. The decision is the one Open makes whole (pace
// changes nothing: sim's TestNewPacedIsNew). Any other call on the
// instance finishes the open first, at once (finishOpen).

// openJob is one open in slices.
type openJob struct {
	inst *Instance
	// began is when the current slice began (monotonic, in ns).
	began int64
	// hurry makes pace return at once: the open is being finished.
	hurry bool
	// parked is set while the goroutine waits for resume.
	parked bool
	resume chan struct{}
	// done is closed once the open is applied and settled.
	done chan struct{}
}

// OpenInSlices is Open (the address's open, then the seek to its t) with
// the open's own work in slices; settle gets the result's JSON (an
// OpenResult, or {ok: false, error} for an internal error) once it is
// applied. The first slice runs before OpenInSlices returns.
func (i *Instance) OpenInSlices(a session.Address, settle func(string)) {
	i.finishOpen()
	j := &openJob{inst: i, resume: make(chan struct{}, 1), done: make(chan struct{}), began: int64(monotonic())}
	i.opening, i.openSlices = j, 1
	go func() {
		defer close(j.done)
		defer func() { i.opening = nil }()
		defer func() {
			if v := recover(); v != nil {
				settle(session.InternalErrorJSON("openAsync: " + panicText(v)))
			}
		}()
		o := i.Session.Decide(a, j.pace)
		j.hurry = true
		i.opening = nil
		if i.disposed {
			settle(session.JSON(session.FailedLoad(errDisposed(i))))
			return
		}
		settle(session.JSON(i.opened(i.Session.Apply(o)).Result()))
	}()
}

// pace parks the open's goroutine when its slice has used the budget,
// until a later task of the page wakes it.
func (j *openJob) pace() {
	budget := session.SliceBudget
	if j.inst.openBudget > 0 {
		budget = j.inst.openBudget
	}
	if j.hurry || int64(monotonic())-j.began < int64(budget) {
		return
	}
	j.parked = true
	nextTask(func() {
		if j.parked {
			j.parked = false
			j.resume <- struct{}{}
		}
	})
	<-j.resume
	j.began = int64(monotonic())
	if j.inst.opening == j {
		j.inst.openSlices++
	}
}

// finishOpen finishes the open in slices under way, if any, before
// anything else touches the instance: the rest of its work runs now,
// without parking.
func (i *Instance) finishOpen() {
	j := i.opening
	if j == nil {
		return
	}
	j.hurry = true
	if j.parked {
		j.parked = false
		j.resume <- struct{}{}
	}
	<-j.done
}

// tasks are the functions nextTask has yet to run, one a task.
var tasks struct {
	queue []func()
	port  js.Value
	run   js.Func
}

// nextTask runs f in a task of its own (a MessageChannel message; a
// timeout where there is none), after those queued before it.
func nextTask(f func()) {
	tasks.queue = append(tasks.queue, f)
	if tasks.run.IsUndefined() {
		tasks.run = js.FuncOf(func(js.Value, []js.Value) any {
			if len(tasks.queue) > 0 {
				f := tasks.queue[0]
				tasks.queue = tasks.queue[1:]
				f()
			}
			return nil
		})
		if ctor := js.Global().Get("MessageChannel"); ctor.Type() == js.TypeFunction {
			ch := ctor.New()
			ch.Get("port1").Set("onmessage", tasks.run)
			tasks.port = ch.Get("port2")
		}
	}
	if tasks.port.Type() == js.TypeObject {
		tasks.port.Call("postMessage", js.Null())
		return
	}
	js.Global().Call("setTimeout", tasks.run, 0)
}
