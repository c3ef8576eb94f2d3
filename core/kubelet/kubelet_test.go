package kubelet

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

func TestImagePresentSkipsPull(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.add(newPod("web-a", "node-1", "nginx:1.25"))
	h.sync()
	h.runTo(5)
	h.add(newPod("web-b", "node-1", "nginx:1.25"))
	h.sync()
	assert.Equal(t, []string{`Pulled: Container image "nginx:1.25" already present on machine and can be accessed by the pod`, "Created: Container created"}, h.reasons())
	h.tick()
	assert.True(t, ready(h.pod("web-b")), "running 1s after binding, no pull")
}

func TestConcurrentPodsShareAPull(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.add(newPod("web-a", "node-1", "nginx:1.25"))
	h.sync()
	h.tick()
	h.add(newPod("web-b", "node-1", "nginx:1.25"))
	h.sync()
	assert.Equal(t, []string{`Pulling: Pulling image "nginx:1.25"`}, h.reasons(), "the second pod pulls too, and waits for the same pull")
	h.tick()
	size := imageSize("nginx:1.25")
	assert.Equal(t, []string{
		"Pulled: " + msgPulled("nginx:1.25", 2*time.Second, 2*time.Second, size), "Created: Container created",
		"Pulled: " + msgPulled("nginx:1.25", time.Second, time.Second, size), "Created: Container created",
	}, h.reasons())
}

func TestPullPolicyAlwaysPullsAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"nginx": {PullSeconds: 4}})
	h.add(newPod("web-a", "node-1", "nginx")) // untagged: imagePullPolicy Always
	h.sync()
	require.Equal(t, "Always", h.pod("web-a").Spec.Containers[0].ImagePullPolicy)
	h.runTo(10)
	require.True(t, ready(h.pod("web-a")))
	h.add(newPod("web-b", "node-1", "nginx"))
	h.sync()
	assert.Equal(t, []string{`Pulling: Pulling image "nginx"`}, h.reasons())
	h.tick()
	assert.Equal(t, []string{"Pulled: " + msgPulled("nginx", time.Second, time.Second, imageSize("nginx")), "Created: Container created"}, h.reasons(),
		"a re-pull of an image the node has takes 1s")
	assert.Equal(t, "nginx", h.pod("web-b").Status.ContainerStatuses[0].Image, "the image as written until the container runs")
	h.tick()
	assert.Equal(t, "docker.io/library/nginx:latest", h.pod("web-b").Status.ContainerStatuses[0].Image, "then as the runtime reports it")
}

func TestPullFailBackOffSequence(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"bad:1": {PullFail: true, PullSeconds: -1}})
	h.add(newPod("web-x", "node-1", "bad:1"))
	h.sync()
	var attempts []int
	for h.now() < 2000 {
		for _, e := range h.last {
			if e.Reason == ReasonPulling {
				attempts = append(attempts, h.now())
			}
		}
		h.tick()
	}
	var gaps []int
	for i := 1; i < len(attempts); i++ {
		gaps = append(gaps, attempts[i]-attempts[i-1])
	}
	assert.Equal(t, []int{10, 20, 40, 80, 160, 300, 300, 300}, gaps[:8])
	w := h.pod("web-x").Status.ContainerStatuses[0].State.Waiting
	require.NotNil(t, w)
	assert.Equal(t, "ImagePullBackOff", w.Reason)
	assert.Equal(t, `Back-off pulling image "bad:1": ErrImagePull: `+pullError("bad:1"), w.Message)
}

