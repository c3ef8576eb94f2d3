package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

func TestNameAndClone(t *testing.T) {
	t.Parallel()
	c := New()
	assert.Equal(t, "replicaset-controller", c.Name())
	clone, ok := c.Clone().(*Controller)
	require.True(t, ok)
	assert.NotSame(t, c.queue, clone.queue, "the clone has its own work queue")
}

func TestSyncWithoutReplicaSetsDoesNothing(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPod("bare"))
	rv := s.ResourceVersion()
	ctx := simtest.Sync(s, New())
	assert.Equal(t, rv, s.ResourceVersion())
	assert.Empty(t, ctx.Log.Records)
}

func TestSecondSyncWritesNothing(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	_, rs := deploymentRS(t, s, "web", "5d9c7b8f4", 3)
	simtest.MustCreate(t, s, simtest.NewReplicaSet("api", 2, "nginx:1.25", simtest.WithRSMinReadySeconds(30)))
	simtest.MustCreate(t, s, simtest.NewPod("bare", simtest.WithPodLabels(map[string]string{"app": "web"})))
	simtest.Sync(s, New())
	for _, p := range podsOf(s, rs)[:2] {
		bound, err := s.Bind(p.Namespace, p.Name, "node-1")
		require.NoError(t, err)
		x := *bound
		x.ResourceVersion = ""
		x.Status.Phase = api.PodRunning
		x.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: s.Now()}}
		_, err = s.UpdateStatus(&x)
		require.NoError(t, err)
	}
	simtest.Advance(s, time.Second)
	simtest.Sync(s, New())
	rv := s.ResourceVersion()
	ctx := simtest.Sync(s, New())
	assert.Equal(t, rv, s.ResourceVersion())
	for _, r := range ctx.Log.Records {
		assert.True(t, r.InSync, "%+v", r)
	}
	assert.Equal(t, "3 pods (2 ready, 2 available)", ctx.RecordFor(t, "replicaset/web-5d9c7b8f4").Observed)
}

func TestReplacementIsCreatedWhenAPodStartsTerminating(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 2, "nginx:1.25"))
	l := map[string]string{"app": "web"}
	a := simtest.MustCreate(t, s, simtest.NewPod("a", simtest.WithPodLabels(l), simtest.WithPodOwner(rs), simtest.WithPodNode("n1"), simtest.WithPodReady(api.Epoch)))
	simtest.MustCreate(t, s, simtest.NewPod("b", simtest.WithPodLabels(l), simtest.WithPodOwner(rs), simtest.WithPodNode("n1"), simtest.WithPodReady(api.Epoch)))
	simtest.Sync(s, New())
	require.NoError(t, s.Delete(api.KindPod, a.Namespace, a.Name, store.DeleteOptions{}))
	require.NotNil(t, simtest.GetPod(t, s, "a").DeletionTimestamp)

	ctx := simtest.Sync(s, New())

	assert.Contains(t, ctx.RecordFor(t, "replicaset/web").Action, "create pod web-")
	assert.Len(t, activePodsOf(s, rs), 2)
	assert.Len(t, podsOf(s, rs), 3, "the terminating pod is still there")
	simtest.Sync(s, New())
	got := simtest.GetReplicaSet(t, s, "web")
	assert.Equal(t, int32(2), got.Status.Replicas)
	assert.Equal(t, int32(1), *got.Status.TerminatingReplicas)
}

func TestAvailabilityWaitsForMinReadySeconds(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 1, "nginx:1.25", simtest.WithRSMinReadySeconds(10)))
	simtest.MustCreate(t, s, simtest.NewPod("a", simtest.WithPodLabels(map[string]string{"app": "web"}), simtest.WithPodOwner(rs),
		simtest.WithPodNode("n1"), simtest.WithPodReady(s.Now().Time)))
	tests := []struct {
		at        time.Duration
		available int32
	}{
		{0, 0}, {9 * time.Second, 0}, {10 * time.Second, 1},
	}
	start := s.Now().Time
	for _, tc := range tests {
		s.Clock().Set(start.Add(tc.at))
		simtest.Sync(s, New())
		got := simtest.GetReplicaSet(t, s, "web")
		assert.Equal(t, int32(1), got.Status.ReadyReplicas, "at %v", tc.at)
		assert.Equal(t, tc.available, got.Status.AvailableReplicas, "at %v", tc.at)
	}
}

