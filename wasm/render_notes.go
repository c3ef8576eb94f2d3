//go:build js && wasm

package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"converge/core/scenario"
	"converge/core/sim"
	"converge/core/view"
)

// captionPart draws the scenario's notes (view.CaptionOf) as a caption in
// the sticky time bar: the note's second, its text drawn element by
// element from the Markdown subset's spans (text is only ever
// textContent, a link's address only ever an http or https href that
// core/scenario checked), and Continue while play stopped at a note that
// pauses. The note's focus is highlighted and scrolled into view when the
// note is first shown. In an embed it is drawn only with the captions
// option (<converge-sim captions>).
type captionPart struct {
	el, at, notes, cont *node
	// key is the caption drawn ("" for none); focused the element
	// highlighted for it.
	key     string
	focused js.Value
	// sim is the simulation drawn: a new one draws its caption afresh.
	sim *sim.Sim
	// scroll is set once the simulation's first caption is drawn: the
	// page opens where it opens (its intro in view), and a note reached
	// later by play, a step or a seek scrolls its focus into view.
	scroll bool
}

// notesOn reports whether the app shows captions and pauses at notes: the
// page always, an embed when asked (MountOptions.Captions).
func (a *app) notesOn() bool { return !a.opts.Embed || a.opts.Captions }

func newCaption(a *app) *captionPart {
	d := a.d
	c := &captionPart{el: d.el("section", "cv-caption"), at: d.el("span", "cv-caption-at cv-mono"), notes: d.el("div", "cv-caption-notes"),
		cont: button(d, "cv-btn cv-continue", "Continue ▶", "Continue playing (space or Enter)")}
	c.el.setAttr("aria-label", "Note")
	c.el.setAttr("aria-live", "polite")
	c.cont.setAttr("aria-keyshortcuts", "Space Enter")
	c.el.add(c.at, c.notes, c.cont)
	c.el.setHidden(true)
	c.focused = js.Null()
	a.ls.on(c.cont, "click", func(dom.Event) { a.play.start() })
	var target eventTarget = a.el
	if !a.opts.Embed {
		target = dom.GetWindow().Document()
	}
	// Enter continues from a note that paused play (space plays anyway).
	a.ls.on(target, "keydown", func(ev dom.Event) {
		e := ev.Underlying()
		if e.Get("key").String() != "Enter" || e.Get("defaultPrevented").Bool() || typing(e, "Enter") ||
			e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
			return
		}
		if c.cont.hidden || a.play.playing {
			return
		}
		ev.PreventDefault()
		a.play.start()
	})
	return c
}

// render shows the caption of the current second and, when it is new,
// highlights its focus.
func (c *captionPart) render(a *app) {
	s := a.inst.Sim
	if s == nil || !a.notesOn() {
		c.el.setHidden(true)
		return
	}
	if s != c.sim {
		c.sim, c.key, c.scroll = s, "", false
	}
	defer func() { c.scroll = true }()
	cap := view.CaptionOf(s)
	if cap == nil {
		c.el.setHidden(true)
		c.key = ""
		c.unfocus()
		return
	}
	c.el.setHidden(false)
	// Continue shows where play stopped for the note: at its second.
	waiting := cap.Pause && !a.play.playing && s.T() == cap.T && s.T() < int64(s.Duration().Seconds())
	c.cont.setHidden(!waiting)
	c.el.setClass("cv-caption")
	if waiting {
		c.el.setClass("cv-caption cv-caption-paused")
	}
	if cap.Key == c.key {
		return
	}
	c.key = cap.Key
	c.el.setAttr("data-note-t", cap.Key)
	c.at.setText(cap.At)
	c.notes.SetTextContent("")
	for _, n := range cap.Notes {
		p := a.d.el("p", "cv-caption-text")
		for _, sp := range n.Spans {
			p.Value.Call("appendChild", spanNode(a.d, sp))
		}
		c.notes.add(p)
	}
	c.focus(a, cap)
}

// spanNode is one span of a note as a DOM node: its text is textContent,
// never markup.
func spanNode(d doc, sp scenario.Span) js.Value {
	switch sp.Kind {
	case scenario.SpanEm, scenario.SpanStrong, scenario.SpanCode:
		return d.el(string(sp.Kind), "", sp.Text).Value
	case scenario.SpanLink:
		l := d.el("a", "", sp.Text)
		l.setAttr("href", sp.Href)
		l.setAttr("target", "_blank")
		l.setAttr("rel", "noopener noreferrer")
		return l.Value
	}
	return d.v.Call("createTextNode", sp.Text)
}

