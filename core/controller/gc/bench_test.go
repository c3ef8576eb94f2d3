package gc

import (
	"fmt"
	"testing"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
)

// BenchmarkSyncSteadyState is one Sync over 5,000 owned pods on 50 nodes
// with nothing to collect: the cost every control-plane round pays.
func BenchmarkSyncSteadyState(b *testing.B) {
	s := simtest.NewStore()
	nodes := make([]string, 50)
	for i := range nodes {
		nodes[i] = simtest.MustCreate(b, s, simtest.NewNode(fmt.Sprintf("node-%d", i+1), "64", "256Gi", 110)).Name
	}
	d := simtest.MustCreate(b, s, simtest.NewDeployment("web", 5000, "nginx"))
	rs := simtest.MustCreate(b, s, simtest.NewReplicaSet("web-1", 5000, "nginx", simtest.WithRSOwner(d)))
	ref := api.NewControllerRef(rs)
	for i := 0; i < 5000; i++ {
		simtest.MustCreate(b, s, simtest.NewPod(fmt.Sprintf("web-1-%05d", i), simtest.WithPodOwnerRef(ref), simtest.WithPodNode(nodes[i%50])))
	}
	c := New()
	rv := s.ResourceVersion()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Sync(&controller.Context{Store: s})
	}
	if s.ResourceVersion() != rv {
		b.Fatal("steady-state sync wrote to the store")
	}
}
