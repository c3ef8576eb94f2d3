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
		// advance(600) at once is refused (it would block the page beyond
		// a second): 5 seconds a call, in one Evaluate.
		ms := evalJS[float64](b, p, `(() => {
			const yaml = bench.scenario();
			const start = performance.now();
			bench.load(yaml);
			while (bench.time() < 600) bench.advance(5);
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

// BenchmarkBrowserStep is step(1) in the big scenario, one second after
// another through the whole timeline (its two rollouts and the quiet
// seconds between), with its snapshot (Go writes the trace line, the page
// parses it), and advance(1), which builds none; it reports the median,
// the 95th percentile and the slowest step. snapshot is the cost of the
// snapshot alone, split into Go's part (snapshotJSON: write the line and
// hand over the string) and JSON.parse.
func BenchmarkBrowserStep(b *testing.B) {
	p := benchPage(b)
	for _, fn := range []string{"step", "advance"} {
		b.Run(fn, func(b *testing.B) {
			var all []float64
			refused := 0
			for b.Loop() {
				evalJS[int](b, p, `bench.moveTo(0)`)
				// 100 seconds an Evaluate: 600 at once can outlast the
				// harness's timeout on a loaded machine. A step the meter
				// refuses (on a loaded machine a rollout's second can be
				// estimated beyond a second) goes by seekAsync, untimed.
				for range 6 {
					got := evalJS[[]float64](b, p, `(async () => {
						const out = [];
						for (let i = 0; i < 100; i++) {
							const start = performance.now();
							try {
								bench.`+fn+`(1);
							} catch (e) {
								if (!String(e).includes("would compute")) throw e;
								await bench.seekAsync(bench.time() + 1);
								out.push(-1);
								continue;
							}
							out.push(performance.now() - start);
						}
						return out;
					})()`)
					for _, ms := range got {
						if ms < 0 {
							refused++
							continue
						}
						all = append(all, ms)
					}
				}
			}
			b.ReportMetric(float64(refused)/float64(b.N), "refused/"+fn)
			b.ReportMetric(quantile(all, 0.5), "ms-p50/"+fn)
			b.ReportMetric(quantile(all, 0.95), "ms-p95/"+fn)
			b.ReportMetric(quantile(all, 1), "ms-max/"+fn)
		})
	}
	b.Run("snapshot", func(b *testing.B) {
		evalJS[int](b, p, `bench.moveTo(70)`)
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
			var all []float64
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
				all = append(all, got)
			}
			b.ReportMetric(ms/float64(b.N), "ms/"+fn)
			b.ReportMetric(quantile(all, 0.5), "ms-p50/"+fn)
			b.ReportMetric(worst, "worst-ms/"+fn)
		})
	}
}

// captureWasmMemory runs before the page's own scripts: it keeps the
// memory of the wasm instance the page starts in globalThis.wasmMemory, so
// that a benchmark can read the size of the Go heap's linear memory (it
// only grows: its size is the peak).
const captureWasmMemory = `(() => {
	const keep = (r) => { globalThis.wasmMemory = (r.instance || r).exports.mem; return r; };
	const streaming = WebAssembly.instantiateStreaming, plain = WebAssembly.instantiate;
	WebAssembly.instantiateStreaming = (...a) => streaming(...a).then(keep);
	WebAssembly.instantiate = (...a) => plain(...a).then(keep);
})()`

// BenchmarkBrowserLimits runs the largest scenario the limits allow (500
// nodes, 10,000 pods, 24 hours; core/sim/testdata/perf/limits-24h.yaml) to
// its end in the page, a few minutes at a time, and reports the wasm
// memory's size afterwards (the Go heap's peak; the runtime dies at 4 GiB)
// and how long it took. It takes many minutes, so it runs only with
// CONVERGE_BENCH_LIMITS=1:
//
//	CONVERGE_BENCH_LIMITS=1 go test -run '^$' -bench BrowserLimits -benchtime 1x -timeout 2h ./cmd/converge
func BenchmarkBrowserLimits(b *testing.B) {
	if os.Getenv("CONVERGE_BENCH_LIMITS") == "" {
		b.Skip("set CONVERGE_BENCH_LIMITS=1 to run the day-long scenario (many minutes)")
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "core", "sim", "testdata", "perf", "limits-24h.yaml"))
	require.NoError(b, err)
	srv := startServe(b)
	var peak, seconds, first float64
	for b.Loop() {
		p := openPageWith(b, srv.URL+"/", captureWasmMemory)
		p.waitReady(b)
		require.True(b, evalJS[bool](b, p, `(globalThis.big = converge.create()).load(`+jsString(string(src))+`).ok`))
		start := time.Now()
		for t := 0; t < 86400; {
			step := 100 // each call within the harness's 30 s
			if t < 600 {
				step = 5 // the rollout of 10,000 pods: its busiest seconds
			}
			t = evalJS[int](b, p, fmt.Sprintf(`big.advance(%d)`, step))
			if t == 600 {
				first = time.Since(start).Seconds()
			}
		}
		seconds = time.Since(start).Seconds()
		peak = evalJS[float64](b, p, `wasmMemory.buffer.byteLength`)
		b.Logf("wasm memory after 24 h: %.0f MiB, first 600 s in %.0f s, all in %.0f s", peak/(1<<20), first, seconds)
		p.assertNoConsoleErrors(b)
	}
	b.ReportMetric(peak/(1<<20), "wasm-MiB")
	b.ReportMetric(first, "s-to-600s")
	b.ReportMetric(seconds, "s-to-24h")
}
