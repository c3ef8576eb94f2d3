//go:build js && wasm

package main

import (
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
)

// settled is how a promise ended: its value, or its rejection's name and
// message.
type settled struct {
	value     js.Value
	rejected  bool
	name, msg string
}

// awaitSettled waits for promise under Node (the Go runtime hands the event loop
// back to JS while the test waits).
func awaitSettled(t *testing.T, promise js.Value) settled {
	t.Helper()
	ch := make(chan settled, 1)
	onOK := js.FuncOf(func(_ js.Value, a []js.Value) any {
		ch <- settled{value: a[0]}
		return nil
	})
	onErr := js.FuncOf(func(_ js.Value, a []js.Value) any {
		ch <- settled{rejected: true, name: a[0].Get("name").String(), msg: a[0].Get("message").String(), value: a[0]}
		return nil
	})
	defer onOK.Release()
	defer onErr.Release()
	promise.Call("then", onOK, onErr)
	select {
	case s := <-ch:
		return s
	case <-time.After(60 * time.Second):
		t.Fatal("the promise did not settle")
	}
	return settled{}
}

func loaded(t *testing.T) js.Value {
	t.Helper()
	obj := newTestPage(t).def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	return obj
}

// TestSeekRefusesWhatWouldFreezeThePage: a synchronous jump (seek, moveTo,
// step, advance) estimated beyond about a second is refused, and the
// message names seekAsync; the simulation stays where it was.
func TestSeekRefusesWhatWouldFreezeThePage(t *testing.T) {
	t.Parallel()
	obj := loaded(t)
	rawCall(obj, "seek", 10)
	for _, tc := range []struct{ fn, want string }{
		{"seek", "Error: seek(86400) would compute 86,390 simulated seconds"},
		{"moveTo", "Error: moveTo(86400) would compute 86,390 simulated seconds"},
	} {
		got := errorOf(rawCall(obj, tc.fn, 86400))
		assert.Contains(t, got, tc.want)
		assert.Contains(t, got, "use seekAsync(86400), which works in slices")
	}
	got := errorOf(rawCall(obj, "step", 86000))
	assert.Contains(t, got, "Error: step(86000) would compute 86,000 simulated seconds")
	assert.Contains(t, got, "use seekAsync(86010)")
	assert.Contains(t, errorOf(rawCall(obj, "advance", 86000)), "use seekAsync(86010)")
	assert.Equal(t, 10, rawCall(obj, "time").Int(), "a refused call changes nothing")
	assert.Equal(t, 40, rawCall(obj, "moveTo", 40).Int(), "a short one goes")
}

// TestSeekAsync: the promise resolves with the snapshot of t (the trace
// line, as seek's), after onProgress saw the seconds go up.
func TestSeekAsync(t *testing.T) {
	t.Parallel()
	obj := loaded(t)
	var seen []int
	progress := js.FuncOf(func(_ js.Value, a []js.Value) any {
		p := a[0]
		seen = append(seen, p.Get("t").Int())
		assert.Equal(t, 5000, p.Get("target").Int())
		assert.Equal(t, 0, p.Get("from").Int())
		return nil
	})
	defer progress.Release()
	opts := js.Global().Get("Object").New()
	opts.Set("onProgress", progress)
	s := awaitSettled(t, rawCall(obj, "seekAsync", 5000, opts))
	require.False(t, s.rejected, s.msg)
	native := simrun.Load(t, webYAML)
	native.SeekTo(5000)
	want, err := native.TraceLine()
	require.NoError(t, err)
	assert.True(t, string(want) == s.value.String(), "the snapshot of 5000")
	assert.Equal(t, 5000, rawCall(obj, "time").Int())
	require.NotEmpty(t, seen, "5,000 seconds take more than one slice")
	assert.IsIncreasing(t, seen)
}

// TestSeekAsyncAborts: an aborted signal stops the seek at a whole second
// before the target, and the promise rejects with the signal's reason.
func TestSeekAsyncAborts(t *testing.T) {
	t.Parallel()
	obj := loaded(t)
	ctrl := js.Global().Get("AbortController").New()
	progress := js.FuncOf(func(_ js.Value, a []js.Value) any {
		ctrl.Call("abort")
		return nil
	})
	defer progress.Release()
	opts := js.Global().Get("Object").New()
	opts.Set("onProgress", progress)
	opts.Set("signal", ctrl.Get("signal"))
	s := awaitSettled(t, rawCall(obj, "seekAsync", 80000, opts))
	require.True(t, s.rejected)
	assert.Equal(t, "AbortError", s.name)
	assert.True(t, s.value.Equal(ctrl.Get("signal").Get("reason")), "the signal's own reason")
	at := rawCall(obj, "time").Int()
	assert.Positive(t, at)
	assert.Less(t, at, 80000)
	native := simrun.Load(t, webYAML)
	native.SeekTo(int64(at))
	want, _ := native.TraceLine()
	assert.True(t, string(want) == rawCall(obj, "snapshot").String(), "a whole, consistent second")

	aborted := js.Global().Get("AbortController").New()
	aborted.Call("abort")
	opts = js.Global().Get("Object").New()
	opts.Set("signal", aborted.Get("signal"))
	s = awaitSettled(t, rawCall(obj, "seekAsync", 0, opts))
	assert.True(t, s.rejected, "an aborted signal does nothing")
	assert.Equal(t, at, rawCall(obj, "time").Int())
}

