package endpoints

import (
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

type harness struct {
	t      testing.TB
	s      *store.Store
	c      *Controller
	log    controller.SyncLog
	writes int64
}

func newHarness(t testing.TB) *harness {
	return &harness{t: t, s: simtest.NewStore(), c: New()}
}

func (h *harness) sync() {
	p := simtest.Sync(h.s, h.c)
	h.writes, h.log = p.Writes, *p.Log
}

type podOpt func(*api.Pod)

func ready(p *api.Pod) {
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
}
func notReady(p *api.Pod) {
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
}
func labelled(k, v string) podOpt  { return func(p *api.Pod) { p.Labels = map[string]string{k: v} } }
func inNamespace(ns string) podOpt { return func(p *api.Pod) { p.Namespace = ns } }
func phase(ph string) podOpt       { return func(p *api.Pod) { p.Status.Phase = ph } }
func port(name string, n int32) podOpt {
	return func(p *api.Pod) {
		p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, api.ContainerPort{Name: name, ContainerPort: n})
	}
}

func (h *harness) pod(name, node, ip string, opts ...podOpt) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}}
	p.Status.PodIP = ip
	p.Status.Phase = api.PodRunning
	for _, o := range opts {
		o(p)
	}
	return simtest.MustCreate(h.t, h.s, p)
}

func (h *harness) setReady(name string, ok bool) {
	p, err := h.s.GetPod("default", name)
	require.NoError(h.t, err)
	x := *p
	x.Status = p.Status.DeepCopy()
	x.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
	if ok {
		x.Status.Conditions[0].Status = api.ConditionTrue
	}
	_, err = h.s.UpdateStatus(&x)
	require.NoError(h.t, err)
}

func (h *harness) service(name string, selector map[string]string, ports ...api.ServicePort) *api.Service {
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"tier": "front"}},
		Spec: api.ServiceSpec{Selector: selector, Ports: ports}}
	return simtest.MustCreate(h.t, h.s, svc)
}

func (h *harness) endpoints(name string) *api.Endpoints {
	o, err := h.s.Get(api.KindEndpoints, "default", name)
	if err != nil {
		return nil
	}
	return o.(*api.Endpoints)
}

func ips(as []api.EndpointAddress) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.IP)
	}
	return out
}

func TestEndpointsContent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tp := api.FromInt(8080)
	h.service("web", map[string]string{"app": "web"}, api.ServicePort{Name: "http", Port: 80, TargetPort: &tp})
	h.pod("web-a", "node-1", "10.244.1.9", ready)
	h.pod("web-b", "node-2", "10.244.2.2", notReady)
	h.pod("web-c", "node-1", "10.244.1.10", ready)
	h.pod("bare", "node-2", "10.244.2.7", ready)                              // matched whoever owns it
	h.pod("no-ip", "node-1", "", ready)                                       // no IP yet
	h.pod("done", "node-1", "10.244.1.3", ready, phase(api.PodSucceeded))     // finished
	h.pod("other", "node-1", "10.244.1.4", ready, labelled("app", "api"))     // not selected
	h.pod("elsewhere", "node-1", "10.244.1.5", ready, inNamespace("staging")) // another namespace
	h.pod("leaving", "node-1", "10.244.1.6", ready)
	require.NoError(t, h.s.Delete(api.KindPod, "default", "leaving", store.DeleteOptions{}))
	h.sync()

	ep := h.endpoints("web")
	require.NotNil(t, ep)
	require.Len(t, ep.Subsets, 1)
	sub := ep.Subsets[0]
	assert.Equal(t, []string{"10.244.1.10", "10.244.1.9", "10.244.2.7"}, ips(sub.Addresses), "sorted by IP as strings")
	assert.Equal(t, []string{"10.244.2.2"}, ips(sub.NotReadyAddresses))
	assert.Equal(t, []api.EndpointPort{{Name: "http", Port: 8080, Protocol: "TCP"}}, sub.Ports)
	a := sub.Addresses[0]
	assert.Equal(t, "node-1", a.NodeName)
	require.NotNil(t, a.TargetRef)
	assert.Equal(t, api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-c", UID: a.TargetRef.UID}, *a.TargetRef)
	assert.NotEmpty(t, a.TargetRef.UID)
	assert.Equal(t, map[string]string{"tier": "front", "endpoints.kubernetes.io/managed-by": "endpoint-controller"}, ep.Labels)
	assert.Equal(t, "2026-01-01T00:00:00Z", ep.Annotations[AnnotationLastChangeTrigger])
	assert.Equal(t, controller.SyncRecord{Controller: Component, Object: "service/web", Observed: "4 pods (3 ready, 1 not ready)",
		Action: "create endpoints web: 3 ready, 1 not ready"}, h.log.Records[0])

	h.sync()
	assert.Zero(t, h.writes, "nothing changed: nothing written")
	assert.True(t, h.log.Records[0].InSync)

	simtest.Advance(h.s, 5*time.Second)
	h.setReady("web-b", true)
	h.sync()
	ep = h.endpoints("web")
	assert.Equal(t, []string{"10.244.1.10", "10.244.1.9", "10.244.2.2", "10.244.2.7"}, ips(ep.Subsets[0].Addresses))
	assert.Empty(t, ep.Subsets[0].NotReadyAddresses)
	assert.Equal(t, "2026-01-01T00:00:05Z", ep.Annotations[AnnotationLastChangeTrigger])
	h.sync()
	assert.Zero(t, h.writes)

	// A pod change that does not show in the Endpoints writes nothing.
	p, err := h.s.GetPod("default", "web-a")
	require.NoError(t, err)
	x := *p
	x.Status.Phase = api.PodRunning
	x.Status.Message = "something else"
	_, err = h.s.UpdateStatus(&x)
	require.NoError(t, err)
	h.sync()
	assert.Zero(t, h.writes)
}

