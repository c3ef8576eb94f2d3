//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"converge/core/library"
	"converge/core/session"
	"converge/core/sim"
	"converge/core/view"
)

// sharePart is the Share button and the Download menu in the page's top
// bar, and the note under it that says what they (and imports, saves, the
// storage) did: a message, with the link to copy by hand when there is one.
// What a link is and what the texts say is decided in core/view
// (session.ShareOf and its texts); this draws them.
type sharePart struct {
	el, share, menuBtn, menu            *node
	note, noteText, noteLink, noteClose *node
	// addressTimer holds back the address update after a change of time
	// (addressLater).
	addressTimer *time.Timer
	// traceCancel cancels the trace download under way (downloadTrace).
	traceCancel func()
	// addressSaid is the simulation whose address was too large to write,
	// once the page has said so (view.AddressTooLarge).
	addressSaid *sim.Sim
}

// downloads are the Download menu's entries: key, label, what it is.
var downloads = []struct{ key, label, title string }{
	{"yaml", "Scenario (.yaml)", "The scenario as it runs, with the steps added from the console"},
	{"sh", "Replay on a cluster (.sh)", "A bash script that replays the scenario with kubectl on a real cluster (kind)"},
	{"jsonl", "Trace (.jsonl)", "The trace from 0s to the end, as converge run --output jsonl writes it"},
	{"svg", "Charts (.svg)", "The charts up to now, as an SVG image"},
}

func newShare(a *app) *sharePart {
	d := a.d
	s := &sharePart{el: d.el("div", "cv-actions")}
	s.share = button(d, "cv-btn cv-share-btn", "Share", "Copy a link to this scenario at this second")
	s.menuBtn = button(d, "cv-btn cv-menu-btn", "Download ▾", "Download the scenario, a replay script, the trace or the charts")
	s.menuBtn.setAttr("aria-haspopup", "true")
	s.menuBtn.setAttr("aria-expanded", "false")
	s.menu = d.el("div", "cv-menu")
	s.menu.setAttr("role", "menu")
	s.menu.setHidden(true)
	for _, dl := range downloads {
		b := button(d, "cv-menu-item", dl.label, "")
		b.setAttr("title", dl.title)
		b.setAttr("role", "menuitem")
		b.setAttr("data-download", dl.key)
		s.menu.add(b)
	}
	s.el.add(s.share, d.el("div", "cv-menu-wrap").add(s.menuBtn, s.menu))

	s.note = d.el("div", "cv-note")
	s.note.setHidden(true)
	s.noteText = d.el("p", "cv-note-text")
	s.noteText.setAttr("role", "status")
	s.noteLink = d.el("input", "cv-input cv-mono cv-note-link")
	s.noteLink.setAttr("type", "text")
	s.noteLink.setAttr("readonly", "readonly")
	s.noteLink.setAttr("aria-label", "The link")
	s.noteClose = button(d, "cv-link cv-note-close", "Dismiss", "Dismiss this note")
	s.note.add(s.noteText, s.noteLink, s.noteClose)

	a.ls.on(s.share, "click", func(dom.Event) { a.shareClicked() })
	wrap := s.menu
	a.ls.on(s.menuBtn, "click", func(dom.Event) { s.hideMenu(!s.menu.hidden) })
	a.ls.on(s.menu, "click", func(ev dom.Event) {
		if k := targetAttr(ev, "data-download"); k != "" {
			s.hideMenu(true)
			a.download(k)
		}
	})
	// A click elsewhere, or Escape, closes the menu.
	a.ls.on(dom.GetWindow().Document(), "click", func(ev dom.Event) {
		t := ev.Underlying().Get("target")
		if !s.menu.hidden && !wrap.Value.Call("contains", t).Bool() && !s.menuBtn.Value.Call("contains", t).Bool() {
			s.hideMenu(true)
		}
	})
	a.ls.on(s.menu, "keydown", func(ev dom.Event) {
		if ev.Underlying().Get("key").String() == "Escape" {
			s.hideMenu(true)
			s.menuBtn.Focus()
		}
	})
	a.ls.on(s.noteClose, "click", func(dom.Event) {
		s.note.setHidden(true)
		if s.traceCancel != nil {
			s.traceCancel()
		}
	})
	a.ls.on(s.noteLink, "focus", func(dom.Event) { s.noteLink.Value.Call("select") })
	return s
}

// hideMenu hides the Download menu, or shows it.
func (s *sharePart) hideMenu(hide bool) {
	s.menu.setHidden(hide)
	s.menuBtn.setAttr("aria-expanded", map[bool]string{true: "false", false: "true"}[hide])
}

// say shows a note: text, and link in a field to copy when it is not "".
// tone is "ok", "muted" or "bad".
func (s *sharePart) say(text string, tone view.Tone, link string) {
	s.note.setClass("cv-note cv-" + string(tone))
	s.noteText.setText(text)
	s.noteLink.setValue(link)
	s.noteLink.setHidden(link == "")
	s.note.setHidden(false)
}

