// Package endpoints is the endpoints controller of kube-controller-manager,
// and the model of the requests a Service receives (Traffic).
//
// For every Service with a selector the controller keeps an Endpoints object
// of the same name: each pod the selector matches (whoever owns it) that has
// a pod IP, is not being deleted and has not finished is listed once per
// port set, under addresses when it is Ready and notReadyAddresses when it
// is not. Addresses are sorted by IP (as strings, as kube does) then uid;
// more than 1000 are truncated as kube does, with the annotation
// endpoints.kubernetes.io/over-capacity: truncated. An Endpoints object the
// controller made is deleted once its Service is gone.
package endpoints

import (
	"maps"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/humanize"
	"converge/core/labels"
	"converge/core/store"
)

// Component is the endpoints controller's name, the one its events, sync
// records and managed-by label carry (sim.TickOrder lists every component's).
const Component = "endpoint-controller"

// Labels and annotations of the Endpoints objects the controller writes.
const (
	LabelManagedBy              = "endpoints.kubernetes.io/managed-by"
	LabelHeadless               = "service.kubernetes.io/headless"
	AnnotationLastChangeTrigger = "endpoints.kubernetes.io/last-change-trigger-time"
	AnnotationOverCapacity      = "endpoints.kubernetes.io/over-capacity"
	// MaxCapacity is how many addresses an Endpoints object holds at most.
	MaxCapacity = 1000
)

// Controller is the endpoints controller.
type Controller struct {
	// seen is, per Service ("namespace/name"), what its Endpoints were last
	// computed from; a Service whose inputs did not change is not recomputed.
	seen map[string]*svcState
	// read is what the last Sync read (the store and when its pods,
	// Services and Endpoints last changed) when it ended, and records its
	// sync records: a Sync that finds none of them changed since has
	// nothing to do and repeats them.
	read    watched
	records []controller.SyncRecord
	// scratch of one Sync (not state)
	matched [][]*api.Pod
	entries []entry
	tmp     []entry
	sel     []entry
}

// signature identifies the inputs of one Service's Endpoints: every write
// gives an object a resourceVersion larger than all before it, so the count
// of matching pods and their largest resourceVersion change whenever a pod
// joins, leaves or changes (a pod leaving alone lowers the count).
type signature struct {
	pods      int
	podRV     string
	serviceRV string
	endpoints string // resourceVersion of the Endpoints after the last Sync
}

// svcState is what one Service's Endpoints were computed from: the
// signature of the inputs and, for each matched pod in store order, the
// fields the Endpoints show. A Sync whose pods differ only in fields the
// Endpoints do not show (a restart count, a new condition) stops there.
type svcState struct {
	sig  signature
	snap []snap
}

type snap struct {
	uid, ip, node, name string
	key                 uint64 // ipOrderKey(ip)
	keyOK               bool
	ready               bool
}

func (st *svcState) same(pods []*api.Pod) bool {
	if len(st.snap) != len(pods) {
		return false
	}
	for i, p := range pods {
		s := &st.snap[i]
		if s.uid != p.UID || s.ip != p.Status.PodIP || s.node != p.Spec.NodeName || s.name != p.Name || s.ready != api.IsPodReady(p) {
			return false
		}
	}
	return true
}

func (st *svcState) remember(sig signature, pods []*api.Pod) {
	st.sig = sig
	old := len(st.snap)
	if cap(st.snap) < len(pods) {
		st.snap = append(st.snap[:cap(st.snap)], make([]snap, len(pods)-cap(st.snap))...)
	}
	st.snap = st.snap[:len(pods)]
	for i, p := range pods {
		s := &st.snap[i]
		if i >= old || s.uid != p.UID || s.ip != p.Status.PodIP {
			*s = snap{uid: p.UID, ip: p.Status.PodIP}
			s.key, s.keyOK = ipOrderKey(s.ip)
		}
		s.node, s.name, s.ready = p.Spec.NodeName, p.Name, api.IsPodReady(p)
	}
}

// keys gives each entry the order key of its pod's IP, from the snapshot
// when the pod sits where it sat last time; it reports false when an IP has
// no key.
func (st *svcState) keys(es []entry, pods []*api.Pod) bool {
	for j := range es {
		i := int(es[j].i)
		p := pods[i]
		if st != nil && i < len(st.snap) && st.snap[i].uid == p.UID && st.snap[i].ip == p.Status.PodIP {
			es[j].key = st.snap[i].key
			if !st.snap[i].keyOK {
				return false
			}
			continue
		}
		k, ok := ipOrderKey(p.Status.PodIP)
		if !ok {
			return false
		}
		es[j].key = k
	}
	return true
}

var _ controller.Controller = (*Controller)(nil)

