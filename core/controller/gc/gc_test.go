package gc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

func actions(t *testing.T, ctx simtest.Pass) []string {
	t.Helper()
	var out []string
	for _, r := range ctx.Log.Records {
		assert.Equal(t, Component, r.Controller)
		out = append(out, r.Object+": "+r.Action+r.Waiting)
	}
	return out
}

// deploymentWithPods builds Deployment web, its ReplicaSet and three pods:
// two bound to node-1, one not scheduled yet.
func deploymentWithPods(t *testing.T, s *store.Store) (*api.Deployment, *api.ReplicaSet, []*api.Pod) {
	t.Helper()
	simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
	d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 3, "nginx:1.25"))
	l := map[string]string{"app": "web", api.DefaultDeploymentUniqueLabelKey: "5d9c7b8f4"}
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web-5d9c7b8f4", 3, "nginx:1.25", simtest.WithRSLabels(l), simtest.WithRSOwner(d)))
	pods := []*api.Pod{
		simtest.MustCreate(t, s, simtest.NewPod("web-5d9c7b8f4-aaaaa", simtest.WithPodLabels(l), simtest.WithPodOwner(rs), simtest.WithPodNode("node-1"))),
		simtest.MustCreate(t, s, simtest.NewPod("web-5d9c7b8f4-bbbbb", simtest.WithPodLabels(l), simtest.WithPodOwner(rs), simtest.WithPodNode("node-1"))),
		simtest.MustCreate(t, s, simtest.NewPod("web-5d9c7b8f4-ccccc", simtest.WithPodLabels(l), simtest.WithPodOwner(rs))),
	}
	return d, rs, pods
}

func TestNameAndClone(t *testing.T) {
	t.Parallel()
	c := New()
	assert.Equal(t, "garbage-collector-controller", c.Name())
	assert.NotSame(t, c, c.Clone(), "the clone keeps its own memory of the last pass")
}

// TestACleanPassIsSkippedUntilSomethingChanges: after a pass that found
// nothing, the collector notices each kind of change it depends on, in the
// same store and in a clone of it.
func TestACleanPassIsSkippedUntilSomethingChanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(t *testing.T, s *store.Store, d *api.Deployment, rs *api.ReplicaSet)
		want   []string
	}{
		{"the owner is deleted", func(t *testing.T, s *store.Store, d *api.Deployment, _ *api.ReplicaSet) {
			require.NoError(t, s.Delete(api.KindDeployment, d.Namespace, d.Name, store.DeleteOptions{PropagationPolicy: store.DeletePropagationOrphan}))
			simtest.MustCreate(t, s, simtest.NewPod("stray", simtest.WithPodOwner(d)))
		}, []string{"pod/stray: delete pod stray: owner deployment/web is gone"}},
		{"the owner is deleted in the foreground", func(t *testing.T, s *store.Store, d *api.Deployment, _ *api.ReplicaSet) {
			// Only the Deployment's metadata changes (deletionTimestamp, finalizer).
			require.NoError(t, s.Delete(api.KindDeployment, d.Namespace, d.Name, store.DeleteOptions{PropagationPolicy: store.DeletePropagationForeground}))
		}, []string{
			"replicaset/web-5d9c7b8f4: delete replica set web-5d9c7b8f4 in the foreground: owner deployment/web is being deleted in the foreground",
			"pod/web-5d9c7b8f4-aaaaa: delete pod web-5d9c7b8f4-aaaaa: owner replicaset/web-5d9c7b8f4 is being deleted in the foreground",
			"pod/web-5d9c7b8f4-bbbbb: delete pod web-5d9c7b8f4-bbbbb: owner replicaset/web-5d9c7b8f4 is being deleted in the foreground",
			"pod/web-5d9c7b8f4-ccccc: delete pod web-5d9c7b8f4-ccccc: owner replicaset/web-5d9c7b8f4 is being deleted in the foreground",
			"replicaset/web-5d9c7b8f4: waiting for 2 dependents (pod/web-5d9c7b8f4-aaaaa, pod/web-5d9c7b8f4-bbbbb) to be deleted before replica set web-5d9c7b8f4 (foreground deletion)",
			"deployment/web: waiting for replicaset/web-5d9c7b8f4 to be deleted before deployment web (foreground deletion)",
		}},
		{"a pod gets an owner that does not exist", func(t *testing.T, s *store.Store, _ *api.Deployment, rs *api.ReplicaSet) {
			p := simtest.GetPod(t, s, "web-5d9c7b8f4-ccccc").DeepCopy()
			p.OwnerReferences = append(p.OwnerReferences, api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "gone", UID: "no-such-uid"})
			_, err := s.Update(p)
			require.NoError(t, err)
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			d, rs, _ := deploymentWithPods(t, s)
			c := New()
			require.Empty(t, actions(t, simtest.Sync(s, c)))
			require.NotNil(t, c.clean, "a pass that found nothing is remembered")
			clone, cc := s.Clone(s.Clock().Clone()), c.Clone()
			tc.change(t, s, d, rs)
			tc.change(t, clone, d, rs)
			assert.Equal(t, tc.want, actions(t, simtest.Sync(s, c)), "the same store")
			assert.Equal(t, tc.want, actions(t, simtest.Sync(clone, cc)), "a clone, with a clone of the collector")
			if tc.want == nil {
				p := simtest.GetPod(t, s, "web-5d9c7b8f4-ccccc")
				assert.Len(t, p.OwnerReferences, 1, "the dangling reference is stripped")
			}
		})
	}
}