func TestEndpointsFollowTheService(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.service("web", map[string]string{"app": "web"}, api.ServicePort{Port: 80})
	h.service("external", nil, api.ServicePort{Port: 80})
	h.pod("web-a", "node-1", "10.244.1.2", ready)
	simtest.MustCreate(t, h.s, &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: "manual"}})
	h.sync()
	require.NotNil(t, h.endpoints("web"))
	assert.Nil(t, h.endpoints("external"), "a Service without a selector gets no Endpoints from the controller")

	require.NoError(t, h.s.Delete(api.KindService, "default", "web", store.DeleteOptions{}))
	h.sync()
	assert.Nil(t, h.endpoints("web"), "deleted with its Service")
	assert.NotNil(t, h.endpoints("manual"), "Endpoints the controller did not make stay")
	assert.Equal(t, "delete endpoints web: its service is gone", h.log.Records[len(h.log.Records)-1].Action)
	h.sync()
	assert.Zero(t, h.writes)

	// The Service comes back: its Endpoints too.
	h.service("web", map[string]string{"app": "web"}, api.ServicePort{Port: 80})
	h.sync()
	require.NotNil(t, h.endpoints("web"))
	assert.Equal(t, []string{"10.244.1.2"}, ips(h.endpoints("web").Subsets[0].Addresses))
}

func TestEndpointsWithoutPods(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.service("web", map[string]string{"app": "web"}, api.ServicePort{Port: 80})
	h.sync()
	ep := h.endpoints("web")
	require.NotNil(t, ep, "created even with no pods")
	assert.Empty(t, ep.Subsets)
	assert.Equal(t, "0 pods (0 ready, 0 not ready)", h.log.Records[0].Observed)
}

func TestHeadlessAndPortless(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	headless := &api.Service{ObjectMeta: api.ObjectMeta{Name: "db"}, Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, ClusterIP: "None"}}
	simtest.MustCreate(t, h.s, headless)
	h.pod("web-a", "node-1", "10.244.1.2", ready)
	h.sync()
	db := h.endpoints("db")
	require.Len(t, db.Subsets, 1)
	assert.Equal(t, []string{"10.244.1.2"}, ips(db.Subsets[0].Addresses))
	assert.Nil(t, db.Subsets[0].Ports)
	assert.Equal(t, "", db.Labels[LabelHeadless])
	assert.Contains(t, db.Labels, LabelHeadless)
	portless := &api.Service{Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}}}
	subs, _ := h.c.desired(portless, []*api.Pod{h.s.Pods()[0]}, nil)
	assert.Empty(t, subs, "a ClusterIP Service without ports (which validation refuses) gets no addresses")
}

