package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest"
)

// daySharePath is the page's address of a small scenario that runs 24h,
// opened at t.
func daySharePath(t testing.TB, replicas, nodes int, at string) string {
	t.Helper()
	src := simtest.RolloutYAML(simtest.RolloutOptions{Name: "day", Duration: "24h", Nodes: nodes, PodsPerNode: 110,
		Replicas: replicas, Image: "nginx:1.25", Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}})
	share, err := scenario.EncodeShare([]byte(src))
	require.NoError(t, err)
	return "/#s=" + share + "&t=" + at
}

// TestUIFarSeekGoesInSlices: &t=86400 opens at once and computes the day in
// slices, with a progress line and Cancel under the timeline; Cancel stops
// there and draws that second.
func TestUIFarSeekGoesInSlices(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, daySharePath(t, 5, 3, "86400"), 1280, 900, "light")
	p.waitFor(t, `!document.querySelector(".cv-seeking").hidden && document.querySelector(".cv-seek-text").textContent.startsWith("Computing up to 24h: ")`)
	p.shot(t, "seeking", false)
	state := evalJS[struct {
		T      int64  `json:"t"`
		Target int64  `json:"target"`
		Max    string `json:"max"`
	}](t, p, `({t: converge.time(), target: converge.startup.t, max: document.querySelector(".cv-seek-bar").getAttribute("max")})`)
	assert.Equal(t, int64(86400), state.Target, "open reports the second it goes to")
	assert.Less(t, state.T, int64(86400), "and returns before it is there")
	assert.Equal(t, "86400", state.Max)

	p.waitFor(t, `converge.time() > 100`)
	at := evalJS[int64](t, p, `(document.querySelector(".cv-seeking button").click(), converge.time())`)
	p.waitFor(t, `document.querySelector(".cv-seeking").hidden`)
	after := evalJS[struct {
		T   int64  `json:"t"`
		Now string `json:"now"`
	}](t, p, `({t: converge.time(), now: document.querySelector(".cv-now").textContent})`)
	assert.Equal(t, at, after.T, "Cancel stops at the second reached")
	assert.Contains(t, after.Now, "t = ", "the page drew that second")
	p.assertNoConsoleErrors(t)
}

// TestBrowserSeekAsync: the JS API's seekAsync in the page resolves with
// the snapshot, reports progress, and an AbortController stops it; seek
// refuses the same jump, naming seekAsync.
func TestBrowserSeekAsync(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openPage(t, srv.URL+daySharePath(t, 5, 3, "0"))
	p.waitReady(t)
	got := evalJS[struct {
		Refused  string `json:"refused"`
		T        int64  `json:"t"`
		Steps    int    `json:"steps"`
		Aborted  string `json:"aborted"`
		StoppedT int64  `json:"stoppedT"`
	}](t, p, `(async () => {
		let refused = "";
		try { converge.seek(86400); } catch (e) { refused = e.message; }
		const sim = converge.create();
		sim.load(converge.scenario());
		let steps = 0;
		const snap = await sim.seekAsync(20000, {onProgress: () => steps++});
		const ctrl = new AbortController();
		let aborted = "";
		try {
			await sim.seekAsync(86400, {signal: ctrl.signal, onProgress: (p) => { if (p.t > 21000) ctrl.abort(); }});
		} catch (e) { aborted = e.name; }
		return {refused, t: snap.t, steps, aborted, stoppedT: sim.time()};
	})()`)
	assert.Contains(t, got.Refused, "seek(86400) would compute 86,400 simulated seconds")
	assert.Contains(t, got.Refused, "use seekAsync(86400), which works in slices")
	assert.Equal(t, int64(20000), got.T)
	assert.Positive(t, got.Steps, "progress after the slices")
	assert.Equal(t, "AbortError", got.Aborted)
	assert.Greater(t, got.StoppedT, int64(21000))
	assert.Less(t, got.StoppedT, int64(86400))
	p.assertNoConsoleErrors(t)
}

