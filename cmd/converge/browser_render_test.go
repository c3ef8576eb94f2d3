package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countDOMCalls counts, before the page's scripts run, the calls that
// create an element or set an attribute, and notes the counts when the
// page marks the end of its open (converge:opened) and of its first render
// (converge:mounted).
const countDOMCalls = `(() => {
	const c = globalThis.__domCalls = {n: 0, at: {}};
	const count = (proto, name) => {
		const f = proto[name];
		proto[name] = function (...a) { c.n++; return f.apply(this, a); };
	};
	count(Document.prototype, "createElement");
	count(Document.prototype, "createElementNS");
	count(Element.prototype, "setAttribute");
	const mark = performance.mark.bind(performance);
	performance.mark = (name, ...a) => { c.at[name] = c.n; return mark(name, ...a); };
})()`

// TestBrowserRenderTilesInBulk: the first render of a scenario of 2,000
// pods draws every pod's tile, named in kubectl's words, with a number of
// element creations and attribute writes that does not grow with the pods
// (the tiles go in as markup, view.AppendTileHTML): one createElement and
// three setAttribute calls per tile made it seconds of one task at 10,000
// pods (BenchmarkBrowserRenderMount has the milliseconds).
func TestBrowserRenderTilesInBulk(t *testing.T) {
	t.Parallel()
	const pods = 2000
	srv := startServe(t)
	p := openWith(t, srv.URL+daySharePath(t, pods, 20, "0"), countDOMCalls)
	p.waitReady(t)
	p.waitFor(t, `__domCalls.at["converge:mounted"] !== undefined`)
	got := evalJS[struct {
		Calls, Tiles, Named int
		Label               string
	}](t, p, `(() => {
		const tiles = [...document.querySelectorAll(".cv-rollout .cv-tiles .cv-tile")];
		return {Calls: __domCalls.at["converge:mounted"] - __domCalls.at["converge:opened"], Tiles: tiles.length,
			Named: tiles.filter((b) => /^pod web-[a-z0-9]+-[a-z0-9]+, .+, \d+ restarts?, (on node-\d+|no node)$/.test(b.getAttribute("aria-label")) && b.type === "button").length,
			Label: tiles[0]?.getAttribute("aria-label") ?? ""};
	})()`)
	require.Equal(t, pods, got.Tiles, "every pod has its tile")
	assert.Equal(t, pods, got.Named, "each named in kubectl's words (first: %q)", got.Label)
	// The page's skeleton (its panels, tabs and legends) is about a
	// thousand calls; the tiles were four a pod more.
	assert.Less(t, got.Calls, pods, "element creations and attribute writes of the first render")
	p.assertNoConsoleErrors(t)
}
