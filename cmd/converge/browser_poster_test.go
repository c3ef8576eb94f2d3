package main

// Browser tests of the poster (docs/embedding.md#posters): an element
// shows its scenario's poster before the simulator loads, and the Embed
// snippet's poster shows without JavaScript.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/poster"
)

// posterShown is the expression for an element's poster, drawn.
const posterShown = `(() => { const i = document.getElementById(%q).shadowRoot.querySelector("img.cv-poster");
	return !!i && i.complete && i.naturalWidth > 0; })()`

func TestEmbedPosterBeforeTheWasm(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	resp, err := http.Get(srv.URL + "/posters/rolling-update-20s.svg")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	_ = resp.Body.Close()
	want, err := poster.Builtin("rolling-update", 20)
	require.NoError(t, err)
	assert.Equal(t, "image/svg+xml", resp.Header.Get("Content-Type"))
	assert.Equal(t, string(want), string(body), "serve draws any second of a built-in")
	resp, err = http.Get(srv.URL + "/posters/compare-strategies.svg")
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "no poster of the Compare view")

	// The wasm waits at the proxy until the poster has been seen.
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	rp := httputil.NewSingleHostReverseProxy(u)
	release := make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	t.Cleanup(open)
	gate := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "converge.wasm") {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(gate.Close)

	p := openPage(t, docsSite(t, gate.URL, `<h1>Posters</h1>
<converge-sim id="zero" scenario="stuck-bad-image"></converge-sim>
<converge-sim id="later" scenario="rolling-update" t="20"></converge-sim>
<converge-sim id="shared" share="x"></converge-sim>`))
	p.waitFor(t, fmt.Sprintf(posterShown, "zero"))
	got := evalJS[struct {
		Sim           bool
		Later, Shared bool
		PosterH       float64
	}](t, p, `({Sim: !!document.getElementById("zero").simulation,
		Later: !!document.getElementById("later").shadowRoot.querySelector("img.cv-poster"),
		Shared: !!document.getElementById("shared").shadowRoot.querySelector("img.cv-poster"),
		PosterH: document.getElementById("zero").shadowRoot.querySelector("img.cv-poster").getBoundingClientRect().height})`)
	assert.False(t, got.Sim, "the poster shows before the simulator has loaded")
	assert.False(t, got.Later, "no poster file of another second on every host: the page puts one inside")
	assert.False(t, got.Shared, "no poster of a share")
	assert.Greater(t, got.PosterH, 150.0)
	elementShot(t, p, "#zero", "poster-waiting")

	// Once the simulator has loaded, the simulation replaces it.
	open()
	p.waitFor(t, `(() => { const r = document.getElementById("zero").shadowRoot;
		return !!r.querySelector(".cv-rollout-title")?.textContent && !r.querySelector("img.cv-poster"); })()`)
	p.assertNoConsoleErrors(t)
}

// The Embed snippet's element with its poster, on a page without the
// script (JavaScript off, or converge.js unreachable): the browser shows
// the element's content, the poster, as it is.
func TestEmbedPosterWithoutJavaScript(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/docs/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Docs without the script</title><link rel="icon" href="data:,"><style>body{margin:0 auto;max-width:820px;padding:0 8px;font-family:sans-serif}</style></head>
<body><h1>A rollout</h1><p>Before the simulator loads, and without JavaScript, readers see where the rollout starts.</p>
<converge-sim id="demo" scenario="rolling-update"><img src="%s/posters/rolling-update.svg" alt="rolling-update: the simulation before it loads" width="480" style="max-width:100%%;height:auto"></converge-sim>
<p>After the demo.</p></body></html>`, srv.URL)
	})
	docs := httptest.NewServer(mux)
	t.Cleanup(docs.Close)
	p := openPage(t, docs.URL+"/docs/page.html")
	for _, width := range []int64{1280, 375} {
		p.emulate(t, width, 800, "light")
		p.waitFor(t, `(() => { const i = document.querySelector("#demo img"); return i.complete && i.naturalWidth > 0; })()`)
		r := evalJS[struct{ W, H float64 }](t, p, `(() => { const r = document.querySelector("#demo img").getBoundingClientRect(); return {W: r.width, H: r.height}; })()`)
		assert.Greater(t, r.H, 100.0, "the poster is drawn at %d px", width)
		assert.LessOrEqual(t, r.W, float64(width), "and fits the screen at %d px", width)
		p.shot(t, fmt.Sprint("nojs-", width), false)
	}
	p.assertNoConsoleErrors(t)
}

// elementShot saves a PNG of the element matching sel as NAME, in
// $CONVERGE_SCREENSHOTS when set (for a person to look at).
func elementShot(t testing.TB, p *page, sel, name string) {
	t.Helper()
	dir := os.Getenv("CONVERGE_SCREENSHOTS")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(sel))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
}
