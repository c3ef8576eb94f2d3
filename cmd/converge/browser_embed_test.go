package main

// Browser tests of embedding (docs/embedding.md): <converge-sim> on a docs
// page of another origin, served by `converge serve` and by an exported
// site behind a static server; lazy loading; the Embed button's snippets;
// no sideways scrolling at 375 px.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docsSite serves body, an HTML page, at /docs/page.html on an origin of
// its own (another port of 127.0.0.1 than the assets'), as a docs site
// elsewhere would. assets is the origin and folder converge.js is loaded
// from (ASSETS in body is replaced by it); the page's policy allows only
// that origin, as docs/embedding.md says a page's CSP must.
func docsSite(t testing.TB, assets, body string) string {
	t.Helper()
	origin := assets
	if u, err := url.Parse(assets); err == nil {
		origin = u.Scheme + "://" + u.Host
	}
	csp := "default-src 'none'; script-src " + origin + " 'wasm-unsafe-eval'; connect-src " + origin +
		"; style-src 'self' " + origin + "; img-src 'self' data: " + origin
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="` + csp + `">
<title>Docs elsewhere</title><link rel="icon" href="data:,"><link rel="stylesheet" href="page.css">
<script type="module" src="ASSETS/converge.js"></script></head>
<body>` + body + `</body></html>`
	page = strings.ReplaceAll(page, "ASSETS", strings.TrimSuffix(assets, "/"))
	mux := http.NewServeMux()
	mux.HandleFunc("/docs/page.css", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, "body{margin:0 auto;max-width:960px;padding:0 8px;font-family:sans-serif}.spacer{height:3000px}")
	})
	mux.HandleFunc("/docs/page.html", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	docs := httptest.NewServer(mux)
	t.Cleanup(docs.Close)
	require.NotEqual(t, origin, docs.URL, "the docs page is on an origin of its own")
	return docs.URL + "/docs/page.html"
}

// counter counts the requests of a proxy by path.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

// wasm is how many requests asked for the wasm or its loader, in any of
// its encodings.
func (c *counter) wasm() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for p, k := range c.n {
		if strings.Contains(p, "converge.wasm") || strings.HasSuffix(p, "wasm_exec.js") {
			n += k
		}
	}
	return n
}

// hashed is how many requests asked for path under a content-hashed
// folder, /v/HASH/PATH (docs/embedding.md#caching).
func (c *counter) hashed(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for p, k := range c.n {
		if rest, ok := strings.CutPrefix(p, "/v/"); ok && len(rest) > 12 && rest[12:] == path {
			n += k
		}
	}
	return n
}

func (c *counter) get(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

// countingProxy is an origin of its own in front of upstream that counts
// the requests it passes on.
func countingProxy(t *testing.T, upstream string) (string, *counter) {
	t.Helper()
	u, err := url.Parse(upstream)
	require.NoError(t, err)
	c := &counter{n: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.n[r.URL.Path]++
		c.mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, c
}

// drawnJS is true once every <converge-sim> of the page has drawn its
// rollout.
const drawnJS = `(() => { const els = [...document.querySelectorAll("converge-sim")];
	return els.length > 0 && els.every((e) => e.shadowRoot.querySelector(".cv-rollout-title")?.textContent); })()`

// landedJS is a function of a <converge-sim> that resolves with what it
// opened once its opening seek has landed. open returns with a far seek
// under way, in slices (docs/js-api.md, open: t is where it goes, time()
// where it is), so a test that reads the time right after opened races
// the seek; this waits, frame by frame, for time() to reach t.
const landedJS = `(async (el) => { const o = await el.opened;
	while (o && el.simulation && el.simulation.time() !== o.t) await new Promise(requestAnimationFrame);
	return o; })`

// sidewaysJS lists what passes the edge of the screen, in the document
// and in every element's shadow root, and whether the page scrolls
// sideways.
const sidewaysJS = `(() => {
	const out = [];
	const look = (root) => {
		for (const e of root.querySelectorAll("*")) {
			const r = e.getBoundingClientRect();
			if (e.checkVisibility() && r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5)) {
				out.push((e.className || e.tagName) + " " + Math.round(r.left) + ".." + Math.round(r.right));
			}
			if (e.shadowRoot) look(e.shadowRoot);
		}
	};
	look(document);
	if (document.documentElement.scrollWidth > window.innerWidth) {
		out.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + window.innerWidth);
	}
	return out;
})()`

// Two <converge-sim> on a docs page of another origin, loading converge.js
// from `converge serve` by its absolute address under a CSP that allows only
// that origin, both draw, each its own simulation with its attributes; the
// time from the page's start to both first frames is logged.
func TestEmbedTwoElementsOnAnotherOrigin(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	page := docsSite(t, srv.URL, `<h1>Rollouts, explained elsewhere</h1>
<p>A rolling update:</p>
<converge-sim id="a" scenario="basic-loop" t="12" loading="eager"></converge-sim>
<p>The same on a dark page, with fewer controls:</p>
<converge-sim id="b" scenario="rolling-update" controls="compact" theme="dark" speed="16" height="480" loading="eager"></converge-sim>`)
	p := openPage(t, page)
	p.waitFor(t, drawnJS)
	type element struct {
		Opened                      map[string]any
		ID, Name, Origin, Bg, Speed string
		T                           int64
		Sim                         int
		Step, Back, Scrub           bool
		Height                      float64
	}
	got := evalJS[struct {
		Els       []element
		FirstDraw float64
	}](t, p, `(async () => {
		const els = [...document.querySelectorAll("converge-sim")];
		const opened = await Promise.all(els.map(`+landedJS+`));
		const vis = (root, sel) => root.querySelector(sel)?.checkVisibility() ?? false;
		return {Els: els.map((e, i) => ({Opened: opened[i], ID: e.id, Name: e.simulation.name(), T: e.simulation.time(),
			Sim: e.simulation.id, Origin: location.origin,
			Bg: getComputedStyle(e.shadowRoot.querySelector(".cv-app")).backgroundColor,
			Step: vis(e.shadowRoot, ".cv-step"), Back: vis(e.shadowRoot, ".cv-step-back"),
			Scrub: vis(e.shadowRoot, "input[type=range]"),
			Speed: e.shadowRoot.querySelector("select.cv-speed")?.value ?? "",
			Height: e.getBoundingClientRect().height})),
			FirstDraw: performance.now()};
	})()`)
	require.Len(t, got.Els, 2)
	a, b := got.Els[0], got.Els[1]
	for _, el := range got.Els {
		assert.Equal(t, true, el.Opened["ok"], "%s: %v", el.ID, el.Opened)
		assert.NotEqual(t, srv.URL, el.Origin, "the page is on another origin than the assets")
	}
	assert.Equal(t, "basic-loop", a.Name)
	assert.Equal(t, int64(12), a.T)
	assert.Equal(t, "rolling-update", b.Name)
	assert.Zero(t, b.T)
	assert.NotEqual(t, a.Sim, b.Sim, "one simulation per element")
	assert.True(t, a.Scrub, "controls=full has the scrubber")
	assert.True(t, b.Scrub, "controls=compact keeps the scrubber")
	assert.True(t, a.Step && a.Back, "controls=full has the step buttons")
	assert.False(t, b.Step || b.Back, "controls=compact has no step buttons")
	assert.Equal(t, "4", a.Speed, "the default speed")
	assert.Equal(t, "16", b.Speed, `speed="16"`)
	assert.Equal(t, "rgb(14, 18, 23)", b.Bg, `theme="dark" pins the dark palette on a light page`)
	assert.NotEqual(t, a.Bg, b.Bg, "the other element follows the page's (light) scheme")
	assert.InDelta(t, 480, b.Height, 0.5, `height="480" sizes the element`)
	assert.Equal(t, 1, evalJS[int](t, p, `performance.getEntriesByType("resource").filter((e) => e.name.includes("/dist/converge.wasm")).length`),
		"one wasm download for the two elements: one runtime per page")
	t.Logf("both elements drew by %.0f ms after the page's start (loopback, loading=eager)", got.FirstDraw)
	p.shot(t, "two-elements-another-origin", true)
	p.assertNoConsoleErrors(t)
}

// Nothing of the runtime (wasm_exec.js, the wasm) is fetched while the only
// element is more than a viewport below the screen; scrolling it near
// loads it once, with its progress in bytes, and it draws; a click on the
// loading state loads it too, and loading="eager" at once.
func TestEmbedLoadsLazily(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	assets, count := countingProxy(t, srv.URL)
	const spacer = `<div class="spacer">Scroll down for the demo.</div>`

	t.Run("when it comes near the screen", func(t *testing.T) {
		p := openPage(t, docsSite(t, assets, spacer+`<converge-sim id="far" scenario="basic-loop"></converge-sim>`))
		p.waitFor(t, `document.getElementById("far")?.shadowRoot?.querySelector(".cv-wait-status")?.textContent !== undefined && document.readyState === "complete"`)
		before := count.wasm()
		wait := evalJS[struct {
			Status, Title, Button string
			Instances             bool
		}](t, p, `(async () => {
			await new Promise((r) => setTimeout(r, 300)); // the observer's first callback has run
			window.progress = [];
			converge._runtime.onProgress((p) => window.progress.push(p));
			const root = document.getElementById("far").shadowRoot;
			let Instances = true;
			try { converge.instances(); } catch { Instances = false; }
			return {Status: root.querySelector(".cv-wait-status").textContent, Title: root.querySelector(".cv-embed-title").textContent,
				Button: root.querySelector(".cv-wait-btn").textContent, Instances};
		})()`)
		assert.Zero(t, before, "no wasm or wasm_exec.js request before the element is near the screen")
		assert.Zero(t, count.wasm())
		assert.Equal(t, 1, count.get("/converge.js"), "the module itself loads at once")
		assert.Equal(t, "The simulator loads when this comes into view.", wait.Status)
		assert.Equal(t, "basic-loop", wait.Title)
		assert.Equal(t, "▶ Load the simulation", wait.Button)
		assert.False(t, wait.Instances, "the runtime has not started")

		evalJS[bool](t, p, `(document.getElementById("far").scrollIntoView(), true)`)
		p.waitFor(t, drawnJS)
		prog := evalJS[struct {
			Steps, Loaded, Total int
			Started, Done        bool
		}](t, p, `(() => { const ps = window.progress.filter((p) => p.loaded > 0);
			const last = ps.at(-1) ?? {};
			return {Steps: ps.length, Loaded: last.loaded ?? 0, Total: last.total ?? 0,
				Started: window.progress.some((p) => p.started), Done: window.progress.at(-1).done}; })()`)
		assert.True(t, prog.Started)
		assert.True(t, prog.Done)
		assert.Positive(t, prog.Steps, "the download reported its bytes")
		assert.Greater(t, prog.Loaded, 1<<20, "the wasm's bytes were counted")
		if prog.Total > 0 {
			assert.Equal(t, prog.Total, prog.Loaded, "X-Converge-Size is the decoded size")
		}
		assert.Equal(t, 1, count.hashed("/dist/wasm_exec.js"), "under its content-hashed name")
		assert.Equal(t, 1, count.hashed("/dist/converge.wasm.br")+count.hashed("/dist/converge.wasm"), "the wasm is fetched once, under its content-hashed name")
		p.assertNoConsoleErrors(t)
	})

	t.Run("on a click", func(t *testing.T) {
		// An observer that never fires: the element is in view, and only
		// the click loads the runtime.
		const never = `window.IntersectionObserver = class { observe() {} unobserve() {} disconnect() {} };`
		start := count.wasm()
		p := openPageWith(t, docsSite(t, assets, `<h1>A demo</h1><converge-sim id="far" scenario="basic-loop" t="5"></converge-sim>`), never)
		p.waitFor(t, `document.getElementById("far")?.shadowRoot?.querySelector(".cv-wait-btn") != null && document.readyState === "complete"`)
		evalJS[bool](t, p, `new Promise((r) => setTimeout(() => r(true), 300))`)
		assert.Equal(t, start, count.wasm(), "nothing loads before the click")
		p.shot(t, "waiting", false)
		evalJS[bool](t, p, `(document.getElementById("far").shadowRoot.querySelector(".cv-wait-btn").click(), true)`)
		p.waitFor(t, drawnJS)
		assert.Equal(t, int64(5), evalJS[int64](t, p, `(async (el) => (await (`+landedJS+`)(el), el.simulation.time()))(document.getElementById("far"))`))
		assert.Positive(t, count.wasm()-start)
		p.assertNoConsoleErrors(t)
	})

	t.Run("eager", func(t *testing.T) {
		start := count.wasm()
		p := openPage(t, docsSite(t, assets, spacer+`<converge-sim id="far" scenario="basic-loop" loading="eager"></converge-sim>`))
		p.waitFor(t, drawnJS)
		assert.Positive(t, count.wasm()-start, `loading="eager" loads without being seen`)
		assert.Zero(t, evalJS[float64](t, p, `window.scrollY`), "the page did not scroll")
		p.assertNoConsoleErrors(t)
	})
}

// At 375 px (and 320 px) nothing scrolls sideways: the app, ?embed=1 and a
// docs page with an element.
func TestEmbedNoSidewaysScrollAt375Px(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	docs := docsSite(t, srv.URL, `<h1>Rollouts</h1><p>A demo in a narrow column:</p>
<converge-sim scenario="rolling-update" t="24" loading="eager"></converge-sim>
<converge-sim scenario="basic-loop" controls="compact" loading="eager"></converge-sim>`)
	tests := []struct {
		name, url, ready string
	}{
		// Each waits for its opening seek to land (docs/js-api.md, open):
		// what is measured is the page at 24s, not one still seeking.
		{"the app", srv.URL + "/?scenario=rolling-update&t=24", uiReady + " && converge.time() === 24"},
		{"?embed=1", srv.URL + "/?scenario=rolling-update&t=24&embed=1", uiReady + " && converge.time() === 24"},
		{"a docs page with elements", docs, drawnJS + ` && [...document.querySelectorAll("converge-sim")][0].simulation?.time() === 24`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := openPage(t, tc.url)
			for _, width := range []int64{375, 320} {
				p.emulate(t, width, 800, "light")
				p.waitFor(t, tc.ready)
				p.sync(t)
				assert.Empty(t, evalJS[[]string](t, p, sidewaysJS), "at %d px", width)
			}
			p.emulate(t, 375, 800, "light")
			p.shot(t, "375", true)
			p.assertNoConsoleErrors(t)
		})
	}
}

// The Embed button shows the script tag and element, and the iframe, for
// the scenario at the second the page shows; Copy copies them; pasted into
// a page of another origin, the element opens the same scenario at that
// second; the user's own scenario travels as a share.
func TestEmbedButtonSnippets(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop&t=12", 1280, 800, "light")
	type panel struct {
		Intro, Where, Element, IFrame, Copied, Status string
		Expanded                                      string
		WhereShown                                    bool
	}
	got := evalJS[panel](t, p, stubClipboard+"{"+uiJS+`(async () => {
		q(".cv-embed-btn").click();
		await until(() => !q(".cv-embed-panel").hidden);
		q(".cv-embed-panel [data-copy=element]").click();
		const Copied = await until(() => window.copied);
		return {Intro: q(".cv-embed-panel .cv-note-text").textContent, Where: q(".cv-embed-where").textContent,
			WhereShown: q(".cv-embed-where").checkVisibility(), Element: q("[data-snippet=element]").value,
			IFrame: q("[data-snippet=iframe]").value, Copied, Status: await until(() => q(".cv-embed-status").textContent),
			Expanded: q(".cv-embed-btn").getAttribute("aria-expanded")};
	})()}`)
	assert.Equal(t, "Show this scenario at 12s on a page of any site: add the script tag once, then one element per demo. The simulator loads when a demo comes into view.", got.Intro)
	wantElement := `<script type="module" src="` + srv.URL + `/converge.js"></script>` + "\n" + `<converge-sim scenario="basic-loop" t="12"></converge-sim>`
	assert.Equal(t, wantElement, got.Element)
	assert.Equal(t, `<iframe src="`+srv.URL+`/?scenario=basic-loop&amp;embed=1&amp;t=12" title="Converge simulation" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`, got.IFrame)
	assert.Equal(t, wantElement, got.Copied)
	assert.Equal(t, "Copied.", got.Status)
	assert.Equal(t, "true", got.Expanded)
	assert.True(t, got.WhereShown, "a loopback address is not handed out silently")
	assert.Contains(t, got.Where, "These snippets point at "+srv.URL+", which only this machine reaches")
	p.shot(t, "embed-panel", false)

	// The user's own scenario (a console step added) at 41s: a share.
	own := evalJS[panel](t, p, "{"+uiJS+`(async () => {
		await converge.seekAsync(40);
		run("scale deployment/web --replicas=5");
		await until(() => q("[data-snippet=element]").value.includes("share="));
		return {Element: q("[data-snippet=element]").value, Intro: q(".cv-embed-panel .cv-note-text").textContent};
	})()}`)
	require.Contains(t, own.Element, ` share="`)
	assert.Contains(t, own.Element, ` t="41"`)
	assert.Contains(t, own.Intro, "at 41s")
	for _, width := range []int64{375, 320} {
		p.emulate(t, width, 800, "light")
		p.sync(t)
		bad := evalJS[[]string](t, p, "{"+uiJS+`overflow(".cv-embed-panel, .cv-embed-panel *, .cv-actions, .cv-actions *")}`)
		assert.Empty(t, bad, "the Embed panel at %d px", width)
	}
	p.emulate(t, 375, 800, "dark")
	p.shot(t, "embed-panel-375-dark", false)
	p.assertNoConsoleErrors(t)

	// Both snippets, pasted into a docs page elsewhere, open what the page showed.
	elementHTML := own.Element[strings.Index(own.Element, "<converge-sim"):]
	docs := docsSite(t, srv.URL, `<h1>Pasted</h1>`+strings.Replace(elementHTML, "<converge-sim", `<converge-sim id="pasted" loading="eager"`, 1))
	q := openPage(t, docs)
	q.waitFor(t, drawnJS)
	// A far t opens in slices, after opened resolves.
	q.waitFor(t, `document.getElementById("pasted").simulation?.time() === 41`)
	pasted := evalJS[struct {
		T        int64
		Replicas bool
	}](t, q, `(async () => { const el = document.getElementById("pasted"); await (`+landedJS+`)(el);
		return {T: el.simulation.time(), Replicas: el.simulation.scenario().includes("--replicas=5")}; })()`)
	assert.Equal(t, int64(41), pasted.T)
	assert.True(t, pasted.Replicas, "the console's step travels in the share")
	q.assertNoConsoleErrors(t)
}

