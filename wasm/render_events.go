//go:build js && wasm

package main

import (
	"strconv"

	"honnef.co/go/js/dom/v2"

	"converge/core/view"
)

// eventsPanel is the event log like `kubectl get events -w`, with the
// scenario's steps, filterable by text and type; each row's time seeks
// there.
type eventsPanel struct {
	el, text, kind, count *node
	rows                  *keyed[eventRow]
	filter                view.EventFilter
}

type eventRow struct {
	el, at, typ, reason, object, message *node
}

func newEvents(a *app) *eventsPanel {
	d := a.d
	p := &eventsPanel{el: d.el("div", "cv-panel cv-events")}
	p.text = d.el("input", "cv-input")
	p.text.setAttr("type", "search")
	p.text.setAttr("placeholder", "Filter: reason, object or message")
	p.text.setAttr("aria-label", "Filter events by text")
	p.kind = d.el("select", "cv-select")
	p.kind.setAttr("aria-label", "Filter events by type")
	for _, o := range []struct{ v, t string }{{"", "All types"}, {"Normal", "Normal"}, {"Warning", "Warning"}, {view.RowStep, "Steps"}} {
		opt := d.el("option", "", o.t)
		opt.SetAttribute("value", o.v) // also when "": an option without one takes its text
		p.kind.add(opt)
	}
	p.count = d.el("span", "cv-muted cv-small")
	p.count.setAttr("aria-live", "polite")
	tools := d.el("div", "cv-toolbar").add(p.text, p.kind, p.count)
	table := d.el("table", "cv-table cv-event-table")
	heads := []string{"AT", "TYPE", "REASON", "OBJECT", "MESSAGE"}
	body := tableBody(d)
	table.add(tableHead(d, table, heads), body)
	p.el.add(tools, d.el("div", "cv-scroll").add(table))
	p.rows = newKeyed(body, func(string) *eventRow {
		r := &eventRow{el: d.el("tr", ""), at: d.el("button", "cv-link cv-mono"), typ: d.el("td", ""), reason: d.el("td", ""),
			object: d.el("td", "cv-mono"), message: d.el("td", "cv-msg")}
		r.at.setAttr("type", "button")
		tableRow(r.el, heads, d.el("td", "").add(r.at), r.typ, r.reason, r.object, r.message)
		return r
	}, func(r *eventRow) *node { return r.el })
	onFilter := func(dom.Event) {
		p.filter = view.EventFilter{Text: p.text.value(), Type: p.kind.value()}
		p.render(a)
	}
	a.ls.on(p.text, "input", onFilter)
	a.ls.on(p.kind, "change", onFilter)
	a.ls.on(body, "click", func(ev dom.Event) {
		if v, err := strconv.ParseInt(targetAttr(ev, "data-t"), 10, 64); err == nil {
			a.seek(v)
		}
	})
	return p
}

func (p *eventsPanel) root() *node { return p.el }

func (p *eventsPanel) render(a *app) {
	l := view.EventsWith(a.inst.Sim, p.filter, a.console.Refusals())
	switch {
	case l.Matched == l.Total:
		p.count.setText(pluralize(l.Total, "row") + ", newest first")
	default:
		p.count.setText(strconv.Itoa(l.Matched) + " of " + pluralize(l.Total, "row") + " match, newest first")
	}
	if len(l.Rows) < l.Matched {
		p.count.setText(p.count.text + " (the latest " + strconv.Itoa(len(l.Rows)) + " shown)")
	}
	keys := make([]string, len(l.Rows))
	for i, r := range l.Rows {
		keys[i] = r.Key
	}
	p.rows.sync(keys, func(i int, r *eventRow) {
		v := &l.Rows[i]
		r.el.setClass("cv-ev-" + v.Type)
		r.at.setText(v.At)
		r.at.setAttr("data-t", strconv.FormatInt(v.T, 10))
		r.at.setAttr("aria-label", "Go to "+v.At+" ("+v.Ago+")")
		r.at.setAttr("title", v.Ago)
		r.typ.setText(v.Type)
		r.reason.setText(v.Reason)
		r.object.setText(v.Object)
		msg := v.Message
		if v.Count > 1 {
			msg += " (×" + strconv.Itoa(int(v.Count)) + ")"
		}
		r.message.setText(msg)
	})
}
