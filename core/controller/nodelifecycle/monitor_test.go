package nodelifecycle

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// check runs one Sync of c at the store's time; with a NodeMonitorPeriod of
// 1s every Sync a second or more after the last one is a check
// (monitorNodeHealth), as the upstream tests call it directly.
func check(s *store.Store, c *Controller) *controller.Context {
	ctx := &controller.Context{Store: s, Log: &controller.SyncLog{}}
	c.Sync(ctx)
	return ctx
}

func readyAt(status string, hb, transition time.Time) []api.NodeCondition {
	return []api.NodeCondition{{Type: api.NodeReady, Status: status, LastHeartbeatTime: api.NewTime(hb), LastTransitionTime: api.NewTime(transition)}}
}

func setConditions(t *testing.T, s *store.Store, name string, conds []api.NodeCondition) {
	t.Helper()
	n, err := s.GetNode(name)
	require.NoError(t, err)
	x := *n
	x.Status.Conditions = conds
	_, err = s.UpdateStatus(&x)
	require.NoError(t, err)
}

func condition(n *api.Node, typ string) api.NodeCondition {
	c := api.GetNodeCondition(&n.Status, typ)
	if c == nil {
		return api.NodeCondition{}
	}
	return *c
}

func TestMonitorNodeHealthUpdateStatus(t *testing.T) {
	t.Parallel()
	// pkg/controller/nodelifecycle/node_lifecycle_controller_test.go,
	// TestMonitorNodeHealthUpdateStatus: grace 50s, startup grace 60s. "Long
	// ago" is three years before the first check; pod0 is bound to node0 and
	// Ready.
	const longAgo = 3 * 365 * 24 * time.Hour
	tests := []struct {
		name string
		// createdLongAgo: the node was created longAgo before the first check.
		createdLongAgo bool
		// ready: the Ready condition the kubelet posted, at the first check's
		// time (nil: none).
		ready      bool
		timeToPass time.Duration
		// wantReady is the Ready condition after the checks ("" none); want
		// the pressure conditions set Unknown too.
		wantReady, wantReason string
		wantPodNotReady       bool
	}{
		{name: "Node created long time ago, without status: Unknown posted", createdLongAgo: true,
			wantReady: api.ConditionUnknown, wantReason: "NodeStatusNeverUpdated"},
		{name: "Node created recently, without status: nothing (startup grace period)"},
		{name: "Node created long time ago, with status updated by kubelet exceeds grace period: Unknown posted",
			createdLongAgo: true, ready: true, timeToPass: time.Hour,
			wantReady: api.ConditionUnknown, wantReason: "NodeStatusUnknown", wantPodNotReady: true},
		{name: "Node created long time ago, with status updated recently: nothing (monitor grace period)",
			createdLongAgo: true, ready: true, wantReady: api.ConditionTrue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 1})
			created := s.Clock().Now()
			simtest.MustCreate(t, s, &api.Node{ObjectMeta: api.ObjectMeta{Name: "node0"}})
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "pod0"}, Spec: api.PodSpec{NodeName: "node0",
				Containers: []api.Container{{Name: "c", Image: "x:1"}}}}
			pod.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
			simtest.MustCreate(t, s, pod)
			if tc.createdLongAgo {
				simtest.Advance(s, longAgo)
			}
			fakeNow := s.Clock().Now()
			if tc.ready {
				setConditions(t, s, "node0", readyAt(api.ConditionTrue, fakeNow, fakeNow))
			}
			c := New(Options{NodeMonitorPeriod: time.Second})
			check(s, c)
			if tc.timeToPass > 0 {
				simtest.Advance(s, tc.timeToPass)
				check(s, c)
			}
			n, err := s.GetNode("node0")
			require.NoError(t, err)
			r := condition(n, api.NodeReady)
			assert.Equal(t, tc.wantReady, r.Status)
			if tc.wantReason != "" {
				assert.Equal(t, tc.wantReason, r.Reason)
				assert.Equal(t, s.Clock().Now(), r.LastTransitionTime.Time)
				wantHB := created
				if tc.ready {
					wantHB = fakeNow
				}
				assert.Equal(t, wantHB, r.LastHeartbeatTime.Time, "the heartbeat stays the kubelet's (or the creation's)")
				for _, typ := range []string{"MemoryPressure", "DiskPressure", "PIDPressure"} {
					pc := condition(n, typ)
					assert.Equal(t, api.ConditionUnknown, pc.Status, typ)
					assert.Equal(t, "NodeStatusNeverUpdated", pc.Reason, typ)
					assert.Equal(t, "Kubelet never posted node status.", pc.Message, typ)
					assert.Equal(t, created, pc.LastHeartbeatTime.Time, "defaults to the node's creation: %s", typ)
				}
			} else {
				assert.Len(t, n.Status.Conditions, len(readyIf(tc.ready)), "no update")
			}
			p, err := s.GetPod("default", "pod0")
			require.NoError(t, err)
			assert.Equal(t, tc.wantPodNotReady, !api.IsPodReady(p), "pod status updated")
		})
	}
}

