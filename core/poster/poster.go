// Package poster draws a scenario's state at one second as a small static
// SVG: the picture a docs page shows before (and without) the simulator's
// wasm (docs/embedding.md, "Posters"). It draws what the compact embed
// view draws, from the same view model (core/view: Why, RolloutOf): the
// focus Deployment's why-line badge and headline, its summary, the two
// rolling-update budgets and its ReplicaSets with their pods as tiles in
// the page's shapes, each tile titled with kubectl's STATUS word for word.
//
// It is native only: the page's wasm never imports it (its size is
// shared), `converge poster`, `converge serve` and `converge export-site`
// do.
package poster

import (
	"fmt"
	"html"
	"sort"
	"strconv"
	"strings"

	"converge/core/humanize"
	"converge/core/sim"
	"converge/core/view"
)

// Width is the poster's width in its own units (its viewBox); it scales to
// its container.
const Width = 480

// MaxTiles is how many pods a column draws one by one; a larger column
// draws a bar of its pods by STATUS instead (rolling-1000-pods).
const MaxTiles = 120

// Layout, in viewBox units.
const (
	pad      = 16
	tile     = 16
	tileGap  = 5
	lineH    = 18
	maxLines = 4 // of the headline
)

// Options say what to draw.
type Options struct {
	// Title is the scenario's name, drawn first ("rolling-update").
	Title string
	// Deployment is the Deployment to draw; "" is the page's focus (the
	// first by name, view.Focus).
	Deployment string
}

// svg accumulates the poster: its body, the symbols the tiles use and
// the cursor.
type svg struct {
	b    strings.Builder
	used map[view.Shape]bool
	y    float64
}

// SVG draws s at its current second.
func SVG(s *sim.Sim, o Options) []byte {
	p := &svg{used: map[view.Shape]bool{}}
	at := "at " + humanize.Seconds(s.T())
	p.y = 26
	p.text(pad, p.y, "h", o.Title)
	p.textAt(Width-pad, p.y, "m", "end", at)
	label := o.Title + " " + at
	ro := view.RolloutOf(s, o.Deployment)
	if ro == nil {
		p.y += 24
		p.text(pad, p.y, "", "No Deployment at this second.")
		label += ": no Deployment"
	} else {
		label += ": " + p.rollout(s, ro)
	}
	p.y += pad
	return p.finish(label)
}

// rollout draws the Deployment's why-line, summary, budgets and columns,
// and returns the poster's one-line description.
func (p *svg) rollout(s *sim.Sim, ro *view.Rollout) string {
	var why view.WhyLine
	whys := view.Why(s)
	for _, w := range whys {
		if w.Key == ro.Deployment {
			why = w
		}
	}
	// The badge and the Deployment.
	p.y += 16
	badge := strings.ToUpper(kindLabel(why.Kind))
	bw := float64(len(badge))*7.2 + 16
	fmt.Fprintf(&p.b, `<rect class="k-%s" x="%d" y="%s" width="%s" height="20" rx="10"/>`, kindClass(why.Kind), pad, num(p.y), num(bw))
	p.textAt(pad+bw/2, p.y+14, "bd k-"+kindClass(why.Kind)+"-t", "middle", badge)
	name := "deployment/" + ro.Deployment
	if ro.Revision != "" {
		name += " · revision " + ro.Revision
	}
	if others := len(whys) - 1; others > 0 {
		name += " (+" + humanize.Count(others, "more Deployment") + ")"
	}
	p.text(pad+bw+10, p.y+14.5, "b", name)
	p.y += 20
	// The headline, wrapped.
	for _, l := range wrap(why.Headline, (Width-2*pad)*10/64 /* a 13 px sans character is about 6.4 wide */, maxLines) {
		p.y += lineH
		p.text(pad, p.y, "", l)
	}
	p.y += lineH
	p.text(pad, p.y, "m s", ro.Summary)
	// The budgets, or the strategy when there are none.
	p.y += 12
	if ro.Surge != nil && ro.Unavailable != nil {
		gw := float64(Width-2*pad-24) / 2
		p.gauge(pad, gw, ro.Surge)
		p.gauge(pad+gw+24, gw, ro.Unavailable)
		p.y += 34
	} else {
		p.y += 14
		p.text(pad, p.y, "m s", ro.Strategy+": no surge or unavailability budget")
		p.y += 6
	}
	// The ReplicaSets, old first, the new one last, then the strays.
	cols := ro.Columns
	if ro.Strays != nil {
		cols = append(append([]view.Column(nil), cols...), *ro.Strays)
	}
	for _, c := range cols {
		p.column(c)
	}
	if ro.Hidden > 0 {
		p.y += lineH
		p.text(pad, p.y, "m s", "+ "+humanize.Count(ro.Hidden, "old ReplicaSet")+" at 0 replicas, not drawn")
	}
	return name + ": " + kindLabel(why.Kind) + ". " + why.Headline + " " + ro.Summary + "."
}

