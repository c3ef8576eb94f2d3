// Package gc is the garbage collector of kube-controller-manager
// (pkg/controller/garbagecollector), plus the orphan part of the pod
// garbage collector (pkg/controller/podgc).
//
// Each Sync is one level-based pass of the collector's attemptToDelete and
// processDeletingDependents work (garbagecollector.go attemptToDeleteItem,
// classifyReferences, processDeletingDependentsItem):
//
//   - Every ReplicaSet and pod with ownerReferences, not itself being
//     deleted, has its owners classified: solid (the owner exists and is not
//     being deleted in the foreground), dangling (the owner is gone) or
//     waiting (the owner is being deleted in the foreground: it has a
//     deletionTimestamp and the foregroundDeletion finalizer).
//     With a solid owner left, the dangling and waiting references are
//     removed. Otherwise the object is deleted: in the foreground when an
//     owner waits for it and it has dependents of its own (so a ReplicaSet
//     of a Deployment deleted with --cascade=foreground waits for its pods
//     in turn), else with the policy its own finalizers ask for (background
//     by default; pods terminate gracefully).
//   - Every object being deleted in the foreground loses its
//     foregroundDeletion finalizer once no dependent that blocks it
//     (ownerReference with blockOwnerDeletion: true) exists any more; the
//     API server then removes it. Dependents go before their owners, so a
//     pod's removal lets its ReplicaSet and then its Deployment go in the
//     same pass.
//   - Pods terminating on a node that is not Ready and has the
//     node.kubernetes.io/out-of-service taint (podgc's gcTerminating, the
//     non-graceful node shutdown) are marked Failed and deleted with grace
//     period 0.
//
// Pods bound to a node that no longer exists are podgc's gcOrphaned, on
// its own clock (podgc.go): every 20 s, after the node has been missing for
// its 40 s quarantine.
//
// Orphan propagation needs nothing here: store.Delete strips the
// references in the same call. The collector's cycle detection (an owner
// and its dependent both deleting dependents) is not simulated: Converge's
// owners form no cycles. See docs/fidelity.md.
package gc

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// Component is the garbage collector's name, the one its sync records carry
// (sim.TickOrder lists every component's).
const Component = "garbage-collector-controller"

// Controller is the garbage collector. It keeps no state but what its last
// pass found (clean): a pass that finds nothing to do finds nothing again
// until an object is created or deleted, or an object has its metadata or
// spec written (its owners, node, deletion, finalizers, taints), or, while
// a pod is terminating, a node its status, which is what the real
// collector's informers would tell it.
type Controller struct {
	clean *cleanPass
	pods  podGC
}

// cleanPass is a pass that found nothing to collect, with what it read.
//
// The figures are the store's Changes: its membership (a create or delete of
// anything but an event) and the latest write of metadata or spec of any
// kind but events (owners, nodes, deletion timestamps, finalizers, taints).
// The nodes' status (Ready) matters only to terminating pods (podgc's
// out-of-service rule), so it is watched only when the pass saw one.
type cleanPass struct {
	store      *store.Identity
	membership int64
	meta       int64
	watchNodes bool
	nodeStatus int64
}

var _ controller.Controller = (*Controller)(nil)

