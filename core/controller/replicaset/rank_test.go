package replicaset

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// rankPod mirrors the pod builder of TestSortingActivePodsWithRanks
// (pkg/controller/controller_utils_test.go).
func rankPod(name, node, phase string, ready bool, restarts int32, readySince, created time.Time, annotations map[string]string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, CreationTimestamp: api.NewTime(created), Annotations: annotations}}
	if created.IsZero() {
		p.CreationTimestamp = api.Time{}
	}
	p.Spec.NodeName = node
	p.Status.Phase = phase
	if ready {
		c := api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue}
		if !readySince.IsZero() {
			c.LastTransitionTime = api.NewTime(readySince)
		}
		p.Status.Conditions = []api.PodCondition{c}
		p.Status.ContainerStatuses = []api.ContainerStatus{{RestartCount: restarts}}
	}
	return p
}

func TestSortingActivePodsWithRanks(t *testing.T) {
	t.Parallel()
	now := api.Epoch.Add(30 * 24 * time.Hour)
	then1Month := now.AddDate(0, -1, 0)
	then2Hours := now.Add(-2 * time.Hour)
	then5Hours := now.Add(-5 * time.Hour)
	then8Hours := now.Add(-8 * time.Hour)
	var zero time.Time
	var (
		unscheduledPod                      = rankPod("unscheduled", "", api.PodPending, false, 0, zero, zero, nil)
		scheduledPendingPod                 = rankPod("pending", "node", api.PodPending, false, 0, zero, zero, nil)
		unknownPhasePod                     = rankPod("unknown-phase", "node", api.PodUnknown, false, 0, zero, zero, nil)
		runningNotReadyPod                  = rankPod("not-ready", "node", api.PodRunning, false, 0, zero, zero, nil)
		runningReadyNoLastTransitionTimePod = rankPod("ready-no-last-transition-time", "node", api.PodRunning, true, 0, zero, zero, nil)
		runningReadyNow                     = rankPod("ready-now", "node", api.PodRunning, true, 0, now, now, nil)
		runningReadyThen                    = rankPod("ready-then", "node", api.PodRunning, true, 0, then1Month, then1Month, nil)
		runningReadyNowHighRestarts         = rankPod("ready-high-restarts", "node", api.PodRunning, true, 9001, now, now, nil)
		runningReadyNowCreatedThen          = rankPod("ready-now-created-then", "node", api.PodRunning, true, 0, now, then1Month, nil)
		lowPodDeletionCost                  = rankPod("low-deletion-cost", "node", api.PodRunning, true, 0, now, then1Month, map[string]string{api.PodDeletionCostAnnotation: "10"})
		highPodDeletionCost                 = rankPod("high-deletion-cost", "node", api.PodRunning, true, 0, now, then1Month, map[string]string{api.PodDeletionCostAnnotation: "100"})
		unscheduled5Hours                   = rankPod("unscheduled-5-hours", "", api.PodPending, false, 0, then5Hours, then5Hours, nil)
		unscheduled8Hours                   = rankPod("unscheduled-10-hours", "", api.PodPending, false, 0, then8Hours, then8Hours, nil)
		ready2Hours                         = rankPod("ready-2-hours", "", api.PodRunning, true, 0, then2Hours, then1Month, nil)
		ready5Hours                         = rankPod("ready-5-hours", "", api.PodRunning, true, 0, then5Hours, then1Month, nil)
		ready10Hours                        = rankPod("ready-10-hours", "", api.PodRunning, true, 0, then8Hours, then1Month, nil)
	)

	equality := []struct{ p1, p2 *api.Pod }{
		{p1: unscheduledPod},
		{p1: scheduledPendingPod},
		{p1: unknownPhasePod},
		{p1: runningNotReadyPod},
		{p1: runningReadyNowCreatedThen},
		{p1: runningReadyNow},
		{p1: runningReadyThen},
		{p1: runningReadyNowHighRestarts},
		{p1: runningReadyNowCreatedThen},
		{p1: unscheduled5Hours, p2: unscheduled8Hours},
		{p1: ready5Hours, p2: ready10Hours},
	}
	for i, tc := range equality {
		p2 := tc.p2
		if p2 == nil {
			p2 = tc.p1
		}
		t.Run(fmt.Sprintf("equal %d %s %s", i, tc.p1.Name, p2.Name), func(t *testing.T) {
			t.Parallel()
			a, b := newRankedPod(tc.p1, 1), newRankedPod(p2, 1)
			assert.False(t, lessForDeletion(&a, &b, now), "%s < %s", tc.p1.Name, p2.Name)
			assert.False(t, lessForDeletion(&b, &a, now), "%s < %s", p2.Name, tc.p1.Name)
		})
	}

	type withRank struct {
		pod  *api.Pod
		rank int
	}
	inequality := []struct {
		name            string
		lesser, greater withRank
	}{
		{"unscheduled before scheduled whatever the rank (1)", withRank{unscheduledPod, 1}, withRank{scheduledPendingPod, 2}},
		{"unscheduled before scheduled whatever the rank (2)", withRank{unscheduledPod, 2}, withRank{scheduledPendingPod, 1}},
		{"pending before unknown", withRank{scheduledPendingPod, 1}, withRank{unknownPhasePod, 2}},
		{"unknown before running", withRank{unknownPhasePod, 1}, withRank{runningNotReadyPod, 2}},
		{"not ready before ready", withRank{runningNotReadyPod, 1}, withRank{runningReadyNoLastTransitionTimePod, 1}},
		{"ready without transition time before ready now", withRank{runningReadyNoLastTransitionTimePod, 1}, withRank{runningReadyNow, 1}},
		{"higher rank before ready without transition time", withRank{runningReadyNow, 2}, withRank{runningReadyNoLastTransitionTimePod, 1}},
		{"ready now before ready a month ago", withRank{runningReadyNow, 1}, withRank{runningReadyThen, 1}},
		{"rank 2 ready now before rank 1 ready a month ago", withRank{runningReadyNow, 2}, withRank{runningReadyThen, 1}},
		{"high restarts before low restarts", withRank{runningReadyNowHighRestarts, 1}, withRank{runningReadyNow, 1}},
		{"rank beats restarts", withRank{runningReadyNow, 2}, withRank{runningReadyNowHighRestarts, 1}},
		{"created now before created a month ago", withRank{runningReadyNow, 1}, withRank{runningReadyNowCreatedThen, 1}},
		{"rank beats creation time", withRank{runningReadyNowCreatedThen, 2}, withRank{runningReadyNow, 1}},
		{"deletion cost 10 before 100 whatever the rank", withRank{lowPodDeletionCost, 2}, withRank{highPodDeletionCost, 1}},
		// Upstream checks the opposite with the PodDeletionCost gate off;
		// Converge runs with the gate on, where the cost beats the rank.
		{"deletion cost beats rank (gate on)", withRank{lowPodDeletionCost, 1}, withRank{highPodDeletionCost, 2}},
		{"ready 2 hours before ready 5 hours (log buckets 42 and 44)", withRank{ready2Hours, 1}, withRank{ready5Hours, 1}},
	}
	for _, tc := range inequality {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b := newRankedPod(tc.lesser.pod, tc.lesser.rank), newRankedPod(tc.greater.pod, tc.greater.rank)
			assert.True(t, lessForDeletion(&a, &b, now), "%s (rank %d) < %s (rank %d)", a.pod.Name, a.rank, b.pod.Name, b.rank)
			assert.False(t, lessForDeletion(&b, &a, now), "%s (rank %d) < %s (rank %d)", b.pod.Name, b.rank, a.pod.Name, a.rank)
		})
	}
}

