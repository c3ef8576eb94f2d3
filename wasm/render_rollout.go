//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"converge/core/humanize"
	"converge/core/sim"
	"converge/core/view"
)

// rolloutPart draws the focus Deployment's rollout: the budgets, then its
// ReplicaSets side by side (old ones, then the new one), each with its pods
// as tiles, and the legend of the tiles' shapes.
type rolloutPart struct {
	el, title, strategy, summary, empty, hidden *node
	gauges                                      *node
	surge, unavailable                          *gaugeView
	cols                                        *keyed[columnView]
	legend                                      *node
	// panel opens on a tile (click, Enter or Space): the pod's describe,
	// YAML, events and owners.
	panel *podPanel
}

type columnView struct {
	el, role, name, image, counts, tiles *node
	pods                                 *tileGrid
	// gone draws the pods created and deleted within the second.
	gone, goneNote *node
	gonePods       *keyed[node]
	dense          bool
	// drawn are the tiles as last drawn, for the hover text.
	drawn []view.Tile
}

type gaugeView struct {
	el, label, flag, bar, fill, math, meaning *node
	cells                                     *keyed[node]
}

// maxCells is the largest budget drawn as one cell per pod; beyond it the
// gauge is a bar.
const maxCells = 24

// denseTiles is the pod count from which a column draws small tiles.
const denseTiles = 120

func newRollout(a *app) *rolloutPart {
	return newRolloutOf(a, func() *sim.Sim { return a.inst.Sim }, false)
}

// newRolloutOf makes a rollout part whose tiles' hover texts come from the
// simulation simOf returns; a compact one (a variant's column in the
// Compare view) has no title and no legend.
func newRolloutOf(a *app, simOf func() *sim.Sim, compact bool) *rolloutPart {
	d := a.d
	r := &rolloutPart{el: d.el("section", "cv-card cv-rollout")}
	r.el.setAttr("aria-label", "Rollout")
	r.title = d.el("h2", "cv-rollout-title")
	r.strategy = d.el("p", "cv-strategy cv-muted")
	r.summary = d.el("p", "cv-summary")
	// With no Deployment the card says what is missing, in a neutral box:
	// nothing failed, there is only nothing to roll out.
	r.empty = d.el("div", "cv-empty").add(
		d.el("p", "cv-empty-title", "No Deployment at this second"),
		d.el("p", "cv-muted", "There is no rollout to draw: no ReplicaSets to compare, no surge or unavailability budget. "+
			"A Deployment appears here once the scenario or the console creates one (kubectl apply, kubectl create deployment); "+
			"pods and ReplicaSets that exist without one are in Nodes and Selectors."))
	head := d.el("div", "cv-rollout-head").add(d.el("div", "").add(r.title, r.strategy), r.summary)
	r.surge = newGauge(d, "Surge: pods above the desired count while both ReplicaSets run")
	r.unavailable = newGauge(d, "Unavailability: desired pods that are not available")
	r.gauges = d.el("div", "cv-gauges").add(r.surge.el, r.unavailable.el)
	colsEl := d.el("div", "cv-columns")
	r.hidden = d.el("p", "cv-muted cv-hidden-rs")
	r.cols = newKeyed(colsEl, func(key string) *columnView {
		c := newColumn(d)
		c.tiles.setAttr("data-key", key)
		return c
	}, func(c *columnView) *node { return c.el })
	drawn := func(key string) []view.Tile {
		if c := r.cols.get(key); c != nil {
			return c.drawn
		}
		return nil
	}
	hoverTitles(a, simOf, colsEl, drawn)
	r.panel = newPodPanel(a, simOf)
	openTiles(a, r.panel, colsEl, drawn)
	r.legend = d.el("ul", "cv-legend")
	r.legend.setAttr("aria-label", "What the tiles show")
	for _, li := range view.Legend() {
		sw := d.el("span", tileClass(li.Shape))
		sw.setAttr("aria-hidden", "true")
		item := d.el("li", "").add(sw, d.el("strong", "", string(li.State)), d.el("span", "cv-muted", li.Meaning))
		r.legend.add(item)
	}
	r.el.add(head, r.empty, r.gauges, colsEl, r.hidden, r.legend, r.panel.el)
	if compact {
		r.el.setClass("cv-rollout cv-rollout-compact")
		r.title.setHidden(true)
		r.legend.Remove()
	}
	return r
}

