package session

import (
	"errors"
	"html"
	"strings"

	"converge/core/view"
)

// Embed is what the page's Embed button shows: copy-paste snippets that
// show the current scenario at the current second on a page of any site
// (docs/embedding.md). Its texts are core/view's (EmbedIntro,
// EmbedTooLarge).
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
	a, err := l.Address()
	if err != nil {
		return Embed{}, err
	}
	attrs := ` share="` + html.EscapeString(a.Share) + `"`
	if a.Scenario != "" {
		attrs = ` scenario="` + html.EscapeString(a.Scenario) + `"`
	}
	if a.T != "" {
		attrs += ` t="` + html.EscapeString(a.T) + `"`
	}
	a.Embed = true
	link := a.URL(base)
	return Embed{
		Script:  `<script type="module" src="` + html.EscapeString(base+"converge.js") + `"></script>`,
		Element: `<converge-sim` + attrs + `></converge-sim>`,
		IFrame: `<iframe src="` + html.EscapeString(link) + `" title="Converge simulation" width="100%" height="640"` +
			` style="border:0;max-width:100%" loading="lazy"></iframe>`,
		Link: link,
	}, nil
}

// EmbedPanel is what the Embed panel shows for the session now: the
// snippets from the page's address (EmbedOf), under a text that says
// what they show (view.EmbedIntro), or only a text saying why there are
// none (Bad: a scenario too large for a share, view.EmbedTooLarge). Where
// is the note for snippets that work only on this machine (a loopback or
// private address, view.EmbedLocalNote), else "".
type EmbedPanel struct {
	Intro string
	Bad   bool
	Where string
	Embed Embed
}

// EmbedPanel decides the Embed panel for the page at pageURL, whose
// snippets point at publicURL instead when the server was given one
// (view.EmbedAddress: `converge serve --public-url`, `export-site
// --base-url`). Without a simulation it is a bad panel saying so.
func (s *Session) EmbedPanel(pageURL, publicURL string) EmbedPanel {
	l, err := s.Link()
	var em Embed
	address, local := view.EmbedAddress(pageURL, publicURL)
	if err == nil {
		em, err = EmbedOf(address, l)
	}
	switch {
	case errors.Is(err, ErrTooLargeForLink):
		return EmbedPanel{Intro: view.EmbedTooLarge(len(l.YAML)), Bad: true}
	case err != nil:
		return EmbedPanel{Intro: "No snippet: " + err.Error(), Bad: true}
	}
	if l.Builtin != "" && l.T == 0 && s.Compare == nil {
		em.Element = withPoster(em.Element, address, l.Builtin)
	}
	p := EmbedPanel{Intro: view.EmbedIntro(l.T), Embed: em}
	if local {
		p.Where = view.EmbedLocalNote(address)
	}
	return p
}

// withPoster puts the built-in scenario name's poster at 0s, which
// `converge serve` and every export-site have at posters/NAME.svg
// (docs/embedding.md, "Posters"), inside the element: readers see it at
// once, and without JavaScript.
func withPoster(element, pageURL, name string) string {
	base := pageURL
	if i := strings.IndexAny(base, "?#"); i >= 0 {
		base = base[:i]
	}
	base = base[:strings.LastIndexByte(base, '/')+1]
	open, _ := strings.CutSuffix(element, "</converge-sim>")
	return open + `<img src="` + html.EscapeString(base+"posters/"+name+".svg") + `" alt="` + html.EscapeString(name) +
		`: the simulation before it loads" width="480" style="max-width:100%;height:auto"></converge-sim>`
}
