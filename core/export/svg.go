package export

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"converge/core/view"
)

// The layout of ChartsSVG, in SVG user units (CSS pixels at 100%): each
// chart is a title, its plot of view.ChartWidth × view.ChartHeight (the
// view model's own coordinates, so the path data goes in unchanged), the
// time labels and the legend.
const (
	svgMarginLeft  = 56
	svgMarginRight = 24
	svgTitle       = 28
	svgXLabels     = 22
	svgLegendLine  = 20
	svgGap         = 24
	svgWidth       = svgMarginLeft + view.ChartWidth + svgMarginRight
)

// seriesStyle is how each line or band is drawn: the page's light theme
// (web/style.css), written out, since a downloaded SVG has no stylesheet.
var seriesStyle = map[string]string{
	"desired":     `fill="none" stroke="#1b1f24" stroke-width="1.5" stroke-dasharray="7 5"`,
	"total":       `fill="none" stroke="#8a939d" stroke-width="1.5"`,
	"updated":     `fill="none" stroke="#b4508f" stroke-width="2" stroke-dasharray="2 3"`,
	"ready":       `fill="none" stroke="#56b4e9" stroke-width="2"`,
	"available":   `fill="none" stroke="#0072b2" stroke-width="3"`,
	"success":     `fill="none" stroke="#009e73" stroke-width="2.5"`,
	"surge":       `fill="rgba(230, 159, 0, 0.16)" stroke="none"`,
	"unavailable": `fill="rgba(213, 94, 0, 0.11)" stroke="none"`,
}

