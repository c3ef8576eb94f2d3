package gc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// foreground deletes web in the foreground, as `kubectl delete deployment
// web --cascade=foreground` does.
func foreground(t *testing.T, s *store.Store, kind, name string) {
	t.Helper()
	require.NoError(t, s.Delete(kind, "default", name, store.DeleteOptions{PropagationPolicy: store.DeletePropagationForeground}))
}

// TestForegroundDeletionOfADeployment follows upstream's e2e test "should
// delete RS created by deployment when not orphaning" in its foreground
// form (test/e2e/apimachinery/garbage_collector.go) through
// attemptToDeleteItem and processDeletingDependentsItem: the Deployment
// stays with its deletionTimestamp and the foregroundDeletion finalizer;
// its ReplicaSet, which has pods, is deleted in the foreground in turn; the
// pods terminate; once they are gone the ReplicaSet's finalizer and then
// the Deployment's come off, and both go.
func TestForegroundDeletionOfADeployment(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d, rs, pods := deploymentWithPods(t, s)
	foreground(t, s, api.KindDeployment, d.Name)

	got, err := s.GetDeployment("default", "web")
	require.NoError(t, err, "the owner stays while its dependents exist")
	require.NotNil(t, got.DeletionTimestamp)
	assert.Equal(t, []string{api.FinalizerDeleteDependents}, got.Finalizers)

	ctx := simtest.Sync(s, New())
	assert.Equal(t, []string{
		"replicaset/web-5d9c7b8f4: delete replica set web-5d9c7b8f4 in the foreground: owner deployment/web is being deleted in the foreground",
		"pod/web-5d9c7b8f4-aaaaa: delete pod web-5d9c7b8f4-aaaaa: owner replicaset/web-5d9c7b8f4 is being deleted in the foreground",
		"pod/web-5d9c7b8f4-bbbbb: delete pod web-5d9c7b8f4-bbbbb: owner replicaset/web-5d9c7b8f4 is being deleted in the foreground",
		"pod/web-5d9c7b8f4-ccccc: delete pod web-5d9c7b8f4-ccccc: owner replicaset/web-5d9c7b8f4 is being deleted in the foreground",
		"replicaset/web-5d9c7b8f4: waiting for 2 dependents (pod/web-5d9c7b8f4-aaaaa, pod/web-5d9c7b8f4-bbbbb) to be deleted before replica set web-5d9c7b8f4 (foreground deletion)",
		"deployment/web: waiting for replicaset/web-5d9c7b8f4 to be deleted before deployment web (foreground deletion)",
	}, actions(t, ctx))
	gotRS, err := s.GetReplicaSet("default", rs.Name)
	require.NoError(t, err)
	assert.True(t, gotRS.IsDeletingDependents(), "the ReplicaSet waits for its pods in turn")
	for _, p := range pods[:2] {
		gp, err := s.GetPod("default", p.Name)
		require.NoError(t, err)
		assert.NotNil(t, gp.DeletionTimestamp, "bound pods terminate gracefully")
		assert.Empty(t, gp.Finalizers)
	}

	rv := s.ResourceVersion()
	ctx = simtest.Sync(s, New())
	assert.Equal(t, rv, s.ResourceVersion(), "nothing to do while the pods terminate")
	assert.Len(t, ctx.Log.Records, 2, "the two waits")

	// The kubelet removes the terminated pods.
	simtest.Advance(s, 30*time.Second)
	for _, p := range pods[:2] {
		require.NoError(t, s.Delete(api.KindPod, "default", p.Name, store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
	}
	ctx = simtest.Sync(s, New())
	assert.Equal(t, []string{
		"replicaset/web-5d9c7b8f4: remove the foregroundDeletion finalizer of replica set web-5d9c7b8f4: no dependent blocks its deletion any more",
		"deployment/web: remove the foregroundDeletion finalizer of deployment web: no dependent blocks its deletion any more",
	}, actions(t, ctx), "dependents first: the ReplicaSet's removal frees the Deployment in the same pass")
	assert.False(t, s.Exists(rs.UID))
	assert.False(t, s.Exists(d.UID))
	assert.Zero(t, s.Count(api.KindReplicaSet)+s.Count(api.KindDeployment)+s.Count(api.KindPod))
}

// TestAttemptToDeleteItem ports the branches of garbagecollector.go
// attemptToDeleteItem, one row each (the first is garbagecollector_test.go
// TestAttemptToDeleteItem: a pod whose owner is not found is deleted).
func TestAttemptToDeleteItem(t *testing.T) {
	t.Parallel()
	ref := func(o api.Object, block bool) api.OwnerReference {
		r := api.NewControllerRef(o)
		r.BlockOwnerDeletion = api.Bool(block)
		return r
	}
	tests := []struct {
		name string
		// setup returns the item (a pod) to attempt.
		setup   func(t *testing.T, s *store.Store) *api.Pod
		actions []string
		// refs are the item's owner names after the pass, nil when it is being deleted.
		refs       []string
		deleted    bool
		finalizers []string
	}{
		{"owner not found: deleted", func(t *testing.T, s *store.Store) *api.Pod {
			return simtest.MustCreate(t, s, simtest.NewPod("to-be-deleted-pod", simtest.WithPodOwnerRef(api.OwnerReference{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "owner1", UID: "123"})))
		}, []string{"pod/to-be-deleted-pod: delete pod to-be-deleted-pod: owner replicaset/owner1 is gone"}, nil, true, nil},
		{"solid owner: left alone", func(t *testing.T, s *store.Store) *api.Pod {
			rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("rs", 1, "nginx"))
			return simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodOwnerRef(ref(rs, true))))
		}, nil, []string{"rs"}, false, nil},
		{"solid and waiting owners: the waiting reference is removed", func(t *testing.T, s *store.Store) *api.Pod {
			keep := simtest.MustCreate(t, s, simtest.NewReplicaSet("keep", 1, "nginx"))
			goes := simtest.MustCreate(t, s, simtest.NewReplicaSet("goes", 1, "nginx"))
			other := ref(keep, false)
			other.Controller = nil
			p := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodOwnerRef(ref(goes, true)), simtest.WithPodOwnerRef(other)))
			foreground(t, s, api.KindReplicaSet, "goes")
			return p
		}, []string{"replicaset/goes: remove the foregroundDeletion finalizer of replica set goes: no dependent blocks its deletion any more"},
			[]string{"keep"}, false, nil},
		{"waiting owner, no dependents: deleted in the background", func(t *testing.T, s *store.Store) *api.Pod {
			rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("rs", 1, "nginx"))
			p := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodOwnerRef(ref(rs, true))))
			foreground(t, s, api.KindReplicaSet, "rs")
			return p
		}, []string{
			"pod/p: delete pod p: owner replicaset/rs is being deleted in the foreground",
			"replicaset/rs: remove the foregroundDeletion finalizer of replica set rs: no dependent blocks its deletion any more",
		}, nil, true, nil},
		{"waiting owner, with dependents: deleted in the foreground", func(t *testing.T, s *store.Store) *api.Pod {
			rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("rs", 1, "nginx"))
			p := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodOwnerRef(ref(rs, true))))
			simtest.MustCreate(t, s, simtest.NewPod("child", simtest.WithPodOwnerRef(ref(p, true)), simtest.WithPodNode("node-1")))
			foreground(t, s, api.KindReplicaSet, "rs")
			return p
		}, []string{
			"pod/p: delete pod p in the foreground: owner replicaset/rs is being deleted in the foreground",
			"pod/p: waiting for pod/child to be deleted before pod p (foreground deletion)",
			"replicaset/rs: waiting for pod/p to be deleted before replica set rs (foreground deletion)",
		}, nil, false, []string{api.FinalizerDeleteDependents}},
		{"owner gone, own orphan finalizer: deleted with Orphan", func(t *testing.T, s *store.Store) *api.Pod {
			p := simtest.NewPod("p", simtest.WithPodOwnerRef(api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "gone", UID: "uid-gone"}))
			p.Finalizers = []string{api.FinalizerOrphanDependents}
			p = simtest.MustCreate(t, s, p)
			simtest.MustCreate(t, s, simtest.NewPod("child", simtest.WithPodOwnerRef(ref(p, true))))
			return p
		}, []string{"pod/p: delete pod p: owner replicaset/gone is gone"}, nil, true, nil},
		{"owner gone, own foregroundDeletion finalizer: deleted in the foreground", func(t *testing.T, s *store.Store) *api.Pod {
			p := simtest.NewPod("p", simtest.WithPodOwnerRef(api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "gone", UID: "uid-gone"}))
			p.Finalizers = []string{api.FinalizerDeleteDependents}
			p = simtest.MustCreate(t, s, p)
			simtest.MustCreate(t, s, simtest.NewPod("child", simtest.WithPodOwnerRef(ref(p, true)), simtest.WithPodNode("node-1")))
			return p
		}, []string{
			"pod/p: delete pod p in the foreground: owner replicaset/gone is gone",
			"pod/p: waiting for pod/child to be deleted before pod p (foreground deletion)",
		}, nil, false, []string{api.FinalizerDeleteDependents}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
			item := tc.setup(t, s)
			ctx := simtest.Sync(s, New())
			assert.Equal(t, tc.actions, actions(t, ctx))
			got, err := s.GetPod("default", item.Name)
			if tc.deleted {
				assert.Error(t, err, "deleted")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.finalizers, got.Finalizers)
			if tc.refs == nil {
				assert.NotNil(t, got.DeletionTimestamp)
				return
			}
			var names []string
			for _, r := range got.OwnerReferences {
				names = append(names, r.Name)
			}
			assert.Equal(t, tc.refs, names)
			assert.Nil(t, got.DeletionTimestamp)
		})
	}
}