func newColumn(d doc) *columnView {
	c := &columnView{el: d.el("div", "cv-col"), role: d.el("span", "cv-role"), name: d.el("span", "cv-rs-name cv-mono"),
		image: d.el("span", "cv-image cv-mono"), counts: d.el("p", "cv-counts"), tiles: d.el("div", "cv-tiles")}
	c.tiles.setAttr("role", "group")
	c.pods = &tileGrid{el: c.tiles}
	c.gone = d.el("div", "cv-tiles cv-gone")
	c.goneNote = d.el("p", "cv-gone-note cv-muted")
	c.gonePods = newKeyed(c.gone, func(string) *node {
		n := d.el("span", "cv-tile s-gone")
		return n
	}, func(n *node) *node { return n })
	head := d.el("div", "cv-col-head").add(c.role, c.name)
	c.el.add(head, c.image, c.counts, c.tiles, c.goneNote, c.gone)
	return c
}

func newGauge(d doc, aria string) *gaugeView {
	g := &gaugeView{el: d.el("div", "cv-gauge"), label: d.el("span", "cv-gauge-label"), flag: d.el("span", "cv-flag"),
		bar: d.el("div", "cv-bar"), fill: d.el("div", "cv-fill"), math: d.el("p", "cv-math cv-mono"), meaning: d.el("p", "cv-meaning cv-muted")}
	g.bar.setAttr("role", "meter")
	g.bar.setAttr("aria-label", aria)
	g.bar.setAttr("aria-valuemin", "0")
	g.bar.add(g.fill)
	g.cells = newKeyed(g.bar, func(string) *node { return d.el("span", "cv-cell") }, func(n *node) *node { return n })
	g.el.add(d.el("div", "cv-gauge-head").add(g.label, g.flag), g.bar, g.math, g.meaning)
	return g
}

func (r *rolloutPart) render(a *app) {
	r.draw(view.RolloutOf(a.inst.Sim, a.focus))
}

// draw shows ro (nil: no Deployment).
func (r *rolloutPart) draw(ro *view.Rollout) {
	r.empty.setHidden(ro != nil)
	r.gauges.setHidden(ro == nil || ro.Surge == nil)
	r.legend.setHidden(ro == nil)
	if ro == nil {
		r.title.setText("Rollout")
		r.title.setClass("cv-rollout-title cv-muted")
		r.strategy.setText("")
		r.summary.setText("")
		r.hidden.setHidden(true)
		r.cols.sync(nil, func(int, *columnView) {})
		return
	}
	r.title.setClass("cv-rollout-title")
	title := "deployment/" + ro.Deployment
	if ro.Revision != "" {
		title += " · revision " + ro.Revision
	}
	if ro.Paused {
		title += " · paused"
	}
	r.title.setText(title)
	r.strategy.setText(ro.Strategy)
	r.summary.setText(ro.Summary)
	if ro.Surge != nil {
		r.surge.render(ro.Surge)
		r.unavailable.render(ro.Unavailable)
	}
	cols := append([]view.Column(nil), ro.Columns...)
	if ro.Strays != nil {
		cols = append(cols, *ro.Strays)
	}
	keys := make([]string, len(cols))
	for i, c := range cols {
		keys[i] = c.Key
	}
	r.cols.sync(keys, func(i int, c *columnView) { c.render(&cols[i]) })
	r.panel.render()
	r.hidden.setHidden(ro.Hidden == 0)
	if ro.Hidden > 0 {
		r.hidden.setText(pluralize(ro.Hidden, "older ReplicaSet") + " at 0 replicas, not drawn (see Revisions).")
	}
}

