package store_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/simtest"
	"converge/core/store"
)

// requireIndexesHold compares PodsOnNode, UnboundPods and PodsControlledBy
// with a filter over every pod, for every node and owner in play.
func requireIndexesHold(t *testing.T, s *store.Store, owners []string, what string) {
	t.Helper()
	filter := func(keep func(*api.Pod) bool) []*api.Pod {
		var out []*api.Pod
		for _, p := range s.Pods() {
			if keep(p) {
				out = append(out, p)
			}
		}
		return out
	}
	for _, n := range []string{"", "node-1", "node-2", "node-3"} {
		require.Equal(t, filter(func(p *api.Pod) bool { return p.Spec.NodeName == n }), s.PodsOnNode(n), "%s: pods on %q", what, n)
	}
	require.Equal(t, s.PodsOnNode(""), s.UnboundPods(), what)
	for _, uid := range append(owners, "") {
		want := filter(func(p *api.Pod) bool {
			r := api.GetControllerOf(&p.ObjectMeta)
			return (r == nil && uid == "") || (r != nil && r.UID == uid)
		})
		require.Equal(t, want, s.PodsControlledBy(uid), "%s: pods controlled by %q", what, uid)
	}
}

// TestPodIndexes follows pods through creation, binding, adoption and
// release, deletion, compaction and a clone, checking the indexes after
// each.
func TestPodIndexes(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 3, "64", "256Gi", 250)
	a := simtest.MustCreate(t, s, simtest.NewReplicaSet("a", 1, "nginx"))
	b := simtest.MustCreate(t, s, simtest.NewReplicaSet("b", 1, "nginx"))
	owners := []string{a.UID, b.UID}
	requireIndexesHold(t, s, owners, "empty")
	for i := 0; i < 150; i++ {
		opts := []simtest.PodOption{}
		switch i % 3 {
		case 0:
			opts = append(opts, simtest.WithPodOwner(a))
		case 1:
			opts = append(opts, simtest.WithPodOwner(b), simtest.WithPodNode("node-3"))
		}
		simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("p-%03d", i), opts...))
	}
	requireIndexesHold(t, s, owners, "created")
	for i := 0; i < 150; i += 3 {
		_, err := s.Bind("", fmt.Sprintf("p-%03d", i), fmt.Sprintf("node-%d", 1+i%2))
		require.NoError(t, err)
	}
	requireIndexesHold(t, s, owners, "bound")
	for i := 2; i < 150; i += 6 {
		p := simtest.GetPod(t, s, fmt.Sprintf("p-%03d", i)).DeepCopy()
		p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(a)}
		_, err := s.Update(p)
		require.NoError(t, err, "adopted by a")
	}
	for i := 0; i < 150; i += 9 {
		p := simtest.GetPod(t, s, fmt.Sprintf("p-%03d", i)).DeepCopy()
		p.OwnerReferences = nil
		_, err := s.Update(p)
		require.NoError(t, err, "released")
	}
	requireIndexesHold(t, s, owners, "adopted and released")
	c := s.Clone(clock.New(api.Epoch))
	for i := 1; i < 150; i++ {
		if i%5 != 0 {
			require.NoError(t, s.Delete(api.KindPod, "", fmt.Sprintf("p-%03d", i), store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
		}
	}
	requireIndexesHold(t, s, owners, "mostly deleted (compacted)")
	requireIndexesHold(t, c, owners, "a clone taken before")
	p := simtest.GetPod(t, c, "p-004").DeepCopy() // b's
	p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(a)}
	_, err := c.Update(p)
	require.NoError(t, err)
	requireIndexesHold(t, c, owners, "the clone after a move")
	p = simtest.GetPod(t, c, "p-004").DeepCopy()
	p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(b)}
	_, err = c.Update(p)
	require.NoError(t, err, "back to its first owner")
	requireIndexesHold(t, c, owners, "the clone after moves back and forth")
}
