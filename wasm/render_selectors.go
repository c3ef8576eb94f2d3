//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"honnef.co/go/js/dom/v2"

	"converge/core/sim"
	"converge/core/view"
)

// selectorsPanel shows who selects and who owns which pods, and lets the
// user try an edit of the focus Deployment's selector and template labels
// with the API server's verdict (a server-side dry run) before applying it.
type selectorsPanel struct {
	el, selInput, lblInput, verdict, apply, notes, editFor *node
	// rejected lists the refusals of this second about a selector
	// (view.Ownership.MarkRejected), above the table.
	rejected  *keyed[node]
	rows      *keyed[selectorRow]
	groups    *keyed[groupView]
	noteItems *keyed[node]
	// edited is set once the user typed in the form; for is the
	// Deployment the form was filled from.
	edited  bool
	forName string
	command string
}

type selectorRow struct{ el, name, sel, labels, owner, pods *node }

type groupView struct{ el, head, labels, matched, names, warning *node }

func newSelectors(a *app) *selectorsPanel {
	d := a.d
	p := &selectorsPanel{el: d.el("div", "cv-panel cv-selectors")}
	intro := d.el("p", "cv-muted cv-small", "A controller owns the pods its selector matches and that carry its ownerReference. "+
		"Each ReplicaSet's selector adds the pod-template-hash of its template, so ReplicaSets of one Deployment never share pods. "+
		"A Service selects by labels alone, owner or not.")
	table := d.el("table", "cv-table")
	heads := []string{"OBJECT", "SELECTOR", "TEMPLATE LABELS", "CONTROLLED BY", "PODS MATCHED"}
	body := tableBody(d)
	table.add(tableHead(d, table, heads), body)
	groupsEl := d.el("div", "cv-groups")
	p.notes = d.el("ul", "cv-notes")

	p.editFor = d.el("h3", "")
	p.selInput = d.el("input", "cv-input cv-mono")
	p.selInput.setAttr("aria-label", "spec.selector.matchLabels (k=v,k2=v2)")
	p.lblInput = d.el("input", "cv-input cv-mono")
	p.lblInput.setAttr("aria-label", "spec.template.metadata.labels (k=v,k2=v2)")
	for _, in := range []*node{p.selInput, p.lblInput} {
		in.setAttr("type", "text")
		in.setAttr("spellcheck", "false")
		in.setAttr("autocomplete", "off")
	}
	p.verdict = d.el("pre", "cv-verdict")
	p.verdict.setAttr("role", "status")
	p.apply = button(d, "cv-btn cv-primary", "Apply the edit", "Run the patch in the console; it joins the scenario")
	form := d.el("div", "cv-edit").add(p.editFor,
		d.el("label", "cv-field").add(d.el("span", "", "spec.selector.matchLabels"), p.selInput),
		d.el("label", "cv-field").add(d.el("span", "", "spec.template.metadata.labels"), p.lblInput),
		d.el("p", "cv-small cv-muted", "The API server's verdict, before you apply:"), p.verdict, p.apply)
	rejEl := d.el("div", "cv-sel-rejected")
	rejEl.setAttr("aria-live", "polite")
	p.rejected = newKeyed(rejEl, func(string) *node { return d.el("pre", "cv-rejected-msg") }, func(n *node) *node { return n })
	p.el.add(intro, rejEl, d.el("div", "cv-scroll").add(table), p.notes, groupsEl, form)

	p.rows = newKeyed(body, func(string) *selectorRow {
		r := &selectorRow{el: d.el("tr", ""), name: d.el("td", "cv-mono"), sel: d.el("td", "cv-mono"), labels: d.el("td", "cv-mono"),
			owner: d.el("td", "cv-mono"), pods: d.el("td", "")}
		tableRow(r.el, heads, r.name, r.sel, r.labels, r.owner, r.pods)
		return r
	}, func(r *selectorRow) *node { return r.el })
	p.groups = newKeyed(groupsEl, func(string) *groupView {
		g := &groupView{el: d.el("article", "cv-group"), head: d.el("h3", ""), labels: d.el("p", "cv-mono"),
			matched: d.el("p", "cv-small"), names: d.el("p", "cv-mono cv-small cv-muted"), warning: d.el("p", "cv-warning")}
		g.el.add(g.head, g.labels, g.matched, g.names, g.warning)
		return g
	}, func(g *groupView) *node { return g.el })
	p.noteItems = newKeyed(p.notes, func(string) *node { return d.el("li", "cv-note-item") }, func(n *node) *node { return n })

	onEdit := func(dom.Event) {
		p.edited = true
		p.check(a)
	}
	a.ls.on(p.selInput, "input", onEdit)
	a.ls.on(p.lblInput, "input", onEdit)
	a.ls.on(p.apply, "click", func(dom.Event) {
		if p.command == "" {
			return
		}
		// The render that follows fills the form again from the result.
		a.command(p.command, view.FromButton, func(sim.StepResult) { p.edited = false })
	})
	return p
}

