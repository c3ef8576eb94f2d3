package kubelet

import (
	"fmt"
	"testing"
	"time"

	"converge/core/controller"
	"converge/core/simtest"
)

// newBig binds 5,000 pods (with readiness probes) to 50 nodes.
func newBig(b *testing.B) *harness {
	nodes := make([]string, 50)
	for i := range nodes {
		nodes[i] = fmt.Sprintf("node-%d", i+1)
	}
	h := newHarness(b, nil, nodes...)
	for i := 0; i < 5000; i++ {
		h.add(newPod(fmt.Sprintf("web-%04d", i), nodes[i%50], "nginx:1.25", withProbe(0, 10, 1, 3)))
	}
	return h
}

// BenchmarkSyncSteady is one kubelet Sync over 5,000 running pods on 50
// nodes: heartbeats and probes fall due, nothing else changes.
func BenchmarkSyncSteady(b *testing.B) {
	h := newBig(b)
	h.sync()
	h.runTo(10)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		simtest.Advance(h.s, time.Second)
		h.k.Sync(&controller.Context{Store: h.s, Log: &controller.SyncLog{}})
	}
}

// BenchmarkSyncStartup is the first 5 seconds of 5,000 pods: admission,
// pulls, starts, first probes (one op = 5 Syncs).
func BenchmarkSyncStartup(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h := newBig(b)
		b.StartTimer()
		for s := 0; s < 5; s++ {
			h.k.Sync(&controller.Context{Store: h.s, Log: &controller.SyncLog{}})
			simtest.Advance(h.s, time.Second)
		}
	}
}