// TestSeekAsyncIsStoppedByOtherChanges: a later seek, a step, a load or a
// dispose ends the seek under way with an AbortError that says why.
func TestSeekAsyncIsStoppedByOtherChanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		act  func(obj js.Value)
		want string
	}{
		{"a later seek", func(obj js.Value) { rawCall(obj, "seekAsync", 3) }, "seekAsync: superseded by a later seek to t=3"},
		{"a step", func(obj js.Value) { rawCall(obj, "step") }, "seekAsync: stopped by a step"},
		{"a load", func(obj js.Value) { rawCall(obj, "load", webYAML) }, "seekAsync: stopped by a load"},
		{"a dispose", func(obj js.Value) { rawCall(obj, "dispose") }, "seekAsync: simulation 1 is disposed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj := loaded(t)
			promise := rawCall(obj, "seekAsync", 80000)
			tc.act(obj)
			s := awaitSettled(t, promise)
			require.True(t, s.rejected)
			assert.Equal(t, "AbortError", s.name)
			assert.Equal(t, tc.want, s.msg)
		})
	}
}

func TestSeekAsyncChecksItsArguments(t *testing.T) {
	t.Parallel()
	obj := loaded(t)
	assert.Equal(t, "TypeError: seekAsync: t must be a second between 0 and 86400, not the number 90000", errorOf(rawCall(obj, "seekAsync", 90000)))
	opts := js.Global().Get("Object").New()
	opts.Set("onProgress", 3)
	assert.Equal(t, "TypeError: seekAsync: options.onProgress must be a function, not the number 3", errorOf(rawCall(obj, "seekAsync", 9, opts)))
	opts = js.Global().Get("Object").New()
	opts.Set("signal", "x")
	assert.Equal(t, `TypeError: seekAsync: options.signal must be an AbortSignal, not the string "x"`, errorOf(rawCall(obj, "seekAsync", 9, opts)))
}

// TestSeekAcrossFrames: a seek's one-second steps are paced (a budget of a
// nanosecond parks at every piece): the second goes across frames, a read
// between them sees a whole second (never half of one), and the seek ends
// where SeekTo does.
func TestSeekAcrossFrames(t *testing.T) {
	t.Parallel()
	p, want := bigRollout(t), bigRollout(t)
	p.def.seekBudget = time.Nanosecond
	want.def.SeekTo(12)
	wantLine := rawCall(want.def.obj, "snapshot").String()
	before := rawCall(p.def.obj, "snapshot").String()

	// Between frames (each slice is a frame), a timer reads the instance.
	parkedReads, halfSeen := 0, false
	ticked := make(chan struct{})
	var tick js.Func
	tick = js.FuncOf(func(js.Value, []js.Value) any {
		if j := p.def.seek; j != nil && j.run != nil && j.run.parked {
			parkedReads++
			if at := rawCall(p.def.obj, "time").Int(); at == 10 {
				halfSeen = halfSeen || rawCall(p.def.obj, "snapshot").String() != before
			}
		}
		if p.def.seek == nil {
			close(ticked) // the last tick: nothing calls tick after this
			return nil
		}
		js.Global().Call("setTimeout", tick, 0)
		return nil
	})
	defer func() {
		<-ticked
		tick.Release()
	}()
	done := make(chan error, 1)
	p.def.SeekAsync(12, nil, js.Undefined(), func(err error) { done <- err })
	require.NotNil(t, p.def.seek, "the first slice parked mid-second")
	require.NotNil(t, p.def.seek.run)
	assert.Equal(t, 10, rawCall(p.def.obj, "time").Int(), "the second before is shown")
	assert.Equal(t, before, rawCall(p.def.obj, "snapshot").String())
	js.Global().Call("setTimeout", tick, 0)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Minute): // a bound on a hang, not a timing
		t.Fatal("the seek did not end")
	}
	assert.Positive(t, parkedReads, "reads happened while a second was parked")
	assert.False(t, halfSeen, "a read mid-second saw the second before, whole")
	assert.Equal(t, 12, rawCall(p.def.obj, "time").Int())
	assert.True(t, wantLine == rawCall(p.def.obj, "snapshot").String(), "the state SeekTo(12) gives")
}

// TestAChangeFinishesTheSeeksSecondFirst: a step while a seek's second is
// parked finishes that second (the seek stops there, as it stops at a
// whole second) and then steps from it.
func TestAChangeFinishesTheSeeksSecondFirst(t *testing.T) {
	t.Parallel()
	p, want := bigRollout(t), bigRollout(t)
	p.def.seekBudget = time.Nanosecond
	var ended []error
	p.def.SeekAsync(30, nil, js.Undefined(), func(err error) { ended = append(ended, err) })
	require.NotNil(t, p.def.seek)
	require.NotNil(t, p.def.seek.run, "parked mid-second")
	rawCall(p.def.obj, "step", 1)
	assert.Nil(t, p.def.seek)
	require.Len(t, ended, 1)
	assert.EqualError(t, ended[0], "stopped by a step")
	assert.Equal(t, 12, rawCall(p.def.obj, "time").Int(), "the parked second 11 was finished, then the step")
	want.def.SeekTo(12)
	assert.True(t, rawCall(want.def.obj, "snapshot").String() == rawCall(p.def.obj, "snapshot").String())
}
