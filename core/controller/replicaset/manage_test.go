package replicaset

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

func TestSlowStartBatches(t *testing.T) {
	t.Parallel()
	tests := []struct {
		count int
		want  []int
	}{
		{0, nil},
		{1, []int{1}},
		{3, []int{1, 2}},
		{10, []int{1, 2, 4, 3}},
		{20, []int{1, 2, 4, 8, 5}},
		{500, []int{1, 2, 4, 8, 16, 32, 64, 128, 245}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.count), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, slowStartBatches(tc.count))
		})
	}
}

func TestCreatesMissingPodsFromTemplate(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.NewReplicaSet("web", 3, "nginx:1.25")
	rs.Spec.Template.Annotations = map[string]string{"team": "blue"}
	rs = simtest.MustCreate(t, s, rs)

	ctx := simtest.Sync(s, New())

	pods := podsOf(s, rs)
	require.Len(t, pods, 3)
	for _, p := range pods {
		assert.True(t, strings.HasPrefix(p.Name, "web-"), p.Name)
		assert.Len(t, p.Name, len("web-")+5)
		assert.Equal(t, "web-", p.GenerateName)
		assert.Equal(t, api.NamespaceDefault, p.Namespace)
		assert.Equal(t, map[string]string{"app": "web"}, p.Labels)
		assert.Equal(t, map[string]string{"team": "blue"}, p.Annotations)
		require.Len(t, p.OwnerReferences, 1)
		ref := p.OwnerReferences[0]
		assert.Equal(t, api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: rs.UID,
			Controller: api.Bool(true), BlockOwnerDeletion: api.Bool(true)}, ref)
		assert.Equal(t, "nginx:1.25", p.Spec.Containers[0].Image)
	}
	created := ctx.Events(SuccessfulCreateReason)
	require.Len(t, created, 3)
	assert.Equal(t, store.EmittedEvent{Type: "Normal", Reason: "SuccessfulCreate", Object: "replicaset/web",
		Message: "Created pod: " + pods[0].Name, Source: "replicaset-controller"}, created[0])

	rec := ctx.RecordFor(t, "replicaset/web")
	assert.Equal(t, "0 pods (0 ready, 0 available)", rec.Observed)
	assert.Equal(t, "3 pods", rec.Desired)
	assert.Equal(t, fmt.Sprintf("create 3 pods: %s, %s, %s", pods[0].Name, pods[1].Name, pods[2].Name), rec.Action)
	assert.False(t, rec.InSync)

	// Status is computed from the pods seen at the start of the sync; the
	// next sync counts the new pods and then nothing changes any more.
	assert.Equal(t, int32(0), simtest.GetReplicaSet(t, s, "web").Status.Replicas)
	ctx = simtest.Sync(s, New())
	got := simtest.GetReplicaSet(t, s, "web")
	assert.Equal(t, int32(3), got.Status.Replicas)
	assert.Equal(t, int32(3), got.Status.FullyLabeledReplicas)
	assert.Equal(t, int64(1), got.Status.ObservedGeneration)
	assert.True(t, ctx.RecordFor(t, "replicaset/web").InSync)
	rv := s.ResourceVersion()
	simtest.Sync(s, New())
	assert.Equal(t, rv, s.ResourceVersion(), "a settled sync writes nothing")
}

func TestSingleCreateRecord(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 1, "nginx:1.25"))
	ctx := simtest.Sync(s, New())
	rec := ctx.RecordFor(t, "replicaset/web")
	assert.Equal(t, "1 pod", rec.Desired)
	assert.Equal(t, "create pod "+s.Pods()[0].Name, rec.Action)
}

func TestBurstReplicasCapsCreatesPerSync(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("big", 600, "nginx:1.25"))
	ctx := simtest.Sync(s, New())
	assert.Len(t, podsOf(s, rs), BurstReplicas)
	assert.Contains(t, ctx.RecordFor(t, "replicaset/big").Action, "create 500 pods: ")
	assert.Contains(t, ctx.RecordFor(t, "replicaset/big").Action, " and 495 more")
	simtest.Sync(s, New())
	assert.Len(t, podsOf(s, rs), 600)
}

func TestBurstReplicasCapsDeletesPerSync(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("big", 600, "nginx:1.25"))
	simtest.Sync(s, New())
	simtest.Sync(s, New())
	require.Len(t, activePodsOf(s, rs), 600)
	x := simtest.GetReplicaSet(t, s, "big").DeepCopy()
	x.Spec.Replicas = api.Int32(0)
	_, err := s.Update(x)
	require.NoError(t, err)
	ctx := simtest.Sync(s, New())
	assert.Len(t, activePodsOf(s, rs), 100)
	assert.True(t, strings.HasPrefix(ctx.RecordFor(t, "replicaset/big").Action, "delete 500 pods: "))
	assert.Empty(t, ctx.Events(SuccessfulDeleteReason), "the recorder's spam filter: the 600 creates used up the burst of 25")
	simtest.Sync(s, New())
	assert.Empty(t, activePodsOf(s, rs))
}

