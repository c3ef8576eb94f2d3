package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/web"
)

// catchGo makes every new document keep the Go instance converge.js
// creates as globalThis.__go, so that a test can end the Go runtime the
// way the runtime ends itself (runtime.wasmExit, then the exit promise).
const catchGo = `(() => {
	let Real;
	Object.defineProperty(globalThis, "Go", {configurable: true,
		get() { return Real && class extends Real { constructor() { super(); globalThis.__go = this; } }; },
		set(v) { Real = v; }});
})()`

// exitGo is what the Go runtime does when it dies (out of memory, a
// fatal error): wasmExit, then the resolution of go.run's promise.
const exitGo = `(__go.importObject.gojs["runtime.wasmExit"](0), __go._resolveExitPromise(), true)`

// openCaught opens url in a tab whose documents run catchGo first.
func openCaught(t *testing.T, url string) *page {
	t.Helper()
	return openWith(t, url, catchGo)
}

// TestUIStoppedRuntimeIsSaidPlainly: should the Go runtime ever exit, the
// page says so with a Reload, calls throw that message instead of "Go
// program has already exited", and the reload offers back the scenario
// and the editor's unapplied edits, which the page had kept as they
// changed.
func TestUIStoppedRuntimeIsSaidPlainly(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openCaught(t, srv.URL+"/?scenario=basic-loop")
	p.emulate(t, 1280, 900, "light")
	p.waitReady(t)
	p.waitFor(t, uiReady)
	draft := evalJS[string](t, p, `(() => {
		converge.run("scale deployment/web --replicas=4");
		const area = document.querySelector(".cv-ed-text");
		area.value = converge.scenario() + "# my edit\n";
		area.dispatchEvent(new Event("input"));
		return area.value;
	})()`)
	// The draft is in IndexedDB too, as the editor keeps it.
	p.waitFor(t, `document.querySelector(".cv-ed-draft").textContent.includes("kept")`)
	require.True(t, evalJS[bool](t, p, exitGo))
	p.waitFor(t, `document.querySelector(".cv-stopped") !== null`)
	p.shot(t, "stopped", false)
	got := evalJS[struct {
		Banner  string `json:"banner"`
		Reload  bool   `json:"reload"`
		Thrown  string `json:"thrown"`
		Stopped bool   `json:"stopped"`
		Flag    string `json:"flag"`
	}](t, p, `(() => {
		let thrown = "";
		try { converge.seek(3); } catch (e) { thrown = e.message; }
		const b = document.querySelector(".cv-stopped");
		return {banner: b.textContent, reload: b.querySelector("button").textContent === "Reload", thrown,
			stopped: converge.stopped, flag: sessionStorage.getItem("converge:stopped")};
	})()`)
	assert.Contains(t, got.Banner, "The simulator has stopped: it ran out of memory or hit a bug. Your scenario and the editor's unapplied edits were kept in this tab")
	assert.True(t, got.Reload)
	assert.True(t, strings.HasPrefix(got.Thrown, "The simulator has stopped"), got.Thrown)
	assert.True(t, got.Stopped)
	assert.Equal(t, "1", got.Flag)

	require.NoError(t, chromedp.Do(p.ctx, chromedp.Reload()))
	p.waitReady(t)
	p.waitFor(t, uiReady+` && !document.querySelector(".cv-rescue").hidden`)
	offer := evalJS[string](t, p, `document.querySelector(".cv-rescue").textContent`)
	assert.Contains(t, offer, "The simulator stopped before this reload. It kept the scenario you had (basic-loop, with the steps you added) and the editor's unapplied edits.")
	// One offer of the same edits, not two: the draft's offer waits while
	// the rescue's, which has them, is shown.
	p.waitFor(t, `document.querySelector(".cv-draft-offer").dataset.checked === "1"`)
	assert.True(t, evalJS[bool](t, p, `document.querySelector(".cv-draft-offer").hidden`), "the draft is not offered beside the rescue")
	p.shot(t, "offer", false)
	restored := evalJS[struct {
		Scenario string `json:"scenario"`
		Editor   string `json:"editor"`
		Hidden   bool   `json:"hidden"`
		Flag     any    `json:"flag"`
	}](t, p, `(() => {
		document.querySelector(".cv-rescue .cv-primary").click();
		return {scenario: converge.scenario(), editor: document.querySelector(".cv-ed-text").value,
			hidden: document.querySelector(".cv-rescue").hidden, flag: sessionStorage.getItem("converge:stopped")};
	})()`)
	assert.Contains(t, restored.Scenario, "kubectl: scale deployment/web --replicas=4", "the steps added from the console")
	assert.Equal(t, draft, restored.Editor, "the unapplied edits, in the editor")
	assert.True(t, restored.Hidden)
	assert.Nil(t, restored.Flag)
}

// TestBrowserEmbedsShowTheStop: every <converge-sim> of a docs page says
// that the simulator stopped, in its own shadow root.
func TestBrowserEmbedsShowTheStop(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openCaught(t, srv.URL+"/"+web.EmbedDemoPath)
	p.waitReady(t)
	p.waitFor(t, `[...document.querySelectorAll("converge-sim")].every((e) => e.simulation !== null)`)
	require.True(t, evalJS[bool](t, p, exitGo))
	p.waitFor(t, `document.querySelectorAll("converge-sim").length > 0 && [...document.querySelectorAll("converge-sim")].every((e) => e.shadowRoot.querySelector(".cv-stopped") !== null)`)
	n := evalJS[int](t, p, `document.querySelectorAll("converge-sim").length`)
	assert.GreaterOrEqual(t, n, 2)
	text := evalJS[string](t, p, `document.querySelector("converge-sim").shadowRoot.querySelector(".cv-stopped").textContent`)
	assert.Equal(t, "The simulator has stopped: it ran out of memory or hit a bug. Reload the page to start it again.Reload", text, "an embed keeps no copy")
	p.shot(t, "embeds-stopped", true)
}

// TestBrowserLeakedSimulationsAreDisposed: simulations created and
// dropped without dispose() are disposed once collected, so that the
// page's count goes back down.
func TestBrowserLeakedSimulationsAreDisposed(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openPage(t, srv.URL+"/?scenario=basic-loop")
	p.waitReady(t)
	before := evalJS[int](t, p, `(() => {
		for (let i = 0; i < 50; i++) converge.create().loadBuiltin("basic-loop");
		return converge.instances();
	})()`)
	require.Equal(t, 51, before)
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	for i := 0; i < 20 && evalJS[int](t, p, `converge.instances()`) > 1; i++ {
		_, err := chromedp.Call(ctx, heapprofiler.CollectGarbage, cdp.Empty{})
		require.NoError(t, err)
		evalJS[bool](t, p, `new Promise((r) => setTimeout(() => r(true), 50))`)
	}
	assert.Equal(t, 1, evalJS[int](t, p, `converge.instances()`), "the default one is left")
	p.assertNoConsoleErrors(t)
}
