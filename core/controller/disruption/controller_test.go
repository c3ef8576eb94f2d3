package disruption

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// status is VerifyPdbStatus' columns: disruptionsAllowed, currentHealthy,
// desiredHealthy, expectedPods.
type status struct{ allowed, healthy, desired, expected int32 }

func statusOf(t *testing.T, s *store.Store, name string) status {
	t.Helper()
	o, err := s.Get(api.KindPodDisruptionBudget, "default", name)
	require.NoError(t, err)
	st := o.(*api.PodDisruptionBudget).Status
	return status{st.DisruptionsAllowed, st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods}
}

var labelsFooBar = map[string]string{"foo": "bar"}

// readyPod is the upstream tests' newPod: labelled foo=bar, Ready.
func readyPod(t *testing.T, s *store.Store, name string, opts ...simtest.PodOption) *api.Pod {
	t.Helper()
	opts = append([]simtest.PodOption{simtest.WithPodLabels(labelsFooBar), simtest.WithPodNode("node-1"), simtest.WithPodReady(api.Epoch)}, opts...)
	return simtest.MustCreate(t, s, simtest.NewPod(name, opts...))
}

func rs(t *testing.T, s *store.Store, name string, replicas int32, owner api.Object) *api.ReplicaSet {
	t.Helper()
	opts := []simtest.ReplicaSetOption{simtest.WithRSLabels(labelsFooBar)}
	if owner != nil {
		opts = append(opts, simtest.WithRSOwner(owner))
	}
	return simtest.MustCreate(t, s, simtest.NewReplicaSet(name, replicas, "nginx", opts...))
}

func sync(t *testing.T, s *store.Store) {
	t.Helper()
	simtest.Sync(s, New())
}

// The tests below port pkg/controller/disruption disruption_test.go, one
// test each, with ReplicaSets where upstream uses ReplicationControllers
// or StatefulSets (the same scale rule).

func TestNoSelector(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	pdb := simtest.NewPDB("pdb", nil, "3", "")
	pdb.Spec.Selector = &api.LabelSelector{}
	simtest.MustCreate(t, s, pdb)
	sync(t, s)
	assert.Equal(t, status{0, 0, 3, 0}, statusOf(t, s, "pdb"))
	readyPod(t, s, "yo-yo-yo")
	sync(t, s)
	assert.Equal(t, status{0, 1, 3, 1}, statusOf(t, s, "pdb"), "an empty selector matches every pod")
}

func TestNilSelectorMatchesNothing(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", nil, "1", ""))
	readyPod(t, s, "a")
	sync(t, s)
	assert.Equal(t, status{0, 0, 1, 0}, statusOf(t, s, "pdb"))
}

func TestUnavailable(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "3", ""))
	sync(t, s)
	var pods []*api.Pod
	for i := int32(0); i < 4; i++ {
		assert.Equal(t, status{0, i, 3, i}, statusOf(t, s, "pdb"))
		pods = append(pods, readyPod(t, s, fmt.Sprintf("yo-yo-yo-%d", i)))
		sync(t, s)
	}
	assert.Equal(t, status{1, 4, 3, 4}, statusOf(t, s, "pdb"))
	p := pods[0].DeepCopy()
	p.Status.Conditions = nil
	_, err := s.UpdateStatus(p)
	require.NoError(t, err)
	sync(t, s)
	assert.Equal(t, status{0, 3, 3, 4}, statusOf(t, s, "pdb"))
}

func TestIntegerMaxUnavailable(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "", "1"))
	sync(t, s)
	assert.Equal(t, int32(0), statusOf(t, s, "pdb").allowed, "no pod, no disruption")
	readyPod(t, s, "naked")
	sync(t, s)
	assert.Equal(t, int32(0), statusOf(t, s, "pdb").allowed, "a pod without a controller expects nothing")
}

