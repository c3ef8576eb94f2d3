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
	htmlEscaper.WriteString(b, string(t.Shape))
	b.WriteString(`" aria-label="`)
	htmlEscaper.WriteString(b, t.AccessibleName())
	b.WriteString(`" data-status="`)
	htmlEscaper.WriteString(b, t.Status)
	b.WriteString(`"></button>`)
}

// htmlEscaper escapes text for an HTML attribute value in double quotes or
// for an element's content.
var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
