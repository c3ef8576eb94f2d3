//go:build js && wasm

package main

import (
	"converge/core/view"
)

// writersPart is the Why card's "who wrote it" timeline of the focus
// Deployment: each write of spec.replicas and of the pod template, by whom
// (and which field manager), when and why, the writes that set a field
// back marked. It shows once a field has been written more than once.
type writersPart struct {
	el, title      *node
	replicas, tmpl *writersList
}

// writersList is one field's writes, then the managers that own the
// field now (under its own list, not the other's).
type writersList struct {
	el, head, owners *node
	items            *keyed[writerItem]
}

type writerItem struct {
	el, at, change, who, why *node
}

func newWriters(a *app) *writersPart {
	d := a.d
	w := &writersPart{el: d.el("div", "cv-writers")}
	w.title = d.el("h3", "cv-writers-title")
	w.replicas, w.tmpl = newWritersList(a, "spec.replicas"), newWritersList(a, "pod template")
	w.el.add(w.title, w.replicas.el, w.tmpl.el)
	return w
}

func newWritersList(a *app, field string) *writersList {
	d := a.d
	l := &writersList{el: d.el("div", "cv-writers-field"), head: d.el("p", "cv-writers-head", "Who wrote "+field),
		owners: d.el("p", "cv-muted cv-small")}
	list := d.el("ol", "cv-writers-list")
	l.el.add(l.head, list, l.owners)
	l.items = newKeyed(list, func(string) *writerItem {
		it := &writerItem{el: d.el("li", "cv-writer"), at: d.el("span", "cv-writer-at cv-mono"), change: d.el("span", "cv-writer-change cv-mono"),
			who: d.el("span", "cv-writer-who"), why: d.el("span", "cv-writer-why")}
		it.el.add(it.at, it.change, it.who, it.why)
		return it
	}, func(it *writerItem) *node { return it.el })
	return l
}

func (w *writersPart) render(a *app) {
	fw := view.Writers(a.inst.Sim, focusName(a.inst.Sim, a.focus))
	if fw == nil || len(fw.Replicas) < 2 && len(fw.Template) < 2 {
		w.el.setHidden(true)
		return
	}
	w.el.setHidden(false)
	w.title.setText("Writers of deployment/" + fw.Deployment)
	w.replicas.render(fw.Replicas, "spec.replicas", fw.Owners)
	w.tmpl.render(fw.Template, "spec.template", fw.TemplateOwners)
}

func (l *writersList) render(ws []view.FieldWrite, field string, owners []string) {
	l.el.setHidden(len(ws) < 2)
	l.owners.setHidden(len(owners) == 0)
	if len(owners) > 0 {
		l.owners.setText(field + " is managed now by " + joinAnd(owners) + " (metadata.managedFields).")
	}
	keys := make([]string, len(ws))
	for i, fw := range ws {
		keys[i] = fw.Key
	}
	l.items.sync(keys, func(i int, it *writerItem) {
		fw := ws[i]
		cls := "cv-writer"
		if fw.Undid {
			cls += " cv-writer-undid"
		}
		if fw.User {
			cls += " cv-writer-user"
		}
		it.el.setClass(cls)
		it.at.setText(itoa(int(fw.T)) + " s")
		change := fw.From + " → " + fw.To
		if fw.From == "" {
			change = fw.To
		}
		it.change.setText(change)
		it.who.setText(fw.Writer + " · " + fw.Manager)
		it.why.setText(fw.Why)
		it.why.setHidden(fw.Why == "")
	})
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1 : len(s)-1] {
		out += ", " + x
	}
	return out + " and " + s[len(s)-1]
}