// New returns the endpoints controller.
func New() *Controller { return &Controller{seen: map[string]*svcState{}} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller.
func (c *Controller) Clone() controller.Controller {
	out := &Controller{seen: make(map[string]*svcState, len(c.seen)), read: c.read, records: append([]controller.SyncRecord(nil), c.records...)}
	for k, v := range c.seen {
		out.seen[k] = &svcState{sig: v.sig, snap: append([]snap(nil), v.snap...)}
	}
	return out
}

// Sync brings every selector Service's Endpoints in line with the pods its
// selector matches, and deletes the Endpoints the controller made for
// Services that are gone. It writes only what changed.
func (c *Controller) Sync(ctx *controller.Context) {
	s := ctx.Store
	if c.records != nil && watchedIn(s) == c.read {
		for _, r := range c.records {
			ctx.Record(r)
		}
		return
	}
	first := 0
	if ctx.Log != nil {
		first = len(ctx.Log.Records)
	}
	svcs := s.Services()
	sigs := c.matchPods(s, svcs)
	keep := make(map[string]bool, len(svcs))
	for i, svc := range svcs {
		key := svc.Namespace + "/" + svc.Name
		keep[key] = true
		if len(svc.Spec.Selector) == 0 {
			delete(c.seen, key)
			continue
		}
		sigs[i].serviceRV = svc.ResourceVersion
		c.syncService(ctx, svc, key, c.matched[i], sigs[i])
	}
	c.deleteOrphans(ctx, keep)
	for key := range c.seen {
		if !keep[key] {
			delete(c.seen, key)
		}
	}
	c.rememberRecords(s, ctx.Log, first)
}

// matchPods sets c.matched[i] to the pods, in store order, that belong in
// the Endpoints of svcs[i] (none for a Service without a selector), and
// returns the signature of each Service's pods.
func (c *Controller) matchPods(s *store.Store, svcs []*api.Service) []signature {
	sels := make([]labels.Selector, len(svcs))
	byNS := map[string][]int{}
	for i, svc := range svcs {
		if len(svc.Spec.Selector) > 0 {
			sels[i] = labels.SelectorFromSet(svc.Spec.Selector)
			byNS[svc.Namespace] = append(byNS[svc.Namespace], i)
		}
	}
	if cap(c.matched) < len(svcs) {
		c.matched = make([][]*api.Pod, len(svcs))
	}
	c.matched = c.matched[:len(svcs)]
	sigs := make([]signature, len(svcs))
	for i := range c.matched {
		clear(c.matched[i])
		c.matched[i] = c.matched[i][:0]
	}
	if len(byNS) == 0 {
		return sigs
	}
	lastNS, idx := "", []int(nil)
	s.EachPod(func(p *api.Pod) bool {
		if !inEndpoints(p) {
			return true
		}
		if p.Namespace != lastNS || idx == nil {
			lastNS, idx = p.Namespace, byNS[p.Namespace]
		}
		for _, i := range idx {
			if sels[i].Matches(p.Labels) {
				c.matched[i] = append(c.matched[i], p)
				sigs[i].pods++
				if rvLess(sigs[i].podRV, p.ResourceVersion) {
					sigs[i].podRV = p.ResourceVersion
				}
			}
		}
		return true
	})
	return sigs
}

// rememberRecords keeps what the next Sync would record if nothing is
// written before it: this Sync's Service records, in sync. A failed write
// (a record that waits) keeps nothing, so that the next Sync looks again.
func (c *Controller) rememberRecords(s *store.Store, log *controller.SyncLog, first int) {
	c.read, c.records = watchedIn(s), []controller.SyncRecord{}
	if log == nil {
		return
	}
	for _, r := range log.Records[first:] {
		if !strings.HasPrefix(r.Object, "service/") {
			continue
		}
		if r.Waiting != "" {
			c.records = nil
			return
		}
		r.Action, r.InSync = "", true
		c.records = append(c.records, r)
	}
}

// watched is what a Sync reads: which store, and when its pods, Services
// and Endpoints last changed.
type watched struct {
	store                     *store.Identity
	pods, services, endpoints int64
}

func watchedIn(s *store.Store) watched {
	return watched{s.Identity(), s.Changes(api.KindPod).Any(), s.Changes(api.KindService).Any(), s.Changes(api.KindEndpoints).Any()}
}

// inEndpoints is ShouldPodBeInEndpoints without publishNotReadyAddresses:
// not finished, has an IP, not being deleted.
func inEndpoints(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.Status.PodIP != "" && p.DeletionTimestamp == nil
}

// rvLess compares resourceVersions (decimal, no leading zeros).
func rvLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// syncService is syncService for one Service.
func (c *Controller) syncService(ctx *controller.Context, svc *api.Service, key string, pods []*api.Pod, sig signature) {
	s := ctx.Store
	var cur *api.Endpoints
	if o, err := s.Get(api.KindEndpoints, svc.Namespace, svc.Name); err == nil {
		cur = o.(*api.Endpoints)
		sig.endpoints = cur.ResourceVersion
	}
	ready, notReady := countReady(pods)
	rec := controller.SyncRecord{Controller: Component, Object: "service/" + svc.Name,
		Observed: humanize.Count(len(pods), "pod") + " (" + strconv.Itoa(ready) + " ready, " + strconv.Itoa(notReady) + " not ready)"}
	st := c.seen[key]
	if st == nil {
		st = &svcState{}
		c.seen[key] = st
	}
	if cur != nil && st.sig.serviceRV == sig.serviceRV && st.sig.endpoints == sig.endpoints &&
		(st.sig == sig || st.same(pods)) {
		st.sig = sig
		rec.InSync = true
		ctx.Record(rec)
		return
	}
	subsets, truncated := c.desired(svc, pods, st)
	wantLabels := endpointsLabels(svc)
	if cur != nil && subsetsEqual(cur.Subsets, subsets) && maps.Equal(cur.Labels, wantLabels) &&
		(cur.Annotations[AnnotationOverCapacity] == "truncated") == truncated {
		st.remember(sig, pods)
		rec.InSync = true
		ctx.Record(rec)
		return
	}
	ep := newEndpoints(svc, cur, subsets, wantLabels, truncated, s.Now())
	verb, out, err := writeEndpoints(s, ep, cur == nil)
	if err != nil {
		rec.Waiting = "could not " + verb + " endpoints " + svc.Name + ": " + err.Error()
		st.sig = signature{}
		ctx.Record(rec)
		return
	}
	sig.endpoints = out.GetObjectMeta().ResourceVersion
	st.remember(sig, pods)
	rec.Action = verb + " endpoints " + svc.Name + ": " + strconv.Itoa(ready) + " ready, " + strconv.Itoa(notReady) + " not ready"
	if truncated {
		rec.Action += " (truncated to " + strconv.Itoa(MaxCapacity) + ")"
	}
	ctx.Record(rec)
}

// newEndpoints is the Endpoints object to write for svc: cur's metadata
// (none when cur is nil) with the wanted labels, the subsets, the
// last-change-trigger-time annotation at now and the over-capacity one when
// the addresses were truncated.
func newEndpoints(svc *api.Service, cur *api.Endpoints, subsets []api.EndpointSubset, wantLabels map[string]string,
	truncated bool, now api.Time) *api.Endpoints {
	ep := &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: svc.Name, Namespace: svc.Namespace, Labels: wantLabels}, Subsets: subsets}
	ann := map[string]string{}
	if cur != nil {
		ep.ObjectMeta = cur.ObjectMeta.DeepCopy()
		ep.Labels = wantLabels
		for k, v := range cur.Annotations {
			ann[k] = v
		}
	}
	ann[AnnotationLastChangeTrigger] = now.UTC().Format(time.RFC3339Nano)
	delete(ann, AnnotationOverCapacity)
	if truncated {
		ann[AnnotationOverCapacity] = "truncated"
	}
	ep.Annotations = ann
	return ep
}

