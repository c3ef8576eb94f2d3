package view

import (
	"html"
	"strings"
)

// AppendTileHTML appends the markup of t's tile to b: a button whose class
// says its shape and whose accessible name is kubectl's words
// (AccessibleName). The page builds a large set of tiles as one string and
// one insertion, rather than a few calls into JS per tile; every text in
// it is escaped (names and statuses come from the scenario, which may be
// hostile).
func AppendTileHTML(b *strings.Builder, t *Tile) {
	b.WriteString(`<button type="button" class="cv-tile s-`)
	b.WriteString(html.EscapeString(string(t.Shape)))
	b.WriteString(`" aria-label="`)
	b.WriteString(html.EscapeString(t.AccessibleName()))
	b.WriteString(`" data-status="`)
	b.WriteString(html.EscapeString(t.Status))
	b.WriteString(`"></button>`)
}
