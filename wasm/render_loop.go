//go:build js && wasm

package main

import (
	"converge/core/view"
)

// loopPart is the reconcile loop of this second: one row per controller,
// in the order they run, with what it observed, what is desired and the
// step it took (highlighted) or what it waits for.
type loopPart struct {
	el   *node
	rows *keyed[loopRow]
	// variant says which variant the loop shows while Compare shows all.
	variant *node
}

type loopRow struct {
	el, title, role, state, object, seen, step, more *node
	items                                            *keyed[node]
}

var stateLabels = map[string]string{"acting": "step", "waiting": "waiting", "in-sync": "in sync"}

func newLoop(a *app) *loopPart {
	d := a.d
	l := &loopPart{el: d.el("section", "cv-card cv-loop")}
	l.el.setAttr("aria-label", "The reconcile loop this second")
	h := d.el("h2", "", "The loop, this second")
	sub := d.el("p", "cv-muted cv-small", "Each controller compares what it observes with what is desired and takes one step to close the gap.")
	list := d.el("ol", "cv-loop-rows")
	l.variant = d.el("p", "cv-loop-variant cv-small")
	l.el.add(h, l.variant, sub, list)
	l.rows = newKeyed(list, func(string) *loopRow {
		r := &loopRow{el: d.el("li", "cv-loop-row"), title: d.el("span", "cv-ctl"), role: d.el("span", "cv-ctl-role cv-muted"),
			state: d.el("span", "cv-state"), object: d.el("span", "cv-object cv-mono"), seen: d.el("p", "cv-seen"),
			step: d.el("p", "cv-step"), more: d.el("ul", "cv-more")}
		r.items = newKeyed(r.more, func(string) *node { return d.el("li", "") }, func(n *node) *node { return n })
		head := d.el("div", "cv-loop-head").add(r.state, r.title, r.object)
		r.el.add(head, r.role, r.seen, r.step, r.more)
		return r
	}, func(r *loopRow) *node { return r.el })
	return l
}

func (l *loopPart) render(a *app) {
	note := view.SideNote(a.inst.Compare)
	l.variant.setHidden(note == "")
	l.variant.setText(note)
	rows := view.Loop(a.inst.Sim, focusName(a.inst.Sim, a.focus))
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Key
	}
	l.rows.sync(keys, func(i int, r *loopRow) {
		v := rows[i]
		r.el.setClass("cv-loop-row cv-" + v.State)
		r.title.setText(v.Title)
		r.role.setText(v.Role)
		r.el.setAttr("title", v.Title+": "+v.Role)
		r.state.setClass("cv-state cv-state-" + v.State)
		r.state.setText(stateLabels[v.State])
		r.object.setText(v.Object)
		seen := ""
		if v.Observed != "" {
			seen = "observed " + v.Observed
		}
		if v.Desired != "" {
			if seen != "" {
				seen += " · "
			}
			seen += "desired " + v.Desired
		}
		r.seen.setText(seen)
		r.seen.setHidden(seen == "")
		step := v.Step
		if v.More > len(v.Items) {
			step += " (+" + itoa(v.More-len(v.Items)) + " more objects)"
		}
		r.step.setText(step)
		keys := make([]string, len(v.Items))
		for j, it := range v.Items {
			keys[j] = it.Key
		}
		r.more.setHidden(len(v.Items) == 0)
		r.items.sync(keys, func(j int, n *node) {
			it := v.Items[j]
			n.setClass("cv-" + it.State)
			n.setText(it.Object + ": " + it.Text)
		})
	})
}