// shareClicked copies the link to the scenario at this second (session.ShareOf),
// or, for a scenario too large for a link, saves it in My scenarios and
// says so.
func (a *app) shareClicked() {
	if a.inst.Sim == nil {
		return
	}
	l, err := a.inst.Link()
	if err != nil {
		a.shareBar.say("No link: "+err.Error(), view.ToneBad, "")
		return
	}
	loc := js.Global().Get("location")
	sh := session.ShareOf(loc.Get("origin").String()+loc.Get("pathname").String(), l)
	if sh.TooLarge {
		a.saveTooLarge(l, sh)
		return
	}
	a.syncAddress()
	clip := js.Global().Get("navigator").Get("clipboard")
	if clip.Type() != js.TypeObject || clip.Get("writeText").Type() != js.TypeFunction {
		a.shareBar.say(view.ShareByHand, view.ToneMuted, sh.URL)
		return
	}
	// writeText needs the click's user activation: call it now, from the
	// handler, and take the outcome when its promise settles.
	promise, err := callJS(clip, "writeText", sh.URL)
	if err != nil {
		a.shareBar.say(view.ShareByHand, view.ToneMuted, sh.URL)
		return
	}
	then(promise, func(js.Value) { a.shareBar.say(view.ShareCopied(l.T), view.ToneOK, sh.URL) },
		func(error) { a.shareBar.say(view.ShareByHand, view.ToneMuted, sh.URL) })
}

// saveTooLarge keeps a scenario too large for a link in My scenarios,
// under its name (the same save again on a second Share), and says why
// there is no link.
func (a *app) saveTooLarge(l session.Link, sh session.Share) {
	s := a.shareBar
	inst := a.inst
	a.async(func() {
		name := ""
		err := inst.storage.use(func(st *library.Store) (err error) {
			name, err = inst.SaveTooLarge(st, l)
			return err
		})
		if err == nil {
			s.say(view.ShareTooLarge(sh.Size, name, nil), view.ToneMuted, "")
		} else {
			s.say(view.ShareTooLarge(sh.Size, "", err), view.ToneBad, "")
		}
		a.storageChanged()
	})
}

// syncAddress writes the page's address for what it shows now (session.Link:
// ?scenario=NAME or #s=SHARE, with &t=), so that a reload or a copied
// address opens the same. A scenario too large for a link leaves the
// address as it is, and says so once (view.AddressTooLarge).
func (a *app) syncAddress() {
	if a.opts.Embed || a.inst.Sim == nil {
		return
	}
	u, ok := a.inst.PageAddress(js.Global().Get("location").Get("pathname").String())
	if !ok {
		if msg := a.inst.AddressProblem(); msg != "" && a.shareBar.addressSaid != a.inst.Sim {
			a.shareBar.addressSaid = a.inst.Sim
			a.shareBar.say(msg, view.ToneBad, "")
		}
		return
	}
	if js.Global().Get("location").Get("href").String() != js.Global().Get("location").Get("origin").String()+u {
		a.replaceURL(u)
	}
}

// addressLater writes the address once time has stopped moving for a
// moment (a step, a seek, the scrubber, a pause): the browser limits how
// often a page may rewrite its address.
func (a *app) addressLater() {
	if a.opts.Embed {
		return
	}
	s := a.shareBar
	if s.addressTimer != nil {
		s.addressTimer.Stop()
	}
	s.addressTimer = time.AfterFunc(400*time.Millisecond, a.syncAddress)
}

// download saves one of the downloads (see downloads) as a file.
func (a *app) download(kind string) {
	if kind == "jsonl" && a.inst.Sim != nil {
		a.downloadTrace() // in slices, with progress and Cancel
		return
	}
	f, ok, err := a.inst.Download(kind, a.focus)
	switch {
	case !ok:
		return
	case err != nil:
		a.shareBar.say(session.DownloadFailed(err), view.ToneBad, "")
		return
	}
	saveFile(f.Name, f.Type, f.Data)
}

// saveFile offers data to the browser as a file download (saveParts with
// one part).
func saveFile(name, typ string, data []byte) {
	bytes := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(bytes, data)
	saveParts(name, typ, []any{bytes})
}

// async runs f in a goroutine (for work that blocks, such as the
// library's IndexedDB), reporting a panic on the console as a render's
// would be.
func (a *app) async(f func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				js.Global().Get("console").Call("error", "converge: internal error: "+panicText(r))
			}
		}()
		f()
	}()
}

// callJS calls obj.name(args...), turning a JS exception into an error.
func callJS(obj js.Value, name string, args ...any) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errorOfPanic(r)
		}
	}()
	return obj.Call(name, args...), nil
}

func errorOfPanic(r any) error {
	if e, ok := r.(error); ok {
		return e
	}
	return errors.New(panicText(r))
}

// then calls ok or fail when promise settles, without blocking.
func then(promise js.Value, ok func(js.Value), fail func(error)) {
	var okFn, failFn js.Func
	release := func() { okFn.Release(); failFn.Release() }
	okFn = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		ok(argOf(args))
		return nil
	})
	failFn = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		fail(errors.New(jsErrorText(argOf(args))))
		return nil
	})
	promise.Call("then", okFn, failFn)
}