// TestACleanPassWatchesTheNodesWhileAPodTerminates: a pass that saw a
// terminating pod on a node tainted out-of-service but Ready found nothing;
// the node's status alone going NotReady (no metadata written) makes the
// next pass force-delete the pod (podgc's gcTerminating), in the same store
// and in a clone.
func TestACleanPassWatchesTheNodesWhileAPodTerminates(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	taint := simtest.WithNodeTaint(api.TaintNodeOutOfService, "nodeshutdown", api.TaintEffectNoExecute)
	simtest.MustCreate(t, s, simtest.NewNodeWith("n", "4", "8Gi", 110, taint))
	p := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodNode("n"), simtest.WithPodReady(api.Epoch)))
	require.NoError(t, s.Delete(api.KindPod, "default", "p", store.DeleteOptions{}))
	c := New()
	require.Empty(t, actions(t, simtest.Sync(s, c)), "the node is Ready")
	require.NotNil(t, c.clean)
	clone, cc := s.Clone(s.Clock().Clone()), c.Clone()
	for _, st := range []*store.Store{s, clone} {
		n, err := st.GetNode("n")
		require.NoError(t, err)
		x := n.DeepCopy()
		simtest.WithNodeNotReady("False")(x)
		_, err = st.UpdateStatus(x)
		require.NoError(t, err)
	}
	want := []string{"pod/p: force-delete pod p: node n is out of service"}
	assert.Equal(t, want, actions(t, simtest.Sync(s, c)), "the same store")
	assert.Equal(t, want, actions(t, simtest.Sync(clone, cc)), "a clone, with a clone of the collector")
	assert.False(t, s.Exists(p.UID))
}

func TestDeletingADeploymentCascades(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d, rs, pods := deploymentWithPods(t, s)
	require.NoError(t, s.Delete(api.KindDeployment, d.Namespace, d.Name, store.DeleteOptions{}))

	ctx := simtest.Sync(s, New())

	assert.Equal(t, []string{
		"replicaset/web-5d9c7b8f4: delete replica set web-5d9c7b8f4: owner deployment/web is gone",
		"pod/web-5d9c7b8f4-aaaaa: delete pod web-5d9c7b8f4-aaaaa: owner replicaset/web-5d9c7b8f4 is gone",
		"pod/web-5d9c7b8f4-bbbbb: delete pod web-5d9c7b8f4-bbbbb: owner replicaset/web-5d9c7b8f4 is gone",
		"pod/web-5d9c7b8f4-ccccc: delete pod web-5d9c7b8f4-ccccc: owner replicaset/web-5d9c7b8f4 is gone",
	}, actions(t, ctx))
	assert.False(t, s.Exists(rs.UID))
	for _, p := range pods[:2] {
		got, err := s.GetPod(p.Namespace, p.Name)
		require.NoError(t, err, "bound pods terminate gracefully")
		assert.NotNil(t, got.DeletionTimestamp)
	}
	assert.False(t, s.Exists(pods[2].UID), "an unscheduled pod goes at once")

	rv := s.ResourceVersion()
	ctx = simtest.Sync(s, New())
	assert.Empty(t, ctx.Log.Records, "terminating pods are left to their kubelet")
	assert.Equal(t, rv, s.ResourceVersion())
}