// TestProcessDeletingDependentsItem: only dependents whose reference
// blocks the owner's deletion (blockOwnerDeletion: true) keep it; the
// others are deleted too, but the owner does not wait for them.
func TestProcessDeletingDependentsItem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		block bool
		stays bool
	}{
		{"a blocking dependent keeps the owner", true, true},
		{"a non-blocking dependent does not", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
			rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("rs", 1, "nginx"))
			r := api.NewControllerRef(rs)
			r.BlockOwnerDeletion = api.Bool(tc.block)
			p := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodOwnerRef(r), simtest.WithPodNode("node-1")))
			foreground(t, s, api.KindReplicaSet, "rs")
			simtest.Sync(s, New())
			assert.Equal(t, tc.stays, s.Exists(rs.UID))
			got, err := s.GetPod("default", p.Name)
			require.NoError(t, err)
			assert.NotNil(t, got.DeletionTimestamp, "the pod is deleted either way, and terminates")
		})
	}
}

// TestForegroundDeletionOfAnObjectWithoutDependents: the finalizer comes
// off in the next pass and the object goes.
func TestForegroundDeletionOfAnObjectWithoutDependents(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	foreground(t, s, api.KindDeployment, "web")
	require.True(t, s.Exists(d.UID))
	ctx := simtest.Sync(s, New())
	assert.Equal(t, []string{"deployment/web: remove the foregroundDeletion finalizer of deployment web: no dependent blocks its deletion any more"}, actions(t, ctx))
	assert.False(t, s.Exists(d.UID))
}

