package metrics_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"converge/core/controller"
	"converge/core/metrics"
	"converge/core/simtest"
)

// TestNodeMetrics: at each scrape a Ready node's metric is the usage of the
// pods that ran on it over the window (its share of the load, spread over
// the Deployment's ready pods); a NotReady node has none (its kubelet does
// not answer), and the window starts over after a scrape.
func TestNodeMetrics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		seconds int
		want    []controller.NodeMetrics
	}{
		{"before the first scrape", 14, nil},
		{"at the first scrape", 15, []controller.NodeMetrics{{Name: "node-1", CPU: 400, Memory: 200 * 1000 * 1024 * 1024}, {Name: "node-2", CPU: 200, Memory: 100 * 1000 * 1024 * 1024}}},
		{"within the next window", 29, []controller.NodeMetrics{{Name: "node-1", CPU: 400, Memory: 200 * 1000 * 1024 * 1024}, {Name: "node-2", CPU: 200, Memory: 100 * 1000 * 1024 * 1024}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := simtest.NewStore()
			simtest.MustCreate(t, st, simtest.NewNodeWith("node-1", "4", "8Gi", 110))
			simtest.MustCreate(t, st, simtest.NewNodeWith("node-2", "4", "8Gi", 110))
			simtest.MustCreate(t, st, simtest.NewNodeWith("node-3", "4", "8Gi", 110, simtest.WithNodeNotReady("Unknown")))
			simtest.MustCreate(t, st, simtest.NewDeployment("web", 3, "nginx:1.25"))
			for i, node := range []string{"node-1", "node-1", "node-2"} {
				simtest.MustCreate(t, st, simtest.NewPod("web-"+string(rune('a'+i)), simtest.WithPodLabels(map[string]string{"app": "web"}),
					simtest.WithPodNode(node), simtest.WithPodPhase("Running"), simtest.WithPodReady(st.Now().Time)))
			}
			s := metrics.New()
			s.SetLoad("default", "web", metrics.Load{CPU: 600, Memory: 300 * 1000 * 1024 * 1024, CPUSet: true, MemorySet: true})
			ctx := &controller.Context{Store: st}
			for range tc.seconds {
				simtest.Advance(st, time.Second)
				s.Sync(ctx)
			}
			assert.Equal(t, tc.want, s.NodeMetrics())
		})
	}
}
