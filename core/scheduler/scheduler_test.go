package scheduler

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

func TestNameAndClone(t *testing.T) {
	t.Parallel()
	c := New()
	assert.Equal(t, "default-scheduler", c.Name())
	assert.Same(t, c, c.Clone())
}

func TestBindsAPendingPod(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 1, "4", "8Gi", 110)
	simtest.MustCreate(t, s, simtest.NewPod("web-x"))
	simtest.Advance(s, 3*time.Second)

	ctx := simtest.Sync(s, New())

	p := simtest.GetPod(t, s, "web-x")
	assert.Equal(t, "node-1", p.Spec.NodeName)
	assert.Equal(t, []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: s.Now()}}, p.Status.Conditions)
	assert.Equal(t, []store.EmittedEvent{{Type: "Normal", Reason: "Scheduled", Object: "pod/web-x",
		Message: "Successfully assigned default/web-x to node-1", Source: "default-scheduler"}}, ctx.Emitted)
	rec := ctx.RecordFor(t, "pod/web-x")
	assert.Equal(t, "default-scheduler", rec.Controller)
	assert.Equal(t, "bind pod web-x to node-1", rec.Action)

	rv := s.ResourceVersion()
	ctx = simtest.Sync(s, New())
	assert.Equal(t, rv, s.ResourceVersion(), "nothing left to schedule")
	assert.Empty(t, ctx.Log.Records)
}

func TestIgnoresPodsItDoesNotSchedule(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 1, "4", "8Gi", 110)
	other := simtest.NewPod("other")
	other.Spec.SchedulerName = "my-scheduler"
	simtest.MustCreate(t, s, other)
	simtest.MustCreate(t, s, simtest.NewPod("done", simtest.WithPodPhase(api.PodSucceeded)))
	rv := s.ResourceVersion()
	ctx := simtest.Sync(s, New())
	assert.Empty(t, ctx.Log.Records)
	assert.Equal(t, rv, s.ResourceVersion())
}

func TestUnschedulablePod(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 3, "1", "8Gi", 110)
	simtest.MustCreate(t, s, simtest.NewPod("big", simtest.WithPodRequests("2", "")))
	start := s.Now()
	const msg = "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."

	ctx := simtest.Sync(s, New())

	p := simtest.GetPod(t, s, "big")
	assert.Empty(t, p.Spec.NodeName)
	assert.Equal(t, []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, LastTransitionTime: start,
		Reason: "Unschedulable", Message: msg}}, p.Status.Conditions)
	assert.Equal(t, []store.EmittedEvent{{Type: "Warning", Reason: "FailedScheduling", Object: "pod/big", Message: msg,
		Source: "default-scheduler"}}, ctx.Emitted)
	assert.Equal(t, msg, ctx.RecordFor(t, "pod/big").Waiting)

	// A later round of the same second retries but writes nothing.
	rv := s.ResourceVersion()
	ctx.Log.Records = nil
	New().Sync(ctx.Context)
	assert.Equal(t, rv, s.ResourceVersion())
	assert.Len(t, ctx.Emitted, 1)
	assert.Equal(t, msg, ctx.RecordFor(t, "pod/big").Waiting)
}

// TestBackoffAndEventRepetition runs an unschedulable pod for 40 s and
// checks on which seconds it is retried and its event repeated.
func TestBackoffAndEventRepetition(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 1, "1", "8Gi", 110)
	simtest.MustCreate(t, s, simtest.NewPod("big", simtest.WithPodRequests("2", "")))
	var tried, emitted []int
	for sec := 0; sec <= 40; sec++ {
		ctx := simtest.Sync(s, New())
		if len(ctx.Log.Records) > 0 {
			tried = append(tried, sec)
		}
		if len(ctx.Events(FailedSchedulingReason)) > 0 {
			emitted = append(emitted, sec)
		}
		simtest.Advance(s, time.Second)
	}
	assert.Equal(t, []int{0, 1, 3, 7, 15, 25, 35}, tried)
	assert.Equal(t, []int{0, 15, 25, 35}, emitted)
	var ev *api.Event
	for _, e := range s.Events() {
		if e.Reason == FailedSchedulingReason {
			ev = e
		}
	}
	require.NotNil(t, ev)
	assert.Equal(t, int32(4), ev.Count, "identical events aggregate into one")
}

func TestMessageChangeIsReportedAtOnce(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 2, "1", "8Gi", 110)
	simtest.MustCreate(t, s, simtest.NewPod("big", simtest.WithPodRequests("2", "")))
	simtest.Sync(s, New())
	first := simtest.GetPod(t, s, "big").Status.Conditions[0]

	n, err := s.GetNode("node-1")
	require.NoError(t, err)
	x := n.DeepCopy()
	x.Spec.Unschedulable = true
	_, err = s.Update(x)
	require.NoError(t, err)
	simtest.Advance(s, time.Second)
	ctx := simtest.Sync(s, New())

	const msg = "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
	got := simtest.GetPod(t, s, "big").Status.Conditions[0]
	assert.Equal(t, msg, got.Message)
	assert.Equal(t, first.LastTransitionTime, got.LastTransitionTime, "still False: the transition time stays")
	require.Len(t, ctx.Events(FailedSchedulingReason), 1)
	assert.Equal(t, msg, ctx.Events(FailedSchedulingReason)[0].Message)
}

