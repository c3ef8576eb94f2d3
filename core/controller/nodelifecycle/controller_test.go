package nodelifecycle

import (
	"fmt"
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

type harness struct {
	t      *testing.T
	s      *store.Store
	c      *Controller
	alive  map[string]bool // nodes whose fake kubelet posts heartbeats
	last   []store.EmittedEvent
	log    controller.SyncLog
	writes int64
}

func newHarness(t *testing.T, o Options, tolerationSeconds int64, nodes ...string) *harness {
	t.Helper()
	s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 1, DefaultTolerationSeconds: tolerationSeconds})
	h := &harness{t: t, s: s, c: New(o), alive: map[string]bool{}}
	for _, n := range nodes {
		simtest.MustCreate(t, s, simtest.NewNode(n, "4", "8Gi", 110))
		h.alive[n] = true
	}
	return h
}

// kubelets post heartbeats every 10s for the nodes that are alive, as the
// kubelet would (after the control plane in a tick).
func (h *harness) kubelets() {
	now := h.s.Clock().Now()
	for _, n := range h.s.Nodes() {
		if !h.alive[n.Name] {
			continue
		}
		r := api.GetNodeCondition(&n.Status, api.NodeReady)
		if r != nil && r.Status == api.ConditionTrue && now.Sub(r.LastHeartbeatTime.Time) < 10*time.Second {
			continue
		}
		x := *n
		x.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady",
			Message: "kubelet is posting ready status", LastHeartbeatTime: api.NewTime(now), LastTransitionTime: api.NewTime(now)}}
		if r != nil && r.Status == api.ConditionTrue {
			x.Status.Conditions[0].LastTransitionTime = r.LastTransitionTime
		}
		_, err := h.s.UpdateStatus(&x)
		require.NoError(h.t, err)
	}
}

func (h *harness) sync() {
	h.t.Helper()
	ctx := &controller.Context{Store: h.s, Log: &controller.SyncLog{}}
	before := h.s.ResourceVersion()
	h.c.Sync(ctx)
	h.writes = h.s.ResourceVersion() - before
	h.last, h.log = ctx.Emitted, *ctx.Log
}

// runTo runs ticks (controller, then kubelets) until second sec.
func (h *harness) runTo(sec int) {
	h.t.Helper()
	for h.s.Clock().Seconds() < int64(sec) {
		simtest.Advance(h.s, time.Second)
		h.sync()
		h.kubelets()
	}
}

func (h *harness) node(name string) *api.Node {
	n, err := h.s.GetNode(name)
	require.NoError(h.t, err)
	return n
}

func (h *harness) pod(name string) *api.Pod {
	p, err := h.s.GetPod("default", name)
	require.NoError(h.t, err)
	return p
}

func (h *harness) addPod(name, node string, tolerations ...api.Toleration) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PodSpec{NodeName: node, Tolerations: tolerations,
		Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}}
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(api.Epoch)}}
	return simtest.MustCreate(h.t, h.s, p)
}

func (h *harness) record(node string) controller.SyncRecord {
	for _, r := range h.log.Records {
		if r.Object == "node/"+node {
			return r
		}
	}
	h.t.Fatalf("no record for %s", node)
	return controller.SyncRecord{}
}

func (h *harness) events() []string {
	var out []string
	for _, e := range h.last {
		out = append(out, e.Source+" "+e.Type+" "+e.Reason+" "+e.Object+": "+e.Message)
	}
	return out
}

func taintStrings(n *api.Node) []string {
	var out []string
	for _, t := range n.Spec.Taints {
		s := t.Key + ":" + t.Effect
		if t.TimeAdded != nil {
			s += fmt.Sprintf("@%d", int(t.TimeAdded.Sub(api.Epoch).Seconds()))
		}
		out = append(out, s)
	}
	return out
}

func at(sec int) time.Time { return api.Epoch.Add(time.Duration(sec) * time.Second) }

