package replicaset

import (
	"testing"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// podsOf returns the pods controlled by rs, in creation order.
func podsOf(s *store.Store, rs *api.ReplicaSet) []*api.Pod {
	var out []*api.Pod
	s.EachPod(func(p *api.Pod) bool {
		if api.IsControlledBy(&p.ObjectMeta, rs.UID) {
			out = append(out, p)
		}
		return true
	})
	return out
}

func activePodsOf(s *store.Store, rs *api.ReplicaSet) []*api.Pod {
	var out []*api.Pod
	for _, p := range podsOf(s, rs) {
		if api.IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// deploymentRS creates Deployment name and its ReplicaSet with the
// pod-template-hash label, as the Deployment controller would.
func deploymentRS(t *testing.T, s *store.Store, name, hash string, replicas int32) (*api.Deployment, *api.ReplicaSet) {
	t.Helper()
	d := simtest.MustCreate(t, s, simtest.NewDeployment(name, replicas, "nginx:1.25"))
	l := map[string]string{"app": name, api.DefaultDeploymentUniqueLabelKey: hash}
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet(name+"-"+hash, replicas, "nginx:1.25",
		simtest.WithRSLabels(l), simtest.WithRSOwner(d)))
	return d, rs
}
