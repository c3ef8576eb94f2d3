package store_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

func TestGracefulPodDeletion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		pod       *api.Pod
		opts      store.DeleteOptions
		gone      bool
		graceSecs int64
	}{
		{"bound pod waits its grace period", simtest.NewPod("p", simtest.WithPodNode("node-1")), store.DeleteOptions{}, false, 30},
		{"spec grace period", simtest.NewPod("p", simtest.WithPodNode("node-1"), func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = api.Int64(10) }),
			store.DeleteOptions{}, false, 10},
		{"grace given to delete", simtest.NewPod("p", simtest.WithPodNode("node-1")), store.DeleteOptions{GracePeriodSeconds: api.Int64(5)}, false, 5},
		{"grace 0 goes at once", simtest.NewPod("p", simtest.WithPodNode("node-1")), store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}, true, 0},
		{"spec grace 0 goes at once", simtest.NewPod("p", simtest.WithPodNode("node-1"), func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = api.Int64(0) }),
			store.DeleteOptions{}, true, 0},
		{"unscheduled pods go at once", simtest.NewPod("p"), store.DeleteOptions{}, true, 0},
		{"succeeded pods go at once", simtest.NewPod("p", simtest.WithPodNode("node-1"), simtest.WithPodPhase(api.PodSucceeded)), store.DeleteOptions{}, true, 0},
		{"failed pods go at once", simtest.NewPod("p", simtest.WithPodNode("node-1"), simtest.WithPodPhase(api.PodFailed)), store.DeleteOptions{}, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			created := simtest.MustCreate(t, s, tc.pod)
			simtest.Advance(s, 7*time.Second)
			rv := s.ResourceVersion()
			require.NoError(t, s.Delete(api.KindPod, "", "p", tc.opts))
			got, err := s.GetPod("", "p")
			if tc.gone {
				assert.True(t, errors.Is(err, store.ErrNotFound))
				assert.Equal(t, 0, s.Count(api.KindPod))
				assert.False(t, s.Exists(created.UID))
				return
			}
			require.NoError(t, err)
			require.NotNil(t, got.DeletionTimestamp)
			assert.True(t, got.DeletionTimestamp.Equal(api.NewTime(api.Epoch.Add(7*time.Second+time.Duration(tc.graceSecs)*time.Second))))
			assert.Equal(t, tc.graceSecs, *got.DeletionGracePeriodSeconds)
			assert.Greater(t, s.ResourceVersion(), rv)
			assert.False(t, api.IsPodActive(got))
			assert.Nil(t, created.DeletionTimestamp, "the object handed out before is not changed")
		})
	}
}

func TestDeletingATerminatingPodOnlyShortens(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodNode("node-1")))
	require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{}))
	first, _ := s.GetPod("", "p")
	simtest.Advance(s, 10*time.Second) // 20 s are left

	rv := s.ResourceVersion()
	require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{GracePeriodSeconds: api.Int64(60)}))
	again, _ := s.GetPod("", "p")
	assert.Same(t, first, again, "a longer grace period changes nothing")
	assert.Equal(t, rv, s.ResourceVersion())
	require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{}))
	again, _ = s.GetPod("", "p")
	assert.Same(t, first, again, "the default 30 s is longer than the 20 s left")

	require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{GracePeriodSeconds: api.Int64(5)}))
	shorter, _ := s.GetPod("", "p")
	assert.True(t, shorter.DeletionTimestamp.Equal(api.NewTime(api.Epoch.Add(15*time.Second))))
	assert.Equal(t, int64(5), *shorter.DeletionGracePeriodSeconds)

	require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
	_, err := s.GetPod("", "p")
	assert.True(t, errors.Is(err, store.ErrNotFound), "grace 0 removes a terminating pod (the kubelet's final delete)")
}

func TestUpdateKeepsDeletionTimestamp(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodNode("node-1")))
	require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{}))
	terminating, _ := s.GetPod("", "p")
	edit := terminating.DeepCopy()
	edit.DeletionTimestamp = nil
	edit.Labels = map[string]string{"released": "yes"}
	out, err := s.Update(edit)
	require.NoError(t, err)
	assert.NotNil(t, out.GetObjectMeta().DeletionTimestamp, "an update cannot undo a deletion")
	assert.Equal(t, "yes", out.GetObjectMeta().Labels["released"])
}

