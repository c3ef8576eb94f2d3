//go:build js && wasm

package main

import (
	"strconv"

	"honnef.co/go/js/dom/v2"

	"converge/core/view"
)

// revisionsPanel is the ledger of the focus Deployment's ReplicaSets by
// revision, with a roll back button per old revision, the surprises
// explained, and a diff of the pod template between two revisions.
type revisionsPanel struct {
	el, title, limit, empty, notes, from, to, diff, diffNote *node
	// content is all but empty: hidden with no Deployment.
	content              *node
	rows                 *keyed[revisionRow]
	noteItems, diffLines *keyed[node]
	fromOpts, toOpts     *keyed[node]
	// a, b are the revisions the diff compares (0: the default pair).
	a, b int64
}

// revisionRow is one revision: its row and, under it, the row of its note
// (a tbody each, so that a note spans the table).
type revisionRow struct {
	el, row, rev, cause, image, created, ready, action, noteRow, note, noteText *node
	back                                                                        *node
}

func newRevisions(a *app) *revisionsPanel {
	d := a.d
	p := &revisionsPanel{el: d.el("div", "cv-panel cv-revisions")}
	p.title = d.el("h3", "cv-mono")
	p.limit = d.el("p", "cv-muted cv-small")
	p.empty = d.el("div", "cv-empty").add(d.el("p", "cv-empty-title", "No Deployment at this second"),
		d.el("p", "cv-muted", "Revisions belong to a Deployment: its ReplicaSets, one per pod template, are numbered as it rolls out."))
	table := d.el("table", "cv-table cv-ledger")
	heads := []string{"REVISION", "CHANGE-CAUSE", "IMAGE", "CREATED", "READY", "ACTION"}
	table.add(tableHead(d, table, heads))
	body := table
	p.notes = d.el("ul", "cv-notes")
	p.from, p.to = d.el("select", "cv-select"), d.el("select", "cv-select")
	p.from.setAttr("aria-label", "Diff from revision")
	p.to.setAttr("aria-label", "Diff to revision")
	p.diff = d.el("pre", "cv-diff cv-mono")
	// A region of its own, reachable by the keyboard: it scrolls.
	p.diff.setAttr("role", "region")
	p.diff.setAttr("aria-label", "Pod template diff")
	p.diff.setAttr("tabindex", "0")
	p.diffNote = d.el("p", "cv-muted cv-small")
	diffBar := d.el("div", "cv-toolbar").add(d.el("strong", "", "Pod template diff"), d.el("span", "", "from"), p.from,
		d.el("span", "", "to"), p.to)
	p.content = d.el("div", "").add(p.title, p.limit, d.el("div", "cv-scroll").add(table), p.notes, diffBar, p.diffNote, p.diff)
	p.el.add(p.empty, p.content)
	self := func(n *node) *node { return n }
	p.rows = newKeyed(body, func(string) *revisionRow {
		r := &revisionRow{el: tableBody(d), row: d.el("tr", ""), rev: d.el("td", "cv-mono"), cause: d.el("td", ""),
			image: d.el("td", "cv-mono"), created: d.el("td", ""), ready: d.el("td", "cv-mono"), action: d.el("td", ""),
			noteRow: d.el("tr", "cv-note-row"), note: d.el("td", ""), noteText: d.el("p", "cv-note-item")}
		r.back = button(d, "cv-btn cv-small-btn", "Roll back", "")
		r.action.add(r.back)
		tableRow(r.row, heads, r.rev, r.cause, r.image, r.created, r.ready, r.action)
		r.note.setAttr("colspan", "6")
		tableRow(r.noteRow, nil, r.note.add(r.noteText))
		r.el.add(r.row, r.noteRow)
		return r
	}, func(r *revisionRow) *node { return r.el })
	p.noteItems = newKeyed(p.notes, func(string) *node { return d.el("li", "cv-note-item") }, self)
	p.diffLines = newKeyed(p.diff, func(string) *node { return d.el("span", "cv-dl") }, self)
	p.fromOpts = newKeyed(p.from, func(string) *node { return d.el("option", "") }, self)
	p.toOpts = newKeyed(p.to, func(string) *node { return d.el("option", "") }, self)
	a.ls.on(body, "click", func(ev dom.Event) {
		if cmd := targetAttr(ev, "data-command"); cmd != "" {
			a.command(cmd, view.FromButton, nil)
		}
	})
	pick := func(dom.Event) {
		p.a, _ = strconv.ParseInt(p.from.value(), 10, 64)
		p.b, _ = strconv.ParseInt(p.to.value(), 10, 64)
		p.render(a)
	}
	a.ls.on(p.from, "change", pick)
	a.ls.on(p.to, "change", pick)
	return p
}