// writeEndpoints creates ep (when create) or updates it, and says which it did.
func writeEndpoints(s *store.Store, ep *api.Endpoints, create bool) (verb string, out api.Object, err error) {
	if create {
		out, err = s.Create(ep)
		return "create", out, err
	}
	out, err = s.Update(ep)
	return "update", out, err
}

func countReady(pods []*api.Pod) (ready, notReady int) {
	for _, p := range pods {
		if api.IsPodReady(p) {
			ready++
		} else {
			notReady++
		}
	}
	return ready, notReady
}

// endpointsLabels is the Service's labels plus the controller's own label and,
// for a headless Service, the headless label.
func endpointsLabels(svc *api.Service) map[string]string {
	l := make(map[string]string, len(svc.Labels)+2)
	for k, v := range svc.Labels {
		l[k] = v
	}
	l[LabelManagedBy] = Component
	if svc.Spec.ClusterIP == "None" {
		l[LabelHeadless] = ""
	}
	return l
}

// deleteOrphans deletes the Endpoints the controller made for Services that
// no longer exist. (A Service that lost its selector keeps its Endpoints, as
// in kube: they are then somebody else's to manage.)
func (c *Controller) deleteOrphans(ctx *controller.Context, services map[string]bool) {
	for _, ep := range ctx.Store.EndpointsList() {
		if ep.Labels[LabelManagedBy] != Component || services[ep.Namespace+"/"+ep.Name] {
			continue
		}
		if err := ctx.Store.Delete(api.KindEndpoints, ep.Namespace, ep.Name, store.DeleteOptions{}); err == nil {
			ctx.Record(controller.SyncRecord{Controller: Component, Object: "endpoints/" + ep.Name,
				Action: "delete endpoints " + ep.Name + ": its service is gone"})
		}
	}
}