func readyIf(b bool) []int {
	if b {
		return []int{1}
	}
	return nil
}

func TestApplyNoExecuteTaintsToUnreachableNode(t *testing.T) {
	t.Parallel()
	// node_lifecycle_controller_test.go, TestApplyNoExecuteTaintsToUnreachableNode:
	// at time1 both nodes are fresh; at time2 = time1 + grace + 1s only node1
	// sent a heartbeat: node0 gets the unreachable NoExecute taint in that
	// same check; once node0 posts Ready again the next check takes it off.
	s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 1})
	time1 := s.Clock().Now()
	for _, name := range []string{"node0", "node1"} {
		simtest.MustCreate(t, s, simtest.NewNode(name, "4", "8Gi", 110))
		setConditions(t, s, name, readyAt(api.ConditionTrue, time1, time1))
	}
	c := New(Options{NodeMonitorPeriod: time.Second})
	check(s, c)
	for _, name := range []string{"node0", "node1"} {
		n, _ := s.GetNode(name)
		assert.Empty(t, n.Spec.Taints, name)
	}
	simtest.Advance(s, DefaultNodeMonitorGracePeriod+time.Second)
	time2 := s.Clock().Now()
	setConditions(t, s, "node1", readyAt(api.ConditionTrue, time2, time1))
	check(s, c)
	n0, _ := s.GetNode("node0")
	assert.True(t, hasTaint(n0.Spec.Taints, api.TaintNodeUnreachable, api.TaintEffectNoExecute), "%v", n0.Spec.Taints)
	n1, _ := s.GetNode("node1")
	assert.Empty(t, n1.Spec.Taints)

	setConditions(t, s, "node0", readyAt(api.ConditionTrue, time2, time2))
	simtest.Advance(s, time.Second)
	check(s, c)
	n0, _ = s.GetNode("node0")
	assert.Empty(t, n0.Spec.Taints)
}

func TestMonitorNodeHealthMarkPodsNotReady(t *testing.T) {
	t.Parallel()
	// node_lifecycle_controller_test.go, TestMonitorNodeHealthMarkPodsNotReady:
	// a node whose status was updated recently leaves its pods alone; one
	// whose heartbeat is more than the grace period old (an hour) gets its
	// pods marked not ready, with the node and pod events.
	tests := []struct {
		name       string
		timeToPass time.Duration
		heartbeat  bool // the kubelet posts a new heartbeat before the second check
		wantMarked bool
	}{
		{name: "Node created long time ago, with status updated recently", timeToPass: time.Hour, heartbeat: true},
		{name: "Node created long time ago, with status updated by kubelet exceeds grace period", timeToPass: time.Hour, wantMarked: true},
		{name: "exactly the grace period: not more", timeToPass: DefaultNodeMonitorGracePeriod},
		{name: "a second more", timeToPass: DefaultNodeMonitorGracePeriod + time.Second, wantMarked: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 1})
			simtest.MustCreate(t, s, simtest.NewNode("node0", "4", "8Gi", 110))
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "pod0"}, Spec: api.PodSpec{NodeName: "node0",
				Containers: []api.Container{{Name: "c", Image: "x:1"}}}}
			pod.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
			simtest.MustCreate(t, s, pod)
			c := New(Options{NodeMonitorPeriod: time.Second})
			check(s, c)
			simtest.Advance(s, tc.timeToPass)
			if tc.heartbeat {
				now := s.Clock().Now()
				setConditions(t, s, "node0", readyAt(api.ConditionTrue, now, api.Epoch))
			}
			ctx := check(s, c)
			p, err := s.GetPod("default", "pod0")
			require.NoError(t, err)
			assert.Equal(t, tc.wantMarked, !api.IsPodReady(p))
			var reasons []string
			for _, e := range ctx.Emitted {
				reasons = append(reasons, e.Object+" "+e.Reason)
			}
			if tc.wantMarked {
				assert.Equal(t, []string{"node/node0 NodeNotReady", "pod/pod0 NodeNotReady"}, reasons)
			} else {
				assert.Empty(t, reasons)
			}
		})
	}
}

func TestChecksRunEveryNodeMonitorPeriod(t *testing.T) {
	t.Parallel()
	s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 1})
	simtest.MustCreate(t, s, simtest.NewNode("node0", "4", "8Gi", 110))
	c := New(Options{})
	var checks []int64
	for sec := int64(0); sec <= 20; sec++ {
		ctx := check(s, c)
		check(s, c) // a second round in the same second is no check
		_ = ctx
		if c.lastCheck.Equal(s.Clock().Now()) {
			checks = append(checks, sec)
		}
		simtest.Advance(s, time.Second)
	}
	assert.Equal(t, []int64{0, 5, 10, 15, 20}, checks)
}
