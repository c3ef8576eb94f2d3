//go:build js && wasm

package main

import (
	"bytes"
	"syscall/js"
	"time"

	"converge/core/session"
	"converge/core/view"
)

// traceSlice is about how long one slice of a trace download works before
// the page gets the main thread back.
const traceSlice = 50 * time.Millisecond

// downloadTrace builds the trace for Download, Trace in slices
// (export.TraceStream): about 50 ms of work, then the browser paints and
// handles input. The share bar's note shows the progress, with the size
// estimate from the first slice on; a trace estimated beyond
// export.MaxTraceDownload is refused then. Dismissing the note cancels.
// The lines go into the file as JavaScript byte arrays, slice by slice.
func (a *app) downloadTrace() {
	s := a.shareBar
	if s.traceCancel != nil {
		return // one at a time
	}
	ts, name, err := session.TraceDownload(a.inst.Sim.Scenario())
	if err != nil {
		s.say(session.DownloadFailed(err), view.ToneBad, "")
		return
	}
	cancelled := false
	s.traceCancel = func() { cancelled = true }
	a.async(func() {
		defer func() { s.traceCancel = nil }()
		var parts []any
		var b bytes.Buffer
		first := true
		for {
			b.Reset()
			start := time.Now()
			done := false
			for !done && time.Since(start) < traceSlice {
				if done, err = ts.Next(&b, 1); err != nil {
					break
				}
			}
			if err == nil && first {
				err = ts.CheckEstimate()
				first = false
			}
			if err != nil {
				s.say(session.DownloadFailed(err), view.ToneBad, "")
				return
			}
			part := js.Global().Get("Uint8Array").New(b.Len())
			js.CopyBytesToJS(part, b.Bytes())
			parts = append(parts, part)
			if done {
				saveParts(name, session.TypeJSONL, parts)
				s.note.setHidden(true)
				return
			}
			s.say(ts.ProgressText(), view.ToneMuted, "")
			time.Sleep(time.Millisecond) // the browser's turn
			if cancelled {
				s.say("The trace download is cancelled.", view.ToneMuted, "")
				return
			}
		}
	})
}

// saveParts offers the byte arrays parts, one after the other, as a file
// download.
func saveParts(name, typ string, parts []any) {
	g := js.Global()
	opts := g.Get("Object").New()
	opts.Set("type", typ)
	blob := g.Get("Blob").New(parts, opts)
	url := g.Get("URL").Call("createObjectURL", blob)
	link := g.Get("document").Call("createElement", "a")
	link.Set("href", url)
	link.Set("download", name)
	link.Call("click")
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		g.Get("URL").Call("revokeObjectURL", url)
		revoke.Release()
		return nil
	})
	g.Call("setTimeout", revoke, 60_000)
}