func TestGracefulTermination(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		image       string
		images      map[string]Image
		deleteAt    int
		grace       int64
		wantKilling bool
		wantGoneAt  int
	}{
		{name: "running pod: Killing, stopped at once, removed 1s later", image: "nginx:1.25", deleteAt: 10, grace: 30, wantKilling: true, wantGoneAt: 11},
		{name: "grace 1: removed at the deletionTimestamp", image: "nginx:1.25", deleteAt: 10, grace: 1, wantKilling: true, wantGoneAt: 11},
		{name: "pod still pulling: removed in the same sync", image: "nginx:1.25", deleteAt: 1, grace: 30, wantGoneAt: 1},
		{name: "pod in CrashLoopBackOff: nothing to stop, removed at once", image: "crash:1", images: map[string]Image{"crash:1": {CrashAfterSeconds: 1}},
			deleteAt: 20, grace: 30, wantGoneAt: 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, tc.images)
			h.add(newPod("web-x", "node-1", tc.image, withGrace(tc.grace)))
			h.sync()
			h.runTo(tc.deleteAt)
			require.NoError(t, h.s.Delete(api.KindPod, "default", "web-x", store.DeleteOptions{}))
			h.sync()
			killing := false
			for _, e := range h.last {
				if e.Reason == ReasonKilling {
					killing = true
					assert.Equal(t, "Stopping container web", e.Message)
				}
			}
			assert.Equal(t, tc.wantKilling, killing)
			if tc.wantGoneAt == tc.deleteAt {
				assert.True(t, h.gone("web-x"))
				return
			}
			p := h.pod("web-x")
			assert.Equal(t, "Completed", state(p))
			assert.Equal(t, api.PodSucceeded, p.Status.Phase)
			assert.False(t, ready(p))
			assert.False(t, h.k.Serving(p, h.s.Clock().Now()))
			h.runTo(tc.wantGoneAt - 1)
			assert.False(t, h.gone("web-x"))
			h.runTo(tc.wantGoneAt)
			assert.True(t, h.gone("web-x"))
			assert.Zero(t, h.k.pods.Len(), "the state of a removed pod is dropped")
		})
	}
}

func TestNodeDownAndUp(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, "node-1", "node-2")
	h.add(newPod("web-a", "node-1", "nginx:1.25"))
	h.add(newPod("web-b", "node-1", "nginx:1.25"))
	h.sync()
	h.runTo(5)
	require.NoError(t, h.k.SetNodeDown("node-1", true))
	assert.True(t, h.k.NodeDown("node-1"))
	assert.False(t, h.k.Serving(h.pod("web-a"), at(5)), "an app on a down node does not answer")
	h.add(newPod("web-c", "node-1", "nginx:1.25"))
	require.NoError(t, h.s.Delete(api.KindPod, "default", "web-b", store.DeleteOptions{}))
	h.runTo(100)
	assert.Equal(t, at(0), api.GetNodeCondition(&h.node("node-1").Status, api.NodeReady).LastHeartbeatTime.Time, "no heartbeat while down")
	assert.Equal(t, at(100), api.GetNodeCondition(&h.node("node-2").Status, api.NodeReady).LastHeartbeatTime.Time)
	assert.Empty(t, h.pod("web-c").Status.ContainerStatuses, "a down kubelet does not start pods")
	assert.NotNil(t, h.pod("web-b").DeletionTimestamp, "nor remove deleted ones")
	assert.Equal(t, controller.SyncRecord{Controller: "kubelet", Object: "node/node-1", Observed: "kubelet down: 3 pods not synced",
		Waiting: "kubelet stopped (node-down fault)"}, h.record("node-1"))

	// The node lifecycle controller marks the node Unknown meanwhile.
	n := h.node("node-1")
	x := *n
	x.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown, Reason: "NodeStatusUnknown",
		Message: "Kubelet stopped posting node status.", LastHeartbeatTime: api.NewTime(at(0)), LastTransitionTime: api.NewTime(at(50))}}
	_, err := h.s.UpdateStatus(&x)
	require.NoError(t, err)

	require.NoError(t, h.k.SetNodeDown("node-1", false))
	h.tick()
	ready1 := api.GetNodeCondition(&h.node("node-1").Status, api.NodeReady)
	assert.Equal(t, api.ConditionTrue, ready1.Status)
	assert.Equal(t, "KubeletReady", ready1.Reason)
	assert.Equal(t, at(101), ready1.LastTransitionTime.Time)
	assert.Contains(t, h.reasons(), "NodeReady: Node node-1 status is now: NodeReady")
	assert.Contains(t, h.reasons(), "Killing: Stopping container web")
	assert.True(t, h.gone("web-b"), "a pod deleted while the kubelet was down is killed and removed once it is back")
	assert.Equal(t, "ContainerCreating", state(h.pod("web-c")))
	assert.True(t, ready(h.pod("web-a")))
}

