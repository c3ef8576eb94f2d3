package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// harness runs the kubelets against a real store on a fake clock.
type harness struct {
	t      testing.TB
	s      *store.Store
	k      *Controller
	events []store.EmittedEvent // every event so far
	last   []store.EmittedEvent // the events of the last Sync
	log    controller.SyncLog   // the records of the last Sync
	writes int64                // store resourceVersion growth in the last Sync
}

func newHarness(t testing.TB, images map[string]Image, nodes ...string) *harness {
	t.Helper()
	h := &harness{t: t, s: simtest.NewStore(), k: New(Options{Images: images})}
	if len(nodes) == 0 {
		nodes = []string{"node-1"}
	}
	for _, n := range nodes {
		simtest.MustCreate(t, h.s, simtest.NewNode(n, "4", "8Gi", 110))
	}
	return h
}

// sync runs one Sync at the current time.
func (h *harness) sync() {
	h.t.Helper()
	p := simtest.Sync(h.s, h.k)
	h.writes, h.last, h.log = p.Writes, p.Emitted, *p.Log
	h.events = append(h.events, p.Emitted...)
}

// tick advances the clock one second and syncs.
func (h *harness) tick() {
	h.t.Helper()
	simtest.Advance(h.s, time.Second)
	h.sync()
}

// runTo ticks until the clock reads t seconds after the epoch.
func (h *harness) runTo(sec int) {
	h.t.Helper()
	for h.s.Clock().Seconds() < int64(sec) {
		h.tick()
	}
}

func (h *harness) now() int { return int(h.s.Clock().Seconds()) }

// podOption changes a pod built by newPod.
type podOption func(*api.Pod)

// newPod is a pod with one container "web" running image, bound to node.
func newPod(name, node, image string, opts ...podOption) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: api.NamespaceDefault, Labels: map[string]string{"app": "web"}}}
	p.Spec.NodeName = node
	p.Spec.Containers = []api.Container{{Name: "web", Image: image}}
	for _, o := range opts {
		o(p)
	}
	return p
}

func withProbe(initialDelay, period, success, failure int32) podOption {
	return func(p *api.Pod) {
		p.Spec.Containers[0].ReadinessProbe = &api.Probe{HTTPGet: api.Raw(`{"path":"/healthz","port":8080}`),
			InitialDelaySeconds: initialDelay, PeriodSeconds: period, SuccessThreshold: success, FailureThreshold: failure}
	}
}

// httpProbe is an httpGet probe of /healthz on port 8080 with the API's
// defaults for the fields left zero.
func httpProbe(initialDelay, period, failure int32) *api.Probe {
	pr := &api.Probe{HTTPGet: api.Raw(`{"path":"/healthz","port":8080}`), InitialDelaySeconds: initialDelay,
		PeriodSeconds: period, FailureThreshold: failure, SuccessThreshold: 1, TimeoutSeconds: 1}
	if pr.PeriodSeconds == 0 {
		pr.PeriodSeconds = 10
	}
	if pr.FailureThreshold == 0 {
		pr.FailureThreshold = 3
	}
	return pr
}

func withLiveness(pr *api.Probe) podOption {
	return func(p *api.Pod) { p.Spec.Containers[0].LivenessProbe = pr }
}

func withStartup(pr *api.Probe) podOption {
	return func(p *api.Pod) { p.Spec.Containers[0].StartupProbe = pr }
}

func withReadiness(pr *api.Probe) podOption {
	return func(p *api.Pod) { p.Spec.Containers[0].ReadinessProbe = pr }
}

func withPreStop(h api.LifecycleHandler) podOption {
	return func(p *api.Pod) { p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PreStop: &h} }
}

func withRestartPolicy(policy string) podOption {
	return func(p *api.Pod) { p.Spec.RestartPolicy = policy }
}

func withPullPolicy(policy string) podOption {
	return func(p *api.Pod) { p.Spec.Containers[0].ImagePullPolicy = policy }
}

func withGrace(s int64) podOption {
	return func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = api.Int64(s) }
}

func withContainer(name, image string) podOption {
	return func(p *api.Pod) {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: name, Image: image})
	}
}

func (h *harness) add(p *api.Pod) *api.Pod {
	h.t.Helper()
	return simtest.MustCreate(h.t, h.s, p)
}

func (h *harness) pod(name string) *api.Pod {
	h.t.Helper()
	p, err := h.s.GetPod(api.NamespaceDefault, name)
	require.NoError(h.t, err)
	return p
}

func (h *harness) gone(name string) bool {
	_, err := h.s.GetPod(api.NamespaceDefault, name)
	return err != nil
}

func (h *harness) node(name string) *api.Node {
	h.t.Helper()
	n, err := h.s.GetNode(name)
	require.NoError(h.t, err)
	return n
}

// state is the container status of the pod's first container in one word:
// its waiting or terminated reason, or "Running".
func state(p *api.Pod) string {
	if len(p.Status.ContainerStatuses) == 0 {
		return ""
	}
	s := p.Status.ContainerStatuses[0].State
	switch {
	case s.Waiting != nil:
		return s.Waiting.Reason
	case s.Terminated != nil:
		return s.Terminated.Reason
	case s.Running != nil:
		return "Running"
	}
	return "?"
}

func ready(p *api.Pod) bool { return api.IsPodReady(p) }

func restarts(p *api.Pod) int32 {
	if len(p.Status.ContainerStatuses) == 0 {
		return -1
	}
	return p.Status.ContainerStatuses[0].RestartCount
}

// reasons lists "Reason: message" of the last Sync's events.
func (h *harness) reasons() []string {
	out := make([]string, 0, len(h.last))
	for _, e := range h.last {
		out = append(out, e.Reason+": "+e.Message)
	}
	return out
}

func (h *harness) record(node string) controller.SyncRecord {
	h.t.Helper()
	for _, r := range h.log.Records {
		if r.Object == "node/"+node {
			return r
		}
	}
	h.t.Fatalf("no record for node %s in %+v", node, h.log.Records)
	return controller.SyncRecord{}
}

func at(sec int) time.Time { return api.Epoch.Add(time.Duration(sec) * time.Second) }