// New returns the garbage collector.
func New() *Controller { return &Controller{} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller.
func (c *Controller) Clone() controller.Controller {
	return &Controller{clean: c.clean, pods: c.pods.clone()}
}

// Sync deletes the ReplicaSets and pods whose owners are all gone or being
// deleted in the foreground, strips the references to such owners from
// those with a solid owner left, takes the foregroundDeletion finalizer off
// owners whose blocking dependents are gone, and force-deletes pods bound
// to nodes that no longer exist. It skips the pass when nothing it reads
// changed since a pass that found nothing.
func (c *Controller) Sync(ctx *controller.Context) {
	s := ctx.Store
	if c.pods.due(ctx.Now()) {
		c.pods.gcOrphaned(ctx)
	}
	now := currentPass(s)
	if c.clean != nil && c.clean.same(s, now) {
		return
	}
	c.clean = nil
	w := s.Writes()
	records := 0
	if ctx.Log != nil {
		records = len(ctx.Log.Records)
	}
	terminating := c.collectAll(ctx)
	if s.Writes() == w && (ctx.Log == nil || len(ctx.Log.Records) == records) {
		if terminating {
			now.watchNodes, now.nodeStatus = true, s.Changes(api.KindNode).Status
		}
		c.clean = &now
	}
}

// currentPass is what a pass would read of s now, but for the nodes'
// status (see cleanPass).
func currentPass(s *store.Store) cleanPass {
	out := cleanPass{store: s.Identity(), membership: s.Membership()}
	for _, r := range api.Resources() {
		if r.Kind != api.KindEvent {
			out.meta = max(out.meta, s.Changes(r.Kind).Meta)
		}
	}
	return out
}

// same reports whether a pass now would read what the clean pass c read.
func (c *cleanPass) same(s *store.Store, now cleanPass) bool {
	if c.store != now.store || c.membership != now.membership || c.meta != now.meta {
		return false
	}
	return !c.watchNodes || c.nodeStatus == s.Changes(api.KindNode).Status
}

// collectAll is one pass over the ReplicaSets, then the pods, then the
// objects being deleted in the foreground. It reports whether it saw a
// terminating pod (whose fate depends on its node's status).
func (c *Controller) collectAll(ctx *controller.Context) (terminating bool) {
	s := ctx.Store
	g := &graph{store: s}
	for _, rs := range s.ReplicaSets() {
		if len(rs.OwnerReferences) == 0 || rs.DeletionTimestamp != nil {
			continue
		}
		g.attemptToDelete(ctx, rs, api.KindReplicaSet)
	}
	work, terminating := podWork(s)
	for _, w := range work {
		if w.outOfService {
			deleteOutOfServicePod(ctx, w.pod)
			continue
		}
		g.attemptToDelete(ctx, w.pod, api.KindPod)
	}
	g.processDeletingDependents(ctx)
	return terminating
}

// graph answers the collector's questions about owners and dependents for
// one pass. The index of dependents is built only when a question needs it,
// that is while something is being deleted in the foreground.
type graph struct {
	store *store.Store
	// dependents maps an owner's uid to the objects that reference it.
	dependents map[string][]dependent
}

// dependent is one object's reference to an owner.
type dependent struct {
	kind string
	obj  api.Object
	// blocking is the reference's blockOwnerDeletion.
	blocking bool
}

// dependentKinds are the kinds whose objects have ownerReferences, and the
// order in which owners deleting dependents are handled: dependents first.
var dependentKinds = []string{api.KindPod, api.KindReplicaSet}

func (g *graph) index() map[string][]dependent {
	if g.dependents != nil {
		return g.dependents
	}
	g.dependents = map[string][]dependent{}
	add := func(kind string, o api.Object) {
		for _, r := range o.GetObjectMeta().OwnerReferences {
			g.dependents[r.UID] = append(g.dependents[r.UID], dependent{kind: kind, obj: o, blocking: r.BlocksOwnerDeletion()})
		}
	}
	for _, rs := range g.store.ReplicaSets() {
		add(api.KindReplicaSet, rs)
	}
	g.store.EachPod(func(p *api.Pod) bool {
		if len(p.OwnerReferences) > 0 {
			add(api.KindPod, p)
		}
		return true
	})
	return g.dependents
}

// hasDependents reports whether any stored object references uid.
func (g *graph) hasDependents(uid string) bool {
	for _, d := range g.index()[uid] {
		if g.store.Exists(d.obj.GetObjectMeta().UID) {
			return true
		}
	}
	return false
}

// podItem is a pod the collector has to act on.
type podItem struct {
	pod *api.Pod
	// outOfService: the pod is terminating on a node that is not Ready and
	// has the node.kubernetes.io/out-of-service taint.
	outOfService bool
}

// podWork is the one pass over the pods: those terminating on an
// out-of-service node, and those (not terminating)
// with an ownerReference to an owner that is not solid (gone, or being
// deleted in the foreground). It reports too whether any pod is
// terminating.
func podWork(s *store.Store) (work []podItem, terminating bool) {
	outOfService := map[string]bool{}
	for _, n := range s.Nodes() {
		if !api.IsNodeReady(n) && hasTaintKey(n, api.TaintNodeOutOfService) {
			outOfService[n.Name] = true
		}
	}
	solid := func(uid string) bool {
		o, ok := s.ByUID(uid)
		return ok && !o.GetObjectMeta().IsDeletingDependents()
	}
	var uidSeen seenCache
	s.EachPod(func(p *api.Pod) bool {
		if p.DeletionTimestamp != nil {
			terminating = true
			if len(outOfService) > 0 && outOfService[p.Spec.NodeName] && !forceDeleted(p) {
				work = append(work, podItem{pod: p, outOfService: true})
			}
			return true
		}
		for _, r := range p.OwnerReferences {
			if !uidSeen.exists(r.UID, solid) {
				work = append(work, podItem{pod: p})
				break
			}
		}
		return true
	})
	return work, terminating
}

// seenCache remembers, for one pass, whether a string (a node name, an
// owner uid) names something that exists. Pods share these strings with
// their node and owner (the scheduler binds with the node's own name, the
// ReplicaSet writes its own uid), so the cache is keyed by the string's
// memory: a hit costs a pointer compare instead of hashing the string into a
// map. A miss (or another copy of the same text) just asks lookup.
type seenCache [256]struct {
	data *byte
	n    int
	ok   bool
}

func (c *seenCache) exists(s string, lookup func(string) bool) bool {
	d := unsafe.StringData(s)
	e := &c[(uint64(uintptr(unsafe.Pointer(d)))*0x9e3779b97f4a7c15)>>56]
	if e.data != d || e.n != len(s) {
		e.data, e.n, e.ok = d, len(s), lookup(s)
	}
	return e.ok
}

// references are an object's ownerReferences by classifyReferences.
type references struct {
	solid, dangling, waiting []api.OwnerReference
}

func (g *graph) classify(m *api.ObjectMeta) references {
	var out references
	for _, r := range m.OwnerReferences {
		owner, ok := g.store.ByUID(r.UID)
		switch {
		case !ok:
			out.dangling = append(out.dangling, r)
		case owner.GetObjectMeta().IsDeletingDependents():
			out.waiting = append(out.waiting, r)
		default:
			out.solid = append(out.solid, r)
		}
	}
	return out
}

// attemptToDelete is attemptToDeleteItem for an object with owners that is
// not being deleted itself.
func (g *graph) attemptToDelete(ctx *controller.Context, obj api.Object, kind string) {
	s, noun := ctx.Store, nounOf(kind)
	m := obj.GetObjectMeta()
	refs := g.classify(m)
	switch {
	case len(refs.dangling) == 0 && len(refs.waiting) == 0:
		return
	case len(refs.solid) > 0:
		next := obj.DeepCopyObject()
		next.GetObjectMeta().OwnerReferences = refs.solid
		if _, err := s.Update(next); err != nil && !errors.Is(err, store.ErrNotFound) {
			ctx.Record(controller.SyncRecord{Controller: Component, Object: store.ShortRef(kind, m.Name),
				Waiting: fmt.Sprintf("remove the dangling owner references of %s %s: %v", noun, m.Name, err)})
		}
		return
	}
	policy, how := store.DeletePropagationBackground, ""
	switch {
	case len(refs.waiting) > 0 && g.hasDependents(m.UID):
		policy, how = store.DeletePropagationForeground, " in the foreground"
	case m.HasFinalizer(api.FinalizerOrphanDependents):
		policy = store.DeletePropagationOrphan
	case m.HasFinalizer(api.FinalizerDeleteDependents):
		policy, how = store.DeletePropagationForeground, " in the foreground"
	}
	err := s.Delete(kind, m.Namespace, m.Name, store.DeleteOptions{PropagationPolicy: policy})
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	rec := controller.SyncRecord{Controller: Component, Object: store.ShortRef(kind, m.Name)}
	if err != nil {
		rec.Waiting = fmt.Sprintf("delete %s %s: %v", noun, m.Name, err)
	} else {
		rec.Action = fmt.Sprintf("delete %s %s%s: %s", noun, m.Name, how, ownersState(refs))
	}
	ctx.Record(rec)
}

// ownersState says why an object goes: "owner deployment/web is gone",
// "owners a/x, b/y are gone", "owner deployment/web is being deleted in
// the foreground", or both.
func ownersState(refs references) string {
	var parts []string
	if len(refs.dangling) > 0 {
		parts = append(parts, owners(refs.dangling, "is gone", "are gone"))
	}
	if len(refs.waiting) > 0 {
		parts = append(parts, owners(refs.waiting, "is being deleted in the foreground", "are being deleted in the foreground"))
	}
	return strings.Join(parts, "; ")
}

func owners(refs []api.OwnerReference, one, many string) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = store.ShortRef(r.Kind, r.Name)
	}
	if len(names) == 1 {
		return "owner " + names[0] + " " + one
	}
	return "owners " + strings.Join(names, ", ") + " " + many
}