// gauge draws one budget at x, w wide, from the cursor down.
func (p *svg) gauge(x, w float64, g *view.Gauge) {
	cls := "g"
	switch {
	case g.Stuck:
		cls = "gb"
	case g.Idle:
		cls = "gi"
	}
	text := g.Text
	if g.Blocking {
		text += " · blocking"
	}
	p.text(x, p.y+12, "s", text)
	frac := 1.0
	if g.Max > 0 {
		frac = min(float64(g.Used)/float64(g.Max), 1)
	} else if g.Used == 0 {
		frac = 0
	}
	fmt.Fprintf(&p.b, `<rect class="tr" x="%s" y="%s" width="%s" height="7" rx="3.5"/>`, num(x), num(p.y+19), num(w))
	if frac > 0 {
		fmt.Fprintf(&p.b, `<rect class="%s" x="%s" y="%s" width="%s" height="7" rx="3.5"/>`, cls, num(x), num(p.y+19), num(max(w*frac, 7)))
	}
}

// column draws one ReplicaSet (or the strays): a head line, its counts
// and its pods.
func (p *svg) column(c view.Column) {
	p.y += 12
	head := c.Name
	switch c.Role {
	case "new":
		head = "new · " + head
	case "old":
		head = "old · " + head
	}
	if c.Revision > 0 {
		head += " · rev " + strconv.FormatInt(c.Revision, 10)
	}
	if c.Image != "" {
		head += " · " + c.Image
	}
	p.y += lineH
	fmt.Fprintf(&p.b, `<line class="ln" x1="%d" x2="%d" y1="%s" y2="%s"/>`, pad, Width-pad, num(p.y-lineH+2), num(p.y-lineH+2))
	p.text(pad, p.y, "b s", clip(head, (Width-2*pad)*10/62))
	p.y += 16
	p.text(pad, p.y, "m s", c.Counts)
	p.y += 8
	if len(c.Tiles) > MaxTiles {
		p.statusBar(c.Tiles)
		return
	}
	perRow := (Width - 2*pad + tileGap) / (tile + tileGap)
	for i, t := range c.Tiles {
		x := pad + (i%perRow)*(tile+tileGap)
		y := p.y + float64(i/perRow)*(tile+tileGap)
		p.used[t.Shape] = true
		title := t.Name + " · " + status(t)
		if t.Restarts > 0 {
			title += " · " + humanize.Count(t.Restarts, "restart")
		}
		if t.Node != "" {
			title += " · " + t.Node
		}
		fmt.Fprintf(&p.b, `<g><title>%s</title><use href="#%s" x="%d" y="%s"/></g>`, esc(title), shapeID(t.Shape), x, num(y))
	}
	if n := len(c.Tiles); n > 0 {
		p.y += float64((n+perRow-1)/perRow*(tile+tileGap)) - tileGap
	}
}

// statusBar draws a large column's pods as one bar, a segment per STATUS
// in the order the tiles first show it, and a line that counts them.
func (p *svg) statusBar(tiles []view.Tile) {
	type seg struct {
		status string
		shape  view.Shape
		n      int
	}
	var segs []*seg
	by := map[string]*seg{}
	for _, t := range tiles {
		g := by[status(t)]
		if g == nil {
			g = &seg{status: status(t), shape: t.Shape}
			by[status(t)] = g
			segs = append(segs, g)
		}
		g.n++
	}
	sort.SliceStable(segs, func(i, j int) bool { return segs[i].n > segs[j].n })
	x := float64(pad)
	w := float64(Width - 2*pad)
	var words []string
	for _, g := range segs {
		sw := w * float64(g.n) / float64(len(tiles))
		fmt.Fprintf(&p.b, `<rect class="f-%s" x="%s" y="%s" width="%s" height="%d"><title>%s</title></rect>`,
			strings.TrimPrefix(shapeID(g.shape), "cvp-"), num(x), num(p.y), num(sw), tile, esc(strconv.Itoa(g.n)+" · "+g.status))
		x += sw
		words = append(words, strconv.Itoa(g.n)+" "+g.status)
	}
	p.y += tile + 16
	p.text(pad, p.y, "m s", "pods by STATUS: "+strings.Join(words, ", "))
}

// status is a tile's STATUS as kubectl prints it, with the page's split
// of Running: "Running", "Running, ready", "Running, available".
func status(t view.Tile) string {
	switch t.State {
	case view.StateReady:
		return t.Status + ", ready"
	case view.StateAvailable:
		return t.Status + ", available"
	}
	return t.Status
}