func TestLostNodeTimeline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		opts        Options
		toleration  int64
		diesAt      int
		wantUnknown int // first second with Ready=Unknown
		wantEvicted int
	}{
		// Checks every 5s from 0s. The heartbeat of 0s was seen at the check
		// of 0s: at 50s exactly the grace period has passed, which is not
		// more than it; the check of 55s marks the node.
		{name: "defaults: grace 50s, tolerationSeconds 300", diesAt: 5, wantUnknown: 55, wantEvicted: 355},
		// The last heartbeat (10s) is seen at the check of 15s: 15+50 < 70.
		{name: "the last observed heartbeat counts, not the death", diesAt: 15, wantUnknown: 70, wantEvicted: 370},
		{name: "custom timings: grace 20s, tolerationSeconds 60", opts: Options{NodeMonitorGracePeriod: 20 * time.Second, PodEvictionTimeout: time.Minute},
			toleration: 60, diesAt: 5, wantUnknown: 25, wantEvicted: 85},
		{name: "checks every second", opts: Options{NodeMonitorPeriod: time.Second}, diesAt: 5, wantUnknown: 51, wantEvicted: 351},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tc.opts, tc.toleration, "node-1", "node-2", "node-3")
			h.addPod("web-a", "node-2")
			h.addPod("web-b", "node-1")
			h.sync()
			h.kubelets()
			h.runTo(tc.diesAt)
			h.alive["node-2"] = false
			h.runTo(tc.wantUnknown - 1)
			assert.Equal(t, api.ConditionTrue, api.GetNodeCondition(&h.node("node-2").Status, api.NodeReady).Status)
			assert.Empty(t, h.node("node-2").Spec.Taints)
			h.runTo(tc.wantUnknown)
			n := h.node("node-2")
			r := api.GetNodeCondition(&n.Status, api.NodeReady)
			assert.Equal(t, api.ConditionUnknown, r.Status)
			assert.Equal(t, "NodeStatusUnknown", r.Reason)
			assert.Equal(t, "Kubelet stopped posting node status.", r.Message)
			assert.Equal(t, at(tc.wantUnknown), r.LastTransitionTime.Time)
			assert.Equal(t, []string{
				fmt.Sprintf("node.kubernetes.io/unreachable:NoSchedule@%d", tc.wantUnknown),
				fmt.Sprintf("node.kubernetes.io/unreachable:NoExecute@%d", tc.wantUnknown)}, taintStrings(n))
			assert.Equal(t, []string{
				"node-controller Normal NodeNotReady node/node-2: Node node-2 status is now: NodeNotReady",
				"node-controller Warning NodeNotReady pod/web-a: Node is not ready"}, h.events())
			assert.False(t, api.IsPodReady(h.pod("web-a")))
			assert.True(t, api.IsPodReady(h.pod("web-b")), "pods on other nodes are untouched")
			assert.Equal(t, at(tc.wantUnknown), api.GetPodCondition(&h.pod("web-a").Status, api.PodReady).LastTransitionTime.Time)

			h.runTo(tc.wantEvicted - 1)
			assert.Nil(t, h.pod("web-a").DeletionTimestamp)
			assert.Equal(t, "pods on node-2 evicted in 1s", h.record("node-2").Waiting)
			h.runTo(tc.wantEvicted)
			assert.Equal(t, []string{"taint-eviction-controller Normal TaintManagerEviction pod/web-a: Marking for deletion Pod default/web-a"}, h.events())
			p := h.pod("web-a")
			require.NotNil(t, p.DeletionTimestamp, "deleted gracefully: Terminating until a kubelet confirms")
			dt := api.GetPodCondition(&p.Status, api.DisruptionTarget)
			require.NotNil(t, dt)
			assert.Equal(t, "DeletionByTaintManager", dt.Reason)
			assert.Equal(t, "Taint manager: deleting due to NoExecute taint", dt.Message)
			h.runTo(tc.wantEvicted + 5)
			assert.Empty(t, h.events(), "a Terminating pod is not evicted again")
		})
	}
}

func TestRecoveryRemovesTaints(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}, 0, "node-1", "node-2")
	h.addPod("web-a", "node-2")
	h.sync()
	h.alive["node-2"] = false
	h.runTo(60)
	require.Len(t, h.node("node-2").Spec.Taints, 2)
	h.alive["node-2"] = true
	h.kubelets() // the kubelet comes back and posts Ready
	simtest.Advance(h.s, time.Second)
	h.sync()
	assert.Equal(t, []string{"node.kubernetes.io/unreachable:NoExecute@55"}, taintStrings(h.node("node-2")),
		"the NoSchedule taint follows the condition at once; the NoExecute one waits for the next check")
	assert.Equal(t, "remove taint node.kubernetes.io/unreachable:NoSchedule", h.record("node-2").Action)
	h.runTo(64)
	assert.Len(t, h.node("node-2").Spec.Taints, 1)
	h.runTo(65)
	assert.Empty(t, h.node("node-2").Spec.Taints)
	assert.Equal(t, []string{"taint-eviction-controller Normal TaintManagerEviction pod/web-a: Cancelling deletion of Pod default/web-a"}, h.events())
	assert.Equal(t, "remove taint node.kubernetes.io/unreachable:NoExecute; cancel the eviction of 1 pod", h.record("node-2").Action)
	h.sync()
	assert.Zero(t, h.writes, "idempotent once recovered")
}