// processDeletingDependents is processDeletingDependentsItem for every
// object being deleted in the foreground, dependents' kinds first: it takes
// the foregroundDeletion finalizer off an object whose blocking dependents
// are all gone (the API server then removes it), and otherwise says what it
// waits for. Its dependents themselves are handled by attemptToDelete.
func (g *graph) processDeletingDependents(ctx *controller.Context) {
	s := ctx.Store
	var deleting []api.Object
	var kinds []string
	for _, kind := range deletingKinds() {
		if kind == api.KindPod {
			s.EachPod(func(p *api.Pod) bool {
				if p.IsDeletingDependents() {
					deleting, kinds = append(deleting, p), append(kinds, kind)
				}
				return true
			})
			continue
		}
		for _, o := range s.List(kind) {
			if o.GetObjectMeta().IsDeletingDependents() {
				deleting, kinds = append(deleting, o), append(kinds, kind)
			}
		}
	}
	if len(deleting) == 0 {
		return
	}
	g.dependents = nil // rebuilt: this pass may have deleted some
	for i, o := range deleting {
		m := o.GetObjectMeta()
		kind := kinds[i]
		rec := controller.SyncRecord{Controller: Component, Object: store.ShortRef(kind, m.Name)}
		if blocking := g.blockingDependents(m.UID); len(blocking) > 0 {
			rec.Waiting = fmt.Sprintf("waiting for %s to be deleted before %s %s (foreground deletion)",
				dependentsPhrase(blocking), nounOf(kind), m.Name)
			ctx.Record(rec)
			continue
		}
		// The object as stored now: an earlier step of this pass may have changed it.
		cur, ok := s.ByUID(m.UID)
		if !ok {
			continue
		}
		next := cur.DeepCopyObject()
		nm := next.GetObjectMeta()
		kept := []string(nil)
		for _, f := range nm.Finalizers {
			if f != api.FinalizerDeleteDependents {
				kept = append(kept, f)
			}
		}
		nm.Finalizers = kept
		if _, err := s.Update(next); err != nil {
			if !errors.Is(err, store.ErrNotFound) {
				rec.Waiting = fmt.Sprintf("remove the %s finalizer of %s %s: %v", api.FinalizerDeleteDependents, nounOf(kind), m.Name, err)
				ctx.Record(rec)
			}
			continue
		}
		rec.Action = fmt.Sprintf("remove the %s finalizer of %s %s: no dependent blocks its deletion any more",
			api.FinalizerDeleteDependents, nounOf(kind), m.Name)
		ctx.Record(rec)
	}
}

