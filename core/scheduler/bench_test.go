package scheduler

import (
	"fmt"
	"testing"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// benchStore has 50 nodes, a ReplicaSet and 5,000 of its pods, pending.
func benchStore(b *testing.B) (*store.Store, *api.ReplicaSet) {
	b.Helper()
	c := simtest.NewCluster(b, simtest.ClusterOptions{Nodes: 50, Pods: 5000, Requests: true})
	return c.Store, c.ReplicaSet
}

// BenchmarkScheduleFiveThousandPods binds 5,000 pods to 50 nodes in one Sync.
func BenchmarkScheduleFiveThousandPods(b *testing.B) {
	base, _ := benchStore(b)
	simtest.BenchSync(b, base, New())
}

// BenchmarkSyncNothingPending is the scheduler's cost in a round where all
// 5,000 pods are bound.
func BenchmarkSyncNothingPending(b *testing.B) {
	s, _ := benchStore(b)
	c := New()
	c.Sync(&controller.Context{Store: s})
	simtest.BenchSteadyState(b, s, c)
}

// BenchmarkScheduleTenAmongFiveThousand binds 10 new pods next to 5,000
// bound ones: a rolling-update round.
func BenchmarkScheduleTenAmongFiveThousand(b *testing.B) {
	base, rs := benchStore(b)
	New().Sync(&controller.Context{Store: base})
	for i := 0; i < 10; i++ {
		simtest.MustCreate(b, base, simtest.NewPod(fmt.Sprintf("new-%d", i), simtest.WithPodLabels(rs.Spec.Template.Labels),
			simtest.WithPodOwner(rs), simtest.WithPodRequests("100m", "128Mi")))
	}
	simtest.BenchSync(b, base, New())
}

// BenchmarkSnapshot adds up 5,000 bound pods on 50 nodes: what any Sync
// with a pending pod pays first.
func BenchmarkSnapshot(b *testing.B) {
	s, rs := benchStore(b)
	New().Sync(&controller.Context{Store: s})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		newSnapshot(s, []string{rs.UID}, false)
	}
}