// focus highlights the part of the page the caption names and scrolls it
// into view.
func (c *captionPart) focus(a *app, cap *view.Caption) {
	c.unfocus()
	if cap.Focus == "" {
		return
	}
	el := c.target(a, cap)
	if el.IsNull() || el.IsUndefined() {
		return
	}
	el.Get("classList").Call("add", "cv-focus-target")
	c.focused = el
	if !c.scroll || a.opts.Embed {
		// An embed never scrolls the page around it.
		return
	}
	opts := js.Global().Get("Object").New()
	opts.Set("block", "center")
	opts.Set("inline", "nearest")
	el.Call("scrollIntoView", opts)
}

func (c *captionPart) unfocus() {
	if !c.focused.IsNull() {
		c.focused.Get("classList").Call("remove", "cv-focus-target")
		c.focused = js.Null()
	}
}

// target finds the element a focus names: an area of the page (a tab's
// panel, shown), or an object: a pod's tile, a ReplicaSet's column, a
// Deployment's rollout (made the page's focus), a node's row.
func (c *captionPart) target(a *app, cap *view.Caption) js.Value {
	q := func(sel string) js.Value { return a.el.Value.Call("querySelector", sel) }
	tab := func(key string) js.Value {
		if !a.selectTab(key) {
			return js.Null()
		}
		a.tabs.render(a)
		return a.tabs.panels[key].root().Value
	}
	switch cap.FocusArea {
	case "rollout":
		return a.rollout.el.Value
	case "why":
		return a.why.el.Value
	case "pods":
		return q(".cv-columns")
	case "budget":
		return q(".cv-gauges")
	case "loop":
		return a.loop.el.Value
	case "compare":
		return a.compareSlot.Value
	case "writers":
		// Who wrote spec.replicas is part of the why-lines (render_why.go);
		// while it lists nobody, the why-lines themselves.
		if el := q(".cv-writers"); !el.IsNull() && el.Get("offsetParent").Truthy() {
			return el
		}
		return a.why.el.Value
	case "events", "revisions", "selectors":
		return tab(cap.FocusArea)
	}
	switch cap.FocusKind {
	case "Deployment":
		if a.focus != cap.FocusName {
			a.focus = cap.FocusName
			a.rollout.render(a)
			a.why.render(a)
		}
		return a.rollout.el.Value
	case "Pod", "ReplicaSet":
		ro := view.RolloutOf(a.inst.Sim, a.focus)
		if ro == nil {
			return js.Null()
		}
		for _, col := range ro.Columns {
			tiles := q(`.cv-tiles[data-key="` + cssString(col.Key) + `"]`)
			if tiles.IsNull() {
				continue
			}
			if cap.FocusKind == "ReplicaSet" && col.Name == cap.FocusName {
				return tiles.Get("parentNode")
			}
			for i, t := range col.Tiles {
				if t.Name == cap.FocusName && i < tiles.Get("children").Length() {
					return tiles.Get("children").Index(i)
				}
			}
		}
	case "Node":
		return tab("nodes")
	}
	return js.Null()
}

// cssString escapes a value for a quoted CSS attribute selector.
func cssString(s string) string {
	return js.Global().Get("CSS").Call("escape", s).String()
}

// placeCaption puts the caption in the sticky time bar, or, in an embed
// without controls, where the time bar would be.
func (a *app) placeCaption() {
	if a.opts.Embed && a.opts.Controls == "none" {
		a.el.Value.Call("insertBefore", a.caption.el.Value, a.timeline.el.Value.Get("nextSibling"))
		return
	}
	a.timeline.el.add(a.caption.el)
}

// withNoteMarks adds the notes' marks (view.NoteMarks) to the scrubber's,
// in the order of their seconds.
func (a *app) withNoteMarks(marks []view.ScrubMarker) []view.ScrubMarker {
	if !a.notesOn() {
		return marks
	}
	notes := view.NoteMarks(a.inst.Sim)
	if len(notes) == 0 {
		return marks
	}
	out := make([]view.ScrubMarker, 0, len(marks)+len(notes))
	i := 0
	for _, m := range marks {
		for i < len(notes) && notes[i].T <= m.T {
			out = append(out, notes[i])
			i++
		}
		out = append(out, m)
	}
	return append(out, notes[i:]...)
}
