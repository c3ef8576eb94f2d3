package gc

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// The pod garbage collector's timing (pkg/controller/podgc): it runs every
// gcCheckPeriod, and a node its pods name but that does not exist waits
// quarantineTime in its node queue before the pods are deleted.
const (
	GCCheckPeriod  = 20 * time.Second
	QuarantineTime = 40 * time.Second
)

// DisruptionTarget condition podgc puts on an orphaned pod it deletes.
const (
	ReasonDeletionByPodGC = "DeletionByPodGC"
	msgNodeNoLongerExists = "PodGC: node no longer exists"
)

// podGC is the state of podgc's orphan pass: when it last ran and its node
// queue (nodeQueue, a delaying queue: a node is ready once its quarantine
// ends; adding a node already waiting keeps the earlier time).
type podGC struct {
	ran   bool
	last  time.Time
	queue []quarantined // sorted by node name
	// none is the store as the last pass found it, when that pass found no
	// pod on a missing node and left the queue empty; nil otherwise.
	none *orphanFree
}

// orphanFree is what decides the orphan pass: which nodes and pods exist
// (Membership) and which node each pod is bound to (the pods' metadata and
// spec). While they stay, a pass that found nothing finds nothing again.
type orphanFree struct {
	store      *store.Identity
	membership int64
	podMeta    int64
}

func orphanFreeOf(s *store.Store) orphanFree {
	return orphanFree{store: s.Identity(), membership: s.Membership(), podMeta: s.Changes(api.KindPod).Meta}
}

type quarantined struct {
	node  string
	ready time.Time
}

func (g podGC) clone() podGC {
	g.queue = slices.Clone(g.queue)
	return g
}

// due reports whether podgc's loop runs at now: at its first sync, then
// every GCCheckPeriod (wait.UntilWithContext).
func (g *podGC) due(now time.Time) bool {
	return !g.ran || !now.Before(g.last.Add(GCCheckPeriod))
}

// gcOrphaned is podgc's gcOrphaned: every node a pod is bound to that does
// not exist is added to the node queue for QuarantineTime; the nodes whose
// quarantine is over and that still do not exist (podgc asks the API
// server, here the store) have their pods marked Failed with a
// DisruptionTarget condition (DeletionByPodGC) and force-deleted. Until
// then those pods stay as they are: they still count as their ReplicaSet's
// replicas, so nothing replaces them (docs/fidelity.md).
func (g *podGC) gcOrphaned(ctx *controller.Context) {
	s := ctx.Store
	now := ctx.Now()
	g.ran, g.last = true, now
	if g.none != nil && len(g.queue) == 0 && *g.none == orphanFreeOf(s) {
		return
	}
	g.none = nil
	nodes := map[string]bool{}
	for _, n := range s.Nodes() {
		nodes[n.Name] = true
	}
	var orphans []*api.Pod
	missing := map[string]int{}
	s.EachPod(func(p *api.Pod) bool {
		if n := p.Spec.NodeName; n != "" && !nodes[n] {
			orphans = append(orphans, p)
			missing[n]++
		}
		return true
	})
	for _, p := range orphans {
		if g.add(p.Spec.NodeName, now.Add(QuarantineTime)) {
			ctx.Record(controller.SyncRecord{Controller: Component, Object: store.ShortRef(api.KindNode, p.Spec.NodeName),
				Waiting: fmt.Sprintf("node %s is gone: its pods (%d) are deleted once it has been missing for %s (pod GC quarantine)",
					p.Spec.NodeName, missing[p.Spec.NodeName], QuarantineTime)})
		}
	}
	deleted := map[string]bool{}
	keep := g.queue[:0]
	for _, q := range g.queue {
		if now.Before(q.ready) {
			keep = append(keep, q)
			continue
		}
		if !nodes[q.node] {
			deleted[q.node] = true
		}
	}
	g.queue = keep
	for _, p := range orphans {
		if deleted[p.Spec.NodeName] {
			deleteOrphanedPod(ctx, p)
		}
	}
	if len(orphans) == 0 && len(g.queue) == 0 {
		none := orphanFreeOf(s)
		g.none = &none
	}
}

// add puts node in the queue, ready at ready, unless it waits there
// already; it reports whether it was added.
func (g *podGC) add(node string, ready time.Time) bool {
	i, found := slices.BinarySearchFunc(g.queue, node, func(q quarantined, n string) int {
		switch {
		case q.node < n:
			return -1
		case q.node > n:
			return 1
		}
		return 0
	})
	if found {
		return false
	}
	g.queue = slices.Insert(g.queue, i, quarantined{node: node, ready: ready})
	return true
}

// deleteOrphanedPod is markFailedAndDeletePodWithCondition for a pod whose
// node no longer exists: a pod not yet Succeeded or Failed is marked Failed
// with the DisruptionTarget condition, then it is force-deleted (once: a
// pod already force-deleted that only its finalizers hold is left to them).
func deleteOrphanedPod(ctx *controller.Context, p *api.Pod) {
	if forceDeleted(p) {
		return
	}
	s := ctx.Store
	rec := controller.SyncRecord{Controller: Component, Object: store.ShortRef(api.KindPod, p.Name)}
	if p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
		x := p.DeepCopy()
		x.Status.Phase = api.PodFailed
		api.UpdatePodCondition(&x.Status, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue,
			Reason: ReasonDeletionByPodGC, Message: msgNodeNoLongerExists}, api.NewTime(ctx.Now()))
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
		rec.Action = fmt.Sprintf("delete pod %s: node %s is gone", p.Name, p.Spec.NodeName)
	}
	ctx.Record(rec)
}