func TestNamedTargetPorts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	named := api.FromString("http")
	metrics := api.FromInt(9100)
	h.service("web", map[string]string{"app": "web"},
		api.ServicePort{Name: "web", Port: 80, TargetPort: &named}, api.ServicePort{Name: "metrics", Port: 9100, TargetPort: &metrics})
	h.pod("new", "node-1", "10.244.1.2", ready, port("http", 8080))
	h.pod("old", "node-1", "10.244.1.3", ready, port("http", 80))
	h.pod("none", "node-1", "10.244.1.4", notReady)
	h.sync()
	ep := h.endpoints("web")
	require.Len(t, ep.Subsets, 3)
	// Each port maps to the addresses that offer it; ports with the same
	// addresses share a subset.
	got := map[string][]string{}
	for _, s := range ep.Subsets {
		for _, p := range s.Ports {
			got[fmt.Sprintf("%s/%d", p.Name, p.Port)] = append(ips(s.Addresses), ips(s.NotReadyAddresses)...)
		}
	}
	assert.Equal(t, map[string][]string{
		"metrics/9100": {"10.244.1.2", "10.244.1.3", "10.244.1.4"},
		"web/80":       {"10.244.1.3"},
		"web/8080":     {"10.244.1.2"},
	}, got)
	h.sync()
	assert.Zero(t, h.writes, "the general case is idempotent too")
}

func TestTruncation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.service("web", map[string]string{"app": "web"}, api.ServicePort{Port: 80})
	for i := 0; i < 1200; i++ {
		opt := ready
		if i%4 == 0 {
			opt = notReady
		}
		h.pod(fmt.Sprintf("web-%04d", i), "node-1", fmt.Sprintf("10.%d.%d.%d", 244+i/65536, i/256%256, i%256), opt)
	}
	h.sync()
	ep := h.endpoints("web")
	assert.Len(t, ep.Subsets[0].Addresses, 900)
	assert.Len(t, ep.Subsets[0].NotReadyAddresses, 100)
	assert.Equal(t, "truncated", ep.Annotations[AnnotationOverCapacity])
	assert.Equal(t, "create endpoints web: 900 ready, 300 not ready (truncated to 1000)", h.log.Records[0].Action)
	h.sync()
	assert.Zero(t, h.writes)
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	addrs := func(n int) []api.EndpointAddress { return make([]api.EndpointAddress, n) }
	tests := []struct {
		name          string
		in            [][2]int // ready, not ready per subset
		want          [][2]int
		wantTruncated bool
	}{
		{name: "at capacity", in: [][2]int{{600, 400}}, want: [][2]int{{600, 400}}},
		{name: "too many ready: first 1000 ready, no not-ready", in: [][2]int{{1200, 300}}, want: [][2]int{{1000, 0}}, wantTruncated: true},
		{name: "room left for some not ready", in: [][2]int{{600, 900}}, want: [][2]int{{600, 400}}, wantTruncated: true},
		{name: "two subsets share the room by their share, rounded up", in: [][2]int{{700, 0}, {700, 0}}, want: [][2]int{{500, 0}, {500, 0}}, wantTruncated: true},
		{name: "uneven shares: the last gets what is left", in: [][2]int{{1001, 0}, {1000, 0}}, want: [][2]int{{501, 0}, {499, 0}}, wantTruncated: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var subs []api.EndpointSubset
			for _, s := range tc.in {
				subs = append(subs, api.EndpointSubset{Addresses: addrs(s[0]), NotReadyAddresses: addrs(s[1])})
			}
			assert.Equal(t, tc.wantTruncated, truncate(subs))
			var got [][2]int
			for _, s := range subs {
				got = append(got, [2]int{len(s.Addresses), len(s.NotReadyAddresses)})
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCloneIsIndependent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.service("web", map[string]string{"app": "web"}, api.ServicePort{Port: 80})
	h.pod("web-a", "node-1", "10.244.1.2", ready)
	h.sync()
	c := h.c.Clone().(*Controller)
	h.sync()
	require.NoError(t, h.s.Delete(api.KindService, "default", "web", store.DeleteOptions{}))
	h.sync()
	assert.Empty(t, h.c.seen)
	assert.Len(t, c.seen, 1, "the clone keeps its own memory")
	assert.Len(t, c.seen["default/web"].snap, 1)
	assert.Equal(t, Component, c.Name())
}

func TestUserEditedEndpointsAreRestored(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.service("web", map[string]string{"app": "web"}, api.ServicePort{Port: 80})
	h.pod("web-a", "node-1", "10.244.1.2", ready)
	h.sync()
	ep := h.endpoints("web").DeepCopy()
	ep.Subsets = nil
	ep.Labels = nil
	_, err := h.s.Update(ep)
	require.NoError(t, err)
	h.sync()
	assert.Equal(t, []string{"10.244.1.2"}, ips(h.endpoints("web").Subsets[0].Addresses))
	assert.Equal(t, Component, h.endpoints("web").Labels[LabelManagedBy])
}
