//go:build js && wasm

package main

import (
	"strconv"

	"honnef.co/go/js/dom/v2"

	"converge/core/view"
)

// stepsPanel is the steps log (view.StepLog): every step of the scenario
// at its second with what it printed, as `converge run` prints it; a
// step's time seeks there, and a step added from the console has Remove.
type stepsPanel struct {
	el, empty *node
	rows      *keyed[stepItem]
	// log is the model last drawn, for the clicks.
	log []view.StepRow
}

type stepItem struct{ el, at, mark, action, state, out, err, remove *node }

var stepStates = map[string]string{
	"pending": "not yet", "ok": "ok", "failed": "failed", "rejected": "refused, as expected", "waiting": "waiting",
	"passed": "check held", "failed-check": "check failed",
}

func newSteps(a *app) *stepsPanel {
	d := a.d
	p := &stepsPanel{el: d.el("div", "cv-panel cv-steps")}
	intro := d.el("p", "cv-muted cv-small", "Every step of the scenario at its second, with what it printed, as converge run prints it: "+
		"$ a command, ! one that failed, ✓ and ✗ a check, · a step still to come. "+
		"A command you ran in the console that changed the cluster is a step too, and can be removed.")
	p.empty = d.el("p", "cv-muted", "This scenario has no steps. A command that changes the cluster, run in the console, becomes one.")
	list := d.el("ol", "cv-sl-log")
	list.setAttr("aria-label", "Steps of the scenario")
	p.el.add(intro, p.empty, list)
	p.rows = newKeyed(list, func(string) *stepItem {
		it := &stepItem{el: d.el("li", "cv-sl"), at: d.el("button", "cv-link cv-mono cv-sl-at"), mark: d.el("span", "cv-sl-mark cv-mono"),
			action: d.el("code", "cv-sl-action"), state: d.el("span", "cv-sl-state cv-small"), out: d.el("pre", "cv-out"),
			err: d.el("pre", "cv-err"), remove: button(d, "cv-btn cv-sl-remove", "Remove", "")}
		it.at.setAttr("type", "button")
		it.mark.setAttr("aria-hidden", "true")
		it.el.add(d.el("div", "cv-sl-head").add(it.at, it.mark, it.action, it.state, it.remove), it.out, it.err)
		return it
	}, func(it *stepItem) *node { return it.el })
	a.ls.on(list, "click", func(ev dom.Event) {
		if v, err := strconv.ParseInt(targetAttr(ev, "data-t"), 10, 64); err == nil {
			a.seek(v)
			return
		}
		if i, err := strconv.Atoi(targetAttr(ev, "data-remove")); err == nil && i >= 0 && i < len(p.log) {
			a.removeStep(p.log[i])
		}
	})
	return p
}

func (p *stepsPanel) root() *node { return p.el }

func (p *stepsPanel) render(a *app) {
	p.log = view.StepLog(a.inst.Sim)
	p.empty.setHidden(len(p.log) > 0)
	keys := make([]string, len(p.log))
	for i, r := range p.log {
		keys[i] = r.Key
	}
	p.rows.sync(keys, func(i int, it *stepItem) {
		r := p.log[i]
		cls := "cv-sl cv-sl-" + r.State
		if r.Now {
			cls += " cv-sl-now"
		}
		if r.Added {
			cls += " cv-sl-added"
		}
		it.el.setClass(cls)
		it.at.setText(r.At)
		it.at.setAttr("data-t", strconv.FormatInt(r.T, 10))
		it.at.setAttr("aria-label", "Go to "+r.At)
		it.mark.setText(r.Mark)
		it.action.setText(r.Action)
		state := stepStates[r.State]
		if r.Added {
			state += " · your step"
		}
		it.state.setText(state)
		it.out.setText(r.Output)
		it.out.setHidden(r.Output == "")
		it.err.setText(r.Error)
		it.err.setHidden(r.Error == "")
		it.remove.setHidden(!r.Added)
		it.remove.setAttr("data-remove", strconv.Itoa(i))
		it.remove.setAttr("aria-label", "Remove the step at "+r.At+": "+r.Action)
	})
}

// removeStep takes a step the user added out of the scenario, as one
// action drawn once: it pauses, removes the step (the timeline is computed
// again without it), logs it in the console and rewrites the address.
func (a *app) removeStep(r view.StepRow) {
	a.inst.Batch(func() {
		a.play.halt()
		err := a.inst.RemoveStep(r.Index)
		if a.console.Removed(r, err).Share {
			a.shareURL()
		}
	})
}
