//go:build js && wasm

package main

import (
	"honnef.co/go/js/dom/v2"

	"converge/core/sim"
	"converge/core/view"
)

// podPanel is what opening a pod tile shows (view.PodDetails): the pod's
// owner chain, its events, `kubectl describe pod` and its YAML, at the
// second shown, redrawn as the clock moves while it is open. Escape or
// Close shuts it and gives focus back to the tile.
type podPanel struct {
	el, title, status, owners, events, describe, yaml, empty *node
	close                                                    *node
	evRows                                                   *keyed[node]
	simOf                                                    func() *sim.Sim
	// name is the pod shown ("" when closed); from is the tile that opened
	// it, focused again on close.
	name string
	from *node
}

func newPodPanel(a *app, simOf func() *sim.Sim) *podPanel {
	d := a.d
	p := &podPanel{el: d.el("aside", "cv-pod-panel"), title: d.el("h3", "cv-pod-title cv-mono"), status: d.el("p", "cv-pod-status"),
		owners: d.el("p", "cv-pod-owners cv-mono"), events: d.el("ol", "cv-pod-events"), describe: d.el("pre", "cv-pod-describe cv-mono"),
		yaml: d.el("pre", "cv-pod-yaml cv-mono"), empty: d.el("p", "cv-muted"), close: d.el("button", "cv-button cv-pod-close", "Close"),
		simOf: simOf}
	p.el.setAttr("role", "dialog")
	p.el.setAttr("aria-label", "Pod details")
	p.close.setAttr("type", "button")
	p.close.setAttr("aria-label", "Close the pod details")
	yamlBox := d.el("details", "cv-pod-yaml-box").add(d.el("summary", "", "YAML (kubectl get pod -o yaml)"), p.yaml)
	p.el.add(d.el("div", "cv-pod-head").add(p.title, p.close), p.status,
		d.el("p", "cv-pod-label", "Owner chain"), p.owners,
		d.el("p", "cv-pod-label", "Events"), p.events, p.empty,
		d.el("p", "cv-pod-label", "kubectl describe pod"), p.describe, yamlBox)
	p.evRows = newKeyed(p.events, func(string) *node { return d.el("li", "cv-mono") }, func(n *node) *node { return n })
	p.el.setHidden(true)
	a.ls.on(p.close, "click", func(dom.Event) { p.shut() })
	a.ls.on(p.el, "keydown", func(ev dom.Event) {
		if ev.Underlying().Get("key").String() == "Escape" {
			ev.PreventDefault()
			ev.Underlying().Call("stopPropagation")
			p.shut()
		}
	})
	return p
}

// open shows the pod named name, opened from the tile from.
func (p *podPanel) open(name string, from *node) {
	p.name, p.from = name, from
	p.el.setHidden(false)
	p.render()
	p.close.Focus()
}

func (p *podPanel) shut() {
	p.name = ""
	p.el.setHidden(true)
	if p.from != nil {
		p.from.Focus()
	}
}

// render redraws the open pod at the current second.
func (p *podPanel) render() {
	if p.name == "" {
		return
	}
	s := p.simOf()
	var v *view.PodPanel
	if s != nil {
		v = view.PodDetails(s, "default", p.name)
	}
	p.title.setText("pod/" + p.name)
	if v == nil {
		p.status.setText("This pod does not exist at this second (not yet created, or deleted).")
		p.owners.setText("")
		p.describe.setText("")
		p.yaml.setText("")
		p.evRows.sync(nil, func(int, *node) {})
		p.empty.setHidden(true)
		return
	}
	p.status.setText(v.Title)
	p.owners.setText(joinArrow(v.Owners))
	p.describe.setText(v.Describe)
	p.yaml.setText(v.YAML)
	keys := make([]string, len(v.Events))
	for i, e := range v.Events {
		keys[i] = e.Key
	}
	p.evRows.sync(keys, func(i int, n *node) {
		e := v.Events[i]
		n.setClass("cv-mono cv-ev-" + e.Type)
		n.setText(e.At + " " + e.Type + " " + e.Reason + " (" + e.Source + "): " + e.Message)
	})
	p.empty.setHidden(len(v.Events) > 0)
	p.empty.setText("No events for this pod.")
}

// joinArrow is "pod/a → replicaset/b → deployment/c".
func joinArrow(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " → "
		}
		out += x
	}
	return out
}