func TestIntegerMaxUnavailableWithScaling(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "", "2"))
	r := rs(t, s, "rs", 7, nil)
	readyPod(t, s, "pod", simtest.WithPodOwner(r))
	sync(t, s)
	assert.Equal(t, status{0, 1, 5, 7}, statusOf(t, s, "pdb"))
	next := r.DeepCopy()
	next.Spec.Replicas = api.Int32(5)
	_, err := s.Update(next)
	require.NoError(t, err)
	sync(t, s)
	assert.Equal(t, status{0, 1, 3, 5}, statusOf(t, s, "pdb"))
}

func TestPercentageMaxUnavailableWithScaling(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "", "30%"))
	r := rs(t, s, "rs", 7, nil)
	readyPod(t, s, "pod", simtest.WithPodOwner(r))
	sync(t, s)
	assert.Equal(t, status{0, 1, 4, 7}, statusOf(t, s, "pdb"), "30% of 7 rounds up to 3")
	next := r.DeepCopy()
	next.Spec.Replicas = api.Int32(3)
	_, err := s.Update(next)
	require.NoError(t, err)
	sync(t, s)
	assert.Equal(t, status{0, 1, 2, 3}, statusOf(t, s, "pdb"), "30% of 3 rounds up to 1")
}

func TestNakedPod(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "28%", ""))
	sync(t, s)
	readyPod(t, s, "naked")
	ctx := simtest.Sync(s, New())
	assert.Equal(t, int32(0), statusOf(t, s, "pdb").allowed)
	require.Len(t, ctx.Emitted, 1, "TestStatusForUnmanagedPod: an event, no sync error")
	assert.Equal(t, ReasonUnmanagedPods, ctx.Emitted[0].Reason)
	assert.Contains(t, ctx.Emitted[0].Message, "(selector: &LabelSelector{MatchLabels:map[string]string{foo: bar,},MatchExpressions:[]LabelSelectorRequirement{},})")
}

func TestReplicaSet(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "20%", ""))
	r := rs(t, s, "rs", 10, nil)
	readyPod(t, s, "pod", simtest.WithPodOwner(r))
	sync(t, s)
	assert.Equal(t, status{0, 1, 2, 10}, statusOf(t, s, "pdb"))
}

// TestReplicationController: 34% of 3 rounds up to 2; a rogue pod without
// a controller is counted healthy but expected by no one.
func TestReplicationController(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "34%", ""))
	r := rs(t, s, "rs", 3, nil)
	sync(t, s)
	assert.Equal(t, status{0, 0, 0, 0}, statusOf(t, s, "pdb"), "with no pods the budget knows of no controller")
	for i := int32(0); i < 3; i++ {
		readyPod(t, s, fmt.Sprintf("foobar-%d", i), simtest.WithPodOwner(r))
		sync(t, s)
		if i < 2 {
			assert.Equal(t, status{0, i + 1, 2, 3}, statusOf(t, s, "pdb"))
		} else {
			assert.Equal(t, status{1, 3, 2, 3}, statusOf(t, s, "pdb"))
		}
	}
	readyPod(t, s, "rogue")
	sync(t, s)
	assert.Equal(t, int32(2), statusOf(t, s, "pdb").allowed)
}

