package view

import (
	"html"
	"net/url"
	"strconv"
	"strings"

	"converge/core/scenario"
)

// Embed is what the page's Embed button shows: copy-paste snippets that
// show the current scenario at the current second on another page
// (docs/embedding.md).
type Embed struct {
	// Script is the one script tag a page needs, from the page's own
	// folder.
	Script string
	// Element is the <converge-sim> that shows the scenario.
	Element string
	// IFrame is an <iframe> of the page's ?embed=1 view of it, for pages
	// that cannot run scripts.
	IFrame string
	// Link is the iframe's address.
	Link string
}

// EmbedOf is the Embed of a page at pageURL (its address; the query and
// fragment are dropped, and so is a file name after the last slash) that
// shows a scenario at second t: the built-in scenario builtin by name when
// it runs exactly that ("" otherwise), else yaml as a share payload. A
// scenario too large for a share is scenario.ErrShareTooLarge.
func EmbedOf(pageURL, builtin string, yaml []byte, t int64) (Embed, error) {
	base := pageURL
	if i := strings.IndexAny(base, "?#"); i >= 0 {
		base = base[:i]
	}
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[:i+1]
	}
	attrs := ""
	query := "?embed=1"
	fragment := ""
	if builtin != "" {
		attrs = ` scenario="` + html.EscapeString(builtin) + `"`
		query = "?scenario=" + url.QueryEscape(builtin) + "&embed=1"
	} else {
		share, err := scenario.EncodeShare(yaml)
		if err != nil {
			return Embed{}, err
		}
		attrs = ` share="` + html.EscapeString(share) + `"`
		fragment = "#s=" + share
	}
	if t > 0 {
		ts := strconv.FormatInt(t, 10)
		attrs += ` t="` + ts + `"`
		query += "&t=" + ts
	}
	link := base + query + fragment
	return Embed{
		Script:  `<script type="module" src="` + html.EscapeString(base+"converge.js") + `"></script>`,
		Element: `<converge-sim` + attrs + `></converge-sim>`,
		IFrame: `<iframe src="` + html.EscapeString(link) + `" title="Converge simulation" width="100%" height="640"` +
			` style="border:0;max-width:100%" loading="lazy"></iframe>`,
		Link: link,
	}, nil
}