// TestOrphanStillWorksAlongsideForeground: --cascade=orphan leaves the
// ReplicaSet and its pods, without the reference.
func TestOrphanStillWorksAlongsideForeground(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d, rs, pods := deploymentWithPods(t, s)
	require.NoError(t, s.Delete(api.KindDeployment, "default", d.Name, store.DeleteOptions{PropagationPolicy: store.DeletePropagationOrphan}))
	assert.False(t, s.Exists(d.UID), "an orphaning delete does not wait")
	simtest.Sync(s, New())
	got, err := s.GetReplicaSet("default", rs.Name)
	require.NoError(t, err)
	assert.Nil(t, got.OwnerReferences)
	assert.Nil(t, got.DeletionTimestamp)
	for _, p := range pods {
		assert.True(t, s.Exists(p.UID))
	}
}

// TestOutOfServiceNode ports podgc gc_controller_test.go
// TestGCTerminating's rows: a terminating pod is force-deleted (and marked
// Failed) only on a node that is not Ready and has the out-of-service
// taint.
func TestOutOfServiceNode(t *testing.T) {
	t.Parallel()
	taint := simtest.WithNodeTaint(api.TaintNodeOutOfService, "nodeshutdown", api.TaintEffectNoExecute)
	tests := []struct {
		name        string
		node        *api.Node
		terminating bool
		deleted     bool
	}{
		{"not ready, tainted, terminating", simtest.NewNodeWith("n", "4", "8Gi", 110, simtest.WithNodeNotReady("False"), taint), true, true},
		{"not ready (unknown), tainted, terminating", simtest.NewNodeWith("n", "4", "8Gi", 110, simtest.WithNodeNotReady("Unknown"), taint), true, true},
		{"ready, tainted, terminating", simtest.NewNodeWith("n", "4", "8Gi", 110, taint), true, false},
		{"not ready, not tainted, terminating", simtest.NewNodeWith("n", "4", "8Gi", 110, simtest.WithNodeNotReady("False")), true, false},
		{"not ready, tainted, running", simtest.NewNodeWith("n", "4", "8Gi", 110, simtest.WithNodeNotReady("False"), taint), false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			simtest.MustCreate(t, s, tc.node)
			p := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodNode("n"), simtest.WithPodReady(api.Epoch)))
			if tc.terminating {
				require.NoError(t, s.Delete(api.KindPod, "default", "p", store.DeleteOptions{}))
			}
			ctx := simtest.Sync(s, New())
			assert.Equal(t, !tc.deleted, s.Exists(p.UID))
			if tc.deleted {
				assert.Equal(t, []string{"pod/p: force-delete pod p: node n is out of service"}, actions(t, ctx))
			} else {
				assert.Empty(t, ctx.Log.Records)
			}
		})
	}
}
