//go:build js && wasm

package main

import (
	"strconv"

	"converge/core/sim"
	"converge/core/view"
)

// comparePart is the Compare view (view.CompareOf): one column per variant
// of the scenario, all at the instance's second, each with what its patch
// changes, its why-line, its rollout (budget gauges and tiles) and where
// its rollout's time went; then one chart overlaying every variant's
// available pods and replicas, and the outcomes table so far. The timeline
// above is the one clock of every column.
type comparePart struct {
	el, title, hint, legend *node
	cols                    *keyed[compareColumn]
	chart                   *chartView
	table, caption          *node
	heads                   *keyed[node]
	rows                    *keyed[outcomeRowView]
}

type compareColumn struct {
	el, swatch, name, patch, badge, headline, times *node
	rollout                                         *rolloutPart
	// sim is the variant's simulation as last drawn, for the tiles' hover texts.
	sim *sim.Sim
}

type outcomeRowView struct {
	el    *node
	cells *keyed[node]
}

func newCompare(a *app) *comparePart {
	d := a.d
	c := &comparePart{el: d.el("section", "cv-card cv-compare")}
	c.el.setAttr("aria-labelledby", "cv-compare-title-"+itoa(a.inst.ID))
	c.title = d.el("h2", "cv-compare-title")
	c.title.SetID("cv-compare-title-" + itoa(a.inst.ID))
	c.hint = d.el("p", "cv-muted cv-compare-hint",
		"Every variant runs on the same clock: the timeline moves them all. The console's commands run in each.")
	colsEl := d.el("div", "cv-compare-cols")
	c.cols = newKeyed(colsEl, func(string) *compareColumn {
		col := &compareColumn{el: d.el("article", "cv-compare-col"), swatch: d.el("span", "cv-swatch"),
			name: d.el("h3", "cv-compare-name"), patch: d.el("pre", "cv-compare-patch cv-mono"),
			badge: d.el("span", "cv-badge"), headline: d.el("p", "cv-headline"), times: d.el("p", "cv-times cv-mono")}
		col.swatch.setAttr("aria-hidden", "true")
		col.rollout = newRolloutOf(a, func() *sim.Sim { return col.sim }, true)
		col.el.add(d.el("div", "cv-compare-head").add(col.swatch, col.name), col.patch,
			d.el("div", "cv-compare-why").add(col.badge, col.headline), col.rollout.el, col.times)
		return col
	}, func(col *compareColumn) *node { return col.el })
	c.legend = d.el("ul", "cv-legend")
	c.legend.setAttr("aria-label", "What the tiles show")
	for _, li := range view.Legend() {
		sw := d.el("span", tileClass(li.Shape))
		sw.setAttr("aria-hidden", "true")
		c.legend.add(d.el("li", "").add(sw, d.el("strong", "", string(li.State)), d.el("span", "cv-muted", li.Meaning)))
	}
	c.chart = newChartView(d)
	c.chart.el.setClass("cv-chart cv-compare-chart")
	c.table = d.el("table", "cv-outcomes")
	c.caption = d.el("caption", "cv-outcomes-caption")
	// Explicit roles: on a phone the table reflows to stacked rows
	// (style.css), and CSS display must not take its meaning away.
	c.table.setAttr("role", "table")
	headRow := d.el("tr", "")
	headRow.setAttr("role", "row")
	c.heads = newKeyed(headRow, func(string) *node {
		th := d.el("th", "")
		th.setAttr("scope", "col")
		th.setAttr("role", "columnheader")
		return th
	}, func(n *node) *node { return n })
	body := tableBody(d)
	c.rows = newKeyed(body, func(string) *outcomeRowView {
		r := &outcomeRowView{el: d.el("tr", "")}
		r.el.setAttr("role", "row")
		r.cells = newKeyed(r.el, func(key string) *node {
			if key == "variant" {
				th := d.el("th", "")
				th.setAttr("scope", "row")
				th.setAttr("role", "rowheader")
				return th
			}
			td := d.el("td", "")
			td.setAttr("role", "cell")
			return td
		}, func(n *node) *node { return n })
		return r
	}, func(r *outcomeRowView) *node { return r.el })
	thead := d.el("thead", "").add(headRow)
	thead.setAttr("role", "rowgroup")
	c.table.add(c.caption, thead, body)
	wrap := d.el("div", "cv-outcomes-wrap").add(c.table)
	wrap.setAttr("tabindex", "0")
	wrap.setAttr("role", "region")
	wrap.setAttr("aria-label", "Outcomes of every variant")
	c.el.add(c.title, c.hint, colsEl, c.legend, c.chart.el, wrap)
	return c
}

