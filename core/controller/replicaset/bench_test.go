package replicaset

import (
	"fmt"
	"testing"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// benchCluster is a Deployment whose ReplicaSet web-new created 5,000 pods,
// bound round-robin to 50 nodes and Ready, plus two old ReplicaSets scaled
// to 0: the state in the middle of a large rollout.
func benchCluster(b *testing.B) *store.Store {
	b.Helper()
	s := simtest.NewStore()
	d := simtest.MustCreate(b, s, simtest.NewDeployment("web", 5000, "nginx:1.25"))
	for i, hash := range []string{"old1", "old2", "new"} {
		replicas := int32(0)
		if i == 2 {
			replicas = 5000
		}
		simtest.MustCreate(b, s, simtest.NewReplicaSet("web-"+hash, replicas, "nginx:1.25",
			simtest.WithRSLabels(map[string]string{"app": "web", api.DefaultDeploymentUniqueLabelKey: hash}), simtest.WithRSOwner(d)))
	}
	c := New()
	for i := 0; i < 12; i++ {
		c.Sync(&controller.Context{Store: s})
	}
	ready := []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: s.Now()}}
	for i, p := range s.Pods() {
		bound, err := s.Bind(p.Namespace, p.Name, fmt.Sprintf("node-%d", i%50+1))
		if err != nil {
			b.Fatal(err)
		}
		x := *bound
		x.ResourceVersion = ""
		x.Status.Phase = api.PodRunning
		x.Status.Conditions = ready
		if _, err := s.UpdateStatus(&x); err != nil {
			b.Fatal(err)
		}
	}
	c.Sync(&controller.Context{Store: s})
	if n := s.Count(api.KindPod); n != 5000 {
		b.Fatalf("%d pods", n)
	}
	return s
}

// BenchmarkSyncSteadyState is one Sync with nothing to do: the cost every
// control-plane round pays.
func BenchmarkSyncSteadyState(b *testing.B) {
	s := benchCluster(b)
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

// BenchmarkSyncScaleDown ranks 5,000 pods and deletes 500 of them.
func BenchmarkSyncScaleDown(b *testing.B) {
	base := benchCluster(b)
	rs, _ := base.GetReplicaSet(api.NamespaceDefault, "web-new")
	x := rs.DeepCopy()
	x.Spec.Replicas = api.Int32(4500)
	if _, err := base.Update(x); err != nil {
		b.Fatal(err)
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

// BenchmarkSyncScaleUp creates 500 pods (one burst) for a new ReplicaSet.
func BenchmarkSyncScaleUp(b *testing.B) {
	base := simtest.NewStore()
	simtest.MustCreate(b, base, simtest.NewReplicaSet("web", 500, "nginx:1.25"))
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
