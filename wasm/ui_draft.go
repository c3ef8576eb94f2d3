//go:build js && wasm

package main

import (
	"time"

	"honnef.co/go/js/dom/v2"

	"converge/core/library"
	"converge/core/view"
)

// draftDelay is how long the editor waits after the last keystroke before
// it keeps the draft.
const draftDelay = 600 * time.Millisecond

// draftKeeper keeps the editor's text as a draft in the page's library as
// it is typed (applied or not), and after a reload offers it back
// (view.DraftOfferOf) in a box above the page with Restore and Discard.
type draftKeeper struct {
	a     *app
	timer *time.Timer
	// state is the editor toolbar's line that says the draft is kept.
	state *node
	// offer is the box with the offer, text its text; draft the text to
	// restore.
	offer, text, restore, discard *node
	draft                         string
}

func newDraftKeeper(a *app) *draftKeeper {
	d := a.d
	k := &draftKeeper{a: a, state: d.el("span", "cv-ed-draft cv-muted cv-small")}
	k.offer = d.el("div", "cv-note cv-draft-offer")
	k.offer.setHidden(true)
	k.text = d.el("p", "cv-note-text")
	k.text.setAttr("role", "status")
	k.restore = button(d, "cv-btn cv-primary", "Restore", "Put the draft into the editor")
	k.discard = button(d, "cv-btn", "Discard", "Forget the draft")
	k.offer.add(k.text, d.el("span", "cv-note-buttons").add(k.restore, k.discard))
	a.ls.on(k.restore, "click", func(dom.Event) { k.restoreDraft() })
	a.ls.on(k.discard, "click", func(dom.Event) { k.discardDraft() })
	return k
}

// edited notes that the editor holds text now: it is kept once typing
// pauses for draftDelay.
func (k *draftKeeper) edited(text string) {
	if k.timer != nil {
		k.timer.Stop()
	}
	from := k.a.inst.SavedAs
	if o := k.a.inst.Origin(); o.Name != "" {
		from = o.Name
	}
	inst := k.a.inst
	k.timer = time.AfterFunc(draftDelay, func() {
		var d library.Draft
		err := inst.storage.use(func(st *library.Store) (err error) {
			d, err = st.SaveDraft(text, from)
			return err
		})
		if err != nil {
			k.state.setText("The draft is not kept: " + err.Error())
			return
		}
		where := "in this browser"
		if !inst.storage.state().Persistent {
			where = "in memory"
		}
		k.state.setText("Draft kept " + where + " at " + d.Modified.In(time.Local).Format("15:04:05") + ".")
		k.a.storageChanged()
	})
}

// offerDraft looks for a draft once the page has opened and offers it
// when its text is not what the editor shows. It blocks: run it with
// app.async.
func (k *draftKeeper) offerDraft() {
	inst := k.a.inst
	var d library.Draft
	var has bool
	err := inst.storage.use(func(st *library.Store) (err error) {
		d, has, err = st.Draft()
		return err
	})
	k.a.storageChanged()
	// data-checked tells that the draft was looked at (the browser tests
	// wait for it).
	defer k.offer.setAttr("data-checked", "1")
	if err != nil || inst.Sim == nil {
		return
	}
	text, err := inst.Sim.Scenario().Marshal()
	if err != nil {
		return
	}
	// After a stop, the rescue's offer has the same edits: one offer.
	if rs := &k.a.rescue; rs.offer != nil && !rs.offer.hidden && rs.offered.Covers(d.Text) {
		return
	}
	if o, ok := view.DraftOfferOf(d, has, string(text), time.Local); ok {
		k.draft = o.Draft
		k.text.setText(o.Text)
		k.offer.setHidden(false)
	}
}

// restoreDraft puts the draft into the editor, as an edit to apply.
func (k *draftKeeper) restoreDraft() {
	a := k.a
	k.offer.setHidden(true)
	ed := a.editor()
	if ed == nil || a.inst.Sim == nil {
		return
	}
	a.selectTab("editor")
	ed.setEdit(a, k.draft)
	a.tabs.render(a)
	ed.text.Focus()
}

// discardDraft forgets the draft.
func (k *draftKeeper) discardDraft() {
	k.offer.setHidden(true)
	inst := k.a.inst
	k.a.async(func() {
		_ = inst.storage.use(func(st *library.Store) error { return st.DiscardDraft() })
	})
}

var _ workSaver = (*app)(nil)

// editedText is the editor's text and whether it holds edits (SaveWork).
func (a *app) editedText() (string, bool) {
	ed := a.editor()
	if ed == nil || !ed.model.Edited() {
		return "", false
	}
	return ed.text.value(), true
}