func (p *revisionsPanel) root() *node { return p.el }

func (p *revisionsPanel) newSim(*app) { p.a, p.b = 0, 0 }

func (p *revisionsPanel) render(a *app) {
	l := view.Revisions(a.inst.Sim, a.focus)
	p.empty.setHidden(l != nil)
	p.content.setHidden(l == nil)
	if l == nil {
		p.title.setText("")
		p.limit.setText("")
		p.rows.sync(nil, func(int, *revisionRow) {})
		p.noteItems.sync(nil, func(int, *node) {})
		p.diffLines.sync(nil, func(int, *node) {})
		return
	}
	p.title.setText("kubectl rollout history deployment/" + l.Deployment)
	p.limit.setText(l.Limit)
	keys := make([]string, len(l.Rows))
	revs := make([]string, len(l.Rows))
	for i, r := range l.Rows {
		keys[i] = r.Key
		revs[i] = strconv.FormatInt(r.Revision, 10)
	}
	p.rows.sync(keys, func(i int, r *revisionRow) {
		v := &l.Rows[i]
		rev := strconv.FormatInt(v.Revision, 10)
		if v.Current {
			rev += " (current)"
			r.el.setClass("cv-current")
		} else {
			r.el.setClass("")
		}
		r.rev.setText(rev)
		r.cause.setText(v.ChangeCause)
		r.noteRow.setHidden(v.Note == "")
		r.noteText.setText(v.Note)
		r.image.setText(v.Image)
		r.created.setText(v.Created)
		r.ready.setText(v.Replicas)
		r.back.setHidden(v.Rollback == "")
		// The current revision has no action: on a phone, where each cell
		// is a labelled line, its empty ACTION line is left out.
		if v.Rollback == "" {
			r.action.setClass("cv-no-action")
		} else {
			r.action.setClass("")
		}
		r.back.setAttr("data-command", v.Rollback)
		r.back.setText("Roll back to revision " + strconv.FormatInt(v.Revision, 10))
		r.back.setAttr("title", "kubectl "+v.Rollback)
	})
	nk := make([]string, len(l.Notes))
	for i, n := range l.Notes {
		nk[i] = n.Key
	}
	p.noteItems.sync(nk, func(i int, n *node) { n.setText(l.Notes[i].Text) })
	p.notes.setHidden(len(l.Notes) == 0)
	p.renderDiff(a, l, revs)
}

func (p *revisionsPanel) renderDiff(a *app, l *view.Ledger, revs []string) {
	opt := func(i int, n *node) {
		n.setText("revision " + revs[i])
		n.setAttr("value", revs[i])
	}
	p.fromOpts.sync(revs, opt)
	p.toOpts.sync(revs, opt)
	da, db, ok := view.DefaultDiff(l)
	has := func(r int64) bool {
		for _, x := range revs {
			if x == strconv.FormatInt(r, 10) {
				return true
			}
		}
		return false
	}
	if p.a != 0 && p.b != 0 && has(p.a) && has(p.b) {
		da, db, ok = p.a, p.b, true
	}
	if !ok {
		p.diffNote.setText("A diff needs two revisions: change the template (kubectl set image deployment/" + l.Deployment + " …) to make one.")
		p.diffLines.sync(nil, func(int, *node) {})
		p.from.setBool("disabled", true)
		p.to.setBool("disabled", true)
		return
	}
	p.from.setBool("disabled", false)
	p.to.setBool("disabled", false)
	p.from.setValue(strconv.FormatInt(da, 10))
	p.to.setValue(strconv.FormatInt(db, 10))
	lines, _ := view.Diff(a.inst.Sim, l.Deployment, da, db)
	changed := 0
	keys := make([]string, len(lines))
	for i, dl := range lines {
		keys[i] = dl.Key
		if dl.Op != ' ' {
			changed++
		}
	}
	if changed == 0 {
		p.diffNote.setText("The two templates are the same.")
	} else {
		p.diffNote.setText("What changed in spec.template from revision " + strconv.FormatInt(da, 10) + " to " + strconv.FormatInt(db, 10) +
			" (the pod-template-hash label left out).")
	}
	p.diffLines.sync(keys, func(i int, n *node) {
		dl := lines[i]
		switch dl.Op {
		case '+':
			n.setClass("cv-dl cv-add")
		case '-':
			n.setClass("cv-dl cv-del")
		default:
			n.setClass("cv-dl")
		}
		n.setText(string(dl.Op) + " " + dl.Text + "\n")
	})
}
