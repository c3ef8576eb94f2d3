package deployment

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/workqueue"
	"converge/core/labels"
	"converge/core/store"
)

// Controller is kube-controller-manager's Deployment controller. Everything
// it knows about the cluster it reads from the store on every Sync; its only
// state is its work queue, which remembers the Deployments whose last sync
// failed (see core/controller/workqueue).
type Controller struct {
	queue *workqueue.Queue
}

var _ controller.Controller = (*Controller)(nil)

// MaxRetries is how often the controller requeues a Deployment whose sync
// keeps failing before it drops it (deployment_controller.go's maxRetries):
// with the back-off of 5ms × 2^n, the 15 retries span about 164 s (in
// Converge, whose retries wait for the next whole second, about 174 s).
const MaxRetries = 15

// New returns the Deployment controller.
func New() *Controller { return &Controller{queue: workqueue.New(MaxRetries)} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller: a copy with its own work queue.
func (c *Controller) Clone() controller.Controller { return &Controller{queue: c.queue.Clone()} }

// Sync compares the actual state with the desired state of every Deployment
// in the store, in creation order, and attempts to converge the two the way
// one syncDeployment call of the real controller does. Each Deployment gets
// exactly one sync record saying what was seen and what was done or awaited.
// A sync that fails is handled as handleErr does: the Deployment is requeued
// with the work queue's back-off and synced again when that expires or when
// it or one of its ReplicaSets changes; after MaxRetries requeues it is
// dropped and waits for such a change. Meanwhile its record repeats the
// failure and says when the next try is.
func (c *Controller) Sync(ctx *controller.Context) {
	now := ctx.Now()
	for _, d := range ctx.Store.Deployments() {
		key := d.Namespace + "/" + d.Name
		if c.queue.Has(key) && !c.queue.Due(key, now, watched(ctx.Store, d)) {
			ctx.Record(c.queue.Waiting(key, now))
			continue
		}
		s := &syncer{ctx: ctx, store: ctx.Store, now: now, d: d.DeepCopy()}
		err := s.syncDeployment()
		rec := s.record(err)
		switch {
		case err != nil:
			cur := d
			if latest, gerr := ctx.Store.GetDeployment(d.Namespace, d.Name); gerr == nil {
				cur = latest
			}
			rec = c.queue.Failed(key, now, watched(ctx.Store, cur), rec)
		case c.queue.Has(key):
			c.queue.Forget(key)
		}
		ctx.Record(rec)
	}
	c.queue.Prune(func(key string) bool {
		ns, name, _ := strings.Cut(key, "/")
		_, err := ctx.Store.GetDeployment(ns, name)
		return err == nil
	})
}

// watched is what the controller's informers would wake a Deployment's key
// for: the Deployment itself, the ReplicaSets it controls or whose labels
// its selector matches while they have no controller (addReplicaSet,
// updateReplicaSet, deleteReplicaSet), and for Recreate the deletion of the
// pods of those ReplicaSets (deletePod).
func watched(st *store.Store, d *api.Deployment) workqueue.Watched {
	var w workqueue.Watched
	w.Add(&d.ObjectMeta)
	sel, err := labels.FromLabelSelector(d.Spec.Selector)
	var mine []string
	for _, rs := range st.ReplicaSets() {
		if rs.Namespace != d.Namespace {
			continue
		}
		ref := api.GetControllerOf(&rs.ObjectMeta)
		if (ref != nil && ref.UID == d.UID) || (ref == nil && err == nil && !isSelectingAll(d) && sel.Matches(rs.Labels)) {
			w.Add(&rs.ObjectMeta)
			mine = append(mine, rs.UID)
		}
	}
	if d.Spec.Strategy.Type == api.RecreateDeploymentStrategyType && len(mine) > 0 {
		n := 0
		st.EachPod(func(p *api.Pod) bool {
			if ref := api.GetControllerOf(&p.ObjectMeta); ref != nil && slices.Contains(mine, ref.UID) {
				n++
			}
			return true
		})
		w.Count(n)
	}
	return w
}

// syncer is the state of one syncDeployment call: the working copy of the
// Deployment and what the pass did, for its sync record.
type syncer struct {
	ctx   *controller.Context
	store *store.Store
	now   time.Time
	// d is our deep copy of the Deployment; writes update it in place.
	d *api.Deployment

	// What the pass did and saw, for the sync record.
	actions      []string // RS creates, scales, adoptions, deletions ...
	bookkeeping  []string // Deployment-only writes, listed when nothing else was done
	status       *api.DeploymentStatus
	newRS        *api.ReplicaSet
	allRSs       []*api.ReplicaSet
	strategyPath string // "rolling", "recreate", "sync" (paused/scaling), "rollback", "status", "selectingAll"
	waiting      string // set by the strategy paths that know what they wait for
	blocking     string
}

// syncDeployment syncs one Deployment, in Kubernetes' fixed order:
//  1. an empty selector selects all pods: warn (SelectingAll), observe the
//     generation and do nothing else;
//  2. claim ReplicaSets (adopt orphans that match, release owned ones that
//     no longer do);
//  3. a Deployment being deleted only gets its status updated;
//  4. pause conditions (Progressing Unknown while paused or just resumed);
//  5. paused: sync() (scaling, cleanup, status) and stop;
//  6. a legacy rollback annotation: roll back and stop;
//  7. a scaling event (an active ReplicaSet's desired-replicas differs
//     from spec.replicas): sync(), i.e. proportional scaling, and stop;
//  8. otherwise the strategy's rollout: Recreate or RollingUpdate.
func (s *syncer) syncDeployment() error {
	d := s.d
	if isSelectingAll(d) {
		return s.selectingAll()
	}
	sel, err := labels.FromLabelSelector(d.Spec.Selector)
	if err != nil {
		return fmt.Errorf("deployment %s/%s has invalid label selector: %w", d.Namespace, d.Name, err)
	}
	rsList, err := s.claimReplicaSets(sel)
	if err != nil {
		return err
	}
	if d.DeletionTimestamp != nil {
		return s.syncStatusOnly(rsList)
	}
	if err := s.checkPausedConditions(); err != nil {
		return err
	}
	if d.Spec.Paused {
		return s.sync(rsList)
	}
	if hasRollbackTo(d) {
		return s.rollback(rsList)
	}
	if s.isScalingEvent(rsList) {
		return s.sync(rsList)
	}
	switch d.Spec.Strategy.Type {
	case api.RecreateDeploymentStrategyType:
		return s.rolloutRecreate(rsList, sel)
	case api.RollingUpdateDeploymentStrategyType:
		return s.rolloutRolling(rsList)
	}
	return fmt.Errorf("unexpected deployment strategy type: %s", d.Spec.Strategy.Type)
}

// isSelectingAll reports an empty (non-nil) selector, which would select every pod.
func isSelectingAll(d *api.Deployment) bool {
	sel := d.Spec.Selector
	return sel != nil && len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0
}

// selectingAll warns about an empty selector and observes the generation.
// The warning goes out once per generation, when the controller first sees
// it (Kubernetes warns on every sync, and syncs on every change).
func (s *syncer) selectingAll() error {
	s.strategyPath = "selectingAll"
	s.waiting = "selector is empty: a non-empty selector is required"
	if s.d.Status.ObservedGeneration >= s.d.Generation {
		return nil
	}
	s.event(EventWarning, SelectingAllReason, selectingAllMessage)
	s.d.Status.ObservedGeneration = s.d.Generation
	return s.writeDeployment()
}

// claimReplicaSets returns the ReplicaSets this Deployment manages, in
// creation order, reconciling controller references as ClaimReplicaSets does:
// a ReplicaSet controlled by someone else is never touched; one we control
// whose labels still match is ours; one we control that no longer matches is
// released (unless we are being deleted); an orphan that matches is adopted
// when neither it nor we are being deleted.
func (s *syncer) claimReplicaSets(sel labels.Selector) ([]*api.ReplicaSet, error) {
	d := s.d
	var claimed []*api.ReplicaSet
	for _, rs := range s.store.ReplicaSets() {
		if rs.Namespace != d.Namespace {
			continue
		}
		ref := api.GetControllerOf(&rs.ObjectMeta)
		match := sel.Matches(rs.Labels)
		switch {
		case ref != nil && ref.UID != d.UID:
			continue
		case ref != nil && match:
			claimed = append(claimed, rs)
		case ref != nil:
			if d.DeletionTimestamp != nil {
				continue
			}
			if err := s.releaseReplicaSet(rs); err != nil {
				return nil, err
			}
		case match && d.DeletionTimestamp == nil && rs.DeletionTimestamp == nil:
			adopted, err := s.adoptReplicaSet(rs)
			if err != nil {
				return nil, err
			}
			claimed = append(claimed, adopted)
		}
	}
	return claimed, nil
}

func (s *syncer) adoptReplicaSet(rs *api.ReplicaSet) (*api.ReplicaSet, error) {
	cp := rs.DeepCopy()
	cp.OwnerReferences = append(cp.OwnerReferences, api.NewControllerRef(s.d))
	out, err := s.store.Update(cp)
	if err != nil {
		return nil, fmt.Errorf("adopt replica set %s: %w", rs.Name, err)
	}
	s.act("adopt replica set " + rs.Name)
	return out.(*api.ReplicaSet), nil
}

func (s *syncer) releaseReplicaSet(rs *api.ReplicaSet) error {
	cp := rs.DeepCopy()
	refs := cp.OwnerReferences[:0]
	for _, r := range cp.OwnerReferences {
		if r.UID != s.d.UID {
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		refs = nil
	}
	cp.OwnerReferences = refs
	if _, err := s.store.Update(cp); err != nil && !errorsIsNotFound(err) {
		return fmt.Errorf("release replica set %s: %w", rs.Name, err)
	}
	s.act("release replica set " + rs.Name + " (its labels no longer match the selector)")
	return nil
}

// oldPodCount counts the pods controlled by the given ReplicaSets (excluding
// newRS) that match the Deployment's selector and are not Succeeded or
// Failed, Terminating ones included: the pods a Recreate rollout waits for.
// It is getPodMapForDeployment and oldPodsRunning in one allocation-free pass.
func (s *syncer) oldPodCount(sel labels.Selector, rsList []*api.ReplicaSet, newRS *api.ReplicaSet) int32 {
	var n int32
	s.store.EachPod(func(p *api.Pod) bool {
		if p.Namespace != s.d.Namespace || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			return true
		}
		ref := api.GetControllerOf(&p.ObjectMeta)
		if ref == nil || (newRS != nil && ref.UID == newRS.UID) || !controlledByOneOf(ref.UID, rsList) {
			return true
		}
		if sel.Matches(p.Labels) {
			n++
		}
		return true
	})
	return n
}

func controlledByOneOf(uid string, rsList []*api.ReplicaSet) bool {
	for _, rs := range rsList {
		if rs.UID == uid {
			return true
		}
	}
	return false
}

// event records an event about the Deployment.
func (s *syncer) event(eventType, reason, message string) {
	s.ctx.Event(s.d, Component, eventType, reason, message)
}

// act notes a step the pass took, for the sync record.
func (s *syncer) act(a string) { s.actions = append(s.actions, a) }

// writeDeployment writes the working copy's status and annotations through
// the status subresource when they differ from what is stored.
func (s *syncer) writeDeployment() error {
	cur, err := s.store.GetDeployment(s.d.Namespace, s.d.Name)
	if err != nil {
		return err
	}
	revBefore := cur.Annotations[api.RevisionAnnotation]
	if statusEqual(&cur.Status, &s.d.Status) && maps.Equal(cur.Annotations, s.d.Annotations) {
		return nil
	}
	s.d.ResourceVersion = ""
	out, err := s.store.UpdateDeploymentStatus(s.d)
	if err != nil {
		return err
	}
	s.d.ResourceVersion = out.ResourceVersion
	if rev := out.Annotations[api.RevisionAnnotation]; rev != revBefore {
		s.bookkeeping = append(s.bookkeeping, "set revision "+rev+" on deployment "+s.d.Name)
	}
	return nil
}

func errorsIsNotFound(err error) bool { return store.ReasonOf(err) == store.ReasonNotFound }
