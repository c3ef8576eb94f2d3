package view

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAppendTileHTMLEscapesEveryText(t *testing.T) {
	tile := Tile{Name: `web"><img src=x onerror=alert(1)>&'`, State: StateRunning, Status: `<b>"x"</b>`, Shape: ShapeRing,
		Node: `n"<'&>`}
	var b strings.Builder
	AppendTileHTML(&b, &tile)
	got := b.String()
	assert.Equal(t, `<button type="button" class="cv-tile s-ring" aria-label="pod web&#34;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;, `+
		`&lt;b&gt;&#34;x&#34;&lt;/b&gt;, not ready, 0 restarts, on n&#34;&lt;&#39;&amp;&gt;" data-status="&lt;b&gt;&#34;x&#34;&lt;/b&gt;"></button>`, got)
	// Nothing of the hostile texts can end an attribute or open a tag:
	// the only quotes and angle brackets are the markup's own.
	assert.Equal(t, 8, strings.Count(got, `"`))
	assert.Equal(t, 2, strings.Count(got, "<"))
	assert.Equal(t, 2, strings.Count(got, ">"))
}