func TestUnschedulablePodIsBoundOnceRoomAppears(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 1, "1", "8Gi", 110)
	busy := simtest.MustCreate(t, s, simtest.NewPod("busy", simtest.WithPodRequests("800m", ""), simtest.WithPodNode("node-1")))
	simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodRequests("500m", "")))
	simtest.Sync(s, New())
	require.Empty(t, simtest.GetPod(t, s, "p").Spec.NodeName)
	require.NoError(t, s.Delete(api.KindPod, busy.Namespace, busy.Name, store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))

	simtest.Advance(s, time.Second)
	ctx := simtest.Sync(s, New())

	assert.Equal(t, "bind pod p to node-1", ctx.RecordFor(t, "pod/p").Action)
	cond := api.GetPodCondition(&simtest.GetPod(t, s, "p").Status, api.PodScheduled)
	require.NotNil(t, cond)
	assert.Equal(t, api.ConditionTrue, cond.Status)
	assert.Empty(t, cond.Reason)
	assert.Equal(t, s.Now(), cond.LastTransitionTime)
}

func TestQueueOrder(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 1, "1", "8Gi", 110)
	simtest.MustCreate(t, s, simtest.NewPod("old", simtest.WithPodRequests("600m", "")))
	simtest.Advance(s, time.Second)
	simtest.MustCreate(t, s, simtest.NewPod("new", simtest.WithPodRequests("600m", "")))
	simtest.MustCreate(t, s, simtest.NewPod("urgent", simtest.WithPodRequests("600m", ""), simtest.WithPodPriority(1000)))
	ctx := simtest.Sync(s, New())
	require.Len(t, ctx.Log.Records, 3)
	assert.Equal(t, "pod/urgent", ctx.Log.Records[0].Object)
	assert.Equal(t, "bind pod urgent to node-1", ctx.Log.Records[0].Action)
	assert.Equal(t, "pod/old", ctx.Log.Records[1].Object)
	assert.Equal(t, "pod/new", ctx.Log.Records[2].Object)
}

func TestNoNodes(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPod("p"))
	ctx := simtest.Sync(s, New())
	assert.Equal(t, "no nodes available to schedule pods", ctx.RecordFor(t, "pod/p").Waiting)
}

func TestSchedulingIsDeterministic(t *testing.T) {
	t.Parallel()
	run := func() map[string]string {
		s := simtest.NewStore()
		simtest.Nodes(t, s, 5, "4", "8Gi", 110)
		rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 23, "nginx"))
		simtest.OwnedPods(t, s, rs, "web", 23, simtest.WithPodRequests("100m", "128Mi"))
		simtest.Sync(s, New())
		out := map[string]string{}
		s.EachPod(func(p *api.Pod) bool { out[p.Name] = p.Spec.NodeName; return true })
		return out
	}
	a := run()
	assert.Equal(t, a, run())
	per := map[string]int{}
	for _, n := range a {
		per[n]++
	}
	for n, c := range per {
		assert.InDelta(t, 23.0/5, c, 1, n)
	}
}

func TestFiveThousandPodsOnFiftyNodesSpreadEvenly(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 50, "64", "256Gi", 110)
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 5000, "nginx"))
	simtest.OwnedPods(t, s, rs, "web", 5000, simtest.WithPodRequests("100m", "128Mi"))
	ctx := simtest.Sync(s, New())
	assert.Len(t, ctx.Log.Records, 5000)
	for n, c := range placement(s) {
		assert.Equal(t, 100, c, n)
	}
}

func TestFullClusterReportsTooManyPods(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 2, "4", "8Gi", 2)
	for i := 0; i < 5; i++ {
		simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("p%d", i)))
	}
	ctx := simtest.Sync(s, New())
	assert.Equal(t, map[string]int{"node-1": 2, "node-2": 2}, placement(s))
	assert.Equal(t, "0/2 nodes are available: 2 Too many pods. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.", ctx.RecordFor(t, "pod/p4").Waiting)
}

func TestIsAttemptAndEventDue(t *testing.T) {
	t.Parallel()
	var attempts, emits []int64
	for e := int64(0); e <= 60; e++ {
		if isAttempt(e) {
			attempts = append(attempts, e)
		}
		if eventDue(e) {
			emits = append(emits, e)
		}
	}
	assert.Equal(t, []int64{0, 1, 3, 7, 15, 25, 35, 45, 55}, attempts)
	assert.Equal(t, []int64{0, 15, 25, 35, 45, 55}, emits)
	assert.True(t, isAttempt(86395))
	assert.True(t, eventDue(86395))
	assert.False(t, eventDue(86396))
}

func TestElapsedSeconds(t *testing.T) {
	t.Parallel()
	now := api.Epoch.Add(time.Minute)
	assert.Equal(t, int64(0), elapsedSeconds(&api.PodCondition{}, now))
	assert.Equal(t, int64(0), elapsedSeconds(&api.PodCondition{LastTransitionTime: api.NewTime(now.Add(time.Hour))}, now))
	assert.Equal(t, int64(60), elapsedSeconds(&api.PodCondition{LastTransitionTime: api.NewTime(api.Epoch)}, now))
}

func TestSetCondition(t *testing.T) {
	t.Parallel()
	now := api.Epoch.Add(time.Minute)
	then := api.NewTime(api.Epoch)
	conds := []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse},
		{Type: api.PodScheduled, Status: api.ConditionFalse, LastTransitionTime: then, Reason: "Unschedulable", Message: "old"}}
	same := setCondition(conds, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: "Unschedulable", Message: "new"}, now)
	assert.Equal(t, then, same[1].LastTransitionTime)
	assert.Equal(t, "new", same[1].Message)
	assert.Equal(t, "old", conds[1].Message, "the input is not modified")
	flipped := setCondition(conds, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}, now)
	assert.Equal(t, api.NewTime(now), flipped[1].LastTransitionTime)
	added := setCondition(nil, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}, now)
	assert.Len(t, added, 1)
}
