package scheduler

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

func newCtx(s *store.Store) *controller.Context {
	return &controller.Context{Store: s, Log: &controller.SyncLog{}}
}

func syncOnce(s *store.Store) *controller.Context {
	ctx := newCtx(s)
	New().Sync(ctx)
	return ctx
}

// cluster creates n nodes node-1..node-n with the given capacity.
func cluster(t testing.TB, s *store.Store, n int, cpu, memory string, pods int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		simtest.MustCreate(t, s, simtest.NewNode(fmt.Sprintf("node-%d", i), cpu, memory, pods))
	}
}

func getPod(t *testing.T, s *store.Store, name string) *api.Pod {
	t.Helper()
	p, err := s.GetPod(api.NamespaceDefault, name)
	require.NoError(t, err)
	return p
}

func events(ctx *controller.Context, reason string) []store.EmittedEvent {
	var out []store.EmittedEvent
	for _, e := range ctx.Emitted {
		if e.Reason == reason {
			out = append(out, e)
		}
	}
	return out
}

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

// ownedPods creates n pending pods owned by ReplicaSet rs, named prefix-0...
func ownedPods(t testing.TB, s *store.Store, rs *api.ReplicaSet, prefix string, n int, opts ...simtest.PodOption) {
	t.Helper()
	ref := api.NewControllerRef(rs)
	for i := 0; i < n; i++ {
		o := append([]simtest.PodOption{simtest.WithPodLabels(rs.Spec.Template.Labels), simtest.WithPodOwnerRef(ref)}, opts...)
		simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("%s-%d", prefix, i), o...))
	}
}

// placement counts the bound pods per node.
func placement(s *store.Store) map[string]int {
	out := map[string]int{}
	s.EachPod(func(p *api.Pod) bool {
		if p.Spec.NodeName != "" {
			out[p.Spec.NodeName]++
		}
		return true
	})
	return out
}

// deleteDefault deletes with the pod's own grace period.
var deleteDefault = store.DeleteOptions{}
