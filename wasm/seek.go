//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"converge/core/session"
)

// Seeks in slices (docs/js-api.md, seekAsync; docs/limits.md). A seek far
// ahead would keep the page's only thread busy for seconds, or minutes: it
// goes in slices of about 50 ms instead (session.Seek decides what each
// does), one per animation frame, and between them the page draws the
// progress and handles input. An instance has at most one seek under way;
// any other change of the instance (a load, a step, a seek, a command, a
// dispose) ends it first, at the whole second it reached.
//
// A slice runs in a goroutine (seekRun): a second that costs more than a
// slice (at 10,000 pods, a second of a rollout or of the pods' start costs
// seconds) is computed with session.Seek.SlicePaced, which parks the
// goroutine mid-second once the frame's budget is used; the next frame
// resumes it. Meanwhile the simulation's readers show the second before
// (sim.Sim.StepPaced), and stopping the seek finishes that second first.

// seekJob is one seek in slices.
type seekJob struct {
	inst *Instance
	seek *session.Seek
	// onProgress is called after every slice but the last (nil: none).
	onProgress func(session.Progress)
	// signal is the caller's AbortSignal, or undefined.
	signal js.Value
	// settle ends the job: a nil error when it reached its target.
	settle func(err error)
	// next runs the next slice; handle is its pending frame or timeout.
	next    js.Func
	handle  js.Value
	byFrame bool
	// run is the slice under way, parked mid-second, if any.
	run *seekRun
}

// seekRun is one slice of a seek, computed as frameWork.
type seekRun struct {
	frameWork
	// finished: the seek reached its target; err: the slice panicked.
	finished bool
	err      error
}

// startSlice runs a slice of j's seek in a goroutine; it returns when the
// slice is done or parks.
func (j *seekJob) startSlice() *seekRun {
	budget := session.SliceBudget
	if j.inst.seekBudget > 0 {
		budget = j.inst.seekBudget
	}
	r := &seekRun{frameWork: newFrameWork(budget)}
	go func() {
		defer func() {
			if v := recover(); v != nil {
				r.err = fmt.Errorf("internal error: seekAsync: %s", panicText(v))
			}
			r.parked = false
			r.yielded <- struct{}{}
		}()
		r.finished = j.seek.SlicePaced(r.pace)
	}()
	<-r.yielded
	return r
}

// pace parks the slice once its frame has used the budget, until step,
// and says whether it did.
func (r *seekRun) pace() bool {
	if !r.due() {
		return false
	}
	r.park()
	return true
}

// errCancelled is the end of a seek the page's Cancel stopped.
var errCancelled = errors.New("the seek was cancelled")

// monotonic is the page's clock for measuring work (performance.now,
// through the Go runtime's monotonic time).
var epoch = time.Now()

func monotonic() time.Duration { return time.Since(epoch) }

// SeekAsync moves the simulation to t (clamped to 0..MaxSeconds) in
// slices (Session.NewSeek; session.Seek decides what a slice does). The
// first slice runs now, so a short seek is done when SeekAsync returns
// (and draws once, as SeekTo does); a longer one goes on in later frames,
// drawing its progress (Seeking), and draws the whole page once it is
// done. settle, if not nil, is told how it ended. Without a simulation it
// settles at once with session.ErrNoScenario.
func (i *Instance) SeekAsync(t int64, onProgress func(session.Progress), signal js.Value, settle func(error)) {
	if settle == nil {
		settle = func(error) {}
	}
	k, err := i.NewSeek(t)
	if err != nil {
		settle(err)
		return
	}
	j := &seekJob{inst: i, seek: k, onProgress: onProgress, signal: signal, settle: settle}
	i.seek = j
	j.slice()
}

// Seeking is the seek under way, if any.
func (i *Instance) Seeking() (session.Progress, bool) {
	if i.seek == nil {
		return session.Progress{}, false
	}
	return i.seek.seek.Progress(), true
}

// CancelSeek stops the seek under way (the page's Cancel) at the second it
// reached, and draws the page there.
func (i *Instance) CancelSeek() {
	if i.seek != nil {
		i.stopSeek(errCancelled)
		i.Changed()
	}
}

// stopSeek ends the seek under way, if any, with err, where it is. It
// draws nothing: the change that stops it draws.
func (i *Instance) stopSeek(err error) {
	if j := i.seek; j != nil {
		j.end(err)
	}
}

// slice runs one slice, then finishes the job or schedules the next.
func (j *seekJob) slice() {
	defer func() {
		if v := recover(); v != nil {
			j.end(fmt.Errorf("internal error: seekAsync: %s", panicText(v)))
		}
	}()
	if j.aborted() {
		return
	}
	r := j.run
	if r == nil {
		r = j.startSlice()
	} else {
		r.step()
	}
	if r.parked {
		j.run = r
		j.schedule()
		return
	}
	j.run = nil
	if r.err != nil {
		j.end(r.err)
		return
	}
	if r.finished {
		inst := j.inst
		j.end(nil)
		inst.Changed()
		return
	}
	if j.onProgress != nil {
		j.onProgress(j.seek.Progress())
	}
	if j.inst.seek != j || j.aborted() {
		return // onProgress cancelled it
	}
	j.inst.progressed()
	j.schedule()
}

