//go:build js && wasm

package main

import (
	"strconv"

	"honnef.co/go/js/dom/v2"

	"converge/core/view"
)

// editorPanel draws the scenario editor (view.Editor, which decides): the
// scenario's YAML with line numbers, validated as you type (the parser's
// and the API server's own messages, at their line and column, drawn over
// the text), and Apply, which restarts the simulation from the text.
type editorPanel struct {
	el, status, apply, revert, gutter, area, text, marks, problems *node
	// refused shows the refusals of this second (view.Rejections), the
	// same text as the why panel and the console.
	refused      *keyed[node]
	markItems    *keyed[editorMark]
	problemItems *keyed[node]
	model        view.Editor
}

type editorMark struct{ el, band, caret, msg *node }

// Editor metrics, in CSS pixels; style.css uses the same.
const (
	editorLine = 20
	editorPad  = 8
)

func newEditor(a *app) *editorPanel {
	d := a.d
	p := &editorPanel{el: d.el("div", "cv-panel cv-editor")}
	p.apply = button(d, "cv-btn cv-primary", "Apply and restart", "Load this scenario and restart the simulation from 0s")
	p.revert = button(d, "cv-btn", "Revert", "Discard the edits")
	p.status = d.el("span", "cv-ed-status")
	p.status.setAttr("role", "status")
	p.gutter = d.el("pre", "cv-gutter")
	p.gutter.setAttr("aria-hidden", "true")
	p.text = d.el("textarea", "cv-ed-text")
	p.text.setAttr("spellcheck", "false")
	p.text.setAttr("autocapitalize", "off")
	p.text.setAttr("wrap", "off")
	p.text.setAttr("aria-label", "Scenario YAML")
	p.marks = d.el("div", "cv-ed-marks")
	p.marks.setAttr("aria-hidden", "true")
	p.area = d.el("div", "cv-ed-area").add(p.marks, p.text)
	p.problems = d.el("ul", "cv-problems")
	p.problems.setAttr("aria-label", "Problems")
	p.problems.setAttr("aria-live", "polite")
	tools := d.el("div", "cv-toolbar").add(p.apply, p.revert, p.status, a.keeper.state)
	refused := d.el("div", "cv-ed-refused")
	refused.setAttr("aria-live", "polite")
	p.refused = newKeyed(refused, func(string) *node { return d.el("pre", "cv-rejected-msg") }, func(n *node) *node { return n })
	p.el.add(tools, refused, d.el("div", "cv-ed").add(p.gutter, p.area), p.problems)
	a.dropTarget(p.el)
	self := func(n *node) *node { return n }
	p.markItems = newKeyed(p.marks, func(string) *editorMark {
		m := &editorMark{el: d.el("div", "cv-ed-mark"), band: d.el("div", "cv-ed-band"), caret: d.el("span", "cv-ed-caret"),
			msg: d.el("div", "cv-ed-msg")}
		m.el.add(m.band.add(m.caret), m.msg)
		return m
	}, func(m *editorMark) *node { return m.el })
	p.problemItems = newKeyed(p.problems, func(string) *node {
		li := d.el("li", "cv-problem")
		return li
	}, self)
	a.ls.on(p.text, "input", func(dom.Event) {
		p.model.Edit(p.text.value())
		a.keepDraft(p.text.value())
		p.draw()
		p.scrolled()
		a.keeper.edited(p.text.value())
	})
	a.ls.on(p.text, "scroll", func(dom.Event) { p.scrolled() })
	a.ls.on(p.text, "keydown", func(ev dom.Event) {
		// Tab indents with two spaces instead of leaving the editor; Escape
		// lets keyboard users leave it.
		if ev.Underlying().Get("key").String() == "Tab" && !ev.Underlying().Get("shiftKey").Bool() {
			ev.PreventDefault()
			a.d.v.Call("execCommand", "insertText", false, "  ")
		}
	})
	a.ls.on(p.apply, "click", func(dom.Event) { p.applyText(a) })
	a.ls.on(p.revert, "click", func(dom.Event) {
		p.model.Revert()
		a.keepDraft("")
		profiling().part("tab", func() { p.render(a) })
	})
	a.ls.on(p.problems, "click", func(ev dom.Event) {
		line, err1 := strconv.Atoi(targetAttr(ev, "data-line"))
		col, err2 := strconv.Atoi(targetAttr(ev, "data-col"))
		if err1 == nil && err2 == nil {
			p.moveTo(line, col)
		}
	})
	return p
}

func (p *editorPanel) root() *node { return p.el }