// TestTwoControllers: a ReplicaSet of 11 and a Deployment of 11 (through
// its ReplicaSet) under one 28% budget: 4 of 11, then 7 of 22.
func TestTwoControllers(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	const collectionSize, minimumOne, minimumTwo = 11, 4, 7
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "28%", ""))
	r := rs(t, s, "rc", collectionSize, nil)
	sync(t, s)
	assert.Equal(t, status{0, 0, 0, 0}, statusOf(t, s, "pdb"))
	unavailable := int32(collectionSize - minimumOne - 1)
	for i := int32(1); i <= collectionSize; i++ {
		opts := []simtest.PodOption{simtest.WithPodOwner(r)}
		p := readyPod(t, s, fmt.Sprintf("quux-%d", i), opts...)
		if i <= unavailable {
			x := p.DeepCopy()
			x.Status.Conditions = nil
			_, err := s.UpdateStatus(x)
			require.NoError(t, err)
		}
		sync(t, s)
		switch {
		case i <= unavailable:
			assert.Equal(t, status{0, 0, minimumOne, collectionSize}, statusOf(t, s, "pdb"))
		case i-unavailable <= minimumOne:
			assert.Equal(t, status{0, i - unavailable, minimumOne, collectionSize}, statusOf(t, s, "pdb"))
		default:
			assert.Equal(t, status{1, i - unavailable, minimumOne, collectionSize}, statusOf(t, s, "pdb"))
		}
	}
	d := simtest.MustCreate(t, s, simtest.NewDeployment("d", collectionSize, "nginx", func(d *api.Deployment) {
		d.Spec.Selector.MatchLabels = map[string]string{"foo": "bar", "baz": "quuux"}
		d.Spec.Template.Labels = map[string]string{"foo": "bar", "baz": "quuux"}
	}))
	drs := simtest.MustCreate(t, s, simtest.NewReplicaSet("d-rs", collectionSize, "nginx",
		simtest.WithRSLabels(map[string]string{"foo": "bar", "baz": "quuux"}), simtest.WithRSOwner(d)))
	sync(t, s)
	assert.Equal(t, status{1, minimumOne + 1, minimumOne, collectionSize}, statusOf(t, s, "pdb"), "a controller without pods counts for nothing")
	for i := int32(1); i <= collectionSize; i++ {
		p := readyPod(t, s, fmt.Sprintf("quuux-%d", i), simtest.WithPodOwner(drs), simtest.WithPodLabels(map[string]string{"foo": "bar", "baz": "quuux"}))
		if i <= unavailable {
			x := p.DeepCopy()
			x.Status.Conditions = nil
			_, err := s.UpdateStatus(x)
			require.NoError(t, err)
		}
		sync(t, s)
		healthy := minimumOne + 1 + max(0, i-unavailable)
		allowed := max(0, healthy-minimumTwo)
		assert.Equal(t, status{allowed, healthy, minimumTwo, 2 * collectionSize}, statusOf(t, s, "pdb"), "pod %d", i)
	}
}

// TestDisruptedPods ports TestUpdateDisruptedPods: an evicted pod stays
// out of currentHealthy until it is deleted or DeletionTimeout passes.
func TestDisruptedPods(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "1", ""))
	readyPod(t, s, "p1")
	readyPod(t, s, "p2")
	readyPod(t, s, "p3")
	sync(t, s)
	o, _ := s.Get(api.KindPodDisruptionBudget, "default", "pdb")
	next := o.(*api.PodDisruptionBudget).DeepCopy()
	now := s.Now()
	old := api.NewTime(now.Add(-3 * time.Minute))
	next.Status.DisruptedPods = map[string]api.Time{"p1": now, "p2": old, "gone": now}
	_, err := s.UpdateStatus(next)
	require.NoError(t, err)
	sync(t, s)
	o, _ = s.Get(api.KindPodDisruptionBudget, "default", "pdb")
	got := o.(*api.PodDisruptionBudget)
	assert.Equal(t, []string{"p1"}, got.DisruptedPodNames(), "the stale and the unknown entries go")
	assert.Equal(t, status{1, 2, 1, 3}, statusOf(t, s, "pdb"))
}