func TestKubeletOwnsPodReadiness(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.add(newPod("web-a", "node-1", "nginx:1.25"))
	h.sync()
	h.runTo(5)
	// The node lifecycle controller marks the pod not ready and the taint
	// manager adds DisruptionTarget; the kubelet restores Ready and keeps the
	// condition it does not own.
	p := h.pod("web-a")
	x := *p
	x.Status = p.Status.DeepCopy()
	api.GetPodCondition(&x.Status, api.PodReady).Status = api.ConditionFalse
	x.Status.Conditions = append([]api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "DeletionByTaintManager"}}, x.Status.Conditions...)
	_, err := h.s.UpdateStatus(&x)
	require.NoError(t, err)
	h.tick()
	got := h.pod("web-a")
	assert.True(t, ready(got))
	assert.Equal(t, at(6), api.GetPodCondition(&got.Status, api.PodReady).LastTransitionTime.Time)
	assert.Equal(t, api.DisruptionTarget, got.Status.Conditions[0].Type)
	assert.Equal(t, []string{api.DisruptionTarget, api.PodReadyToStartContainers, api.PodInitialized, api.PodReady, api.ContainersReady, api.PodScheduled},
		condTypes(got))
}

func condTypes(p *api.Pod) []string {
	var out []string
	for _, c := range p.Status.Conditions {
		out = append(out, c.Type)
	}
	return out
}

func TestHeartbeats(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.sync()
	n := h.node("node-1")
	assert.Equal(t, []string{"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}, nodeCondTypes(n), "the kubelet posts the pressure conditions")
	for _, c := range n.Status.Conditions {
		assert.Equal(t, at(0), c.LastHeartbeatTime.Time)
	}
	for sec := 1; sec <= 30; sec++ {
		h.tick()
		hb := api.GetNodeCondition(&h.node("node-1").Status, api.NodeReady).LastHeartbeatTime.Time
		assert.Equal(t, at(sec/10*10), hb, "at %ds", sec)
		if sec%10 != 0 {
			assert.Zero(t, h.writes, "no write between heartbeats, at %ds", sec)
		}
	}
	r := api.GetNodeCondition(&h.node("node-1").Status, api.NodeReady)
	assert.Equal(t, at(0), r.LastTransitionTime.Time)
	assert.Equal(t, "kubelet is posting ready status", r.Message)
}

func nodeCondTypes(n *api.Node) []string {
	var out []string
	for _, c := range n.Status.Conditions {
		out = append(out, c.Type)
	}
	return out
}

func TestNodeWithoutConditionsGetsThem(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, "node-1")
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "bare"}}
	n.Status.Addresses = []api.NodeAddress{{Type: "InternalIP", Address: "192.168.1.7"}}
	simtest.MustCreate(t, h.s, n)
	h.add(newPod("web-a", "bare", "nginx:1.25"))
	h.sync()
	assert.Equal(t, []string{"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}, nodeCondTypes(h.node("bare")))
	assert.Contains(t, h.reasons(), "NodeReady: Node bare status is now: NodeReady")
	assert.Equal(t, "192.168.1.7", h.pod("web-a").Status.HostIP)
	assert.Equal(t, "10.244.2.2", h.pod("web-a").Status.PodIP)
}

// TestIdempotent runs a busy node and checks that a second Sync at the same
// second writes nothing and emits nothing.
func TestIdempotent(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"bad:1": {PullFail: true}, "crash:1": {CrashAfterSeconds: 4}, "warm:1": {ReadySeconds: 7}})
	h.add(newPod("web-a", "node-1", "nginx:1.25"))
	h.add(newPod("web-b", "node-1", "bad:1"))
	h.add(newPod("web-c", "node-1", "crash:1"))
	h.add(newPod("web-d", "node-1", "warm:1", withProbe(1, 2, 1, 1)))
	h.sync()
	for h.now() < 200 {
		if h.now() == 50 {
			require.NoError(t, h.s.Delete(api.KindPod, "default", "web-a", store.DeleteOptions{}))
		}
		h.tick()
		h.sync()
		assert.Zero(t, h.writes, "second sync at %ds writes nothing", h.now())
		assert.Empty(t, h.last, "second sync at %ds emits nothing", h.now())
	}
}