// TestSortingActivePods sorts TestSortingActivePods' nine pods (equal ranks)
// with the deletion order and expects upstream's wantOrder.
func TestSortingActivePods(t *testing.T) {
	t.Parallel()
	now := api.Epoch.Add(24 * time.Hour)
	then := now.Add(-time.Hour)
	running := func(name string, readySince time.Time, restarts []int32, created time.Time) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}}
		if !created.IsZero() {
			p.CreationTimestamp = api.NewTime(created)
		}
		p.Spec.NodeName = "foo"
		p.Status.Phase = api.PodRunning
		c := api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue}
		if !readySince.IsZero() {
			c.LastTransitionTime = api.NewTime(readySince)
		}
		p.Status.Conditions = []api.PodCondition{c}
		for _, r := range restarts {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{RestartCount: r})
		}
		return p
	}
	pods := []*api.Pod{
		running("oldest", then, []int32{2, 1}, then),
		running("lowerContainerRestartCount", then, []int32{2, 1}, now),
		running("runningLongerTime", then, []int32{3, 0}, time.Time{}),
		running("runningWithLastTransitionTime", now, []int32{3, 0}, time.Time{}),
		running("runningNoLastTransitionTime", time.Time{}, []int32{3, 0}, time.Time{}),
		{ObjectMeta: api.ObjectMeta{Name: "runningButNotReady"}, Spec: api.PodSpec{NodeName: "foo"}, Status: api.PodStatus{Phase: api.PodRunning}},
		{ObjectMeta: api.ObjectMeta{Name: "unknownPhase"}, Spec: api.PodSpec{NodeName: "foo"}, Status: api.PodStatus{Phase: api.PodUnknown}},
		{ObjectMeta: api.ObjectMeta{Name: "scheduledButPending"}, Spec: api.PodSpec{NodeName: "bar"}, Status: api.PodStatus{Phase: api.PodPending}},
		{ObjectMeta: api.ObjectMeta{Name: "unscheduled"}, Status: api.PodStatus{Phase: api.PodPending}},
	}
	want := []string{"unscheduled", "scheduledButPending", "unknownPhase", "runningButNotReady",
		"runningNoLastTransitionTime", "runningWithLastTransitionTime", "runningLongerTime",
		"lowerContainerRestartCount", "oldest"}
	ranked := make([]rankedPod, len(pods))
	for i, p := range pods {
		ranked[i] = newRankedPod(p, 1)
	}
	got := getPodsToDelete(ranked, len(pods)-1, now)
	names := make([]string, len(got))
	for i, p := range got {
		names[i] = p.Name
	}
	assert.Equal(t, want[:len(want)-1], names)
}