// aborted ends the job when the caller's signal is aborted.
func (j *seekJob) aborted() bool {
	if j.signal.Type() != js.TypeObject || !j.signal.Get("aborted").Truthy() {
		return false
	}
	j.end(&abortError{reason: j.signal.Get("reason")})
	j.inst.Changed()
	return true
}

// abortError carries an AbortSignal's reason, which the promise rejects
// with.
type abortError struct{ reason js.Value }

func (e *abortError) Error() string { return "aborted" }

// schedule runs the next slice in the next animation frame, or, where
// there are none (a hidden tab, Node), in a timeout.
func (j *seekJob) schedule() {
	if j.next.IsUndefined() {
		j.next = js.FuncOf(func(js.Value, []js.Value) any {
			j.handle = js.Undefined()
			if j.inst.seek == j {
				j.slice()
			}
			return nil
		})
	}
	g := js.Global()
	doc := g.Get("document")
	visible := doc.Type() == js.TypeObject && doc.Get("visibilityState").String() != "hidden"
	if raf := g.Get("requestAnimationFrame"); raf.Type() == js.TypeFunction && visible {
		j.handle, j.byFrame = g.Call("requestAnimationFrame", j.next), true
		return
	}
	j.handle, j.byFrame = g.Call("setTimeout", j.next, 0), false
}

// end finishes the job with err (nil: done): it cancels the pending slice,
// releases the slice function and settles.
func (j *seekJob) end(err error) {
	if r := j.run; r != nil {
		j.run = nil
		j.seek.Halt()
		r.finish()
	}
	if j.inst.seek == j {
		j.inst.seek = nil
	}
	if !j.handle.IsUndefined() && !j.handle.IsNull() {
		if j.byFrame {
			js.Global().Call("cancelAnimationFrame", j.handle)
		} else {
			js.Global().Call("clearTimeout", j.handle)
		}
		j.handle = js.Undefined()
	}
	if !j.next.IsUndefined() {
		j.next.Release()
		j.next = js.Func{}
	}
	if settle := j.settle; settle != nil {
		j.settle = nil
		settle(err)
	}
}

// progressRenderer is a renderer that draws a seek's progress on its own,
// between slices, without drawing the rest.
type progressRenderer interface {
	Progress(inst *Instance)
}

// progressed draws the progress of the seek under way in every renderer
// that can.
func (i *Instance) progressed() {
	for _, m := range i.mounts {
		if pr, ok := m.renderer.(progressRenderer); ok {
			func() {
				defer func() {
					if v := recover(); v != nil {
						js.Global().Get("console").Call("error", fmt.Sprintf("converge: internal error while drawing simulation %d: %s", i.ID, panicText(v)))
					}
				}()
				pr.Progress(i)
			}()
		}
	}
}

// jsError of a seek's end, for its promise: the AbortSignal's reason, an
// AbortError DOMException for a seek superseded, cancelled or disposed,
// else an Error.
func seekRejection(err error) js.Value {
	var ae *abortError
	if errors.As(err, &ae) && !ae.reason.IsUndefined() {
		return ae.reason
	}
	if errors.Is(err, errCancelled) || errors.As(err, &ae) || isStop(err) {
		if ctor := js.Global().Get("DOMException"); ctor.Type() == js.TypeFunction {
			return ctor.New("seekAsync: "+err.Error(), "AbortError")
		}
	}
	return jsError("Error", "seekAsync: "+err.Error())
}

// stopError is the end of a seek that another change of the instance
// stopped.
type stopError struct{ msg string }

func (e *stopError) Error() string { return e.msg }

func isStop(err error) bool {
	var se *stopError
	return errors.As(err, &se)
}

// seekPromise starts inst's seek to t for the JS API's seekAsync and
// returns its promise: resolved with the snapshot of t (the JSON string
// converge.js parses), rejected with the signal's reason when it is
// aborted, with an AbortError when another change of the instance stops
// it. onProgress, a JS function or undefined, gets {t, from, target,
// fraction} after each slice.
func seekPromise(inst *Instance, t int64, onProgress, signal js.Value) js.Value {
	var resolve, reject js.Value
	executor := js.FuncOf(func(_ js.Value, a []js.Value) any {
		resolve, reject = a[0], a[1]
		return nil
	})
	promise := js.Global().Get("Promise").New(executor)
	executor.Release()
	var progress func(session.Progress)
	if onProgress.Type() == js.TypeFunction {
		progress = func(p session.Progress) {
			o := js.Global().Get("Object").New()
			o.Set("t", p.T)
			o.Set("from", p.From)
			o.Set("target", p.Target)
			o.Set("fraction", p.Fraction)
			onProgress.Invoke(o)
		}
	}
	inst.SeekAsync(t, progress, signal, func(err error) {
		if err != nil {
			reject.Invoke(seekRejection(err))
			return
		}
		line, lerr := inst.TraceLine()
		if lerr != nil {
			reject.Invoke(jsError("Error", lerr.Error()))
			return
		}
		resolve.Invoke(line)
	})
	return promise
}