func (c *columnView) render(col *view.Column) {
	c.el.setClass("cv-col cv-col-" + col.Role)
	switch col.Role {
	case "new":
		c.role.setText("new · revision " + strconv.FormatInt(col.Revision, 10))
	case "old":
		c.role.setText("old · revision " + strconv.FormatInt(col.Revision, 10))
	default:
		c.role.setText("no controller")
	}
	c.name.setText(col.Name)
	c.image.setText(col.Image)
	c.image.setHidden(col.Image == "")
	c.counts.setText(col.Counts)
	dense := len(col.Tiles) >= denseTiles
	if dense != c.dense {
		c.dense = dense
		if dense {
			c.tiles.setClass("cv-tiles cv-dense")
		} else {
			c.tiles.setClass("cv-tiles")
		}
	}
	c.tiles.setAttr("aria-label", tileSummary(col.Tiles))
	c.drawn = col.Tiles
	c.pods.sync(col.Tiles)
	// Pods created and deleted within this second: kubectl never lists
	// them, the picture shows them faded, apart, for the second.
	c.gone.setHidden(len(col.Gone) == 0)
	c.goneNote.setHidden(len(col.Gone) == 0)
	if len(col.Gone) > 0 {
		c.goneNote.setText(pluralize(len(col.Gone), "pod") + " created and deleted within this second:")
	}
	keys := make([]string, len(col.Gone))
	for i, t := range col.Gone {
		keys[i] = t.Key
	}
	c.gonePods.sync(keys, func(i int, n *node) {
		n.setAttr("title", col.Gone[i].Name+": "+col.Gone[i].Status)
		n.setAttr("aria-label", "pod "+col.Gone[i].Name+", "+col.Gone[i].Status)
		n.setAttr("role", "img")
	})
}

// openTiles opens the panel on the tile clicked (a button: Enter and
// Space click it too).
func openTiles(a *app, panel *podPanel, container *node, drawn func(key string) []view.Tile) {
	a.ls.on(container, "click", func(ev dom.Event) {
		t := ev.Underlying().Get("target")
		if !t.Get("classList").Call("contains", "cv-tile").Bool() {
			return
		}
		parent := t.Get("parentNode")
		key := parent.Call("getAttribute", "data-key")
		if key.IsNull() {
			return
		}
		i := js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", parent.Get("children"), t).Int()
		tiles := drawn(key.String())
		if i < 0 || i >= len(tiles) {
			return
		}
		panel.open(tiles[i].Name, wrap(t))
	})
}

// tileClasses are the class names of the tiles, one per shape (style.css
// draws each), built once and only read after.
var tileClasses = func() map[view.Shape]string {
	m := map[view.Shape]string{view.ShapeHollow: "cv-tile s-" + string(view.ShapeHollow)}
	for _, li := range view.Legend() {
		m[li.Shape] = "cv-tile s-" + string(li.Shape)
	}
	return m
}()

func tileClass(s view.Shape) string {
	if c, ok := tileClasses[s]; ok {
		return c
	}
	return "cv-tile s-" + string(s)
}

// hoverTitles gives a tile under container its hover text (view.PodTitle,
// as of now) each time the pointer reaches it, so that drawing a thousand
// tiles builds no text at all. A tile's parent carries data-key, which
// drawn maps to the tiles as last drawn there.
func hoverTitles(a *app, simOf func() *sim.Sim, container *node, drawn func(key string) []view.Tile) {
	a.ls.on(container, "mouseover", func(ev dom.Event) {
		t := ev.Underlying().Get("target")
		if !t.Get("classList").Call("contains", "cv-tile").Bool() {
			return
		}
		parent := t.Get("parentNode")
		key := parent.Call("getAttribute", "data-key")
		if key.IsNull() {
			return
		}
		i := js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", parent.Get("children"), t).Int()
		tiles := drawn(key.String())
		s := simOf()
		if i < 0 || i >= len(tiles) || s == nil {
			return
		}
		if title := view.PodTitle(s, tiles[i].Name); title != "" {
			t.Call("setAttribute", "title", title)
		}
	})
}

