//go:build js && wasm

package main

import (
	"strconv"

	"converge/core/view"
)

// chartsPanel draws the replica counts of the focus Deployment over time
// and each Service's success rate, as SVG in a fixed viewBox (the view
// model's coordinates), with the current second marked.
type chartsPanel struct {
	el, empty *node
	charts    *keyed[chartView]
}

type chartView struct {
	el, title, legend, svg, grid, bands, lines, marker, future, xLabels, yLabels *node
	legendItems                                                                  *keyed[node]
	bandPaths, linePaths                                                         *keyed[node]
	xTicks, yTicks, gridLines                                                    *keyed[node]
}

func newCharts(a *app) *chartsPanel {
	d := a.d
	p := &chartsPanel{el: d.el("div", "cv-panel cv-charts"), empty: d.el("p", "cv-muted", "Nothing to chart yet.")}
	list := d.el("div", "cv-chart-list")
	p.el.add(p.empty, list)
	p.charts = newKeyed(list, func(string) *chartView { return newChartView(d) }, func(c *chartView) *node { return c.el })
	return p
}

func newChartView(d doc) *chartView {
	c := &chartView{el: d.el("figure", "cv-chart"), title: d.el("figcaption", "cv-chart-title"), legend: d.el("ul", "cv-chart-legend")}
	c.svg = d.svg("svg", "cv-plot")
	c.svg.setAttr("viewBox", view.ChartViewBox)
	c.svg.setAttr("preserveAspectRatio", "none")
	c.svg.setAttr("role", "img")
	c.grid, c.bands, c.lines = d.svg("g", "cv-grid"), d.svg("g", "cv-bands"), d.svg("g", "cv-lines")
	c.future = d.svg("rect", "cv-future")
	c.future.setAttr("y", "0")
	c.future.setAttr("height", strconv.Itoa(view.ChartHeight))
	c.marker = d.svg("line", "cv-marker")
	c.marker.setAttr("y1", "0")
	c.marker.setAttr("y2", strconv.Itoa(view.ChartHeight))
	c.marker.setAttr("vector-effect", "non-scaling-stroke")
	c.svg.add(c.grid, c.bands, c.future, c.lines, c.marker)
	c.xLabels, c.yLabels = d.el("div", "cv-xlabels"), d.el("div", "cv-ylabels")
	c.xLabels.setAttr("aria-hidden", "true")
	c.yLabels.setAttr("aria-hidden", "true")
	plot := d.el("div", "cv-plot-wrap").add(c.yLabels, d.el("div", "cv-plot-area").add(c.svg, c.xLabels))
	c.el.add(c.title, plot, c.legend)
	path := func(class string) func(string) *node {
		return func(string) *node {
			p := d.svg("path", class)
			p.setAttr("vector-effect", "non-scaling-stroke")
			return p
		}
	}
	self := func(n *node) *node { return n }
	c.bandPaths = newKeyed(c.bands, path("cv-band"), self)
	c.linePaths = newKeyed(c.lines, path("cv-line"), self)
	c.gridLines = newKeyed(c.grid, func(string) *node {
		l := d.svg("line", "cv-gridline")
		l.setAttr("x1", "0")
		l.setAttr("x2", strconv.Itoa(view.ChartWidth))
		l.setAttr("vector-effect", "non-scaling-stroke")
		return l
	}, self)
	c.xTicks = newKeyed(c.xLabels, func(string) *node { return d.el("span", "cv-tick") }, self)
	c.yTicks = newKeyed(c.yLabels, func(string) *node { return d.el("span", "cv-tick") }, self)
	c.legendItems = newKeyed(c.legend, func(string) *node {
		li := d.el("li", "")
		return li
	}, self)
	return c
}

func (p *chartsPanel) root() *node { return p.el }

func (p *chartsPanel) render(a *app) {
	charts := view.Charts(a.inst.Sim, a.focus)
	p.empty.setHidden(len(charts) > 0)
	keys := make([]string, len(charts))
	for i, c := range charts {
		keys[i] = c.Key
	}
	p.charts.sync(keys, func(i int, c *chartView) { c.render(&charts[i]) })
}

func (c *chartView) render(ch *view.Chart) {
	c.title.setText(ch.Title)
	c.svg.setAttr("aria-label", ch.Title)
	seriesKeys := func(ss []view.Series) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = s.Key
		}
		return out
	}
	c.bandPaths.sync(seriesKeys(ch.Bands), func(i int, n *node) {
		n.setAttr("class", "cv-band cv-band-"+ch.Bands[i].Key)
		n.setAttr("d", ch.Bands[i].Path)
	})
	c.linePaths.sync(seriesKeys(ch.Series), func(i int, n *node) {
		n.setAttr("class", "cv-line cv-line-"+ch.Series[i].Key)
		n.setAttr("d", ch.Series[i].Path)
	})
	c.marker.setAttr("x1", ch.MarkerX)
	c.marker.setAttr("x2", ch.MarkerX)
	c.future.setAttr("x", ch.MarkerX)
	mx, _ := strconv.ParseFloat(ch.MarkerX, 64)
	c.future.setAttr("width", strconv.FormatFloat(max(float64(view.ChartWidth)-mx, 0), 'f', 1, 64))
	tickKeys := func(ts []view.Tick) []string {
		out := make([]string, len(ts))
		for i, t := range ts {
			out[i] = t.Label
		}
		return out
	}
	c.xTicks.sync(tickKeys(ch.XTicks), func(i int, n *node) {
		n.setText(ch.XTicks[i].Label)
		if ch.XTicks[i].Minor {
			n.setClass("cv-tick cv-tick-minor")
		} else {
			n.setClass("cv-tick")
		}
		n.setStyle("left", percentOf(ch.XTicks[i].Pos, view.ChartWidth))
	})
	c.yTicks.sync(tickKeys(ch.YTicks), func(i int, n *node) {
		n.setText(ch.YTicks[i].Label)
		n.setStyle("top", percentOf(ch.YTicks[i].Pos, view.ChartHeight))
	})
	c.gridLines.sync(tickKeys(ch.YTicks), func(i int, n *node) {
		n.setAttr("y1", ch.YTicks[i].Pos)
		n.setAttr("y2", ch.YTicks[i].Pos)
	})
	// The legend names every line and band, with its value now.
	var keys []string
	type item struct{ key, class, text string }
	var items []item
	now := map[string]string{}
	for _, v := range ch.Now {
		now[v.Key] = v.Value
	}
	for _, s := range ch.Series {
		t := s.Label
		if v, ok := now[s.Key]; ok {
			t += " " + v
		}
		items = append(items, item{"l-" + s.Key, "cv-key cv-key-line cv-line-" + s.Key, t})
	}
	for _, b := range ch.Bands {
		items = append(items, item{"b-" + b.Key, "cv-key cv-key-band cv-band-" + b.Key, b.Label})
	}
	for _, it := range items {
		keys = append(keys, it.key)
	}
	c.legendItems.sync(keys, func(i int, n *node) {
		n.setClass(items[i].class)
		n.setText(items[i].text)
	})
}

// percentOf renders pos (chart units) as a percentage of total: "42.8%".
func percentOf(pos string, total int) string {
	v, err := strconv.ParseFloat(pos, 64)
	if err != nil {
		return "0%"
	}
	return strconv.FormatFloat(v*100/float64(total), 'f', 2, 64) + "%"
}
