//go:build js && wasm

package main

import (
	"strconv"

	"honnef.co/go/js/dom/v2"

	"converge/core/scenario"
	"converge/core/view"
)

// editorPanel is the scenario's YAML with line numbers, validated as you
// type (view.Validate: the parser's and the API server's own messages, at
// their line and column, drawn over the text), and Apply, which restarts
// the simulation from the text.
type editorPanel struct {
	el, status, apply, revert, gutter, area, text, marks, problems *node
	markItems                                                      *keyed[editorMark]
	problemItems                                                   *keyed[node]
	// dirty is set once the text differs from the scenario's.
	dirty bool
	// steps is the scenario's step count when the text was last taken from it.
	steps    int
	lastText string
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
	tools := d.el("div", "cv-toolbar").add(p.apply, p.revert, p.status)
	p.el.add(tools, d.el("div", "cv-ed").add(p.gutter, p.area), p.problems)
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
		p.dirty = true
		p.check(a)
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
		p.dirty = false
		p.take(a)
	})
	a.ls.on(p.problems, "click", func(ev dom.Event) {
		t := ev.Target()
		line, err1 := strconv.Atoi(t.GetAttribute("data-line"))
		col, err2 := strconv.Atoi(t.GetAttribute("data-col"))
		if err1 == nil && err2 == nil {
			p.moveTo(line, col)
		}
	})
	return p
}

func (p *editorPanel) root() *node { return p.el }

func (p *editorPanel) newSim(a *app) {
	p.dirty = false
	p.steps = -1
}

func (p *editorPanel) render(a *app) {
	if !p.dirty && len(a.inst.Sim.Scenario().Steps) != p.steps {
		p.take(a)
	}
}

// take puts the scenario's YAML (with the steps added at run time) into
// the editor.
func (p *editorPanel) take(a *app) {
	scn := a.inst.Sim.Scenario()
	p.steps = len(scn.Steps)
	text := string(a.inst.Source)
	if y, err := scn.Marshal(); err == nil {
		text = string(y)
	}
	p.text.setValue(text)
	p.check(a)
}

// check validates the text and draws its problems.
func (p *editorPanel) check(a *app) {
	text := p.text.value()
	if text == p.lastText && p.problemItems.order != nil {
		return
	}
	p.lastText = text
	p.gutter.setText(view.LineNumbers(text))
	probs := view.Validate([]byte(text))
	p.show(probs)
	p.scrolled()
}

func (p *editorPanel) show(probs []view.Problem) {
	errs := 0
	for _, pr := range probs {
		if !pr.Note {
			errs++
		}
	}
	switch {
	case errs == 0 && p.dirty:
		p.status.setClass("cv-ed-status cv-ok")
		p.status.setText("Valid. Apply restarts the simulation from 0s.")
	case errs == 0:
		p.status.setClass("cv-ed-status cv-muted")
		p.status.setText("The scenario as it runs, with the steps added from the console.")
	default:
		p.status.setClass("cv-ed-status cv-bad")
		p.status.setText(pluralize(errs, "problem") + ": Apply is disabled until they are fixed.")
	}
	p.apply.setBool("disabled", errs > 0)
	keys := make([]string, len(probs))
	for i, pr := range probs {
		keys[i] = pr.Key
	}
	p.markItems.sync(keys, func(i int, m *editorMark) {
		pr := probs[i]
		line := max(pr.Line, 1)
		note := map[bool]string{true: " cv-note", false: ""}[pr.Note]
		m.el.setClass("cv-ed-mark" + note)
		m.el.setAttr("data-line", strconv.Itoa(line))
		m.el.setStyle("top", px(editorPad+(line-1)*editorLine))
		m.caret.setStyle("left", "calc("+px(editorPad)+" + "+strconv.Itoa(max(pr.Col, 1)-1)+"ch)")
		m.msg.setText(pr.Message)
		m.msg.setStyle("left", "calc("+px(editorPad)+" + "+strconv.Itoa(min(max(pr.Col, 1)-1, 40))+"ch)")
	})
	p.problemItems.sync(keys, func(i int, n *node) {
		pr := probs[i]
		where := "line " + strconv.Itoa(pr.Line) + ", column " + strconv.Itoa(pr.Col)
		if pr.Line == 0 {
			where = "the file"
		}
		n.setClass("cv-problem" + map[bool]string{true: " cv-note", false: ""}[pr.Note])
		n.setText(where + ": " + pr.Message)
		n.setAttr("data-line", strconv.Itoa(pr.Line))
		n.setAttr("data-col", strconv.Itoa(pr.Col))
		n.setAttr("tabindex", "0")
	})
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
	text := p.text.value()
	off, l := 0, 1
	for off < len(text) && l < line {
		if text[off] == '\n' {
			l++
		}
		off++
	}
	off += max(col-1, 0)
	off = min(off, len(text))
	// selectionStart counts UTF-16 units; the scenarios are ASCII in practice.
	p.text.Focus()
	p.text.Value.Call("setSelectionRange", off, off)
	p.text.Value.Set("scrollTop", max((line-3)*editorLine, 0))
	p.scrolled()
}

// applyText loads the text: on problems they are shown and the simulation
// is kept; otherwise the simulation restarts from the text.
func (p *editorPanel) applyText(a *app) {
	text := p.text.value()
	a.play.pause()
	probs := a.inst.Load([]byte(text))
	if probs.HasErrors() {
		p.show(problemsOf(probs))
		return
	}
	p.dirty = false
	a.shareURL()
	a.showTab("editor")
}

func problemsOf(ps scenario.Problems) []view.Problem {
	out := make([]view.Problem, len(ps))
	for i, pr := range ps {
		out[i] = view.Problem{Key: "load:" + strconv.Itoa(i), Line: pr.Line, Col: max(pr.Col, 1), Message: pr.Message, Note: pr.Note}
	}
	return out
}

func px(n int) string { return strconv.Itoa(n) + "px" }
