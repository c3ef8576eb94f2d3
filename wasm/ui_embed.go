//go:build js && wasm

package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"converge/core/sim"
	"converge/core/view"
)

// embedPart is the Embed button in the page's top bar and the panel it
// opens under the bar: copy-paste snippets (the script tag and a
// <converge-sim>, or an <iframe> of ?embed=1) for the scenario at the
// second the page shows. session.EmbedOf decides the snippets and the texts
// (docs/embedding.md); this draws them.
type embedPart struct {
	btn, panel, intro, where, codes, status, close *node
	element, iframe                                *node
	// shownSim and shownT are what the snippets show, so that the open
	// panel follows a change of scenario or time (once play pauses).
	shownSim *sim.Sim
	shownT   int64
}

// render refreshes the open panel's snippets when the scenario or the
// second changed since they were made, except while playing: a snippet
// that changes under the cursor cannot be copied.
func (e *embedPart) render(a *app) {
	if e.panel.hidden || a.play.playing || a.inst.Sim == nil {
		return
	}
	if a.inst.Sim != e.shownSim || a.inst.Sim.T() != e.shownT {
		a.embedClicked(true)
	}
}

func newEmbed(a *app) *embedPart {
	d := a.d
	e := &embedPart{}
	e.btn = button(d, "cv-btn cv-embed-btn", "Embed", "Show snippets that put this scenario, at this second, on another page")
	e.btn.setAttr("aria-expanded", "false")
	e.btn.setAttr("aria-controls", "cv-embed-panel")
	e.panel = d.el("section", "cv-note cv-embed-panel")
	e.panel.setAttr("id", "cv-embed-panel")
	e.panel.setAttr("aria-label", "Embed this scenario")
	e.panel.setHidden(true)
	e.intro = d.el("p", "cv-note-text")
	e.where = d.el("p", "cv-note-text cv-embed-where")
	e.status = d.el("p", "cv-small cv-muted cv-embed-status")
	e.status.setAttr("role", "status")
	e.close = button(d, "cv-link cv-note-close", "Close", "Close the embed snippets")
	code := func(key, label string) *node {
		ta := d.el("textarea", "cv-input cv-mono cv-embed-code")
		ta.setAttr("readonly", "readonly")
		ta.setAttr("rows", "4")
		ta.setAttr("spellcheck", "false")
		ta.setAttr("data-snippet", key)
		ta.setAttr("aria-label", label)
		return ta
	}
	e.element = code("element", "Script tag and element")
	e.iframe = code("iframe", "Iframe")
	copyBtn := func(key, aria string) *node {
		b := button(d, "cv-btn cv-small-btn", "Copy", aria)
		b.setAttr("data-copy", key)
		return b
	}
	e.codes = d.el("div", "cv-embed-codes").add(
		d.el("div", "cv-embed-snippet").add(
			d.el("span", "cv-small cv-embed-label", "Script tag and element"), e.element,
			copyBtn("element", "Copy the script tag and the element")),
		d.el("div", "cv-embed-snippet").add(
			d.el("span", "cv-small cv-embed-label", "Or an iframe, where the page cannot add scripts"), e.iframe,
			copyBtn("iframe", "Copy the iframe")),
	)
	e.panel.add(d.el("div", "cv-embed-head").add(d.el("h2", "cv-embed-heading", "Embed"), e.close), e.intro, e.where, e.codes, e.status)

	a.ls.on(e.btn, "click", func(dom.Event) { a.embedClicked(e.panel.hidden) })
	a.ls.on(e.close, "click", func(dom.Event) { a.embedClicked(false) })
	a.ls.on(e.codes, "click", func(ev dom.Event) {
		switch targetAttr(ev, "data-copy") {
		case "element":
			a.copySnippet(e.element)
		case "iframe":
			a.copySnippet(e.iframe)
		}
	})
	a.ls.on(e.element, "focus", func(dom.Event) { e.element.Value.Call("select") })
	a.ls.on(e.iframe, "focus", func(dom.Event) { e.iframe.Value.Call("select") })
	return e
}

// embedClicked opens the Embed panel with the snippets for the scenario
// at this second, or closes it.
func (a *app) embedClicked(open bool) {
	e := a.embed
	e.btn.setAttr("aria-expanded", map[bool]string{true: "true", false: "false"}[open])
	e.panel.setHidden(!open)
	if !open || a.inst.Sim == nil {
		return
	}
	e.status.setText("")
	e.panel.setClass("cv-note cv-embed-panel")
	e.shownSim, e.shownT = a.inst.Sim, a.inst.Sim.T()
	pn := a.inst.EmbedPanel(embedPageURL())
	e.intro.setText(pn.Intro)
	e.codes.setHidden(pn.Bad)
	e.where.setText(pn.Where)
	e.where.setHidden(pn.Bad || pn.Where == "")
	if pn.Bad {
		e.panel.setClass("cv-note cv-embed-panel cv-bad")
		return
	}
	em := pn.Embed
	e.element.setValue(em.Script + "\n" + em.Element)
	e.iframe.setValue(em.IFrame)
}

// copySnippet copies a snippet's text to the clipboard, or, when the
// browser does not let the page, selects it to copy by hand.
func (a *app) copySnippet(ta *node) {
	e := a.embed
	text := ta.value()
	byHand := func() {
		ta.Focus()
		ta.Value.Call("select")
		e.status.setText("Press Ctrl+C (⌘C) to copy: the browser did not let the page copy it.")
	}
	clip := js.Global().Get("navigator").Get("clipboard")
	if clip.Type() != js.TypeObject || clip.Get("writeText").Type() != js.TypeFunction {
		byHand()
		return
	}
	promise, err := callJS(clip, "writeText", text)
	if err != nil {
		byHand()
		return
	}
	then(promise, func(js.Value) { e.status.setText("Copied.") }, func(error) { byHand() })
}

// embedPageURL is the page's address (without query and fragment) and the
// public address `converge serve --public-url` or `export-site --base-url`
// put in its <meta name="converge-public-url">, "" without one.
func embedPageURL() (page, public string) {
	loc := js.Global().Get("location")
	page = loc.Get("origin").String() + loc.Get("pathname").String()
	m := js.Global().Get("document").Call("querySelector", `meta[name="`+view.PublicURLMeta+`"]`)
	if m.Truthy() {
		public = m.Call("getAttribute", "content").String()
	}
	return page, public
}
