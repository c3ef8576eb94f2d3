// Package gc is the garbage collector of kube-controller-manager
// (pkg/controller/garbagecollector) for ReplicaSets and Pods, plus the
// orphan part of the pod garbage collector (pkg/controller/podgc).
//
// Background cascading deletion: an object all of whose ownerReferences
// point to uids that no longer exist is deleted (pods gracefully); an object
// with some owners left only loses the dangling references. Orphan
// propagation needs nothing here: store.Delete strips the references in the
// same call. Pods bound to a node that no longer exists are deleted at once
// with grace period 0, as podgc's gcOrphaned does (without its 40 s
// quarantine).
//
// One Sync handles ReplicaSets before pods, so deleting a Deployment takes
// its ReplicaSets and their pods (which then terminate) in a single pass.
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
// until an object is created or deleted, or a pod or ReplicaSet has its
// metadata or spec written (its owners, node, deletion), which is what the
// real collector's informers would tell it.
type Controller struct {
	clean *cleanPass
}

// cleanPass is a pass that found nothing to collect, with what it read.
type cleanPass struct {
	store           *store.Identity
	membership      int64
	podMeta, rsMeta int64
}

var _ controller.Controller = (*Controller)(nil)

// New returns the garbage collector.
func New() *Controller { return &Controller{} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller.
func (c *Controller) Clone() controller.Controller { return &Controller{clean: c.clean} }

// Sync deletes the ReplicaSets and pods whose owners are all gone, strips
// dangling ownerReferences from those with an owner left, and force-deletes
// pods bound to nodes that no longer exist. It skips the pass when nothing
// it reads changed since a pass that found nothing.
func (c *Controller) Sync(ctx *controller.Context) {
	s := ctx.Store
	now := cleanPass{store: s.Identity(), membership: s.Membership(), podMeta: s.Changes(api.KindPod).Meta,
		rsMeta: s.Changes(api.KindReplicaSet).Meta}
	if c.clean != nil && *c.clean == now {
		return
	}
	c.clean = nil
	w := s.Writes()
	records := 0
	if ctx.Log != nil {
		records = len(ctx.Log.Records)
	}
	c.collectAll(ctx)
	if s.Writes() == w && (ctx.Log == nil || len(ctx.Log.Records) == records) {
		c.clean = &now
	}
}

// collectAll is one pass over the ReplicaSets, then the pods.
func (c *Controller) collectAll(ctx *controller.Context) {
	s := ctx.Store
	for _, rs := range s.ReplicaSets() {
		if len(rs.OwnerReferences) == 0 || rs.DeletionTimestamp != nil {
			continue
		}
		collect(ctx, rs, api.KindReplicaSet, "replica set")
	}
	for _, w := range podWork(s) {
		if w.nodeGone {
			deleteOrphanedPod(ctx, w.pod)
			continue
		}
		collect(ctx, w.pod, api.KindPod, "pod")
	}
}

// podItem is a pod the collector has to act on.
type podItem struct {
	pod      *api.Pod
	nodeGone bool
}

// podWork is the one pass over the pods: those bound to a missing node, and
// those (not terminating) with an ownerReference to a missing uid.
func podWork(s *store.Store) []podItem {
	nodes := map[string]bool{}
	for _, n := range s.Nodes() {
		nodes[n.Name] = true
	}
	var nodeSeen, uidSeen seenCache
	var work []podItem
	s.EachPod(func(p *api.Pod) bool {
		if n := p.Spec.NodeName; n != "" && !nodeSeen.exists(n, func(n string) bool { return nodes[n] }) {
			work = append(work, podItem{pod: p, nodeGone: true})
			return true
		}
		if p.DeletionTimestamp != nil {
			return true
		}
		for _, r := range p.OwnerReferences {
			if !uidSeen.exists(r.UID, s.Exists) {
				work = append(work, podItem{pod: p})
				break
			}
		}
		return true
	})
	return work
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

// collect deletes obj when none of its owners exists, or removes the
// references to the missing ones when some remain.
func collect(ctx *controller.Context, obj api.Object, kind, noun string) {
	s := ctx.Store
	m := obj.GetObjectMeta()
	var solid, dangling []api.OwnerReference
	for _, r := range m.OwnerReferences {
		if s.Exists(r.UID) {
			solid = append(solid, r)
		} else {
			dangling = append(dangling, r)
		}
	}
	switch {
	case len(dangling) == 0:
		return
	case len(solid) > 0:
		next := obj.DeepCopyObject()
		next.GetObjectMeta().OwnerReferences = solid
		if _, err := s.Update(next); err != nil && !errors.Is(err, store.ErrNotFound) {
			ctx.Record(controller.SyncRecord{Controller: Component, Object: store.ShortRef(kind, m.Name),
				Waiting: fmt.Sprintf("remove the dangling owner references of %s %s: %v", noun, m.Name, err)})
		}
		return
	}
	err := s.Delete(kind, m.Namespace, m.Name, store.DeleteOptions{PropagationPolicy: store.DeletePropagationBackground})
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	rec := controller.SyncRecord{Controller: Component, Object: store.ShortRef(kind, m.Name)}
	if err != nil {
		rec.Waiting = fmt.Sprintf("delete %s %s: %v", noun, m.Name, err)
	} else {
		rec.Action = fmt.Sprintf("delete %s %s: %s", noun, m.Name, ownersGone(dangling))
	}
	ctx.Record(rec)
}

// ownersGone is "owner deployment/web is gone" or "owners a/x, b/y are gone".
func ownersGone(refs []api.OwnerReference) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = store.ShortRef(r.Kind, r.Name)
	}
	if len(names) == 1 {
		return "owner " + names[0] + " is gone"
	}
	return "owners " + strings.Join(names, ", ") + " are gone"
}

// deleteOrphanedPod force-deletes a pod whose node no longer exists.
func deleteOrphanedPod(ctx *controller.Context, p *api.Pod) {
	err := ctx.Store.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{GracePeriodSeconds: api.Int64(0)})
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	rec := controller.SyncRecord{Controller: Component, Object: store.ShortRef(api.KindPod, p.Name)}
	if err != nil {
		rec.Waiting = fmt.Sprintf("delete pod %s: %v", p.Name, err)
	} else {
		rec.Action = fmt.Sprintf("delete pod %s: node %s is gone", p.Name, p.Spec.NodeName)
	}
	ctx.Record(rec)
}
