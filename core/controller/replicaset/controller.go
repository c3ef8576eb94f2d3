package replicaset

import (
	"strings"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/workqueue"
	"converge/core/store"
)

// Component name, limits and event reasons, as in kube-controller-manager.
const (
	// Component is the ReplicaSet controller's name, the one its events and
	// sync records carry (sim.TickOrder lists every component's).
	Component = "replicaset-controller"
	// BurstReplicas caps the creates or deletes of one ReplicaSet in one sync.
	BurstReplicas = 500
	// SlowStartInitialBatchSize is the size of the first batch of creates.
	SlowStartInitialBatchSize = 1

	SuccessfulCreateReason = "SuccessfulCreate"
	FailedCreateReason     = "FailedCreate"
	SuccessfulDeleteReason = "SuccessfulDelete"
	FailedDeleteReason     = "FailedDelete"
)

// Controller is the ReplicaSet controller. Its only state is its work
// queue, which remembers the ReplicaSets whose last sync failed (see
// core/controller/workqueue).
type Controller struct {
	queue *workqueue.Queue
	// quiet is the last Sync when it wrote nothing (memo.go); nil otherwise.
	quiet *quietPass
}

var _ controller.Controller = (*Controller)(nil)

// New returns the ReplicaSet controller. Unlike the Deployment controller it
// never drops a failing key (replica_set.go's processNextWorkItem requeues
// every failure with AddRateLimited): the back-off grows to 1000s and stays.
func New() *Controller { return &Controller{queue: workqueue.New(0)} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller: a copy with its own work queue.
func (c *Controller) Clone() controller.Controller { return &Controller{queue: c.queue.Clone()} }

// Sync compares, for every ReplicaSet in creation order, the pods it
// controls with spec.replicas and converges the two: it claims pods,
// creates or deletes pods, and writes status when it changed. One pass over
// the pods serves all ReplicaSets. A ReplicaSet whose sync failed (a pod it
// could not create or delete, a status it could not write) is requeued with
// the work queue's back-off, and synced again when that expires or when it
// or one of its pods changes.
func (c *Controller) Sync(ctx *controller.Context) {
	now := ctx.Now()
	if c.queue.Len() == 0 && c.quiet.replay(ctx, now) {
		return
	}
	c.quiet = nil
	before := marks(ctx.Store)
	rss := ctx.Store.ReplicaSets()
	if len(rss) == 0 {
		c.queue.Prune(func(string) bool { return false })
		return
	}
	var records []controller.SyncRecord
	record := func(r controller.SyncRecord) {
		records = append(records, r)
		ctx.Record(r)
	}
	states := make([]rsState, len(rss))
	for i, rs := range rss {
		states[i].init(rs)
		states[i].track = c.queue.Len() > 0 && c.queue.Has(keyOf(rs))
	}
	orphans := observePods(ctx.Store, states, now)
	for i := range states {
		st := &states[i]
		key := keyOf(st.rs)
		if st.track && !c.queue.Due(key, now, st.watched) {
			record(c.queue.Waiting(key, now))
			continue
		}
		rec, err := syncReplicaSet(ctx, states, i, orphans)
		switch {
		case err != nil:
			rec = c.queue.Failed(key, now, watchedAfter(ctx.Store, st.rs), rec)
		case st.track:
			c.queue.Forget(key)
		}
		record(rec)
	}
	if c.queue.Len() > 0 {
		c.queue.Prune(func(key string) bool {
			ns, name, _ := strings.Cut(key, "/")
			_, err := ctx.Store.GetReplicaSet(ns, name)
			return err == nil
		})
	}
	if after := marks(ctx.Store); c.queue.Len() == 0 && after.pods == before.pods && after.rss == before.rss {
		for i := range states {
			before.until = earliest(before.until, states[i].until)
		}
		before.records = records
		c.quiet = &before
	}
}

func keyOf(rs *api.ReplicaSet) string { return rs.Namespace + "/" + rs.Name }

// watchedAfter is what the informers would wake a ReplicaSet's key for, read
// after its sync: the ReplicaSet and the pods it controls (addPod,
// updatePod, deletePod; orphans that it might adopt are left out).
func watchedAfter(s *store.Store, rs *api.ReplicaSet) workqueue.Watched {
	var w workqueue.Watched
	if cur, err := s.GetReplicaSet(rs.Namespace, rs.Name); err == nil {
		rs = cur
	}
	w.Add(&rs.ObjectMeta)
	s.EachPod(func(p *api.Pod) bool {
		if api.IsControlledBy(&p.ObjectMeta, rs.UID) {
			w.Add(&p.ObjectMeta)
		}
		return true
	})
	return w
}

// syncReplicaSet is one ReplicaSet's share of the sync: claim, manage,
// status, and the record of what it did. Its error is manageReplicas' (or
// the status update's): the sync failed and the key backs off.
func syncReplicaSet(ctx *controller.Context, states []rsState, i int, orphans []orphan) (controller.SyncRecord, error) {
	st := &states[i]
	rs := st.rs
	ref := "replicaset/" + rs.Name
	if st.selErr != nil {
		// Validation keeps invalid selectors out of the store; upstream
		// returns nil here too (the key is not requeued).
		return controller.SyncRecord{Controller: Component, Object: ref,
			Waiting: "invalid selector: " + st.selErr.Error()}, nil
	}
	now := ctx.Now()
	var actions []string
	if rs.DeletionTimestamp == nil {
		actions = append(actions, st.releasePods(ctx)...)
		actions = append(actions, st.adoptOrphans(ctx, orphans, now)...)
	}
	observed := st.counts
	var res manageResult
	if rs.DeletionTimestamp == nil {
		res = manageReplicas(ctx, states, i)
	}
	if res.action != "" {
		actions = append(actions, res.action)
	}
	err := res.err
	next := calculateStatus(rs, observed, res, now)
	if statusChanged(rs, next) {
		x := *rs
		x.Status = next
		x.Status.ObservedGeneration = rs.Generation
		if _, uerr := ctx.Store.UpdateStatus(&x); uerr != nil {
			if res.waiting == "" {
				res.waiting = "status update: " + uerr.Error()
			}
			err = uerr
		}
	}
	rec := controller.SyncRecord{Controller: Component, Object: ref,
		Observed: observedText(observed), Desired: podsText(api.Deref(rs.Spec.Replicas, 1))}
	switch {
	case len(actions) > 0:
		rec.Action = joinActions(actions)
	case res.waiting != "":
		rec.Waiting = res.waiting
	default:
		rec.InSync = true
	}
	return rec, err
}