func TestCordonTaint(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}, 0, "node-1")
	h.sync()
	n := h.node("node-1")
	x := *n
	x.Spec.Unschedulable = true
	x.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}}
	_, err := h.s.Update(&x)
	require.NoError(t, err)
	h.runTo(3)
	assert.Equal(t, []string{"dedicated:NoSchedule", "node.kubernetes.io/unschedulable:NoSchedule@1"}, taintStrings(h.node("node-1")))
	assert.Equal(t, "Ready, last heartbeat 3s ago, cordoned", h.record("node-1").Observed)
	n = h.node("node-1")
	x = *n
	x.Spec.Unschedulable = false
	_, err = h.s.Update(&x)
	require.NoError(t, err)
	h.runTo(4)
	assert.Equal(t, []string{"dedicated:NoSchedule"}, taintStrings(h.node("node-1")), "a taint the controller does not manage stays")
}

func TestTaintEvictionTolerations(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}, 0, "node-1", "node-2")
	n := h.node("node-2")
	x := *n
	x.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoExecute, TimeAdded: api.NewTimePtr(at(0))}}
	_, err := h.s.Update(&x)
	require.NoError(t, err)
	h.addPod("intolerant", "node-2")
	h.addPod("forever", "node-2", api.Toleration{Key: "dedicated", Operator: "Exists", Effect: api.TaintEffectNoExecute})
	h.addPod("briefly", "node-2", api.Toleration{Key: "dedicated", Operator: "Equal", Value: "db", Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Int64(30)})
	h.addPod("wrong-value", "node-2", api.Toleration{Key: "dedicated", Operator: "Equal", Value: "web"})
	h.runTo(1)
	assert.NotNil(t, h.pod("intolerant").DeletionTimestamp, "not tolerated: evicted at once")
	assert.NotNil(t, h.pod("wrong-value").DeletionTimestamp)
	assert.Nil(t, h.pod("forever").DeletionTimestamp)
	assert.Nil(t, h.pod("briefly").DeletionTimestamp)
	assert.Equal(t, "evict 2 pods", h.record("node-2").Action)
	h.runTo(2)
	assert.Equal(t, "pods on node-2 evicted in 28s", h.record("node-2").Waiting)
	h.runTo(29)
	assert.Nil(t, h.pod("briefly").DeletionTimestamp)
	h.runTo(30)
	assert.NotNil(t, h.pod("briefly").DeletionTimestamp, "30s after the taint was added")
	h.runTo(400)
	assert.Nil(t, h.pod("forever").DeletionTimestamp)
}

func TestDisruption(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		nodes, dead   int
		wantNoExecute bool
		wantWaiting   string
	}{
		{name: "one of three nodes lost: normal eviction", nodes: 3, dead: 1, wantNoExecute: true},
		{name: "every node lost: full disruption stops evictions", nodes: 1, dead: 1,
			wantWaiting: "all nodes not ready: evictions stopped (full disruption)"},
		{name: "3 of 4 lost: a small zone in partial disruption gets no NoExecute taint", nodes: 4, dead: 3,
			wantWaiting: "zone partially disrupted: not tainting node-1 NoExecute"},
		{name: "2 of 3 lost: not more than 2 unhealthy, normal", nodes: 3, dead: 2, wantNoExecute: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var names []string
			for i := 1; i <= tc.nodes; i++ {
				names = append(names, fmt.Sprintf("node-%d", i))
			}
			h := newHarness(t, Options{}, 0, names...)
			h.addPod("web-a", "node-1")
			for i := 0; i < tc.dead; i++ {
				h.alive[names[i]] = false
			}
			h.runTo(60)
			n := h.node("node-1")
			assert.Equal(t, api.ConditionUnknown, api.GetNodeCondition(&n.Status, api.NodeReady).Status)
			assert.Contains(t, taintStrings(n), "node.kubernetes.io/unreachable:NoSchedule@56", "NoSchedule taints are not rate limited (first check at 1s: probe 1s, Unknown at 56s)")
			assert.Equal(t, tc.wantNoExecute, hasTaint(n.Spec.Taints, api.TaintNodeUnreachable, api.TaintEffectNoExecute))
			if tc.wantWaiting != "" {
				assert.Equal(t, tc.wantWaiting, h.record("node-1").Waiting)
				h.runTo(400)
				assert.Nil(t, h.pod("web-a").DeletionTimestamp)
			}
		})
	}
}