// fillStore creates n bare pods so that the store's pod limit is near.
func fillStore(t *testing.T, s *store.Store, n int) []*api.Pod {
	t.Helper()
	out := make([]*api.Pod, n)
	for i := range out {
		out[i] = simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("filler-%d", i)))
	}
	return out
}

func TestCreateFailureStopsSlowStartAndSetsReplicaFailure(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	fillers := fillStore(t, s, store.MaxPods-5)
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 10, "nginx:1.25"))
	c := New()

	// Batches 1 and 2 succeed; in the batch of 4 two succeed and two fail,
	// so the last batch (3) is skipped.
	ctx := simtest.Sync(s, c)
	require.Len(t, podsOf(s, rs), 5)
	failed := ctx.Events(FailedCreateReason)
	require.Len(t, failed, 2)
	assert.Equal(t, "Warning", failed[0].Type)
	assert.True(t, strings.HasPrefix(failed[0].Message, `Error creating: pods "web-`), failed[0].Message)
	assert.Contains(t, failed[0].Message, "is forbidden: exceeded the simulation's limit of 10000 pods")
	rec := ctx.RecordFor(t, "replicaset/web")
	assert.Contains(t, rec.Action, "create 5 pods: ")
	assert.Contains(t, rec.Action, "; 5 not created: pods \"web-")
	assert.True(t, strings.HasSuffix(rec.Action, " (retry 1 in 5ms)"), rec.Action)
	assert.Equal(t, &controller.QueueRecord{Requeues: 1, Backoff: "5ms"}, rec.Queue)

	got := simtest.GetReplicaSet(t, s, "web")
	cond := replicaFailure(&got.Status)
	require.NotNil(t, cond)
	assert.Equal(t, api.ReplicaSetReplicaFailure, cond.Type)
	assert.Equal(t, api.ConditionTrue, cond.Status)
	assert.Equal(t, FailedCreateReason, cond.Reason)
	assert.Equal(t, strings.TrimPrefix(failed[0].Message, "Error creating: "), cond.Message)
	assert.Equal(t, s.Now(), cond.LastTransitionTime)

	// A later round of the same second does not retry: the key backs off,
	// and nothing it watches changed since the failed sync.
	rv := s.ResourceVersion()
	ctx.Log.Records = nil
	c.Sync(ctx.Context)
	assert.Len(t, ctx.Events(FailedCreateReason), 2)
	assert.Equal(t, rv, s.ResourceVersion())
	rec = ctx.RecordFor(t, "replicaset/web")
	assert.Equal(t, "backing off after an error: retry 1 in 5ms", rec.Waiting)
	assert.Contains(t, rec.Observed, "0 pods", "what the failed sync saw (its status counts the pods of the next sync)")

	// The next second retries, fails again without changing the condition.
	simtest.Advance(s, time.Second)
	ctx = simtest.Sync(s, c)
	require.Len(t, ctx.Events(FailedCreateReason), 1)
	rec = ctx.RecordFor(t, "replicaset/web")
	assert.True(t, strings.HasPrefix(rec.Waiting, `pods "web-`), rec.Waiting)
	assert.True(t, strings.HasSuffix(rec.Waiting, " (retry 2 in 10ms)"), rec.Waiting)
	assert.Equal(t, int32(5), simtest.GetReplicaSet(t, s, "web").Status.Replicas)
	assert.Equal(t, *cond, *replicaFailure(&simtest.GetReplicaSet(t, s, "web").Status))

	// Room again: deleting pods of others is no event for this ReplicaSet,
	// so it waits for its retry (the next second); then the missing pods
	// are created, the condition goes away and the key is forgotten.
	for _, p := range fillers[:5] {
		require.NoError(t, s.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{}))
	}
	ctx = simtest.Sync(s, c)
	assert.Len(t, podsOf(s, rs), 5, "not yet")
	assert.Equal(t, "backing off after an error: retry 2 in 10ms", ctx.RecordFor(t, "replicaset/web").Waiting)
	simtest.Advance(s, time.Second)
	ctx = simtest.Sync(s, c)
	assert.Len(t, podsOf(s, rs), 10)
	assert.Nil(t, ctx.RecordFor(t, "replicaset/web").Queue)
	assert.False(t, c.queue.Has("default/web"))
	simtest.Sync(s, c)
	assert.Nil(t, replicaFailure(&simtest.GetReplicaSet(t, s, "web").Status))
}

