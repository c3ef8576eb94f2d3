package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/endpoints"
	"converge/core/simtest"
	"converge/core/store"
)

// TestTrafficThroughKubelets runs the endpoints controller, the kubelets and
// the traffic model in the engine's order (control plane, kubelets, traffic
// over the previous second's Endpoints) and checks what clients see.
func TestTrafficThroughKubelets(t *testing.T) {
	t.Parallel()
	type sec struct {
		at       int
		ok, fail int
		reason   string
	}
	tests := []struct {
		name     string
		probe    bool
		deleteAt int
		want     []sec
	}{
		{name: "no probe, app warms up 5s: Ready but failing requests", want: []sec{
			{at: 4, fail: 100, reason: "no-endpoints"},
			{at: 5, fail: 100, reason: "not-serving"},
			{at: 7, fail: 100, reason: "not-serving"},
			{at: 8, ok: 100},
		}},
		{name: "with a readiness probe the pods join only once they serve", probe: true, want: []sec{
			{at: 5, fail: 100, reason: "no-endpoints"},
			{at: 9, fail: 100, reason: "no-endpoints"},
			{at: 10, ok: 100},
		}},
		{name: "a pod deleted is still in last second's Endpoints", probe: true, deleteAt: 20, want: []sec{
			{at: 19, ok: 100},
			{at: 20, ok: 50, fail: 50, reason: "terminating"},
			{at: 21, ok: 100},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, map[string]Image{"warm:1": {ReadySeconds: 5}})
			simtest.MustCreate(t, h.s, &api.Service{ObjectMeta: api.ObjectMeta{Name: "web"},
				Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []api.ServicePort{{Port: 80}}}})
			var opts []podOption
			if tc.probe {
				opts = append(opts, withProbe(0, 1, 1, 1))
			}
			h.add(newPod("web-a", "node-1", "warm:1", opts...))
			h.add(newPod("web-b", "node-1", "warm:1", opts...))
			ec := endpoints.New()
			var prev []*api.Endpoints
			lookup := func(ns, name string) *api.Pod {
				p, err := h.s.GetPod(ns, name)
				if err != nil {
					return nil
				}
				return p
			}
			got := map[int]endpoints.ServiceTraffic{}
			last := tc.want[len(tc.want)-1].at
			for sec := 0; sec <= last; sec++ {
				if sec > 0 {
					simtest.Advance(h.s, time.Second)
				}
				if sec == tc.deleteAt && sec > 0 {
					require.NoError(t, h.s.Delete(api.KindPod, "default", "web-a", store.DeleteOptions{}))
				}
				ec.Sync(&controller.Context{Store: h.s})
				h.sync()
				now := h.s.Clock().Now()
				tr := endpoints.Traffic(h.s.Services(), prev, lookup, func(p *api.Pod) bool { return h.k.Serving(p, now) })
				require.Len(t, tr, 1)
				got[sec] = tr[0]
				prev = h.s.EndpointsList()
			}
			for _, w := range tc.want {
				g := got[w.at]
				assert.Equal(t, w.ok, g.Succeeded, "succeeded at %ds", w.at)
				assert.Equal(t, w.fail, g.Failed, "failed at %ds", w.at)
				if w.fail > 0 {
					assert.Equal(t, map[string]int{w.reason: w.fail}, g.Failures, "at %ds", w.at)
				}
			}
		})
	}
}