// nounOf is how records name a kind: "replica set", "deployment", "pod".
func nounOf(kind string) string {
	if kind == api.KindReplicaSet {
		return "replica set"
	}
	return api.ResourceFor(kind).Singular
}

// deletingKinds are the kinds processDeletingDependents looks at, in its
// order: the dependents' kinds (pods, then ReplicaSets), then every other
// kind of the resource table but events.
func deletingKinds() []string {
	out := append([]string(nil), dependentKinds...)
	for _, r := range api.Resources() {
		if r.Kind == api.KindEvent || r.Kind == api.KindPod || r.Kind == api.KindReplicaSet {
			continue
		}
		out = append(out, r.Kind)
	}
	return out
}

// blockingDependents are the stored dependents of uid whose reference to it
// has blockOwnerDeletion (node.blockingDependents).
func (g *graph) blockingDependents(uid string) []dependent {
	var out []dependent
	for _, d := range g.index()[uid] {
		if d.blocking && g.store.Exists(d.obj.GetObjectMeta().UID) {
			out = append(out, d)
		}
	}
	return out
}

// dependentsPhrase is "replicaset/web-5d9c7b8f4" or "3 dependents
// (pod/a, pod/b, pod/c)", naming at most three.
func dependentsPhrase(ds []dependent) string {
	names := make([]string, 0, 3)
	for i, d := range ds {
		if i == 3 {
			names = append(names, fmt.Sprintf("%d more", len(ds)-3))
			break
		}
		names = append(names, store.ShortRef(d.kind, d.obj.GetObjectMeta().Name))
	}
	if len(ds) == 1 {
		return names[0]
	}
	return fmt.Sprintf("%d dependents (%s)", len(ds), strings.Join(names, ", "))
}

func hasTaintKey(n *api.Node, key string) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}

// forceDeleted reports a pod already deleted with grace 0 that only its
// finalizers hold.
func forceDeleted(p *api.Pod) bool {
	return p.DeletionTimestamp != nil && p.DeletionGracePeriodSeconds != nil && *p.DeletionGracePeriodSeconds == 0
}

// deleteOutOfServicePod is podgc's gcTerminating for one pod
// (markFailedAndDeletePod): a pod terminating on a node that is not Ready
// and tainted node.kubernetes.io/out-of-service (the non-graceful node
// shutdown) is marked Failed and force-deleted, since no kubelet will
// finish it. Its volumes would be detached by the attach-detach
// controller; Converge has no volume attachments.
func deleteOutOfServicePod(ctx *controller.Context, p *api.Pod) {
	s := ctx.Store
	rec := controller.SyncRecord{Controller: Component, Object: store.ShortRef(api.KindPod, p.Name)}
	if p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
		x := p.DeepCopy()
		x.Status.Phase = api.PodFailed
		if _, err := s.UpdateStatus(x); err != nil {
			if !errors.Is(err, store.ErrNotFound) {
				rec.Waiting = fmt.Sprintf("mark pod %s Failed: %v", p.Name, err)
				ctx.Record(rec)
			}
			return
		}
	}
	err := s.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{GracePeriodSeconds: api.Int64(0)})
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	if err != nil {
		rec.Waiting = fmt.Sprintf("delete pod %s: %v", p.Name, err)
	} else {
		rec.Action = fmt.Sprintf("force-delete pod %s: node %s is out of service", p.Name, p.Spec.NodeName)
	}
	ctx.Record(rec)
}