func TestCloneIsIndependent(t *testing.T) {
	t.Parallel()
	images := map[string]Image{"crash:1": {CrashAfterSeconds: 3}, "bad:1": {PullFail: true}}
	h := newHarness(t, images, "node-1", "node-2")
	h.add(newPod("web-a", "node-1", "crash:1"))
	h.add(newPod("web-b", "node-2", "bad:1"))
	h.add(newPod("web-c", "node-2", "nginx:1.25", withProbe(0, 5, 1, 3)))
	h.sync()
	h.runTo(20)

	c := &harness{t: t, s: h.s.Clone(h.s.Clock().Clone()), k: h.k.Clone().(*Controller)}
	snapshot := func(x *harness) string {
		b, err := json.Marshal(x.s.Pods())
		require.NoError(t, err)
		return string(b)
	}
	before := snapshot(c)
	require.NoError(t, h.k.SetNodeDown("node-2", true))
	require.NoError(t, h.k.CrashPod("default", "web-c"))
	h.runTo(80)
	assert.False(t, c.k.NodeDown("node-2"), "a fault on the original does not reach the clone")
	assert.Equal(t, before, snapshot(c), "the clone's store did not move")

	// The clone and a fresh run of the original from the same point agree.
	c2 := &harness{t: t, s: c.s.Clone(c.s.Clock().Clone()), k: c.k.Clone().(*Controller)}
	c.runTo(120)
	c2.runTo(120)
	assert.Equal(t, snapshot(c), snapshot(c2))
	assert.Equal(t, fmt.Sprint(c.log.Records), fmt.Sprint(c2.log.Records))
}

func TestCrashPodFault(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.add(newPod("web-a", "node-1", "nginx:1.25"))
	h.sync()
	err := h.k.CrashPod("default", "web-a")
	assert.ErrorIs(t, err, ErrNotRunning, "still pulling")
	assert.EqualError(t, err, `pod "web-a": pod is not running`)
	assert.ErrorIs(t, h.k.CrashPod("default", "nope"), ErrPodNotFound)
	h.runTo(5)
	require.NoError(t, h.k.CrashPod("", "web-a"))
	assert.False(t, h.k.Serving(h.pod("web-a"), at(5)), "the app is gone at once; the kubelet notices at its next sync")
	assert.True(t, ready(h.pod("web-a")))
	h.sync()
	p := h.pod("web-a")
	assert.Equal(t, "Error", state(p))
	assert.False(t, ready(p))
	term := p.Status.ContainerStatuses[0].State.Terminated
	assert.Equal(t, int32(1), term.ExitCode)
	assert.Equal(t, at(3), term.StartedAt.Time)
	assert.Equal(t, at(5), term.FinishedAt.Time)
	h.tick()
	assert.Equal(t, int32(1), restarts(h.pod("web-a")), "the first restart is at once")
	assert.Equal(t, at(5), h.pod("web-a").Status.ContainerStatuses[0].LastTerminationState.Terminated.FinishedAt.Time)
}

