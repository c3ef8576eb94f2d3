package replicaset

import (
	"testing"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// benchCluster is a Deployment whose ReplicaSet has 5,000 pods bound to 50
// nodes and Ready, plus two old ReplicaSets scaled to 0: the state in the
// middle of a large rollout.
func benchCluster(b *testing.B) (*store.Store, *api.ReplicaSet) {
	b.Helper()
	c := simtest.NewCluster(b, simtest.ClusterOptions{Nodes: 50, Pods: 5000, Bound: true, Ready: true})
	for _, hash := range []string{"old1", "old2"} {
		simtest.MustCreate(b, c.Store, simtest.NewReplicaSet("web-"+hash, 0, "nginx:1.25",
			simtest.WithRSLabels(map[string]string{"app": "web", api.DefaultDeploymentUniqueLabelKey: hash}), simtest.WithRSOwner(c.Deployment)))
	}
	New().Sync(&controller.Context{Store: c.Store})
	return c.Store, c.ReplicaSet
}

// BenchmarkSyncSteadyState is one Sync with nothing to do: the cost every
// control-plane round pays.
func BenchmarkSyncSteadyState(b *testing.B) {
	s, _ := benchCluster(b)
	simtest.BenchSteadyState(b, s, New())
}

// BenchmarkSyncScaleDown ranks 5,000 pods and deletes 500 of them.
func BenchmarkSyncScaleDown(b *testing.B) {
	base, rs := benchCluster(b)
	x := simtest.GetReplicaSet(b, base, rs.Name).DeepCopy()
	x.Spec.Replicas = api.Int32(4500)
	if _, err := base.Update(x); err != nil {
		b.Fatal(err)
	}
	simtest.BenchSync(b, base, New())
}

// BenchmarkSyncScaleUp creates 500 pods (one burst) for a new ReplicaSet.
func BenchmarkSyncScaleUp(b *testing.B) {
	base := simtest.NewStore()
	simtest.MustCreate(b, base, simtest.NewReplicaSet("web", 500, "nginx:1.25"))
	simtest.BenchSync(b, base, New())
}