func TestDeletePropagation(t *testing.T) {
	t.Parallel()
	setup := func(t *testing.T) (*store.Store, *api.Deployment, *api.ReplicaSet, *api.Pod) {
		s := simtest.NewStore()
		d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
		other := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "owner"}}
		other = simtest.MustCreate(t, s, other)
		rs := simtest.NewReplicaSet("web-1", 1, "nginx", simtest.WithRSOwner(d))
		rs.OwnerReferences = append(rs.OwnerReferences, api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: other.UID})
		rs = simtest.MustCreate(t, s, rs)
		p := simtest.MustCreate(t, s, simtest.NewPod("web-1-abcde", simtest.WithPodOwner(rs)))
		return s, d, rs, p
	}
	t.Run("orphan removes the owner reference", func(t *testing.T) {
		t.Parallel()
		s, d, rs, p := setup(t)
		rv := s.ResourceVersion()
		require.NoError(t, s.Delete(api.KindDeployment, "", "web", store.DeleteOptions{PropagationPolicy: store.DeletePropagationOrphan}))
		got, err := s.GetReplicaSet("", "web-1")
		require.NoError(t, err)
		require.Len(t, got.OwnerReferences, 1, "other owners are kept")
		assert.Equal(t, "ConfigMap", got.OwnerReferences[0].Kind)
		assert.NotEqual(t, rs.ResourceVersion, got.ResourceVersion)
		assert.Len(t, rs.OwnerReferences, 2, "the old object is not changed")
		pod, _ := s.GetPod("", p.Name)
		assert.True(t, api.IsControlledBy(&pod.ObjectMeta, rs.UID), "only dependents of the deleted object lose a reference")
		assert.False(t, s.Exists(d.UID))
		assert.Greater(t, s.ResourceVersion(), rv+1)
	})
	t.Run("orphaning the last owner leaves none", func(t *testing.T) {
		t.Parallel()
		s, _, rs, p := setup(t)
		require.NoError(t, s.Delete(api.KindReplicaSet, "", rs.Name, store.DeleteOptions{PropagationPolicy: store.DeletePropagationOrphan}))
		pod, _ := s.GetPod("", p.Name)
		assert.Nil(t, pod.OwnerReferences)
	})
	for _, policy := range []string{"", store.DeletePropagationBackground, store.DeletePropagationForeground} {
		t.Run("policy "+policy+" leaves dependents to the garbage collector", func(t *testing.T) {
			t.Parallel()
			s, _, rs, _ := setup(t)
			require.NoError(t, s.Delete(api.KindDeployment, "", "web", store.DeleteOptions{PropagationPolicy: policy}))
			got, _ := s.GetReplicaSet("", "web-1")
			assert.Same(t, rs, got)
		})
	}
}

// TestDeleteWhileIterating deletes pods from inside EachPod, as a kubelet
// finishing terminations does, past the point where the collection compacts.
func TestDeleteWhileIterating(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < 300; i++ {
		simtest.MustCreate(t, s, simtest.NewPod("p-"+strconv.Itoa(i)))
	}
	visited := map[string]int{}
	s.EachPod(func(p *api.Pod) bool {
		visited[p.Name]++
		// delete this pod and, every other time, the pod after the next one
		require.NoError(t, s.Delete(api.KindPod, "", p.Name, store.DeleteOptions{}))
		i, _ := strconv.Atoi(p.Name[2:])
		if i%2 == 0 && i+2 < 300 {
			_ = s.Delete(api.KindPod, "", "p-"+strconv.Itoa(i+2), store.DeleteOptions{})
		}
		return true
	})
	for name, n := range visited {
		assert.Equal(t, 1, n, name)
	}
	for i := 0; i < 300; i += 4 {
		assert.Zero(t, visited["p-"+strconv.Itoa(i+2)], "p-%d was deleted before the iteration reached it", i+2)
	}
	assert.Equal(t, 0, s.Count(api.KindPod))
	assert.Empty(t, s.Pods())
	simtest.MustCreate(t, s, simtest.NewPod("after"))
	assert.Len(t, s.Pods(), 1)
}

func TestCompactionKeepsOrderAndIndex(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < 200; i++ {
		simtest.MustCreate(t, s, simtest.NewPod("p-"+strconv.Itoa(i)))
	}
	for i := 0; i < 200; i++ {
		if i%3 != 0 {
			require.NoError(t, s.Delete(api.KindPod, "", "p-"+strconv.Itoa(i), store.DeleteOptions{}))
		}
	}
	pods := s.Pods()
	require.Len(t, pods, 67)
	for j, p := range pods {
		assert.Equal(t, "p-"+strconv.Itoa(3*j), p.Name)
		got, err := s.GetPod("", p.Name)
		require.NoError(t, err)
		assert.Same(t, p, got)
	}
	edit := pods[10].DeepCopy()
	edit.Labels = map[string]string{"a": "b"}
	_, err := s.Update(edit)
	require.NoError(t, err)
	assert.Equal(t, "b", s.Pods()[10].Labels["a"], "an update after compaction replaces the right entry")
}

func TestBind(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	created := simtest.MustCreate(t, s, simtest.NewPod("p"))
	rv := s.ResourceVersion()
	bound, err := s.Bind("", "p", "node-1")
	require.NoError(t, err)
	assert.Equal(t, "node-1", bound.Spec.NodeName)
	assert.Empty(t, created.Spec.NodeName)
	assert.Equal(t, rv+1, s.ResourceVersion())
	got, _ := s.GetPod("", "p")
	assert.Same(t, bound, got)

	_, err = s.Bind("", "p", "node-2")
	assert.EqualError(t, err, `Operation cannot be fulfilled on pods "p": the object has been modified; please apply your changes to the latest version and try again`)
	_, err = s.Bind("", "missing", "node-1")
	assert.EqualError(t, err, `pods "missing" not found`)
}