// ChartsSVG returns the charts as one standalone SVG document: a heading
// (title, and what the charts show as of now), then each chart with its
// title, grid, bands, lines, marker at the current second, axis labels and
// legend (with each line's value now). Every text is escaped; the output
// depends only on its arguments.
func ChartsSVG(title, subtitle string, charts []view.Chart) []byte {
	var b strings.Builder
	y := 8
	heading := 0
	if title != "" {
		heading += 26
	}
	if subtitle != "" {
		heading += 20
	}
	height := y + heading
	for _, c := range charts {
		height += chartBlockHeight(c)
	}
	if len(charts) == 0 {
		height += 40
	}
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="` + itoa(svgWidth) + `" height="` + itoa(height) +
		`" viewBox="0 0 ` + itoa(svgWidth) + " " + itoa(height) + `" font-family="system-ui, sans-serif" font-size="13">` + "\n")
	b.WriteString(`<rect width="100%" height="100%" fill="#ffffff"/>` + "\n")
	if title != "" {
		y += 20
		b.WriteString(`<text x="` + itoa(svgMarginLeft) + `" y="` + itoa(y) + `" font-size="18" font-weight="600" fill="#1b1f24">` + esc(title) + "</text>\n")
		y += 6
	}
	if subtitle != "" {
		y += 16
		b.WriteString(`<text x="` + itoa(svgMarginLeft) + `" y="` + itoa(y) + `" fill="#5a6470">` + esc(subtitle) + "</text>\n")
		y += 4
	}
	if len(charts) == 0 {
		b.WriteString(`<text x="` + itoa(svgMarginLeft) + `" y="` + itoa(y+28) + `" fill="#5a6470">Nothing to chart yet.</text>` + "\n")
	}
	for _, c := range charts {
		writeChart(&b, c, y)
		y += chartBlockHeight(c)
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// chartBlockHeight is the height one chart takes, its gap included.
func chartBlockHeight(c view.Chart) int {
	return svgGap + svgTitle + view.ChartHeight + svgXLabels + legendRows(c)*svgLegendLine
}

// legendRows is how many lines the legend takes.
func legendRows(c view.Chart) int {
	rows := 0
	for _, e := range legendLayout(c) {
		rows = max(rows, e.row+1)
	}
	return rows
}

// legendEntry is one name of the legend, placed.
type legendEntry struct {
	key, text string
	x, row    int
}

// legendLayout names every line (with its value now) and band, left to
// right, starting a new line when the next would pass the plot's width.
// Widths are estimated at 7.5 units a character of the 13-unit font.
func legendLayout(c view.Chart) []legendEntry {
	now := map[string]string{}
	for _, v := range c.Now {
		now[v.Key] = v.Value
	}
	var out []legendEntry
	add := func(key, text string) {
		x, row := 0, 0
		if n := len(out); n > 0 {
			last := out[n-1]
			x, row = last.x+legendWidth(last.text), last.row
			if x+legendWidth(text) > view.ChartWidth {
				x, row = 0, row+1
			}
		}
		out = append(out, legendEntry{key: key, text: text, x: x, row: row})
	}
	for _, s := range c.Series {
		t := s.Label
		if v, ok := now[s.Key]; ok {
			t += " " + v
		}
		add(s.Key, t)
	}
	for _, s := range c.Bands {
		add(s.Key, s.Label)
	}
	return out
}

// legendWidth is the room an entry takes: its swatch, the text and a gap.
func legendWidth(text string) int { return 24 + utf8.RuneCountInString(text)*15/2 + 28 }

func writeChart(b *strings.Builder, c view.Chart, top int) {
	top += svgGap
	b.WriteString(`<g aria-label="` + esc(c.Title) + `">` + "\n")
	b.WriteString(`<text x="` + itoa(svgMarginLeft) + `" y="` + itoa(top+18) + `" font-size="15" font-weight="600" fill="#1b1f24">` + esc(c.Title) + "</text>\n")
	plotTop := top + svgTitle
	b.WriteString(`<g transform="translate(` + itoa(svgMarginLeft) + "," + itoa(plotTop) + `)">` + "\n")
	b.WriteString(`<rect width="` + itoa(view.ChartWidth) + `" height="` + itoa(view.ChartHeight) + `" fill="none" stroke="#dde1e6"/>` + "\n")
	for _, t := range c.YTicks {
		b.WriteString(`<line x1="0" x2="` + itoa(view.ChartWidth) + `" y1="` + esc(t.Pos) + `" y2="` + esc(t.Pos) + `" stroke="#dde1e6"/>` + "\n")
		b.WriteString(`<text x="-8" y="` + esc(t.Pos) + `" dy="4" text-anchor="end" fill="#5a6470">` + esc(t.Label) + "</text>\n")
	}
	for _, s := range c.Bands {
		b.WriteString(`<path d="` + esc(s.Path) + `" ` + styleOf(s.Key) + "><title>" + esc(s.Label) + "</title></path>\n")
	}
	for _, s := range c.Series {
		b.WriteString(`<path d="` + esc(s.Path) + `" ` + styleOf(s.Key) + ` stroke-linejoin="round"><title>` + esc(s.Label) + "</title></path>\n")
	}
	// Time after the current second is shaded, as on the page.
	b.WriteString(`<rect x="` + esc(c.MarkerX) + `" width="` + futureWidth(c.MarkerX) + `" height="` + itoa(view.ChartHeight) + `" fill="rgba(90, 100, 112, 0.06)"/>` + "\n")
	b.WriteString(`<line x1="` + esc(c.MarkerX) + `" x2="` + esc(c.MarkerX) + `" y1="0" y2="` + itoa(view.ChartHeight) + `" stroke="#1b1f24" stroke-width="1.5"/>` + "\n")
	for i, t := range c.XTicks {
		anchor := "middle"
		switch {
		case i == 0:
			anchor = "start"
		case i == len(c.XTicks)-1:
			anchor = "end"
		}
		b.WriteString(`<text x="` + esc(t.Pos) + `" y="` + itoa(view.ChartHeight+16) + `" text-anchor="` + anchor + `" fill="#5a6470">` + esc(t.Label) + "</text>\n")
	}
	b.WriteString("</g>\n")
	writeLegend(b, c, plotTop+view.ChartHeight+svgXLabels)
	b.WriteString("</g>\n")
}

// writeLegend draws the legend below the time labels, each entry after
// a swatch drawn as its series is.
func writeLegend(b *strings.Builder, c view.Chart, top int) {
	for _, e := range legendLayout(c) {
		x := svgMarginLeft + e.x
		y := top + e.row*svgLegendLine + 12
		if strings.Contains(styleOf(e.key), `stroke="none"`) {
			b.WriteString(`<rect x="` + itoa(x) + `" y="` + itoa(y-9) + `" width="18" height="10" ` + styleOf(e.key) + "/>\n")
		} else {
			b.WriteString(`<line x1="` + itoa(x) + `" x2="` + itoa(x+18) + `" y1="` + itoa(y-4) + `" y2="` + itoa(y-4) + `" ` + styleOf(e.key) + "/>\n")
		}
		b.WriteString(`<text x="` + itoa(x+24) + `" y="` + itoa(y) + `" fill="#1b1f24">` + esc(e.text) + "</text>\n")
	}
}

// futureWidth is the width from the marker to the plot's right edge.
func futureWidth(markerX string) string {
	x, err := strconv.ParseFloat(markerX, 64)
	if err != nil {
		return "0"
	}
	return strconv.FormatFloat(max(float64(view.ChartWidth)-x, 0), 'f', -1, 64)
}

// styleOf is a series' presentation attributes; an unknown key is a plain
// line.
func styleOf(key string) string {
	if s, ok := seriesStyle[key]; ok {
		return s
	}
	return `fill="none" stroke="#5a6470" stroke-width="2"`
}

// esc escapes s for XML text and attribute values: <, >, &, ' and ", and
// the control characters XML 1.0 does not allow, which become U+FFFD (as
// encoding/xml's EscapeText does; the page does not link encoding/xml).
func esc(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return '\uFFFD'
		}
		return r
	}, xmlEscaper.Replace(strings.ToValidUTF8(s, "\uFFFD")))
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#39;", `"`, "&#34;", "\n", "&#xA;", "\r", "&#xD;", "\t", "&#x9;")

func itoa(n int) string { return strconv.Itoa(n) }
