//go:build js && wasm

package main

import (
	"strconv"

	"converge/core/sim"
	"converge/core/view"
)

// nodesPanel draws one card per node: its Ready condition, taints, the
// requests of its pods against what it can allocate, and its pods.
type nodesPanel struct {
	el, empty *node
	cards     *keyed[nodeCard]
	panel     *podPanel
}

type nodeCard struct {
	el, name, ready, taints, tiles *node
	cpu, mem, pods                 *usageView
	taintItems                     *keyed[node]
	tileItems                      *tileGrid
	dense                          bool
	drawn                          []view.Tile
}

type usageView struct{ el, label, fill *node }

func newNodes(a *app) *nodesPanel {
	d := a.d
	p := &nodesPanel{el: d.el("div", "cv-panel cv-nodes"), empty: d.el("p", "cv-muted", "The cluster has no nodes.")}
	grid := d.el("div", "cv-node-grid")
	p.el.add(p.empty, grid)
	p.cards = newKeyed(grid, func(key string) *nodeCard {
		c := &nodeCard{el: d.el("article", "cv-node"), name: d.el("h3", "cv-mono"), ready: d.el("span", "cv-badge"),
			taints: d.el("ul", "cv-taints"), tiles: d.el("div", "cv-tiles")}
		c.tiles.setAttr("role", "group")
		c.cpu, c.mem, c.pods = newUsage(d, "CPU requested"), newUsage(d, "Memory requested"), newUsage(d, "Pods")
		self := func(n *node) *node { return n }
		c.taintItems = newKeyed(c.taints, func(string) *node { return d.el("li", "cv-chip cv-mono") }, self)
		c.tileItems = &tileGrid{el: c.tiles}
		c.tiles.setAttr("data-key", key)
		c.el.add(d.el("div", "cv-node-head").add(c.name, c.ready), c.taints, c.cpu.el, c.mem.el, c.pods.el, c.tiles)
		return c
	}, func(c *nodeCard) *node { return c.el })
	drawn := func(key string) []view.Tile {
		if c := p.cards.get(key); c != nil {
			return c.drawn
		}
		return nil
	}
	simOf := func() *sim.Sim { return a.inst.Sim }
	hoverTitles(a, simOf, grid, drawn)
	p.panel = newPodPanel(a, simOf)
	openTiles(a, p.panel, grid, drawn)
	p.el.add(p.panel.el)
	return p
}

func newUsage(d doc, label string) *usageView {
	u := &usageView{el: d.el("div", "cv-usage"), label: d.el("span", "cv-usage-label"), fill: d.el("span", "cv-usage-fill")}
	bar := d.el("span", "cv-usage-bar").add(u.fill)
	bar.setAttr("aria-hidden", "true")
	u.el.setAttr("aria-label", label)
	u.el.add(u.label, bar)
	return u
}

func (u *usageView) render(v view.Usage) {
	u.label.setText(v.Text)
	u.fill.setStyle("width", strconv.Itoa(v.Percent)+"%")
}

func (p *nodesPanel) root() *node { return p.el }

func (p *nodesPanel) render(a *app) {
	cards := view.Nodes(a.inst.Sim)
	p.panel.render()
	p.empty.setHidden(len(cards) > 0)
	keys := make([]string, len(cards))
	for i, c := range cards {
		keys[i] = c.Key
	}
	p.cards.sync(keys, func(i int, c *nodeCard) {
		v := &cards[i]
		c.name.setText(v.Key)
		cls := "cv-badge cv-badge-in-sync"
		if v.Ready != "True" {
			cls = "cv-badge cv-badge-stuck"
		}
		if v.Cordoned {
			cls += " cv-cordoned"
		}
		c.ready.setClass(cls)
		c.ready.setText(v.ReadyText)
		c.taints.setHidden(len(v.Taints) == 0)
		c.taintItems.sync(v.Taints, func(j int, n *node) { n.setText(breakable(v.Taints[j])) })
		c.cpu.render(v.CPU)
		c.mem.render(v.Memory)
		c.pods.render(v.Pods)
		dense := len(v.Tiles) >= denseTiles
		if dense != c.dense {
			c.dense = dense
			c.tiles.setClass(map[bool]string{true: "cv-tiles cv-dense", false: "cv-tiles"}[dense])
		}
		c.tiles.setAttr("aria-label", tileSummary(v.Tiles))
		c.drawn = v.Tiles
		c.tileItems.sync(v.Tiles)
	})
}