// TestConditions: DisruptionAllowed follows disruptionsAllowed
// (UpdateDisruptionAllowedCondition), and a missing controller fails the
// sync safe (failSafe).
func TestConditions(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "50%", ""))
	r := rs(t, s, "rs", 2, nil)
	readyPod(t, s, "a", simtest.WithPodOwner(r))
	readyPod(t, s, "b", simtest.WithPodOwner(r))
	sync(t, s)
	cond := func() api.Condition {
		o, _ := s.Get(api.KindPodDisruptionBudget, "default", "pdb")
		c := api.FindCondition(o.(*api.PodDisruptionBudget).Status.Conditions, api.DisruptionAllowedCondition)
		require.NotNil(t, c)
		return *c
	}
	assert.Equal(t, api.Condition{Type: "DisruptionAllowed", Status: "True", ObservedGeneration: 1,
		LastTransitionTime: api.NewTime(api.Epoch), Reason: "SufficientPods"}, cond())
	rv := s.ResourceVersion()
	sync(t, s)
	assert.Equal(t, rv, s.ResourceVersion(), "a settled budget is not written again")

	orphan := simtest.NewPod("c", simtest.WithPodLabels(labelsFooBar), simtest.WithPodReady(api.Epoch),
		simtest.WithPodOwnerRef(api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "missing", UID: "uid-missing", Controller: api.Bool(true)}))
	simtest.MustCreate(t, s, orphan)
	simtest.Advance(s, time.Second)
	sync(t, s)
	c := cond()
	assert.Equal(t, "False", c.Status)
	assert.Equal(t, "SyncFailed", c.Reason)
	assert.Equal(t, `found no controllers for pod "c"`, c.Message)
	assert.Equal(t, int32(0), statusOf(t, s, "pdb").allowed)
}

// TestNotDeletedEvent: a pod evicted more than DeletionTimeout ago that is
// still not being deleted leaves disruptedPods with a NotDeleted event on
// the pod, in upstream's words (buildDisruptedPodMap, which names the
// budget's namespace twice). Found by tools/k8sdiff (TestDiffPDB).
func TestNotDeletedEvent(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "1", ""))
	readyPod(t, s, "p1")
	readyPod(t, s, "p2")
	sync(t, s)
	o, _ := s.Get(api.KindPodDisruptionBudget, "default", "pdb")
	next := o.(*api.PodDisruptionBudget).DeepCopy()
	next.Status.DisruptedPods = map[string]api.Time{"p1": api.NewTime(s.Now().Add(-DeletionTimeout - time.Second))}
	_, err := s.UpdateStatus(next)
	require.NoError(t, err)
	pass := simtest.Sync(s, New())
	require.Len(t, pass.Emitted, 1)
	assert.Equal(t, store.EmittedEvent{Type: "Warning", Reason: "NotDeleted", Object: "pod/p1", Source: EventSource,
		Message: "Pod was expected by PDB default/default to be deleted but it wasn't"}, pass.Emitted[0])
	assert.Empty(t, statusOfPDB(t, s).DisruptedPods)
}

func statusOfPDB(t *testing.T, s *store.Store) api.PodDisruptionBudgetStatus {
	t.Helper()
	o, err := s.Get(api.KindPodDisruptionBudget, "default", "pdb")
	require.NoError(t, err)
	return o.(*api.PodDisruptionBudget).Status
}

// TestReplicaSetOfAGoneDeployment: a ReplicaSet whose controlling
// Deployment no longer exists is counted at its own scale, as upstream's
// last finder (getScaleController, the scale subresource) finds it; the
// sync does not fail. Found by tools/k8sdiff (TestDiffPDB).
func TestReplicaSetOfAGoneDeployment(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPDB("pdb", labelsFooBar, "50%", ""))
	r := simtest.NewReplicaSet("rs", 4, "nginx", simtest.WithRSLabels(labelsFooBar))
	r.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "gone", UID: "uid-gone", Controller: api.Bool(true)}}
	r = simtest.MustCreate(t, s, r)
	readyPod(t, s, "a", simtest.WithPodOwner(r))
	readyPod(t, s, "b", simtest.WithPodOwner(r))
	readyPod(t, s, "c", simtest.WithPodOwner(r))
	sync(t, s)
	assert.Equal(t, status{1, 3, 2, 4}, statusOf(t, s, "pdb"))
	c := api.FindCondition(statusOfPDB(t, s).Conditions, api.DisruptionAllowedCondition)
	require.NotNil(t, c)
	assert.Equal(t, "SufficientPods", c.Reason)
}