func (c *comparePart) render(a *app) {
	r := a.inst.Compare
	if r == nil {
		return
	}
	cv := view.CompareOf(r, a.focus)
	title := "Compare " + pluralize(len(cv.Variants), "variant")
	if cv.Deployment != "" {
		title += " of deployment/" + cv.Deployment
	}
	c.title.setText(title)
	keys := make([]string, len(cv.Variants))
	for i, v := range cv.Variants {
		keys[i] = v.Key
	}
	c.cols.sync(keys, func(i int, col *compareColumn) {
		v := &cv.Variants[i]
		col.sim = r.Variants[i].Sim
		variant := "cv-variant-" + strconv.Itoa(v.Index)
		col.el.setClass("cv-compare-col " + variant)
		col.el.setAttr("data-variant", v.Name)
		col.swatch.setClass("cv-swatch " + variant)
		col.name.setText(v.Name)
		col.patch.setText(v.Patch)
		if v.Why != nil {
			col.badge.setClass("cv-badge cv-badge-" + v.Why.Kind)
			col.badge.setText(kindLabels[v.Why.Kind])
			col.headline.setText(v.Why.Headline)
		}
		col.badge.setHidden(v.Why == nil)
		col.headline.setHidden(v.Why == nil)
		col.rollout.draw(v.Rollout)
		col.times.setHidden(len(v.Times) == 0)
		if len(v.Times) > 0 {
			col.times.setText(v.Times[0].Text)
		}
	})
	c.legend.setHidden(cv.Deployment == "")
	c.chart.el.setHidden(cv.Deployment == "")
	if cv.Deployment != "" {
		c.chart.render(&cv.Chart)
	}
	t := cv.Table
	c.caption.setText(t.Caption)
	c.heads.sync(t.Headers, func(i int, n *node) { n.setText(t.Headers[i]) })
	rowKeys := make([]string, len(t.Rows))
	for i, row := range t.Rows {
		rowKeys[i] = row.Key
	}
	c.rows.sync(rowKeys, func(i int, rv *outcomeRowView) {
		row := t.Rows[i]
		rv.el.setClass("cv-variant-" + strconv.Itoa(row.Index))
		type cell struct{ text, class string }
		cells := []cell{{row.Variant, "cv-outcome-variant"}}
		cellKeys := []string{"variant"}
		if len(t.Headers) > len(row.Cells)+1 {
			cells = append(cells, cell{row.Deployment, "cv-mono"})
			cellKeys = append(cellKeys, "deployment")
		}
		for j, oc := range row.Cells {
			cls := ""
			text := oc.Text
			if oc.Best {
				cls = "cv-best"
				text += " ★"
			}
			cells = append(cells, cell{text, cls})
			cellKeys = append(cellKeys, "c"+strconv.Itoa(j))
		}
		rv.cells.sync(cellKeys, func(j int, n *node) {
			// A phone stacks the row: each value says its column.
			if j < len(t.Headers) {
				n.setAttr("data-label", t.Headers[j])
			}
			n.setText(cells[j].text)
			n.setClass(cells[j].class)
			if cells[j].class == "cv-best" {
				n.setAttr("title", "the best of this column")
			} else {
				n.setAttr("title", "")
			}
		})
	})
}
