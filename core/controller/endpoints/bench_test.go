package endpoints

import (
	"fmt"
	"testing"

	"converge/core/api"
)

func newBig(b *testing.B) *harness {
	h := newHarness(b)
	h.service("web", map[string]string{"app": "web"}, api.ServicePort{Port: 80})
	for i := 0; i < 5000; i++ {
		h.pod(fmt.Sprintf("web-%04d", i), fmt.Sprintf("node-%d", i%50+1), fmt.Sprintf("10.%d.%d.%d", 244+i/50/256, i%50+1, 2+i/50), ready)
	}
	h.sync()
	return h
}

// BenchmarkSyncChanged is one Sync of a 5,000-pod Service after one pod's
// readiness flipped (the Endpoints are rebuilt and written).
func BenchmarkSyncChanged(b *testing.B) {
	h := newBig(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.setReady(fmt.Sprintf("web-%04d", i%5000), i%2 == 1)
		h.sync()
	}
}

// BenchmarkSyncUnchanged is one Sync of a 5,000-pod Service with nothing new.
func BenchmarkSyncUnchanged(b *testing.B) {
	h := newBig(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.sync()
	}
}

// BenchmarkTraffic is one second of traffic of a Service with 1,000 ready addresses.
func BenchmarkTraffic(b *testing.B) {
	h := newBig(b)
	svcs, eps := h.s.Services(), h.s.EndpointsList()
	lookup := func(ns, name string) *api.Pod {
		p, err := h.s.GetPod(ns, name)
		if err != nil {
			return nil
		}
		return p
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Traffic(svcs, eps, lookup, func(*api.Pod) bool { return true })
	}
}