func TestAFailingReplicaSetIsRetriedWhenItsPodsChange(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	fillStore(t, s, store.MaxPods-1)
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 3, "nginx:1.25"))
	c := New()
	simtest.Sync(s, c) // creates 1 pod, the batch of 2 fails
	for i := 0; i < 8; i++ {
		simtest.Advance(s, time.Second)
		simtest.Sync(s, c) // retries 1..8 at 1..8s (the 9th waits for 9.28s)
	}
	require.Equal(t, 9, c.queue.NumRequeues("default/web"))
	simtest.Advance(s, time.Second)
	require.Empty(t, simtest.Sync(s, c).Events(FailedCreateReason), "9s: backing off")
	// Its pod changes (the kubelet marks it Running): an informer event.
	p := podsOf(s, rs)[0].DeepCopy()
	p.Status.Phase = api.PodRunning
	_, err := s.UpdateStatus(p)
	require.NoError(t, err)
	ctx := simtest.Sync(s, c)
	assert.Len(t, ctx.Events(FailedCreateReason), 1, "synced at once")
	assert.Equal(t, 10, c.queue.NumRequeues("default/web"))
	assert.Equal(t, "2.56s", ctx.RecordFor(t, "replicaset/web").Queue.Backoff)
}

func TestDeletesSurplusInRankOrder(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 2, "nginx:1.25"))
	l := map[string]string{"app": "web"}
	readyOld := simtest.MustCreate(t, s, simtest.NewPod("ready-old", simtest.WithPodLabels(l), simtest.WithPodOwner(rs),
		simtest.WithPodNode("n1"), simtest.WithPodReady(api.Epoch)))
	simtest.Advance(s, time.Hour)
	pending := simtest.MustCreate(t, s, simtest.NewPod("pending", simtest.WithPodLabels(l), simtest.WithPodOwner(rs),
		simtest.WithPodNode("n1")))
	unscheduled := simtest.MustCreate(t, s, simtest.NewPod("unscheduled", simtest.WithPodLabels(l), simtest.WithPodOwner(rs)))
	readyNew := simtest.MustCreate(t, s, simtest.NewPod("ready-new", simtest.WithPodLabels(l), simtest.WithPodOwner(rs),
		simtest.WithPodNode("n2"), simtest.WithPodReady(s.Now().Time)))
	simtest.Advance(s, time.Minute)

	ctx := simtest.Sync(s, New())

	// The unscheduled pod goes at once, the bound pending one terminates.
	_, err := s.GetPod(api.NamespaceDefault, unscheduled.Name)
	assert.ErrorIs(t, err, store.ErrNotFound)
	assert.NotNil(t, simtest.GetPod(t, s, pending.Name).DeletionTimestamp)
	assert.Nil(t, simtest.GetPod(t, s, readyOld.Name).DeletionTimestamp)
	assert.Nil(t, simtest.GetPod(t, s, readyNew.Name).DeletionTimestamp)
	rec := ctx.RecordFor(t, "replicaset/web")
	assert.Equal(t, "delete 2 pods: unscheduled, pending", rec.Action)
	assert.Equal(t, "4 pods (2 ready, 2 available)", rec.Observed)
	del := ctx.Events(SuccessfulDeleteReason)
	require.Len(t, del, 2)
	assert.Equal(t, "Deleted pod: unscheduled", del[0].Message)

	// Next: the terminating pod is counted as such, nothing else to do.
	ctx = simtest.Sync(s, New())
	rec = ctx.RecordFor(t, "replicaset/web")
	assert.True(t, rec.InSync)
	assert.Equal(t, "2 pods (2 ready, 2 available), 1 terminating", rec.Observed)
	got := simtest.GetReplicaSet(t, s, "web")
	require.NotNil(t, got.Status.TerminatingReplicas)
	assert.Equal(t, int32(1), *got.Status.TerminatingReplicas)
}

