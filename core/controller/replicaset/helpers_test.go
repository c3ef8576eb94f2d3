package replicaset

import (
	"testing"

	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// syncOnce runs one Sync of the controller in a fresh tick context.
func syncOnce(s *store.Store) *controller.Context {
	ctx := &controller.Context{Store: s, Log: &controller.SyncLog{}}
	New().Sync(ctx)
	return ctx
}

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

func getRS(t *testing.T, s *store.Store, name string) *api.ReplicaSet {
	t.Helper()
	rs, err := s.GetReplicaSet(api.NamespaceDefault, name)
	require.NoError(t, err)
	return rs
}

func getPod(t *testing.T, s *store.Store, name string) *api.Pod {
	t.Helper()
	p, err := s.GetPod(api.NamespaceDefault, name)
	require.NoError(t, err)
	return p
}

// recordFor returns the sync record about object, failing when there is none.
func recordFor(t *testing.T, ctx *controller.Context, object string) controller.SyncRecord {
	t.Helper()
	for _, r := range ctx.Log.Records {
		if r.Object == object {
			return r
		}
	}
	require.Failf(t, "no sync record", "for %s in %+v", object, ctx.Log.Records)
	return controller.SyncRecord{}
}

func eventsWithReason(ctx *controller.Context, reason string) []store.EmittedEvent {
	var out []store.EmittedEvent
	for _, e := range ctx.Emitted {
		if e.Reason == reason {
			out = append(out, e)
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