func TestObservedGenerationFollowsSpecChanges(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 0, "nginx:1.25"))
	simtest.Sync(s, New())
	assert.Equal(t, int64(1), simtest.GetReplicaSet(t, s, "web").Status.ObservedGeneration)
	x := simtest.GetReplicaSet(t, s, "web").DeepCopy()
	x.Spec.MinReadySeconds = 5
	_, err := s.Update(x)
	require.NoError(t, err)
	require.Equal(t, int64(2), simtest.GetReplicaSet(t, s, "web").Generation)
	simtest.Sync(s, New())
	assert.Equal(t, int64(2), simtest.GetReplicaSet(t, s, "web").Status.ObservedGeneration)
}

func TestInvalidSelectorIsReported(t *testing.T) {
	t.Parallel()
	// Validation keeps such a selector out of the store; the controller
	// still copes with one.
	s := simtest.NewStore()
	rs := simtest.NewReplicaSet("web", 1, "nginx:1.25")
	rs.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}
	states := []rsState{newState(rs)}
	ctx := simtest.Pass{Context: &controller.Context{Store: s, Log: &controller.SyncLog{}}}
	rv := s.ResourceVersion()
	rec, err := syncReplicaSet(ctx.Context, states, 0, nil)
	require.NoError(t, err, "not requeued, as upstream")
	assert.Equal(t, rv, s.ResourceVersion())
	assert.Equal(t, `invalid selector: "Near" is not a valid label selector operator`, rec.Waiting)
}

func TestRecordsNameAtMostFivePods(t *testing.T) {
	t.Parallel()
	tests := []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "create pod a"},
		{[]string{"a", "b", "c"}, "create 3 pods: a, b, c"},
		{[]string{"a", "b", "c", "d", "e"}, "create 5 pods: a, b, c, d, e"},
		{[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}, "create 12 pods: a, b, c, d, e and 7 more"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, nameList("create", tc.names))
		})
	}
}

func TestObservedText(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "1 pod (1 ready, 0 available)", observedText(podCounts{active: 1, ready: 1}))
	assert.Equal(t, "0 pods (0 ready, 0 available), 2 terminating", observedText(podCounts{terminating: 2}))
}

func TestStatusChanged(t *testing.T) {
	t.Parallel()
	base := func() *api.ReplicaSet {
		rs := simtest.NewReplicaSet("web", 1, "nginx")
		rs.Generation = 1
		rs.Status = api.ReplicaSetStatus{Replicas: 1, ObservedGeneration: 1, TerminatingReplicas: api.Int32(0)}
		return rs
	}
	same := base().Status
	tests := []struct {
		name   string
		mutate func(rs *api.ReplicaSet, next *api.ReplicaSetStatus)
		want   bool
	}{
		{"same", func(*api.ReplicaSet, *api.ReplicaSetStatus) {}, false},
		{"empty and nil conditions are equal", func(rs *api.ReplicaSet, _ *api.ReplicaSetStatus) {
			rs.Status.Conditions = []api.ReplicaSetCondition{}
		}, false},
		{"replicas", func(_ *api.ReplicaSet, n *api.ReplicaSetStatus) { n.Replicas = 2 }, true},
		{"terminating appears", func(rs *api.ReplicaSet, _ *api.ReplicaSetStatus) { rs.Status.TerminatingReplicas = nil }, true},
		{"generation moved", func(rs *api.ReplicaSet, _ *api.ReplicaSetStatus) { rs.Generation = 2 }, true},
		{"condition added", func(_ *api.ReplicaSet, n *api.ReplicaSetStatus) {
			n.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaSetReplicaFailure}}
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := base()
			next := same
			tc.mutate(rs, &next)
			assert.Equal(t, tc.want, statusChanged(rs, next))
		})
	}
}

var _ controller.Controller = New()
