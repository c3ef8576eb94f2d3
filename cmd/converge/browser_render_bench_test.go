package main

import (
	"fmt"
	"testing"
	"time"
)

const loafMarks = `(() => {
	const m = globalThis.__loaf = [];
	new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.duration > 150) m.push(e.toJSON()); })
		.observe({type: "long-animation-frame", buffered: true});
})();globalThis.convergeProfile = true;`

// BenchmarkBrowserRenderProfile opens &t=86400 on a scenario of
// CONVERGE_BLOCK_PODS pods with globalThis.convergeProfile set and prints
// the first render's parts (the page's converge:PART measures) and the
// page's element count.
func BenchmarkBrowserRenderProfile(b *testing.B) {
	pods, nodes := envInt("CONVERGE_BLOCK_PODS", 1000), envInt("CONVERGE_BLOCK_NODES", 20)
	srv := startServe(b)
	for b.Loop() {
		p := openWith(b, srv.URL+daySharePath(b, pods, nodes, "86400"), bootMarks+";"+loafMarks)
		p.waitReady(b)
		p.waitFor(b, `globalThis.__boot.ready > 0`)
		time.Sleep(3 * time.Second)
		out := evalJS[string](b, p, `performance.getEntriesByType("measure").concat(performance.getEntriesByType("mark")).map((e) => e.name + " " + Math.round(e.startTime) + "+" + Math.round(e.duration)).join("\n") +
			"\nelements " + document.querySelectorAll("*").length + " tiles " + document.querySelectorAll(".cv-tile").length + " t " + converge.time() +
			"\ntasks " + JSON.stringify(__boot.tasks) + "\nloaf " + __loaf.map((f) => JSON.stringify({start: Math.round(f.startTime), dur: Math.round(f.duration), render: Math.round(f.renderStart), style: Math.round(f.styleAndLayoutStart), block: Math.round(f.blockingDuration),
			scripts: f.scripts.map((s) => s.invoker + " " + Math.round(s.startTime) + "+" + Math.round(s.duration) + " fsl " + Math.round(s.forcedStyleAndLayoutDuration) + " " + s.sourceFunctionName)})).join("\n")`)
		fmt.Println(out)
	}
}