func TestDeletePrefersDoubledUpNodesAcrossTheDeployment(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d, newRS := deploymentRS(t, s, "web", "aaaaa", 2)
	oldRS := simtest.MustCreate(t, s, simtest.NewReplicaSet("web-bbbbb", 0, "nginx:1.24",
		simtest.WithRSLabels(map[string]string{"app": "web", api.DefaultDeploymentUniqueLabelKey: "bbbbb"}), simtest.WithRSOwner(d)))
	newLabels := newRS.Spec.Template.Labels
	oldLabels := oldRS.Spec.Template.Labels
	ready := simtest.WithPodReady(api.Epoch)
	// node-1 holds new-a and new-c; node-2 holds new-b and the old pods.
	simtest.MustCreate(t, s, simtest.NewPod("new-a", simtest.WithPodLabels(newLabels), simtest.WithPodOwner(newRS), simtest.WithPodNode("node-1"), ready))
	simtest.MustCreate(t, s, simtest.NewPod("new-b", simtest.WithPodLabels(newLabels), simtest.WithPodOwner(newRS), simtest.WithPodNode("node-2"), ready))
	simtest.MustCreate(t, s, simtest.NewPod("old-a", simtest.WithPodLabels(oldLabels), simtest.WithPodOwner(oldRS), simtest.WithPodNode("node-2"), ready))
	simtest.MustCreate(t, s, simtest.NewPod("new-c", simtest.WithPodLabels(newLabels), simtest.WithPodOwner(newRS), simtest.WithPodNode("node-1"), ready))
	simtest.Advance(s, time.Hour)
	// A second old pod makes node-2 the crowded node: 3 related pods there, 2 on node-1.
	simtest.MustCreate(t, s, simtest.NewPod("old-b", simtest.WithPodLabels(oldLabels), simtest.WithPodOwner(oldRS), simtest.WithPodNode("node-2"), ready))

	ctx := simtest.Sync(s, New())
	// oldRS has 0 replicas: it deletes both its pods; newRS (2) deletes new-b,
	// the only new pod on node-2 (3 related pods there).
	assert.Equal(t, "delete pod new-b", ctx.RecordFor(t, "replicaset/web-aaaaa").Action)
	assert.Equal(t, "delete 2 pods: old-a, old-b", ctx.RecordFor(t, "replicaset/web-bbbbb").Action)
}

func TestStandaloneReplicaSetRanksEveryPodZero(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 1, "nginx:1.25"))
	l := map[string]string{"app": "web"}
	ready := simtest.WithPodReady(api.Epoch)
	simtest.MustCreate(t, s, simtest.NewPod("a", simtest.WithPodLabels(l), simtest.WithPodOwner(rs), simtest.WithPodNode("n1"), ready))
	simtest.MustCreate(t, s, simtest.NewPod("b", simtest.WithPodLabels(l), simtest.WithPodOwner(rs), simtest.WithPodNode("n1"), ready))
	simtest.MustCreate(t, s, simtest.NewPod("c", simtest.WithPodLabels(l), simtest.WithPodOwner(rs), simtest.WithPodNode("n2"), ready))
	candidates := rankCandidates(s, []rsState{newState(rs)}, 0)
	require.Len(t, candidates, 3)
	for _, c := range candidates {
		assert.Zero(t, c.rank, c.pod.Name)
	}
}

func newState(rs *api.ReplicaSet) rsState {
	var st rsState
	st.init(rs)
	return st
}

func TestPodFromTemplatePrefix(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 253)
	tests := []struct {
		name, rs, want string
	}{
		{"dash appended", "web-5d9c7b8f4", "web-5d9c7b8f4-"},
		{"no room for the dash", long, long},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := simtest.NewReplicaSet(tc.rs, 1, "nginx")
			rs.Spec.Template.Finalizers = []string{"example.com/keep"}
			parts := newPodParts(rs)
			p := podFromTemplate(rs, &parts)
			assert.Equal(t, tc.want, p.GenerateName)
			assert.Equal(t, []string{"example.com/keep"}, p.Finalizers)
		})
	}
}

func TestPodsOfOneBatchShareTheirSpecButNotTheirTolerations(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	rs := simtest.NewReplicaSet("web", 3, "nginx:1.25")
	rs.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: "Exists"}}
	rs = simtest.MustCreate(t, s, rs)
	simtest.Sync(s, New())
	pods := podsOf(s, rs)
	require.Len(t, pods, 3)
	for _, p := range pods {
		require.Len(t, p.Spec.Tolerations, 3, "the template's plus admission's not-ready and unreachable")
		assert.Equal(t, "dedicated", p.Spec.Tolerations[0].Key)
		assert.Same(t, &pods[0].Spec.Containers[0], &p.Spec.Containers[0], "one containers array per batch")
		assert.Same(t, &pods[0].OwnerReferences[0], &p.OwnerReferences[0], "one ownerReferences list per batch")
	}
	assert.NotSame(t, &pods[0].Spec.Tolerations[0], &pods[1].Spec.Tolerations[0])
	assert.Len(t, simtest.GetReplicaSet(t, s, "web").Spec.Template.Spec.Tolerations, 1)
}