func TestServing(t *testing.T) {
	t.Parallel()
	images := map[string]Image{"warm:1": {ReadySeconds: 10}, "broken:1": {NeverReady: true}, "crash:1": {CrashAfterSeconds: 5}}
	tests := []struct {
		name  string
		image string
		at    int
		want  bool
	}{
		{name: "pulling", image: "nginx:1.25", at: 1, want: false},
		{name: "running", image: "nginx:1.25", at: 3, want: true},
		{name: "running but warming up: Ready without a probe, not serving", image: "warm:1", at: 12, want: false},
		{name: "warm", image: "warm:1", at: 13, want: true},
		{name: "neverReady", image: "broken:1", at: 30, want: false},
		{name: "crashed", image: "crash:1", at: 8, want: false},
		{name: "in CrashLoopBackOff", image: "crash:1", at: 16, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, images)
			h.add(newPod("web-x", "node-1", tc.image))
			h.sync()
			h.runTo(tc.at)
			p := h.pod("web-x")
			assert.Equal(t, tc.want, h.k.Serving(p, h.s.Clock().Now()))
			if tc.image == "warm:1" && tc.at == 12 {
				assert.True(t, ready(p))
			}
		})
	}
	h := newHarness(t, nil)
	assert.False(t, h.k.Serving(nil, at(0)))
	assert.False(t, h.k.Serving(newPod("web-y", "node-1", "nginx:1.25"), at(0)), "a pod the kubelet never saw")
}

func TestMultiContainerPod(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.add(newPod("web-x", "node-1", "nginx:1.25", withContainer("agent", "busybox:1.36")))
	h.sync()
	assert.Equal(t, []string{`Pulling: Pulling image "nginx:1.25"`}, h.reasons(), "containers start one after the other")
	h.runTo(4)
	p := h.pod("web-x")
	require.Len(t, p.Status.ContainerStatuses, 2)
	assert.Equal(t, "agent", p.Status.ContainerStatuses[0].Name, "statuses are sorted by name")
	assert.Equal(t, "ContainerCreating", state(p))
	assert.Equal(t, api.PodPending, p.Status.Phase)
	r := api.GetPodCondition(&p.Status, api.PodReady)
	assert.Equal(t, "containers with unready status: [agent]", r.Message)
	h.runTo(6)
	p = h.pod("web-x")
	assert.True(t, ready(p))
	assert.Equal(t, api.PodRunning, p.Status.Phase)
}