func TestFullDisruptionRemovesNoExecuteTaints(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}, 0, "node-1", "node-2")
	h.alive["node-1"] = false
	h.runTo(60)
	require.True(t, hasTaint(h.node("node-1").Spec.Taints, api.TaintNodeUnreachable, api.TaintEffectNoExecute))
	h.alive["node-2"] = false
	h.runTo(120)
	assert.False(t, hasTaint(h.node("node-1").Spec.Taints, api.TaintNodeUnreachable, api.TaintEffectNoExecute),
		"once every node is lost the controller takes the NoExecute taints back")
	assert.False(t, hasTaint(h.node("node-2").Spec.Taints, api.TaintNodeUnreachable, api.TaintEffectNoExecute))
}

func TestNotReadyNode(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}, 0, "node-1", "node-2")
	h.addPod("web-a", "node-1")
	h.alive["node-1"] = false
	n := h.node("node-1")
	x := *n
	x.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionFalse, Reason: "KubeletNotReady",
		LastHeartbeatTime: api.NewTime(at(0)), LastTransitionTime: api.NewTime(at(0))}}
	_, err := h.s.UpdateStatus(&x)
	require.NoError(t, err)
	h.runTo(1) // the first check
	assert.Equal(t, []string{"node.kubernetes.io/not-ready:NoSchedule@1", "node.kubernetes.io/not-ready:NoExecute@1"}, taintStrings(h.node("node-1")))
	assert.True(t, api.IsPodReady(h.pod("web-a")), "no check saw the node leave Ready: its pods are its kubelet's business")
	h.runTo(51)
	assert.Equal(t, api.ConditionFalse, api.GetNodeCondition(&h.node("node-1").Status, api.NodeReady).Status,
		"the heartbeat was first seen at 1s: 51s is not more than 50s later")
	h.runTo(56)
	assert.Equal(t, []string{"node.kubernetes.io/unreachable:NoSchedule@56", "node.kubernetes.io/unreachable:NoExecute@1"},
		taintStrings(h.node("node-1")), "the NoExecute taint is swapped when the kubelet goes silent, keeping its time")
	assert.Nil(t, h.pod("web-a").DeletionTimestamp)
	h.runTo(301)
	assert.NotNil(t, h.pod("web-a").DeletionTimestamp, "300s after the first NoExecute taint")
}

func TestPodBoundToANotReadyNode(t *testing.T) {
	t.Parallel()
	// processPod: a pod that arrives on a node the last check saw not ready
	// is marked not ready at once; pods that were there before are not.
	h := newHarness(t, Options{}, 0, "node-1", "node-2")
	h.sync()
	h.alive["node-2"] = false
	h.runTo(55)
	require.Equal(t, api.ConditionUnknown, api.GetNodeCondition(&h.node("node-2").Status, api.NodeReady).Status)
	h.runTo(57)
	p := h.addPod("late", "node-2", api.Toleration{Key: api.TaintNodeUnreachable, Operator: "Exists"})
	require.True(t, api.IsPodReady(p))
	h.runTo(58)
	assert.False(t, api.IsPodReady(h.pod("late")))
	assert.Equal(t, []string{"node-controller Warning NodeNotReady pod/late: Node is not ready"}, h.events())
}

func TestNodeThatNeverPostedStatus(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}, 0)
	simtest.MustCreate(t, h.s, &api.Node{ObjectMeta: api.ObjectMeta{Name: "bare"}})
	h.runTo(60)
	assert.Empty(t, h.node("bare").Status.Conditions, "checks at 1s, 6s, ..., 56s; 60s is no check")
	assert.Equal(t, "no status posted yet, created 1m0s ago", h.record("bare").Observed)
	h.runTo(61)
	n := h.node("bare")
	require.Len(t, n.Status.Conditions, 4)
	for _, c := range n.Status.Conditions {
		assert.Equal(t, api.ConditionUnknown, c.Status)
		assert.Equal(t, "NodeStatusNeverUpdated", c.Reason)
		assert.Equal(t, "Kubelet never posted node status.", c.Message)
	}
	assert.Empty(t, h.events(), "no NodeNotReady for a node that was never Ready")
}