func TestOrphanDeleteLeavesDependentsAlone(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d, rs, _ := deploymentWithPods(t, s)
	require.NoError(t, s.Delete(api.KindDeployment, d.Namespace, d.Name, store.DeleteOptions{PropagationPolicy: store.DeletePropagationOrphan}))
	rv := s.ResourceVersion()
	ctx := simtest.Sync(s, New())
	assert.Empty(t, ctx.Log.Records)
	assert.Equal(t, rv, s.ResourceVersion())
	got, err := s.GetReplicaSet(rs.Namespace, rs.Name)
	require.NoError(t, err)
	assert.Nil(t, got.OwnerReferences)
}

func TestDanglingReferencesAreStrippedWhenAnOwnerRemains(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	keep := simtest.MustCreate(t, s, simtest.NewDeployment("keep", 1, "nginx"))
	gone := simtest.MustCreate(t, s, simtest.NewDeployment("gone", 1, "nginx"))
	rs := simtest.NewReplicaSet("shared", 1, "nginx")
	rs.OwnerReferences = []api.OwnerReference{
		{APIVersion: "apps/v1", Kind: "Deployment", Name: "gone", UID: gone.UID},
		{APIVersion: "apps/v1", Kind: "Deployment", Name: "keep", UID: keep.UID},
	}
	simtest.MustCreate(t, s, rs)
	pod := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodOwnerRef(api.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "gone", UID: gone.UID}),
		simtest.WithPodOwnerRef(api.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "keep", UID: keep.UID})))
	require.NoError(t, s.Delete(api.KindDeployment, gone.Namespace, gone.Name, store.DeleteOptions{}))

	ctx := simtest.Sync(s, New())

	assert.Empty(t, ctx.Log.Records, "only deletions are recorded")
	want := []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "keep", UID: keep.UID}}
	gotRS, err := s.GetReplicaSet(rs.Namespace, rs.Name)
	require.NoError(t, err)
	assert.Equal(t, want, gotRS.OwnerReferences)
	gotPod, err := s.GetPod(pod.Namespace, pod.Name)
	require.NoError(t, err)
	assert.Equal(t, want, gotPod.OwnerReferences)
	rv := s.ResourceVersion()
	simtest.Sync(s, New())
	assert.Equal(t, rv, s.ResourceVersion())
}

// TestAFailedStripIsRecorded: when the update that strips dangling
// references fails, the collector says so in its record (and retries on the
// next sync, as it is level-based), as it does for a failed delete.
func TestAFailedStripIsRecorded(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	keep := simtest.MustCreate(t, s, simtest.NewDeployment("keep", 1, "nginx"))
	rs := simtest.NewReplicaSet("shared", 1, "nginx")
	rs.OwnerReferences = []api.OwnerReference{
		{APIVersion: "apps/v1", Kind: "Deployment", Name: "gone", UID: "uid-gone"},
		{APIVersion: "apps/v1", Kind: "Deployment", Name: "keep", UID: keep.UID},
	}
	stale := simtest.MustCreate(t, s, rs)
	changed := stale.DeepCopy()
	changed.Labels = map[string]string{"touched": "yes"}
	_, err := s.Update(changed)
	require.NoError(t, err)

	ctx := simtest.Pass{Context: &controller.Context{Store: s, Log: &controller.SyncLog{}}}
	(&graph{store: s}).attemptToDelete(ctx.Context, stale, api.KindReplicaSet)

	assert.Equal(t, []string{"replicaset/shared: remove the dangling owner references of replica set shared: " +
		`Operation cannot be fulfilled on replicasets.apps "shared": the object has been modified; please apply your changes to the latest version and try again`},
		actions(t, ctx))
	ctx = simtest.Sync(s, New())
	assert.Empty(t, ctx.Log.Records, "the next sync, on the current object, strips them")
	got, err := s.GetReplicaSet(rs.Namespace, rs.Name)
	require.NoError(t, err)
	assert.Equal(t, []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "keep", UID: keep.UID}}, got.OwnerReferences)
}

func TestAllOwnersGoneNamesThemAll(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	p := simtest.NewPod("p", simtest.WithPodOwnerRef(api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "a", UID: "uid-a"}),
		simtest.WithPodOwnerRef(api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "b", UID: "uid-b"}))
	simtest.MustCreate(t, s, p)
	ctx := simtest.Sync(s, New())
	assert.Equal(t, []string{"pod/p: delete pod p: owners replicaset/a, configmap/b are gone"}, actions(t, ctx))
}

func TestNothingToCollectWritesNothing(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	deploymentWithPods(t, s)
	rv := s.ResourceVersion()
	ctx := simtest.Sync(s, New())
	assert.Empty(t, ctx.Log.Records)
	assert.Equal(t, rv, s.ResourceVersion())
}
