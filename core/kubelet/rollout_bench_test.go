package kubelet

import (
	"fmt"
	"testing"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/endpoints"
	"converge/core/controller/nodelifecycle"
	"converge/core/simtest"
	"converge/core/store"
)

// BenchmarkRollout600s is this package's share of the 5,000-replica,
// 50-node, 600-second budget: the node lifecycle controller, the endpoints
// controller and the kubelets (with traffic) while 250 pods a second are
// replaced by new ones (with readiness probes) for 20 seconds, then 580
// quiet seconds. One op is the whole 600 seconds.
func BenchmarkRollout600s(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		nodes := make([]string, 50)
		for j := range nodes {
			nodes[j] = fmt.Sprintf("node-%d", j+1)
		}
		h := newHarness(b, nil, nodes...)
		simtest.MustCreate(b, h.s, &api.Service{ObjectMeta: api.ObjectMeta{Name: "web"},
			Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []api.ServicePort{{Port: 80}}}})
		for j := 0; j < 5000; j++ {
			h.add(newPod(fmt.Sprintf("old-%04d", j), nodes[j%50], "nginx:1.25", withProbe(0, 10, 1, 3)))
		}
		nl := nodelifecycle.New(nodelifecycle.Options{})
		ec := endpoints.New()
		for s := 0; s < 15; s++ { // get the old pods running
			ctx := &controller.Context{Store: h.s, Log: &controller.SyncLog{}}
			nl.Sync(ctx)
			ec.Sync(ctx)
			h.k.Sync(ctx)
			simtest.Advance(h.s, time.Second)
		}
		lookup := func(ns, name string) *api.Pod {
			p, err := h.s.GetPod(ns, name)
			if err != nil {
				return nil
			}
			return p
		}
		var prev []*api.Endpoints
		b.StartTimer()
		for s := 0; s < 600; s++ {
			ctx := &controller.Context{Store: h.s, Log: &controller.SyncLog{}}
			if s < 20 {
				for j := s * 250; j < (s+1)*250; j++ {
					_ = h.s.Delete(api.KindPod, "default", fmt.Sprintf("old-%04d", j), store.DeleteOptions{})
					h.add(newPod(fmt.Sprintf("new-%04d", j), nodes[j%50], "nginx:1.26", withProbe(0, 10, 1, 3)))
				}
			}
			for round := 0; round < 2; round++ {
				nl.Sync(ctx)
				ec.Sync(ctx)
			}
			h.k.Sync(ctx)
			now := h.s.Clock().Now()
			endpoints.Traffic(h.s.Services(), prev, lookup, func(p *api.Pod) bool { return h.k.Serving(p, now) })
			prev = h.s.EndpointsList()
			simtest.Advance(h.s, time.Second)
		}
	}
}
