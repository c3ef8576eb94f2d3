package view

import "strings"

// AppendTileHTML appends the markup of t's tile to b: a button whose class
// says its shape and whose accessible name is kubectl's words
// (AccessibleName). The page builds a large set of tiles as one string and
// one insertion, rather than a few calls into JS per tile; every text in
// it is escaped (names and statuses come from the scenario, which may be
// hostile).
func AppendTileHTML(b *strings.Builder, t *Tile) {
	b.WriteString(`<button type="button" class="cv-tile s-`)
	escapeHTML(b, string(t.Shape))
	b.WriteString(`" aria-label="`)
	escapeHTML(b, t.AccessibleName())
	b.WriteString(`" data-status="`)
	escapeHTML(b, t.Status)
	b.WriteString(`"></button>`)
}

// escapeHTML appends s to b escaped for an HTML attribute value in double
// quotes or for an element's content: & < > " ' as html.EscapeString
// writes them (a loop, not strings.NewReplacer, whose code the wasm would
// otherwise carry only for this).
func escapeHTML(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}
