package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

func TestBarePodWithoutHashIsNotAdoptedByDeploymentRS(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	_, rs := deploymentRS(t, s, "web", "5d9c7b8f4", 1)
	bare := simtest.MustCreate(t, s, simtest.NewPod("bare", simtest.WithPodLabels(map[string]string{"app": "web"}),
		simtest.WithPodNode("node-1"), simtest.WithPodReady(api.Epoch)))

	ctx := simtest.Sync(s, New())

	assert.Nil(t, api.GetControllerOf(&simtest.GetPod(t, s, bare.Name).ObjectMeta), "the bare pod stays unowned")
	require.Len(t, podsOf(s, rs), 1, "the RS creates its own pod")
	assert.Contains(t, ctx.RecordFor(t, "replicaset/web-5d9c7b8f4").Action, "create pod web-5d9c7b8f4-")
}

func TestMatchingOrphanIsAdoptedAndMayBeDeleted(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	_, rs := deploymentRS(t, s, "web", "5d9c7b8f4", 1)
	l := rs.Spec.Template.Labels
	mine := simtest.MustCreate(t, s, simtest.NewPod("mine", simtest.WithPodLabels(l), simtest.WithPodOwner(rs),
		simtest.WithPodNode("node-1"), simtest.WithPodReady(api.Epoch)))
	stray := simtest.MustCreate(t, s, simtest.NewPod("stray", simtest.WithPodLabels(l), simtest.WithPodNode("node-2"),
		simtest.WithPodPhase(api.PodRunning)))

	ctx := simtest.Sync(s, New())

	rec := ctx.RecordFor(t, "replicaset/web-5d9c7b8f4")
	assert.Equal(t, "adopt pod stray; delete pod stray", rec.Action, "the adopted pod is not ready, so it goes first")
	got := simtest.GetPod(t, s, stray.Name)
	assert.True(t, api.IsControlledBy(&got.ObjectMeta, rs.UID))
	assert.NotNil(t, got.DeletionTimestamp)
	assert.Nil(t, simtest.GetPod(t, s, mine.Name).DeletionTimestamp)
	assert.Equal(t, "2 pods (1 ready, 1 available)", rec.Observed)
}

func TestPodsOwnedByAnotherControllerAreNeverStolen(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	other := simtest.MustCreate(t, s, simtest.NewReplicaSet("other", 1, "nginx:1.25"))
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 1, "nginx:1.25",
		simtest.WithRSLabels(map[string]string{"app": "other"})))
	theirs := simtest.MustCreate(t, s, simtest.NewPod("theirs", simtest.WithPodLabels(map[string]string{"app": "other"}),
		simtest.WithPodOwner(other)))

	simtest.Sync(s, New())

	got := simtest.GetPod(t, s, theirs.Name)
	assert.True(t, api.IsControlledBy(&got.ObjectMeta, other.UID))
	assert.Len(t, podsOf(s, rs), 1, "web makes its own pod")
	assert.Len(t, podsOf(s, other), 1, "other keeps its one pod")
}

func TestRelabelledPodIsReleasedAndReplaced(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 1, "nginx:1.25"))
	p := simtest.MustCreate(t, s, simtest.NewPod("debug-me", simtest.WithPodLabels(map[string]string{"app": "debug"}),
		simtest.WithPodOwner(rs), simtest.WithPodOwnerRef(api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", UID: "cm-uid"})))

	ctx := simtest.Sync(s, New())

	got := simtest.GetPod(t, s, p.Name)
	assert.Nil(t, api.GetControllerOf(&got.ObjectMeta))
	assert.Equal(t, []api.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", UID: "cm-uid"}}, got.OwnerReferences,
		"only the ReplicaSet's reference goes")
	rec := ctx.RecordFor(t, "replicaset/web")
	assert.Contains(t, rec.Action, "release pod debug-me; create pod web-")
	assert.Len(t, podsOf(s, rs), 1)
}

func TestReleaseOfOnlyOwnerLeavesNoReferences(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 0, "nginx:1.25"))
	p := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodLabels(map[string]string{"app": "x"}), simtest.WithPodOwner(rs)))
	simtest.Sync(s, New())
	assert.Nil(t, simtest.GetPod(t, s, p.Name).OwnerReferences)
}

func TestOrphanMatchingTwoReplicaSetsGoesToTheOlder(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	first := simtest.MustCreate(t, s, simtest.NewReplicaSet("first", 1, "nginx:1.25",
		simtest.WithRSLabels(map[string]string{"app": "web"})))
	second := simtest.MustCreate(t, s, simtest.NewReplicaSet("second", 1, "nginx:1.25",
		simtest.WithRSLabels(map[string]string{"app": "web"})))
	orphan := simtest.MustCreate(t, s, simtest.NewPod("orphan", simtest.WithPodLabels(map[string]string{"app": "web"})))

	ctx := simtest.Sync(s, New())

	assert.True(t, api.IsControlledBy(&simtest.GetPod(t, s, orphan.Name).ObjectMeta, first.UID))
	assert.Equal(t, "adopt pod orphan", ctx.RecordFor(t, "replicaset/first").Action)
	assert.Contains(t, ctx.RecordFor(t, "replicaset/second").Action, "create pod second-")
	assert.Len(t, podsOf(s, second), 1)
}