// tileSummary is the tiles' accessible text: "5 pods: 3 Available, 2 ContainerCreating".
func tileSummary(ts []view.Tile) string {
	if len(ts) == 0 {
		return "no pods"
	}
	counts := map[view.State]int{}
	for _, t := range ts {
		counts[t.State]++
	}
	var parts []string
	for _, li := range view.Legend() {
		if n := counts[li.State]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+string(li.State))
		}
	}
	for _, st := range [...]view.State{view.StateErrImagePull, view.StateInvalidImage, view.StateUnknown, view.StateFailed} {
		if n := counts[st]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+string(st))
		}
	}
	return pluralize(len(ts), "pod") + ": " + strings.Join(parts, ", ")
}

func (g *gaugeView) render(v *view.Gauge) {
	cls := "cv-gauge"
	if v.Full {
		cls += " cv-full"
	}
	switch {
	case v.Blocking && v.Stuck:
		cls += " cv-blocking"
	case v.Blocking:
		cls += " cv-pacing"
	}
	if v.Idle {
		cls += " cv-idle cv-starting"
	}
	g.el.setClass(cls)
	g.label.setText(v.Text)
	if v.Stuck {
		g.flag.setText("holding a stuck rollout")
	} else {
		g.flag.setText("pacing the next step")
	}
	g.flag.setHidden(!v.Blocking)
	g.math.setText(v.Math)
	g.meaning.setText("used: " + v.Meaning)
	g.el.setAttr("title", v.Math+"\nused: "+v.Meaning)
	g.bar.setAttr("aria-valuemax", strconv.Itoa(int(v.Max)))
	g.bar.setAttr("aria-valuenow", strconv.Itoa(int(v.Used)))
	g.bar.setAttr("aria-valuetext", v.Text)
	n := int(max(v.Max, v.Used))
	if n <= maxCells {
		g.bar.setClass("cv-bar cv-cells")
		g.fill.setHidden(true)
		keys := make([]string, max(n, 1))
		for i := range keys {
			keys[i] = strconv.Itoa(i)
		}
		g.cells.sync(keys, func(i int, c *node) {
			switch {
			case n == 0:
				c.setClass("cv-cell cv-none")
				c.setText("none allowed")
			case v.Idle && i < int(v.Used):
				c.setClass("cv-cell cv-start") // pods starting: neutral, no budget is exceeded
			case i >= int(v.Max):
				c.setClass("cv-cell cv-over")
			case i < int(v.Used):
				c.setClass("cv-cell cv-used")
			default:
				c.setClass("cv-cell")
			}
			if n > 0 {
				c.setText("")
			}
		})
		return
	}
	g.cells.sync(nil, func(int, *node) {})
	g.bar.setClass("cv-bar")
	g.fill.setHidden(false)
	pct := 100
	if v.Max > 0 {
		pct = int(min(int64(v.Used)*100/int64(v.Max), 100))
	}
	g.fill.setStyle("width", strconv.Itoa(pct)+"%")
}

// pluralize is "1 pod" or "3 pods".
var pluralize = humanize.Count[int]

func itoa(n int) string { return strconv.Itoa(n) }

// reveal scrolls the rollout card into view and highlights it briefly:
// what a click on a Deployment's name (the why panel) shows, even with one
// Deployment, whose focus does not change.
func (r *rolloutPart) reveal() {
	el := r.el.Value
	if sv := el.Get("scrollIntoView"); sv.Truthy() {
		el.Call("scrollIntoView", map[string]any{"block": "nearest", "behavior": "smooth"})
	}
	cl := el.Get("classList")
	cl.Call("remove", "cv-flash")
	_ = el.Get("offsetWidth") // restart the animation
	cl.Call("add", "cv-flash")
}