func TestDeleteOtherKinds(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
	writes := s.Writes()
	require.NoError(t, s.Delete(api.KindNode, "ignored", "node-1", store.DeleteOptions{}))
	assert.Equal(t, 0, s.Count(api.KindNode))
	assert.Equal(t, writes+1, s.Writes())
	assert.EqualError(t, s.Delete("Secret", "", "x", store.DeleteOptions{}), `the server doesn't have a resource type "Secret"`)
}

// TestDeleteWithFinalizers follows the registry's Delete and
// shouldDeleteDuringUpdate (apiserver pkg/registry/generic/registry
// store.go) and deletionFinalizersForGarbageCollection: an object with
// finalizers stays, with a deletionTimestamp, until an update takes the
// last one off; Foreground adds foregroundDeletion; a terminating pod goes
// only once both its grace period and its finalizers are done.
func TestDeleteWithFinalizers(t *testing.T) {
	t.Parallel()
	fg := store.DeleteOptions{PropagationPolicy: store.DeletePropagationForeground}
	dropFinalizers := func(t *testing.T, s *store.Store, kind, name string) {
		t.Helper()
		o, err := s.Get(kind, "default", name)
		require.NoError(t, err)
		next := o.DeepCopyObject()
		next.GetObjectMeta().Finalizers = nil
		_, err = s.Update(next)
		require.NoError(t, err)
	}
	t.Run("foreground keeps a deployment with the finalizer", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
		simtest.Advance(s, 3*time.Second)
		require.NoError(t, s.Delete(api.KindDeployment, "", "web", fg))
		d, err := s.GetDeployment("", "web")
		require.NoError(t, err)
		require.NotNil(t, d.DeletionTimestamp)
		assert.True(t, d.DeletionTimestamp.Equal(api.NewTime(api.Epoch.Add(3*time.Second))))
		assert.Equal(t, int64(0), *d.DeletionGracePeriodSeconds)
		assert.Equal(t, []string{api.FinalizerDeleteDependents}, d.Finalizers)

		rv := s.ResourceVersion()
		require.NoError(t, s.Delete(api.KindDeployment, "", "web", fg), "deleting again is accepted")
		assert.Equal(t, rv, s.ResourceVersion(), "and changes nothing")

		dropFinalizers(t, s, api.KindDeployment, "web")
		_, err = s.GetDeployment("", "web")
		assert.True(t, errors.Is(err, store.ErrNotFound), "the update that takes the last finalizer off removes it")
	})
	t.Run("a user's finalizer holds a background delete", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Finalizers: []string{"example.com/hold"}}}
		simtest.MustCreate(t, s, cm)
		require.NoError(t, s.Delete(api.KindConfigMap, "", "c", store.DeleteOptions{}))
		got, err := s.GetConfigMap("", "c")
		require.NoError(t, err)
		assert.NotNil(t, got.DeletionTimestamp)
		assert.Equal(t, []string{"example.com/hold"}, got.Finalizers)

		next := got.DeepCopy()
		next.Finalizers = append(next.Finalizers, "example.com/more")
		_, err = s.Update(next)
		require.Error(t, err)
		assert.Contains(t, err.Error(), `metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted`)

		dropFinalizers(t, s, api.KindConfigMap, "c")
		assert.Zero(t, s.Count(api.KindConfigMap))
	})
	t.Run("orphan on a foreground delete drops the finalizer and the object", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
		require.NoError(t, s.Delete(api.KindDeployment, "", "web", fg))
		require.NoError(t, s.Delete(api.KindDeployment, "", "web", store.DeleteOptions{PropagationPolicy: store.DeletePropagationOrphan}))
		assert.Zero(t, s.Count(api.KindDeployment))
	})
	t.Run("a foreground-deleted pod waits for its grace period and its finalizer", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodNode("node-1")))
		require.NoError(t, s.Delete(api.KindPod, "", "p", fg))
		p, err := s.GetPod("", "p")
		require.NoError(t, err)
		assert.Equal(t, int64(30), *p.DeletionGracePeriodSeconds)
		assert.Equal(t, []string{api.FinalizerDeleteDependents}, p.Finalizers)

		// The kubelet's final delete: the finalizer still holds it.
		require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
		p, err = s.GetPod("", "p")
		require.NoError(t, err)
		assert.Equal(t, int64(0), *p.DeletionGracePeriodSeconds)
		rv := s.ResourceVersion()
		require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
		assert.Equal(t, rv, s.ResourceVersion(), "a second final delete changes nothing")

		dropFinalizers(t, s, api.KindPod, "p")
		assert.Zero(t, s.Count(api.KindPod))
	})
	t.Run("a terminating pod whose finalizer goes first waits for its kubelet", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodNode("node-1")))
		require.NoError(t, s.Delete(api.KindPod, "", "p", fg))
		dropFinalizers(t, s, api.KindPod, "p")
		p, err := s.GetPod("", "p")
		require.NoError(t, err, "its grace period is not over")
		assert.Empty(t, p.Finalizers)
		require.NoError(t, s.Delete(api.KindPod, "", "p", store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
		assert.Zero(t, s.Count(api.KindPod))
	})
}
