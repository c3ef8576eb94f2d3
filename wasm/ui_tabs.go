//go:build js && wasm

package main

import (
	"honnef.co/go/js/dom/v2"
)

// tabsPart is the tab bar under the rollout and the panel it shows. Only
// the panel on screen is computed and drawn on each render.
type tabsPart struct {
	el, bar *node
	order   []string
	buttons map[string]*node
	panels  map[string]panel
	active  string
}

// tabTitles are the tabs, in order.
var tabTitles = []struct{ key, title string }{
	{"charts", "Charts"}, {"nodes", "Nodes"}, {"events", "Events"}, {"steps", "Steps"}, {"console", "Console"},
	{"editor", "Editor"}, {"revisions", "Revisions"}, {"selectors", "Selectors"}, {"saved", "My scenarios"},
}

// simReset is a panel that keeps state about one simulation.
type simReset interface{ newSim(a *app) }

func newTabs(a *app) *tabsPart {
	d := a.d
	t := &tabsPart{el: d.el("section", "cv-card cv-tabs"), bar: d.el("div", "cv-tabbar"),
		buttons: map[string]*node{}, panels: map[string]panel{}, active: "charts"}
	t.bar.setAttr("role", "tablist")
	t.bar.setAttr("aria-label", "Views")
	t.panels["charts"] = newCharts(a)
	t.panels["nodes"] = newNodes(a)
	t.panels["events"] = newEvents(a)
	t.panels["steps"] = newSteps(a)
	t.panels["console"] = newConsole(a)
	t.panels["editor"] = newEditor(a)
	t.panels["revisions"] = newRevisions(a)
	t.panels["selectors"] = newSelectors(a)
	t.panels["saved"] = newSaved(a)
	id := itoa(a.inst.ID)
	t.el.add(t.bar)
	for _, tt := range tabTitles {
		key := tt.key
		b := button(d, "cv-tab", tt.title, "")
		b.setAttr("role", "tab")
		b.SetID("cv-tab-" + key + "-" + id)
		b.setAttr("aria-controls", "cv-panel-"+key+"-"+id)
		b.setAttr("data-tab", key)
		t.bar.add(b)
		t.buttons[key] = b
		t.order = append(t.order, key)
		p := t.panels[key].root()
		p.SetID("cv-panel-" + key + "-" + id)
		p.setAttr("role", "tabpanel")
		p.setAttr("aria-labelledby", "cv-tab-"+key+"-"+id)
		t.el.add(p)
		a.ls.on(b, "click", func(dom.Event) { a.showTab(key) })
	}
	a.ls.on(t.bar, "keydown", func(ev dom.Event) {
		k := ev.Underlying().Get("key").String()
		i := t.index(t.active)
		switch k {
		case "ArrowRight":
			i = (i + 1) % len(t.order)
		case "ArrowLeft":
			i = (i + len(t.order) - 1) % len(t.order)
		default:
			return
		}
		ev.PreventDefault()
		ev.StopPropagation()
		a.showTab(t.order[i])
		t.buttons[t.order[i]].Focus()
	})
	t.selectActive()
	return t
}

func (t *tabsPart) index(key string) int {
	for i, k := range t.order {
		if k == key {
			return i
		}
	}
	return 0
}

// selectActive shows the active panel and marks its tab.
func (t *tabsPart) selectActive() {
	for _, key := range t.order {
		on := key == t.active
		b := t.buttons[key]
		if on {
			b.setAttr("aria-selected", "true")
			b.setAttr("tabindex", "0")
			b.setClass("cv-tab cv-active")
		} else {
			b.setAttr("aria-selected", "false")
			b.setAttr("tabindex", "-1")
			b.setClass("cv-tab")
		}
		t.panels[key].root().setHidden(!on)
	}
}

func (t *tabsPart) render(a *app) { t.panels[t.active].render(a) }

func (t *tabsPart) newSim(a *app) {
	for _, key := range t.order {
		if r, ok := t.panels[key].(simReset); ok {
			r.newSim(a)
		}
	}
}

// showTab switches to tab key and draws it (a click on a tab).
func (a *app) showTab(key string) {
	if !a.selectTab(key) || a.inst.Sim == nil {
		return
	}
	profiling().part("tab", func() { a.tabs.render(a) })
}

// selectTab switches to tab key without drawing it, for an action whose
// one render follows (Instance.Batch). It reports false when there is no
// such tab (the embed view has none).
func (a *app) selectTab(key string) bool {
	t := a.tabs
	if t == nil || t.panels[key] == nil {
		return false
	}
	t.active = key
	t.selectActive()
	return true
}
