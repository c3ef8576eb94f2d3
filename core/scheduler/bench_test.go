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
// Like the pods a ReplicaSet sync creates, each batch of 500 shares one
// containers array.
func benchStore(b *testing.B) (*store.Store, *api.ReplicaSet) {
	b.Helper()
	s := simtest.NewStore()
	cluster(b, s, 50, "64", "256Gi", 110)
	rs := simtest.MustCreate(b, s, simtest.NewReplicaSet("web", 5000, "nginx"))
	ref := api.NewControllerRef(rs)
	var shared []api.Container
	for i := 0; i < 5000; i++ {
		p := simtest.NewPod(fmt.Sprintf("web-%d", i), simtest.WithPodLabels(rs.Spec.Template.Labels), simtest.WithPodOwnerRef(ref),
			simtest.WithPodRequests("100m", "128Mi"))
		if i%500 == 0 {
			shared = p.Spec.Containers
		}
		p.Spec.Containers = shared
		simtest.MustCreate(b, s, p)
	}
	return s, rs
}

// BenchmarkScheduleFiveThousandPods binds 5,000 pods to 50 nodes in one Sync.
func BenchmarkScheduleFiveThousandPods(b *testing.B) {
	base, _ := benchStore(b)
	c := New()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := base.Clone(base.Clock().Clone())
		b.StartTimer()
		c.Sync(&controller.Context{Store: s})
	}
}

// BenchmarkSyncNothingPending is the scheduler's cost in a round where all
// 5,000 pods are bound.
func BenchmarkSyncNothingPending(b *testing.B) {
	s, _ := benchStore(b)
	c := New()
	c.Sync(&controller.Context{Store: s})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Sync(&controller.Context{Store: s})
	}
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
	c := New()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := base.Clone(base.Clock().Clone())
		b.StartTimer()
		c.Sync(&controller.Context{Store: s})
	}
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
