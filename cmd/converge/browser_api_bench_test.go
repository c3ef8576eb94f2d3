package main

// Benchmarks of the page and its JS API in headless chromium (skipped
// without chromium or a build, like the browser tests):
//
//	go test -run '^$' -bench Browser -benchtime 5x ./cmd/converge
//
// Each does its measured work inside the page, in one Evaluate, timed with
// performance.now(), and reports the in-page figure as a metric (ns/op also
// counts one Evaluate round trip, about a millisecond).

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"converge/core/sim"
	"converge/core/simtest"
	"converge/core/simtest/simrun"
)

// bigScenario is 1,000 pods for 10 minutes: a Deployment of 1,000 replicas
// on 20 nodes rolls to a new image at 60s and again at 300s.
func bigScenario() string {
	return simtest.RolloutYAML(simtest.RolloutOptions{Name: "big", Duration: "10m", Nodes: 20, PodsPerNode: 110,
		Replicas: 1000, Image: "nginx:1.25",
		Rollouts: []simtest.Rollout{{At: "60s", Image: "nginx:1.26"}, {At: "300s", Image: "nginx:1.27"}}})
}

// benchPage opens the app in the shared browser and loads the big scenario
// into a fresh instance, globalThis.bench.
func benchPage(b *testing.B) *page {
	b.Helper()
	srv := startServe(b)
	p := openPage(b, srv.URL+"/")
	p.waitReady(b)
	ok := evalJS[bool](b, p, `(() => {
		globalThis.bench = converge.create();
		return bench.load(`+jsString(bigScenario())+`).ok;
	})()`)
	require.True(b, ok)
	return p
}

// BenchmarkBrowserReady is the time from navigation to converge.ready (the
// wasm fetched, compiled and started, the address opened) and to the first
// animation frame after it (the first render is painted), with the wasm's
// size.
func BenchmarkBrowserReady(b *testing.B) {
	srv := startServe(b)
	var ready, frame float64
	for b.Loop() {
		p := openPage(b, srv.URL+"/")
		got := evalJS[[2]float64](b, p, `converge.ready.then(() => {
			const ready = performance.now();
			return new Promise((resolve) => requestAnimationFrame(() => resolve([ready, performance.now()])));
		})`)
		ready += got[0]
		frame += got[1]
	}
	n := float64(b.N)
	b.ReportMetric(ready/n, "ms-to-ready")
	b.ReportMetric(frame/n, "ms-to-first-frame")
	for name, unit := range map[string]string{"converge.wasm": "wasm-bytes", "converge.wasm.gz": "wasm-gzip-bytes"} {
		if st, err := os.Stat(filepath.Join("..", "..", "web", "dist", name)); err == nil {
			b.ReportMetric(float64(st.Size()), unit)
		}
	}
}

// BenchmarkBrowserSimulate runs the big scenario's 600 seconds in the page
// (load, then seek(600) from t=0) and the same natively, and reports both
// and their ratio.
func BenchmarkBrowserSimulate(b *testing.B) {
	p := benchPage(b)
	scn := simrun.Parse(b, bigScenario())
	var wasmMS, nativeMS float64
	for b.Loop() {
		ms := evalJS[float64](b, p, `(() => {
			const yaml = bench.scenario();
			const start = performance.now();
			bench.load(yaml);
			bench.advance(600);
			return performance.now() - start;
		})()`)
		wasmMS += ms
		start := time.Now()
		s, err := sim.New(scn, sim.Options{})
		require.NoError(b, err)
		s.SeekTo(600)
		nativeMS += float64(time.Since(start)) / float64(time.Millisecond)
	}
	n := float64(b.N)
	b.ReportMetric(wasmMS/n, "wasm-ms/600s")
	b.ReportMetric(nativeMS/n, "native-ms/600s")
	b.ReportMetric(wasmMS/nativeMS, "wasm/native")
}

// BenchmarkBrowserStep is step(1) in the big scenario mid-rollout, with its
// snapshot (Go marshals the trace line, the page parses it), and
// advance(1), which builds none; snapshot is the cost of the snapshot alone,
// split into Go's part (snapshotJSON: marshal and hand over the string) and
// JSON.parse.
func BenchmarkBrowserStep(b *testing.B) {
	p := benchPage(b)
	evalJS[int](b, p, `bench.advance(60)`)
	for _, fn := range []string{"step", "advance"} {
		b.Run(fn, func(b *testing.B) {
			var ms float64
			for b.Loop() {
				ms += evalJS[float64](b, p, `(() => {
					if (bench.time() >= 590) bench.moveTo(60);
					const start = performance.now();
					bench.`+fn+`(1);
					return performance.now() - start;
				})()`)
			}
			b.ReportMetric(ms/float64(b.N), "ms/"+fn)
		})
	}
	b.Run("snapshot", func(b *testing.B) {
		var goMS, parseMS, size float64
		for b.Loop() {
			got := evalJS[[3]float64](b, p, `(() => {
				const start = performance.now();
				const line = bench.snapshotJSON();
				const mid = performance.now();
				JSON.parse(line);
				return [mid - start, performance.now() - mid, line.length];
			})()`)
			goMS, parseMS, size = goMS+got[0], parseMS+got[1], got[2]
		}
		n := float64(b.N)
		b.ReportMetric(goMS/n, "go-ms/snapshot")
		b.ReportMetric(parseMS/n, "parse-ms/snapshot")
		b.ReportMetric(size, "json-chars")
	})
}

// BenchmarkBrowserSeek is seeking to scattered seconds of the big scenario
// once all 600 are computed (a checkpoint restore and up to 9 replayed
// seconds): seek(t) with its snapshot, and moveTo(t) without (what the
// page's scrubber costs before drawing).
func BenchmarkBrowserSeek(b *testing.B) {
	p := benchPage(b)
	evalJS[int](b, p, `bench.advance(600)`)
	for _, fn := range []string{"seek", "moveTo"} {
		b.Run(fn, func(b *testing.B) {
			var ms, worst float64
			i := 0
			for b.Loop() {
				i++
				t := (i * 7919) % 601 // scattered, deterministic
				got := evalJS[float64](b, p, fmt.Sprintf(`(() => {
					const start = performance.now();
					bench.%s(%d);
					return performance.now() - start;
				})()`, fn, t))
				ms += got
				worst = max(worst, got)
			}
			b.ReportMetric(ms/float64(b.N), "ms/"+fn)
			b.ReportMetric(worst, "worst-ms/"+fn)
		})
	}
}