func TestDeletionCost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		value *string
		want  int32
	}{
		{"absent", nil, 0},
		{"empty", ptr(""), 0},
		{"positive", ptr("100"), 100},
		{"negative", ptr("-5"), -5},
		{"zero", ptr("0"), 0},
		{"plus sign is invalid", ptr("+10"), 0},
		{"leading zero is invalid", ptr("008"), 0},
		{"minus then zero is accepted, as upstream does", ptr("-01"), -1},
		{"not a number", ptr("abc"), 0},
		{"beyond int32", ptr("2147483648"), 0},
		{"int32 max", ptr("2147483647"), 2147483647},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var ann map[string]string
			if tc.value != nil {
				ann = map[string]string{api.PodDeletionCostAnnotation: *tc.value}
			}
			assert.Equal(t, tc.want, deletionCost(ann))
		})
	}
}

func ptr(s string) *string { return &s }

func TestLogBucket(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		d    time.Duration
		want int
	}{
		{"zero", 0, -1},
		{"negative", -time.Second, -1},
		{"one ns", 1, 0},
		{"three ns", 3, 1},
		{"two hours", 2 * time.Hour, 42},
		{"five hours", 5 * time.Hour, 44},
		{"eight hours", 8 * time.Hour, 44},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, logBucket(tc.d))
		})
	}
}

func TestGetPodsToDelete(t *testing.T) {
	t.Parallel()
	now := api.Epoch.Add(time.Hour)
	ready := rankPod("ready", "n1", api.PodRunning, true, 0, now.Add(-time.Minute), now.Add(-time.Minute), nil)
	pending := rankPod("pending", "", api.PodPending, false, 0, time.Time{}, now, nil)
	tests := []struct {
		name string
		diff int
		want []string
	}{
		{"all pods go unsorted, in the given order", 2, []string{"ready", "pending"}},
		{"more than there are", 5, []string{"ready", "pending"}},
		{"one: the pending pod first", 1, []string{"pending"}},
		{"none", 0, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ranked := []rankedPod{newRankedPod(ready, 0), newRankedPod(pending, 0)}
			got := getPodsToDelete(ranked, tc.diff, now)
			names := []string{}
			for _, p := range got {
				names = append(names, p.Name)
			}
			require.Len(t, names, len(tc.want))
			assert.Equal(t, tc.want, names)
		})
	}
}