// BenchmarkBrowserLongestBlock opens &t=86400 on a scenario and reports the
// longest task on the page's main thread (PerformanceObserver longtask,
// observed from before the module loads) from the navigation until the day
// is computed, and how long that took:
//
//	go test -run '^$' -bench BrowserLongestBlock -benchtime 1x -timeout 2h ./cmd/converge
//
// CONVERGE_BLOCK_PODS and CONVERGE_BLOCK_NODES set the size (default 5
// pods on 3 nodes; the largest allowed is 10,000 on 500), and
// CONVERGE_BLOCK_MINUTES how long to wait for the day (default 90; it then
// reports the second reached). Should the simulator stop on the way, it
// reports that too. It also reports the wasm memory's size at the end (the Go
// heap's peak: linear memory only grows) and chromium's JS heap
// (performance.memory).
func BenchmarkBrowserLongestBlock(b *testing.B) {
	pods, nodes := envInt("CONVERGE_BLOCK_PODS", 5), envInt("CONVERGE_BLOCK_NODES", 3)
	srv := startServe(b)
	const observe = `(() => {
		globalThis.__longtasks = [];
		new PerformanceObserver((l) => { for (const e of l.getEntries()) __longtasks.push([Math.round(e.startTime), Math.round(e.duration)]); })
			.observe({type: "longtask", buffered: true});
	})();` + captureWasmMemory
	for b.Loop() {
		p := openWith(b, srv.URL+daySharePath(b, pods, nodes, "86400"), observe)
		p.waitReady(b)
		type state struct {
			T       int64    `json:"t"`
			Stopped bool     `json:"stopped"`
			Now     float64  `json:"now"`
			Tasks   [][2]int `json:"tasks"`
			Wasm    float64  `json:"wasm"`
			JSHeap  float64  `json:"jsHeap"`
		}
		var st state
		for deadline := time.Now().Add(time.Duration(envInt("CONVERGE_BLOCK_MINUTES", 90)) * time.Minute); time.Now().Before(deadline); time.Sleep(2 * time.Second) {
			st = evalJS[state](b, p, `({t: converge.stopped ? -1 : converge.time(), stopped: converge.stopped, now: performance.now(), tasks: __longtasks,
				wasm: globalThis.wasmMemory ? wasmMemory.buffer.byteLength : 0, jsHeap: performance.memory ? performance.memory.usedJSHeapSize : 0})`)
			if st.Stopped || st.T >= 86400 {
				break
			}
			if os.Getenv("CONVERGE_BLOCK_VERBOSE") != "" && len(st.Tasks) > 0 {
				fmt.Fprintf(os.Stderr, "%.0f s: t=%d, %d long tasks, the last %v\n", st.Now/1000, st.T, len(st.Tasks), st.Tasks[len(st.Tasks)-1])
			}
		}
		longest, at := 0, 0
		for _, task := range st.Tasks {
			if task[1] > longest {
				longest, at = task[1], task[0]
			}
		}
		b.ReportMetric(float64(longest), "longest-task-ms")
		b.ReportMetric(st.Now/1000, "s-to-24h")
		b.ReportMetric(st.Wasm/(1<<20), "wasm-MiB")
		fmt.Printf("%d pods on %d nodes: longest main-thread task %d ms (at %.1f s); %d tasks over 50 ms; wasm memory %.0f MiB, JS heap %.0f MiB; ",
			pods, nodes, longest, float64(at)/1000, len(st.Tasks), st.Wasm/(1<<20), st.JSHeap/(1<<20))
		switch {
		case st.Stopped:
			fmt.Printf("the simulator stopped after %.1f s\n", st.Now/1000)
		case st.T < 86400:
			fmt.Printf("t=%d reached after %.1f s, when the wait ended\n", st.T, st.Now/1000)
		default:
			fmt.Printf("t=%d reached %.1f s after the navigation\n", st.T, st.Now/1000)
		}
		if os.Getenv("CONVERGE_BLOCK_VERBOSE") != "" {
			fmt.Println(st.Tasks)
		}
	}
}

// openWith opens url in a tab whose documents run script first.
func openWith(t testing.TB, url, script string) *page {
	t.Helper()
	p := openPage(t, "about:blank")
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script})
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	return p
}

// envInt is the environment variable name as a number, or def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