func (p *editorPanel) render(a *app) {
	text, taken := p.model.Take(a.inst.Sim.Scenario(), a.inst.Source)
	if taken {
		p.text.setValue(text)
	}
	p.draw()
	if taken {
		p.scrolled()
	}
	rej := view.Rejections(a.inst.Sim, a.console.Refusals())
	keys := make([]string, len(rej))
	for i, r := range rej {
		keys[i] = r.Key
	}
	p.refused.sync(keys, func(i int, n *node) {
		r := rej[i]
		where := ""
		if r.Line > 0 {
			where = " (line " + strconv.Itoa(r.Line) + ")"
		}
		n.setText("Rejected at " + r.At + where + ": " + r.Action + "\n" + r.Message)
	})
}

// draw applies the model: the status line, Apply, the gutter, the marks
// over the text and the problem list.
func (p *editorPanel) draw() {
	st := p.model.Status()
	p.status.setClass("cv-ed-status cv-" + string(st.Tone))
	p.status.setText(st.Text)
	p.apply.setBool("disabled", !st.CanApply)
	p.gutter.setText(p.model.Gutter())
	probs := p.model.Problems()
	keys := make([]string, len(probs))
	for i, pr := range probs {
		keys[i] = pr.Key
	}
	p.markItems.sync(keys, func(i int, m *editorMark) {
		pr := probs[i]
		line := max(pr.Line, 1)
		m.el.setClass("cv-ed-mark" + noteClass(pr))
		m.el.setAttr("data-line", strconv.Itoa(line))
		m.el.setStyle("top", px(editorPad+(line-1)*editorLine))
		m.caret.setStyle("left", "calc("+px(editorPad)+" + "+strconv.Itoa(max(pr.Col, 1)-1)+"ch)")
		m.msg.setText(pr.Message)
		m.msg.setStyle("left", "calc("+px(editorPad)+" + "+strconv.Itoa(min(max(pr.Col, 1)-1, 40))+"ch)")
	})
	// The problems beyond the first 100 are one line that counts them.
	more := p.model.More()
	if more != "" {
		keys = append(keys, "more")
	}
	p.problemItems.sync(keys, func(i int, n *node) {
		if i == len(probs) {
			n.setClass("cv-problem cv-more")
			n.setText(more)
			return
		}
		pr := probs[i]
		n.setClass("cv-problem" + noteClass(pr))
		n.setText(pr.Place() + ": " + pr.Message)
		n.setAttr("data-line", strconv.Itoa(pr.Line))
		n.setAttr("data-col", strconv.Itoa(pr.Col))
		n.setAttr("tabindex", "0")
	})
}

func noteClass(pr view.Problem) string {
	if pr.Note {
		return " cv-note"
	}
	return ""
}

// setEdit puts text into the editor as the user's edit (a restored draft,
// an import with problems), checked and ready to Apply.
func (p *editorPanel) setEdit(a *app, text string) {
	// Take first, so that the model knows the scenario the edit is of and
	// the next render keeps the text.
	p.model.Take(a.inst.Sim.Scenario(), a.inst.Source)
	p.text.setValue(text)
	p.model.Edit(text)
	p.draw()
	p.scrolled()
}

// scrolled keeps the gutter and the marks aligned with the text.
func (p *editorPanel) scrolled() {
	top := p.text.Value.Get("scrollTop").Float()
	left := p.text.Value.Get("scrollLeft").Float()
	p.gutter.Value.Set("scrollTop", top)
	p.marks.setStyle("transform", "translate("+strconv.FormatFloat(-left, 'f', 0, 64)+"px, "+strconv.FormatFloat(-top, 'f', 0, 64)+"px)")
}

// moveTo puts the caret at line:col and scrolls it into view.
func (p *editorPanel) moveTo(line, col int) {
	off := view.TextOffset(p.text.value(), line, col)
	p.text.Focus()
	p.text.Value.Call("setSelectionRange", off, off)
	p.text.Value.Set("scrollTop", max((line-3)*editorLine, 0))
	p.scrolled()
}

// applyText loads the text, as one action drawn once: on problems they are
// shown and the simulation is kept; otherwise the simulation restarts from
// the text and the address carries it.
func (p *editorPanel) applyText(a *app) {
	text := p.text.value()
	a.inst.Batch(func() {
		a.play.halt()
		if p.model.Applied(text, a.inst.Load([]byte(text))) {
			a.keepDraft("")
			a.shareURL()
			a.selectTab("editor")
		}
	})
}

func px(n int) string { return strconv.Itoa(n) + "px" }