func (p *selectorsPanel) root() *node { return p.el }

func (p *selectorsPanel) newSim(*app) {
	p.edited = false
	p.forName = ""
}

func (p *selectorsPanel) render(a *app) {
	s := a.inst.Sim
	o := view.OwnershipOf(s)
	o.MarkRejected(view.Rejections(s, a.console.Refusals()))
	rk := make([]string, len(o.Rejected))
	for i, r := range o.Rejected {
		rk[i] = r.Key
	}
	p.rejected.sync(rk, func(i int, n *node) {
		r := o.Rejected[i]
		text := "Rejected at " + r.At + ": " + r.Action
		if r.Selector != "" {
			text += "\nrefused selector: " + r.Selector + "   template labels: " + r.Labels
		}
		n.setText(text + "\n" + r.Message)
	})
	keys := make([]string, len(o.Selectors))
	for i, r := range o.Selectors {
		keys[i] = r.Key
	}
	p.rows.sync(keys, func(i int, r *selectorRow) {
		v := o.Selectors[i]
		if v.Rejected != "" {
			r.el.setClass("cv-sel-refused")
			r.el.setAttr("title", "Refused this second: "+v.Rejected)
		} else {
			r.el.setClass("")
			r.el.setAttr("title", "")
		}
		r.name.setText(v.Key)
		r.sel.setText(breakable(v.Selector))
		labels := v.Labels
		if v.Kind == "Service" {
			labels = "—"
		}
		r.labels.setText(breakable(labels))
		owner := v.Owner
		if owner == "" {
			owner = "—"
		}
		r.owner.setText(owner)
		r.pods.setText(strconv.Itoa(v.Pods))
	})
	gk := make([]string, len(o.Groups))
	for i, g := range o.Groups {
		gk[i] = g.Key
	}
	p.groups.sync(gk, func(i int, g *groupView) {
		v := o.Groups[i]
		cls := "cv-group"
		if v.Warning != "" {
			cls += " cv-group-warn"
		}
		g.el.setClass(cls)
		head := pluralize(v.Pods, "pod") + " controlled by " + v.Controller
		if v.Controller == "none" {
			head = pluralize(v.Pods, "pod") + " with no controller"
		}
		if v.Traffic {
			head += " · receiving Service traffic"
		}
		g.head.setText(head)
		g.labels.setText("labels: " + breakable(v.Labels))
		matched := "matched by: none"
		if len(v.MatchedBy) > 0 {
			matched = "matched by: " + strings.Join(v.MatchedBy, ", ")
		}
		g.matched.setText(matched)
		names := strings.Join(v.Names, ", ")
		if v.Pods > len(v.Names) {
			names += ", … " + strconv.Itoa(v.Pods-len(v.Names)) + " more"
		}
		g.names.setText(names)
		g.warning.setText(v.Warning)
		g.warning.setHidden(v.Warning == "")
	})
	nk := make([]string, len(o.Notes))
	for i, n := range o.Notes {
		nk[i] = n.Key
	}
	p.noteItems.sync(nk, func(i int, n *node) { n.setText(o.Notes[i].Text) })
	p.notes.setHidden(len(o.Notes) == 0)
	if name := focusName(s, a.focus); name != p.forName || !p.edited {
		p.fill(a)
	}
}

// fill puts the focus Deployment's selector and labels into the form.
func (p *selectorsPanel) fill(a *app) {
	d := view.Focus(a.inst.Sim, a.focus)
	if d == nil {
		p.forName = ""
		p.editFor.setText("Try an edit: there is no Deployment")
		p.selInput.setValue("")
		p.lblInput.setValue("")
		p.check(a)
		return
	}
	p.forName = d.Name
	p.editFor.setText("Try an edit of deployment/" + d.Name)
	e := view.CurrentEdit(d)
	p.selInput.setValue(e.Selector)
	p.lblInput.setValue(e.Labels)
	p.check(a)
}

// check asks for the verdict on the form's edit.
func (p *selectorsPanel) check(a *app) {
	v := view.CheckSelectorEdit(a.inst.Sim, p.forName, view.SelectorEdit{Selector: p.selInput.value(), Labels: p.lblInput.value()})
	cls := "cv-verdict cv-bad"
	if v.OK {
		cls = "cv-verdict cv-ok"
	}
	p.verdict.setClass(cls)
	p.verdict.setText(v.Message)
	p.command = v.Command
	p.apply.setBool("disabled", v.Command == "")
	if v.Command != "" {
		p.apply.setAttr("title", "kubectl "+v.Command)
	}
}