// BenchmarkBrowserEmbedFirstFrame is the time from an element coming into
// view (scrolled to, on a docs page of another origin, nothing loaded
// before) to its first frame painted: the runtime fetched, compiled and
// started, the scenario opened and drawn (docs/performance.md has the
// figures).
//
//	go test -run '^$' -bench BrowserEmbedFirstFrame -benchtime 5x ./cmd/converge
func BenchmarkBrowserEmbedFirstFrame(b *testing.B) {
	srv := startServe(b)
	page := docsSite(b, srv.URL, `<div class="spacer">Scroll down.</div><converge-sim id="far" scenario="rolling-update" t="30"></converge-sim>`)
	var total float64
	for b.Loop() {
		p := openPage(b, page)
		p.waitFor(b, `document.getElementById("far")?.shadowRoot?.querySelector(".cv-wait-btn") != null && document.readyState === "complete"`)
		total += evalJS[float64](b, p, `new Promise((resolve) => {
			const el = document.getElementById("far");
			const t0 = performance.now();
			el.scrollIntoView();
			const poll = () => {
				if (el.shadowRoot.querySelector(".cv-rollout-title")?.textContent) {
					requestAnimationFrame(() => resolve(performance.now() - t0));
				} else {
					requestAnimationFrame(poll);
				}
			};
			poll();
		})`)
	}
	b.ReportMetric(total/float64(b.N), "ms-to-first-frame")
}

// With --public-url, the Embed panel's snippets use that address and say
// nothing of this machine.
func TestEmbedButtonPublicURL(t *testing.T) {
	t.Parallel()
	srv := startServe(t, "--public-url", "https://docs.example.org/sim")
	p := openUI(t, srv, "/?scenario=basic-loop&t=12", 1280, 800, "light")
	got := evalJS[struct {
		Element, IFrame string
		WhereShown      bool
	}](t, p, "{"+uiJS+`(async () => {
		q(".cv-embed-btn").click();
		await until(() => !q(".cv-embed-panel").hidden);
		return {Element: q("[data-snippet=element]").value, IFrame: q("[data-snippet=iframe]").value,
			WhereShown: q(".cv-embed-where").checkVisibility()};
	})()}`)
	assert.Equal(t, `<script type="module" src="https://docs.example.org/sim/converge.js"></script>`+"\n"+
		`<converge-sim scenario="basic-loop" t="12"></converge-sim>`, got.Element)
	assert.Contains(t, got.IFrame, `src="https://docs.example.org/sim/?scenario=basic-loop&amp;embed=1&amp;t=12"`)
	assert.False(t, got.WhereShown, "a public address needs no warning")
	p.assertNoConsoleErrors(t)
}