// text writes one line of text from x, at y (its baseline), with the
// classes cls.
func (p *svg) text(x, y float64, cls, s string) { p.textAt(x, y, cls, "", s) }

// textAt writes one line of text anchored at x ("", "middle" or "end").
func (p *svg) textAt(x, y float64, cls, anchor, s string) {
	fmt.Fprintf(&p.b, `<text x="%s" y="%s"`, num(x), num(y))
	if cls != "" {
		p.b.WriteString(` class="` + cls + `"`)
	}
	if anchor != "" {
		p.b.WriteString(` text-anchor="` + anchor + `"`)
	}
	p.b.WriteString(">" + esc(s) + "</text>")
}

// finish wraps the body: the root with its size and description, the
// palette (light, and dark where the reader prefers it) and the symbols
// the tiles use.
func (p *svg) finish(label string) []byte {
	h := int(p.y + 0.5)
	var out strings.Builder
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`,
		Width, h, Width, h, esc(label))
	out.WriteString(`<title>` + esc(label) + `</title>`)
	out.WriteString(style)
	fmt.Fprintf(&out, `<rect class="bg" x=".5" y=".5" width="%d" height="%d" rx="10"/>`, Width-1, h-1)
	out.WriteString(`<defs>`)
	for _, sh := range shapeOrder {
		if p.used[sh] {
			out.WriteString(`<symbol id="` + shapeID(sh) + `" viewBox="0 0 16 16" width="16" height="16">` + shapes[sh] + `</symbol>`)
		}
	}
	out.WriteString(`</defs>`)
	out.WriteString(p.b.String())
	out.WriteString(`</svg>`)
	return []byte(out.String())
}

// style is the poster's palette: the page's (web/style.css), light and dark.
const style = `<style>svg{--bg:#fff;--fg:#1b1f24;--mu:#5a6470;--ln:#dde1e6;--s2:#f0f2f5;--ac:#1f5fbf;--as:#e8f0fc;--ok:#00785a;--os:#e3f4ee;` +
	`--wa:#9a5200;--ws:#fdf1df;--bd:#b6400b;--bs:#fbe9e1;--av:#0072b2;--pr:#3f9fd8;--pe:#7b8590;--cr:#d55e00;--pu:#e69f00;--ev:#b4508f;` +
	`font:13px system-ui,-apple-system,"Segoe UI","Liberation Sans","DejaVu Sans",sans-serif}` +
	`@media(prefers-color-scheme:dark){svg{--bg:#161b22;--fg:#e6e8eb;--mu:#9aa4af;--ln:#2b333d;--s2:#1d242d;--ac:#79a8f5;--as:#1c2a40;` +
	`--ok:#4cc9a0;--os:#12302a;--wa:#f2b15a;--ws:#33260f;--bd:#ff9466;--bs:#3a1d12;--av:#3a9ad9;--pr:#6cc0f0;--pe:#8b95a0;--cr:#f07b2a;--pu:#f0b429;--ev:#d27ab0}}` +
	`text{fill:var(--fg)}.h{font-size:15px;font-weight:700}.b{font-weight:600}.m{fill:var(--mu)}.s{font-size:11.5px}` +
	`.bd{font-size:10.5px;font-weight:700;letter-spacing:.04em}.bg{fill:var(--bg);stroke:var(--ln)}.ln{stroke:var(--ln)}.tr{fill:var(--s2)}` +
	`.g{fill:var(--ac)}.gb{fill:var(--bd)}.gi{fill:var(--pe)}` +
	`.k-bad{fill:var(--bs);stroke:var(--bd)}.k-bad-t{fill:var(--bd)}.k-warn{fill:var(--ws);stroke:var(--wa)}.k-warn-t{fill:var(--wa)}` +
	`.k-neutral{fill:var(--s2);stroke:var(--ac)}.k-neutral-t{fill:var(--ac)}.k-act{fill:var(--as);stroke:var(--ac)}.k-act-t{fill:var(--ac)}` +
	`.k-ok{fill:var(--os);stroke:var(--ok)}.k-ok-t{fill:var(--ok)}` +
	`.f-a{fill:var(--av)}.f-d,.f-r,.f-h{fill:var(--pr)}.f-p,.f-t,.f-o,.f-n,.f-g{fill:var(--pe)}.f-x,.f-e{fill:var(--cr)}.f-w{fill:var(--pu)}.f-v{fill:var(--ev)}` +
	`</style>`

// shapeOrder lists the shapes in the legend's order, so that the
// symbols come out in a fixed order.
var shapeOrder = []view.Shape{view.ShapeSolid, view.ShapeDot, view.ShapeRing, view.ShapeHalf, view.ShapeDashed, view.ShapeStriped,
	view.ShapeBar, view.ShapeDone, view.ShapeCross, view.ShapeTriangle, view.ShapeSlash, view.ShapeHollow, view.ShapeGone}

// shapes draws each tile shape in a 16×16 box, as web/style.css draws
// the page's tiles.
var shapes = map[view.Shape]string{
	view.ShapeSolid:    `<rect width="16" height="16" rx="3" fill="var(--av)"/>`,
	view.ShapeDot:      `<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="var(--av)" stroke-width="2"/><circle cx="8" cy="8" r="2.6" fill="var(--av)"/>`,
	view.ShapeRing:     `<circle cx="8" cy="8" r="7" fill="none" stroke="var(--pr)" stroke-width="2"/>`,
	view.ShapeHalf:     `<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="var(--pr)" stroke-width="2"/><rect x="1" y="8" width="14" height="7" fill="var(--pr)"/>`,
	view.ShapeDashed:   `<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="var(--pe)" stroke-width="2" stroke-dasharray="3 2"/>`,
	view.ShapeStriped:  `<rect x=".75" y=".75" width="14.5" height="14.5" rx="3" fill="none" stroke="var(--pe)" stroke-width="1.5"/><path d="M1 7 7 1M1 13 13 1M5 15 15 5M11 15 15 11" stroke="var(--pe)" stroke-width="1.6"/>`,
	view.ShapeBar:      `<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="var(--cr)" stroke-width="2"/><path d="M8 3v10" stroke="var(--cr)" stroke-width="3"/>`,
	view.ShapeDone:     `<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="var(--pe)" stroke-width="2"/><path d="M4 8h8" stroke="var(--pe)" stroke-width="3"/>`,
	view.ShapeCross:    `<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="var(--cr)" stroke-width="2"/><path d="M4 4l8 8M12 4l-8 8" stroke="var(--cr)" stroke-width="2.6"/>`,
	view.ShapeTriangle: `<path d="M8 .6 15.8 15.4H.2z" fill="var(--pu)"/>`,
	view.ShapeSlash:    `<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="var(--ev)" stroke-width="2"/><path d="M3 3l10 10" stroke="var(--ev)" stroke-width="3"/>`,
	view.ShapeHollow:   `<rect x=".75" y=".75" width="14.5" height="14.5" rx="3" fill="none" stroke="var(--mu)" stroke-width="1.5"/>`,
	view.ShapeGone:     `<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="var(--pe)" stroke-width="2" stroke-dasharray="1 2" opacity=".7"/>`,
}

// shapeID is the symbol (and the bar class) of a shape: one letter, with
// a prefix so that posters inlined in one page share their symbols
// without clashing with the page's own ids.
func shapeID(sh view.Shape) string {
	letter := map[view.Shape]string{view.ShapeSolid: "a", view.ShapeDot: "d", view.ShapeRing: "r", view.ShapeHalf: "h",
		view.ShapeDashed: "p", view.ShapeStriped: "t", view.ShapeBar: "e", view.ShapeDone: "o", view.ShapeCross: "x",
		view.ShapeTriangle: "w", view.ShapeSlash: "v", view.ShapeHollow: "n", view.ShapeGone: "g"}[sh]
	if letter == "" {
		letter = "n"
	}
	return "cvp-" + letter
}

// kindLabel is the why-line's badge as the page says it
// (wasm/render_why.go's kindLabels).
func kindLabel(kind string) string {
	switch kind {
	case "acting":
		return "Acting"
	case "progressing":
		return "Progressing"
	case "waiting":
		return "Waiting"
	case "paused":
		return "Paused"
	case "stuck":
		return "Stuck"
	case "refused":
		return "Refused"
	case "in-sync":
		return "In sync"
	case "error":
		return "Failing"
	}
	return "Waiting"
}

// kindClass is the badge's colour, as web/style.css's .cv-badge-KIND.
func kindClass(kind string) string {
	switch kind {
	case "stuck", "error":
		return "bad"
	case "waiting", "paused", "refused":
		return "warn"
	case "acting":
		return "act"
	case "in-sync":
		return "ok"
	}
	return "neutral"
}

// wrap breaks s into lines of at most width characters, at spaces; the
// last of at most n lines ends with "…" when s is longer.
func wrap(s string, width, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = clip(lines[n-1]+" …", width)
		if !strings.HasSuffix(lines[n-1], "…") {
			lines[n-1] += "…"
		}
	}
	return lines
}

// clip shortens s to at most n characters, ending with "…" when cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// esc escapes text for XML.
func esc(s string) string { return html.EscapeString(s) }

// num writes a coordinate with at most one decimal.
func num(f float64) string { return strconv.FormatFloat(float64(int(f*10+0.5))/10, 'f', -1, 64) }