func TestRecords(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}, 0, "node-1", "node-2")
	h.sync()
	h.kubelets()
	h.runTo(3)
	assert.Equal(t, controller.SyncRecord{Controller: "node-controller", Object: "node/node-1", Observed: "Ready, last heartbeat 3s ago", InSync: true},
		h.record("node-1"))
	h.alive["node-2"] = false
	h.runTo(30)
	assert.Equal(t, "no heartbeat for 30s: NotReady in 25s, pods evicted 5m0s later", h.record("node-2").Waiting)
	h.runTo(50)
	assert.Equal(t, "no heartbeat for 50s: NotReady in 5s, pods evicted 5m0s later", h.record("node-2").Waiting)
	h.runTo(55)
	assert.Equal(t, "mark Ready Unknown: no heartbeat for 55s; add taint node.kubernetes.io/unreachable:NoSchedule; add taint node.kubernetes.io/unreachable:NoExecute",
		h.record("node-2").Action)
	h.runTo(56)
	assert.Equal(t, controller.SyncRecord{Controller: "node-controller", Object: "node/node-2", Observed: "NotReady (Ready=Unknown), last heartbeat 56s ago",
		Waiting: "waiting for the kubelet of node-2 (no heartbeat for 56s)"}, h.record("node-2"))
}

func TestIdempotent(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{}, 0, "node-1", "node-2", "node-3")
	h.addPod("web-a", "node-2")
	h.addPod("web-b", "node-2", api.Toleration{Key: api.TaintNodeUnreachable, Operator: "Exists", Effect: api.TaintEffectNoExecute})
	h.alive["node-2"] = false
	for h.s.Clock().Seconds() < 400 {
		simtest.Advance(h.s, time.Second)
		h.sync()
		h.sync()
		assert.Zero(t, h.writes, "second sync at %ds", h.s.Clock().Seconds())
		assert.Empty(t, h.last)
		h.kubelets()
	}
	clone := h.c.Clone().(*Controller)
	assert.Equal(t, h.c.health, clone.health)
	clone.health["node-1"] = nodeHealth{}
	assert.NotEqual(t, h.c.health["node-1"], clone.health["node-1"], "the clone's node health is its own")
	assert.Equal(t, Component, h.c.Name())
}

func TestToleratesTaint(t *testing.T) {
	t.Parallel()
	taint := api.Taint{Key: "k", Value: "v", Effect: api.TaintEffectNoExecute}
	tests := []struct {
		name string
		tol  api.Toleration
		want bool
	}{
		{name: "exists, any effect", tol: api.Toleration{Key: "k", Operator: "Exists"}, want: true},
		{name: "equal value", tol: api.Toleration{Key: "k", Value: "v"}, want: true},
		{name: "other value", tol: api.Toleration{Key: "k", Value: "w"}},
		{name: "other effect", tol: api.Toleration{Key: "k", Operator: "Exists", Effect: api.TaintEffectNoSchedule}},
		{name: "other key", tol: api.Toleration{Key: "j", Operator: "Exists"}},
		{name: "empty key with Exists tolerates everything", tol: api.Toleration{Operator: "Exists"}, want: true},
		{name: "unknown operator", tol: api.Toleration{Key: "k", Operator: "Gt", Value: "v"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, ToleratesTaint(tc.tol, taint))
		})
	}
}

func TestMinTolerationTime(t *testing.T) {
	t.Parallel()
	secs := api.Int64
	tests := []struct {
		name string
		tols []api.Toleration
		want time.Duration
	}{
		{name: "none: now", want: 0},
		{name: "forever", tols: []api.Toleration{{}}, want: -1},
		{name: "shortest", tols: []api.Toleration{{TolerationSeconds: secs(300)}, {TolerationSeconds: secs(60)}, {}}, want: time.Minute},
		{name: "negative means now", tols: []api.Toleration{{TolerationSeconds: secs(-5)}, {TolerationSeconds: secs(60)}}, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, minTolerationTime(tc.tols))
		})
	}
}
