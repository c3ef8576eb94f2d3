//go:build js && wasm

package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"converge/core/view"
)

// The page's rescue copy (view.Rescue; docs/limits.md): the page, not an
// embed, keeps the scenario as it runs and the editor's unapplied edits in
// sessionStorage whenever they change, so that nothing is lost should the
// Go runtime stop; converge.js marks the stop, and the reload in the same
// tab offers the copy back.

// rescuer keeps the app's rescue copy up to date.
type rescuer struct {
	// kept is what was last written; sim and steps the simulation and
	// its number of steps then, which tell a change without marshalling.
	kept  view.Rescue
	sim   any
	steps int
	// offer shows the offer after a stop, of offered.
	offer, text, restore, dismiss *node
	offered                       view.Rescue
}

// sessionStorage calls sessionStorage.method(args...), and reports false
// when there is none or it throws (a sandboxed frame, a full quota).
func sessionStorage(method string, args ...any) (v js.Value, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = js.Undefined(), false
		}
	}()
	s := js.Global().Get("sessionStorage")
	if s.Type() != js.TypeObject {
		return js.Undefined(), false
	}
	return s.Call(method, args...), true
}

// keepRescue writes the rescue copy when the scenario changed since the
// last write (a load, a command that added a step, an Apply).
func (a *app) keepRescue() {
	s := a.inst.Sim
	if a.opts.Embed || s == nil || (a.rescue.sim == any(s) && a.rescue.steps == len(s.Scenario().Steps)) {
		return
	}
	a.rescue.sim, a.rescue.steps = s, len(s.Scenario().Steps)
	y, err := s.Scenario().Marshal()
	if err != nil {
		y = a.inst.Source
	}
	r := a.rescue.kept
	r.Scenario, r.Name = string(y), a.inst.Name
	a.writeRescue(r)
}

// keepDraft writes the editor's text as the rescue's draft ("" when it
// has no unapplied edits).
func (a *app) keepDraft(text string) {
	if a.opts.Embed || text == a.rescue.kept.Draft {
		return
	}
	r := a.rescue.kept
	r.Draft = text
	a.writeRescue(r)
}

func (a *app) writeRescue(r view.Rescue) {
	a.rescue.kept = r
	sessionStorage("setItem", view.RescueKey, r.JSON())
}

// offerRescue shows, after a stop, the offer to restore the rescue copy
// kept before it (the page only).
func (a *app) offerRescue() *node {
	d := a.d
	rs := &a.rescue
	rs.offer = d.el("div", "cv-rescue")
	rs.offer.setAttr("role", "alert")
	rs.text = d.el("span", "")
	rs.restore = button(d, "cv-btn cv-primary", "", "")
	rs.dismiss = button(d, "cv-btn", "", "")
	rs.offer.add(rs.text, rs.restore, rs.dismiss)
	rs.offer.setHidden(true)
	stopped, _ := sessionStorage("getItem", view.RescueStoppedKey)
	stored, _ := sessionStorage("getItem", view.RescueKey)
	if stopped.Type() != js.TypeString || stored.Type() != js.TypeString {
		return rs.offer
	}
	r, ok := view.ParseRescue(stored.String())
	if !ok {
		return rs.offer
	}
	o := view.OfferOf(r)
	rs.offered = r
	rs.text.setText(o.Text)
	rs.restore.setText(o.Restore)
	rs.dismiss.setText(o.Dismiss)
	rs.offer.setHidden(false)
	done := func() {
		sessionStorage("removeItem", view.RescueStoppedKey)
		rs.offer.setHidden(true)
	}
	a.ls.on(rs.restore, "click", func(dom.Event) {
		done()
		a.restore(r)
	})
	a.ls.on(rs.dismiss, "click", func(dom.Event) { done() })
	return rs.offer
}

// restore loads a rescue copy: its scenario, and its draft into the
// editor, as one action.
func (a *app) restore(r view.Rescue) {
	a.inst.Batch(func() {
		a.play.halt()
		if r.Scenario != "" && !a.inst.Load([]byte(r.Scenario)).HasErrors() {
			a.shareURL()
		}
		if r.Draft != "" && a.selectTab("editor") {
			if ed, ok := a.tabs.panels["editor"].(*editorPanel); ok && a.inst.Sim != nil {
				ed.render(a)
				ed.text.setValue(r.Draft)
				ed.model.Edit(r.Draft)
				a.keepDraft(r.Draft)
			}
		}
	})
}