func TestInactiveOrphansAndOtherNamespacesAreNotAdopted(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 0, "nginx:1.25"))
	l := map[string]string{"app": "web"}
	done := simtest.MustCreate(t, s, simtest.NewPod("done", simtest.WithPodLabels(l), simtest.WithPodPhase(api.PodSucceeded)))
	elsewhere := simtest.NewPod("elsewhere", simtest.WithPodLabels(l))
	elsewhere.Namespace = "other"
	elsewhere = simtest.MustCreate(t, s, elsewhere)
	leaving := simtest.MustCreate(t, s, simtest.NewPod("leaving", simtest.WithPodLabels(l), simtest.WithPodNode("node-1")))
	_ = s.Delete(api.KindPod, leaving.Namespace, leaving.Name, store.DeleteOptions{})

	ctx := simtest.Sync(s, New())

	for _, p := range []*api.Pod{done, leaving} {
		assert.Nil(t, api.GetControllerOf(&simtest.GetPod(t, s, p.Name).ObjectMeta), p.Name)
	}
	o, err := s.GetPod("other", elsewhere.Name)
	require.NoError(t, err)
	assert.Nil(t, api.GetControllerOf(&o.ObjectMeta))
	assert.True(t, ctx.RecordFor(t, "replicaset/web").InSync)
	assert.Empty(t, podsOf(s, rs))
}

func TestFullyLabeledReplicas(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 2, "nginx:1.25",
		simtest.WithRSTemplateLabels(map[string]string{"app": "web", "tier": "front"})))
	rs := simtest.GetReplicaSet(t, s, "web")
	simtest.MustCreate(t, s, simtest.NewPod("partial", simtest.WithPodLabels(map[string]string{"app": "web"}), simtest.WithPodOwner(rs)))
	simtest.MustCreate(t, s, simtest.NewPod("full", simtest.WithPodLabels(map[string]string{"app": "web", "tier": "front", "x": "y"}),
		simtest.WithPodOwner(rs)))
	simtest.Sync(s, New())
	got := simtest.GetReplicaSet(t, s, "web")
	assert.Equal(t, int32(2), got.Status.Replicas)
	assert.Equal(t, int32(1), got.Status.FullyLabeledReplicas)
}

func TestSelectorIsSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		sel      *api.LabelSelector
		template map[string]string
		want     bool
	}{
		{"equal", &api.LabelSelector{MatchLabels: map[string]string{"a": "1"}}, map[string]string{"a": "1"}, true},
		{"template has more", &api.LabelSelector{MatchLabels: map[string]string{"a": "1"}}, map[string]string{"a": "1", "b": "2"}, false},
		{"different value", &api.LabelSelector{MatchLabels: map[string]string{"a": "1", "b": "3"}}, map[string]string{"a": "1", "b": "2"}, false},
		{"expressions", &api.LabelSelector{MatchLabels: map[string]string{"a": "1"},
			MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: api.LabelSelectorOpExists}}}, map[string]string{"a": "1"}, false},
		{"nil", nil, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, selectorIsSet(tc.sel, tc.template))
		})
	}
}

func TestIsAvailable(t *testing.T) {
	t.Parallel()
	readyAt := api.Epoch.Add(5 * time.Second)
	tests := []struct {
		name     string
		ltt      time.Time
		minReady int32
		now      time.Time
		want     bool
	}{
		{"minReadySeconds 0", readyAt, 0, readyAt, true},
		// pkg/api/v1/pod IsPodAvailable (1.35): lastTransitionTime + minReadySeconds <= now.
		{"exactly minReadySeconds is enough", readyAt, 10, readyAt.Add(10 * time.Second), true},
		{"a moment before", readyAt, 10, readyAt.Add(10*time.Second - time.Millisecond), false},
		{"one second later", readyAt, 10, readyAt.Add(11 * time.Second), true},
		{"too early", readyAt, 10, readyAt.Add(3 * time.Second), false},
		{"no transition time", time.Time{}, 10, readyAt.Add(time.Hour), false},
		{"no transition time, minReadySeconds 0", time.Time{}, 0, readyAt, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue}
			if !tc.ltt.IsZero() {
				c.LastTransitionTime = api.NewTime(tc.ltt)
			}
			assert.Equal(t, tc.want, api.IsAvailable(c, tc.minReady, tc.now))
		})
	}
}
