package main

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// BenchmarkBrowserSimulateProfile is BenchmarkBrowserSimulate's wasm part
// under chromium's sampling profiler: it prints the functions with the most
// self time, and the share of the Go runtime's (runtime.*: allocation,
// GC, maps). Function names need a wasm built with its name section:
//
//	make build WASMFLAGS='-trimpath -buildvcs=false'
//	go test -run '^$' -bench BrowserSimulateProfile -benchtime 1x ./cmd/converge
func BenchmarkBrowserSimulateProfile(b *testing.B) {
	p := benchPage(b)
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	_, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{})
	require.NoError(b, err)
	_, err = chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
	require.NoError(b, err)
	self := map[string]float64{}
	var total float64
	for b.Loop() {
		_, err := chromedp.Call(ctx, profiler.Start, cdp.Empty{})
		require.NoError(b, err)
		evalJS[float64](b, p, `(() => {
			const start = performance.now();
			bench.load(bench.scenario());
			while (bench.time() < 600) bench.advance(5);
			return performance.now() - start;
		})()`)
		res, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
		require.NoError(b, err)
		prof := res.Profile
		interval := (prof.EndTime - prof.StartTime) / float64(max(len(prof.Samples), 1)) / 1000 // ms a sample
		for _, n := range prof.Nodes {
			name := n.CallFrame.FunctionName
			if name == "" {
				name = "(" + n.CallFrame.URL + ")"
			}
			ms := float64(n.HitCount) * interval
			self[name] += ms
			if name != "(idle)" && name != "(program)" {
				total += ms
			}
		}
	}
	names := slices.SortedFunc(maps.Keys(self), func(x, y string) int { return cmp.Compare(self[y], self[x]) })
	var runtime float64
	for _, name := range names {
		// V8 shows Go's names with / and . between words as _ (but the
		// runtime's own as they are): runtime.mallocgc, internal_runtime_maps...
		if n := strings.TrimPrefix(name, "$"); strings.HasPrefix(n, "runtime.") || strings.HasPrefix(n, "internal_runtime_") {
			runtime += self[name]
		}
	}
	fmt.Printf("sampled %.0f ms (not idle); Go runtime (runtime.*, internal/runtime/...) %.0f%% of it; top self time:\n", total, 100*runtime/total)
	for _, name := range names[:min(30, len(names))] {
		fmt.Printf("  %6.1f%%  %s\n", 100*self[name]/total, name)
	}
}
