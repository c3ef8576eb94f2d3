package main

import (
	"fmt"
	"os"
	"strings"
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

// BenchmarkBrowserRenderMount opens &t=86400 on a scenario of
// CONVERGE_BLOCK_PODS pods and reports the task that mounts the page (the
// first render: the task the converge:mounted mark falls in) and, with
// globalThis.convergeProfile set, the render's own measure. With
// CONVERGE_BASE_BIN set to another build of converge, each round opens the
// page on that build first and then on bin/converge, side by side (the
// machine's load changes both alike):
//
//	CONVERGE_BLOCK_PODS=10000 CONVERGE_BLOCK_NODES=500 CONVERGE_BASE_BIN=/tmp/base/converge \
//	  go test -run '^$' -bench BrowserRenderMount -benchtime 3x ./cmd/converge
func BenchmarkBrowserRenderMount(b *testing.B) {
	pods, nodes := envInt("CONVERGE_BLOCK_PODS", 1000), envInt("CONVERGE_BLOCK_NODES", 20)
	type build struct {
		name         string
		srv          *served
		task, render float64
	}
	builds := []*build{{name: "this", srv: startServe(b)}}
	if base := os.Getenv("CONVERGE_BASE_BIN"); base != "" {
		this := binaryPath
		binaryPath = base
		builds = append([]*build{{name: "base", srv: startServe(b)}}, builds...)
		binaryPath = this
	}
	for b.Loop() {
		for _, bd := range builds {
			p := openWith(b, bd.srv.URL+daySharePath(b, pods, nodes, "86400"), bootMarks+";globalThis.convergeProfile = true;")
			p.waitReady(b)
			p.waitFor(b, `globalThis.__boot.ready > 0`)
			p.waitFor(b, `__boot.tasks.some(([s, d]) => s <= performance.getEntriesByName("converge:mounted")[0].startTime + 1 && s + d >= performance.getEntriesByName("converge:mounted")[0].startTime - 1) || performance.now() > performance.getEntriesByName("converge:mounted")[0].startTime + 2000`)
			m := evalJS[[2]float64](b, p, `(() => {
				const at = performance.getEntriesByName("converge:mounted")[0].startTime;
				const task = __boot.tasks.find(([s, d]) => s <= at + 1 && s + d >= at - 1);
				return [task ? task[1] : 0, performance.getEntriesByName("converge:render")[0].duration];
			})()`)
			parts := evalJS[string](b, p, `performance.getEntriesByType("measure").filter((e) => e.startTime <= performance.getEntriesByName("converge:mounted")[0].startTime).map((e) => e.name.slice(9) + " " + Math.round(e.duration)).join(", ") + "; t=" + converge.time()`)
			fmt.Printf("%s: %d pods: mount task %.0f ms, render %.0f ms (%s) (load %s)\n", bd.name, pods, m[0], m[1], parts, loadavg())
			bd.task += m[0]
			bd.render += m[1]
		}
	}
	n := float64(b.N)
	for _, bd := range builds {
		b.ReportMetric(bd.task/n, "ms-mount-task-"+bd.name)
		b.ReportMetric(bd.render/n, "ms-render-"+bd.name)
	}
}

// loadavg is the machine's load over the last minute, as /proc says it.
func loadavg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(raw))[0]
}