func TestPodIPs(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, "node-1", "node-2")
	h.add(newPod("a", "node-1", "nginx:1.25"))
	h.add(newPod("b", "node-2", "nginx:1.25"))
	h.add(newPod("c", "node-1", "nginx:1.25"))
	h.sync()
	assert.Equal(t, "10.244.1.2", h.pod("a").Status.PodIP)
	assert.Equal(t, "10.244.2.2", h.pod("b").Status.PodIP)
	assert.Equal(t, "10.244.1.3", h.pod("c").Status.PodIP)
	assert.Equal(t, "172.18.0.2", h.pod("a").Status.HostIP)
	assert.Equal(t, "172.18.0.3", h.pod("b").Status.HostIP)
	require.NoError(t, h.s.Delete(api.KindPod, "default", "a", store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
	h.add(newPod("d", "node-1", "nginx:1.25"))
	h.tick()
	assert.Equal(t, "10.244.1.4", h.pod("d").Status.PodIP, "host-local hands out the next address, not the freed one")
}

func TestNoPodIPLeft(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	for i := 0; i < 253; i++ {
		h.add(newPod(fmt.Sprintf("p-%03d", i), "node-1", "nginx:1.25"))
	}
	h.runTo(10)
	h.add(newPod("last", "node-1", "nginx:1.25"))
	h.sync()
	assert.Empty(t, h.pod("last").Status.PodIP)
	assert.Equal(t, []string{ReasonSandboxFailed + ": " + msgNoIPs("node-1", 1)}, h.reasons())
	ps, _ := h.k.pods.Get(h.pod("last").UID)
	l := nodeLog{}
	l.count(ps)
	assert.Equal(t, "no pod IP free for last: retry in 10s", l.waitText(at(10)))
	require.NoError(t, h.s.Delete(api.KindPod, "default", "p-100", store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
	h.runTo(19)
	failures := 0
	for _, e := range h.events {
		if e.Reason == ReasonSandboxFailed {
			failures++
		}
	}
	assert.Equal(t, 1, failures, "the failure is reported once")
	assert.Empty(t, h.pod("last").Status.PodIP)
	h.runTo(20)
	assert.Equal(t, "10.244.1.102", h.pod("last").Status.PodIP, "the freed address")
}

func TestFaultErrors(t *testing.T) {
	t.Parallel()
	k := New(Options{})
	require.NoError(t, k.SetNodeDown("node-9", true), "before the first sync any node name is taken")
	assert.True(t, k.NodeDown("node-9"))
	assert.ErrorIs(t, k.SetNodeDown("", true), ErrNodeNotFound)
	h := newHarness(t, nil)
	h.sync()
	err := h.k.SetNodeDown("node-9", true)
	assert.ErrorIs(t, err, ErrNodeNotFound)
	assert.EqualError(t, err, `node "node-9": node not found`)
	assert.False(t, h.k.NodeDown("node-9"))
}

func TestSyncRecords(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"bad:1": {PullFail: true}, "crash:1": {CrashAfterSeconds: 2}})
	h.add(newPod("web-a", "node-1", "nginx:1.25"))
	h.add(newPod("web-b", "node-1", "bad:1"))
	h.add(newPod("web-c", "node-1", "crash:1"))
	h.add(newPod("web-d", "node-1", "nginx:1.25", withProbe(10, 10, 1, 3)))
	h.sync()
	assert.Equal(t, controller.SyncRecord{Controller: "kubelet", Object: "node/node-1", Observed: "4 pods: 4 pulling",
		Action: "pull nginx:1.25 for web-a; pull bad:1 for web-b; pull crash:1 for web-c; pull nginx:1.25 for web-d"}, h.record("node-1"))
	h.tick()
	assert.Equal(t, "pulling nginx:1.25 for web-a: 1s left (+3 more)", h.record("node-1").Waiting)
	h.runTo(3)
	assert.Equal(t, "4 pods: 3 running (2 ready), 1 image pull back-off", h.record("node-1").Observed)
	h.tick()
	assert.Equal(t, "back-off 10s pulling bad:1 for web-b: 8s left (+1 more)", h.record("node-1").Waiting)
	h.runTo(13)
	assert.Equal(t, controller.SyncRecord{Controller: "kubelet", Object: "node/node-1", Observed: "4 pods: 2 running, 1 pulling, 1 crash-looping",
		Action: "container web in pod web-d is ready"}, h.record("node-1"))
	h.runTo(15)
	assert.Equal(t, "back-off 10s for web-c: 3s left (+1 more)", h.record("node-1").Waiting)
	h.runTo(18)
	assert.Equal(t, "starting container web in pod web-c: 1s left (+1 more)", h.record("node-1").Waiting)

	e := newHarness(t, nil)
	e.sync()
	e.tick()
	assert.Equal(t, controller.SyncRecord{Controller: "kubelet", Object: "node/node-1", Observed: "0 pods", InSync: true}, e.record("node-1"))
}

func TestManyActionsAreCapped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	for i := 0; i < 8; i++ {
		h.add(newPod(fmt.Sprintf("p-%d", i), "node-1", "nginx:1.25"))
	}
	h.sync()
	assert.Equal(t, "pull nginx:1.25 for p-0; pull nginx:1.25 for p-1; pull nginx:1.25 for p-2; pull nginx:1.25 for p-3; pull nginx:1.25 for p-4; and 3 more",
		h.record("node-1").Action)
}

func TestPodsOfUnknownNodesAreIgnored(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	h.add(newPod("lost", "node-7", "nginx:1.25"))
	h.add(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "pending"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "x:1"}}}})
	h.sync()
	assert.Empty(t, h.pod("lost").Status.ContainerStatuses)
	assert.Empty(t, h.pod("pending").Status.ContainerStatuses)
	assert.Zero(t, h.k.pods.Len())
}

func TestErrorsAreSentinels(t *testing.T) {
	t.Parallel()
	assert.False(t, errors.Is(ErrNotRunning, ErrPodNotFound))
}
