package main

import (
	"fmt"
	"testing"
	"time"
)

// bootMarks runs before the page's scripts: it notes (performance.now())
// when the wasm's instantiation is asked for and when it is done, when the
// Go program's run starts and when its synchronous part returns (the
// runtime's start and main until it first waits), when the page is marked
// ready (after the first render), and every long task. The page's marks
// (converge.js, app.js) say when the address's open began and ended and
// when the first render was done.
const bootMarks = `(() => {
	const m = globalThis.__boot = {tasks: []};
	new PerformanceObserver((l) => { for (const e of l.getEntries()) m.tasks.push([Math.round(e.startTime), Math.round(e.duration)]); })
		.observe({type: "longtask", buffered: true});
	const wrap = (name) => {
		const f = WebAssembly[name];
		WebAssembly[name] = (...a) => { m.instantiate = performance.now(); return f(...a).then((r) => { m.instantiated = performance.now(); return r; }); };
	};
	wrap("instantiateStreaming");
	wrap("instantiate");
	let G;
	Object.defineProperty(globalThis, "Go", {configurable: true, get: () => G, set: (v) => {
		G = v;
		const run = v.prototype.run;
		v.prototype.run = function (...a) { m.run = performance.now(); const p = run.apply(this, a); m.runReturned = performance.now(); return p; };
	}});
	new MutationObserver(() => { if (document.documentElement.dataset.ready && !m.ready) m.ready = performance.now(); })
		.observe(document, {attributes: true, subtree: true, attributeFilter: ["data-ready"]});
})()`

// BenchmarkBrowserBoot opens &t=86400 on a scenario of CONVERGE_BLOCK_PODS
// pods (default 1,000 on 20 nodes) and reports the boot's parts: when the
// wasm's instantiation (fetch, compile, instantiate) was asked for and
// done, the synchronous part of the Go program's start (runtime init and
// main up to its first wait), the first render (the page marked ready), and
// the long tasks of the first seconds, so that the longest one can be put
// down to its part:
//
//	go test -run '^$' -bench BrowserBoot -benchtime 3x ./cmd/converge
func BenchmarkBrowserBoot(b *testing.B) {
	pods, nodes := envInt("CONVERGE_BLOCK_PODS", 1000), envInt("CONVERGE_BLOCK_NODES", 20)
	srv := startServe(b)
	type marks struct {
		Instantiate, Instantiated, Run, RunReturned, Ready float64
		Open, Opened, Mounted                              float64
		Tasks                                              [][2]int
	}
	var run, instantiate, ready, longest, openLongest, renderLongest float64
	for b.Loop() {
		p := openWith(b, srv.URL+daySharePath(b, pods, nodes, "86400"), bootMarks)
		p.waitReady(b)
		p.waitFor(b, `globalThis.__boot.ready > 0`)
		time.Sleep(time.Second) // the long tasks right after the first render
		m := evalJS[marks](b, p, `(() => {
			const at = (n) => performance.getEntriesByName(n)[0]?.startTime ?? -1;
			return {...__boot, Open: at("converge:open"), Opened: at("converge:opened"), Mounted: at("converge:mounted")};
		})()`)
		first := [2]int{}
		for _, task := range m.Tasks {
			if task[1] > first[1] {
				first = task
			}
		}
		// The longest task of each part: the ones that start in the open
		// (from its mark to its end), and the first render's.
		var inOpen, render int
		for _, task := range m.Tasks {
			if float64(task[0]) >= m.Open-1 && float64(task[0]) < m.Opened {
				inOpen = max(inOpen, task[1])
			}
			if float64(task[0]) >= m.Opened && float64(task[0]) <= m.Mounted+1 {
				render = max(render, task[1])
			}
		}
		fmt.Printf("%d pods: instantiate %.0f-%.0f ms, Go run %.0f-%.0f ms (%.0f ms synchronous), open %.0f-%.0f ms (longest task in it %d ms), first render by %.0f ms (longest task %d ms), ready at %.0f ms; longest task %d ms at %d-%d ms; tasks %v\n",
			pods, m.Instantiate, m.Instantiated, m.Run, m.RunReturned, m.RunReturned-m.Run, m.Open, m.Opened, inOpen, m.Mounted, render, m.Ready, first[1], first[0], first[0]+first[1], m.Tasks)
		openLongest += float64(inOpen)
		renderLongest += float64(render)
		run += m.RunReturned - m.Run
		instantiate += m.Instantiated - m.Instantiate
		ready += m.Ready
		longest += float64(first[1])
	}
	n := float64(b.N)
	b.ReportMetric(instantiate/n, "ms-instantiate")
	b.ReportMetric(run/n, "ms-go-run-sync")
	b.ReportMetric(ready/n, "ms-to-ready")
	b.ReportMetric(longest/n, "ms-longest-task")
	b.ReportMetric(openLongest/n, "ms-longest-in-open")
	b.ReportMetric(renderLongest/n, "ms-longest-render")
}
