package view

import (
	"html"
	"net/url"
	"strconv"
	"strings"

	"converge/core/scenario"
)

// Embed is what the page's Embed button shows: copy-paste snippets that
// show the current scenario at the current second on a page of any site
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

// EmbedOf is the Embed of the page at pageURL (its address; the query and
// fragment are dropped, and so is a file name after the last slash) for
// l: the built-in scenario by name when l.Builtin is set, else l.YAML as
// a share payload; l.T as t when it is past 0. A scenario too large for a
// share is ErrTooLargeForLink.
func EmbedOf(pageURL string, l Link) (Embed, error) {
	base := pageURL
	if i := strings.IndexAny(base, "?#"); i >= 0 {
		base = base[:i]
	}
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[:i+1]
	}
	var attrs, query, fragment string
	if l.Builtin != "" {
		attrs = ` scenario="` + html.EscapeString(l.Builtin) + `"`
		query = "?scenario=" + url.QueryEscape(l.Builtin) + "&embed=1"
	} else {
		share, err := scenario.EncodeShare(l.YAML)
		if err != nil {
			return Embed{}, err
		}
		attrs = ` share="` + html.EscapeString(share) + `"`
		query = "?embed=1"
		fragment = "#s=" + share
	}
	if l.T > 0 {
		ts := strconv.FormatInt(l.T, 10)
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

// EmbedIntro is what the Embed panel says above its snippets, for a
// scenario shown at second t.
func EmbedIntro(t int64) string {
	at := "at the start"
	if t > 0 {
		at = "at " + secondsText(t)
	}
	return "Show this scenario " + at + " on a page of any site: add the script tag once, then one element per demo. " +
		"The simulator loads when a demo comes into view."
}

// EmbedTooLarge is what the Embed panel says for a scenario of size
// bytes, which neither an element's share attribute nor a link can carry.
func EmbedTooLarge(size int) string {
	return "No snippet: this scenario is " + kib(size) + ", and an embed carries at most " + kib(scenario.MaxShareSize) +
		". Shorten it (fewer objects or steps) to embed it, or use Download to pass it on as a file."
}
