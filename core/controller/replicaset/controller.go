package replicaset

import (
	"converge/core/api"
	"converge/core/controller"
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

// Controller is the ReplicaSet controller. It keeps no state.
type Controller struct{}

var _ controller.Controller = (*Controller)(nil)

// New returns the ReplicaSet controller.
func New() *Controller { return &Controller{} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller; the controller has no state.
func (c *Controller) Clone() controller.Controller { return c }

// Sync compares, for every ReplicaSet in creation order, the pods it
// controls with spec.replicas and converges the two: it claims pods,
// creates or deletes pods, and writes status when it changed. One pass over
// the pods serves all ReplicaSets.
func (c *Controller) Sync(ctx *controller.Context) {
	rss := ctx.Store.ReplicaSets()
	if len(rss) == 0 {
		return
	}
	now := ctx.Now()
	states := make([]rsState, len(rss))
	for i, rs := range rss {
		states[i].init(rs)
	}
	orphans := observePods(ctx.Store, states, now)
	for i := range states {
		syncReplicaSet(ctx, states, i, orphans)
	}
}

// syncReplicaSet is one ReplicaSet's share of the sync: claim, manage,
// status, record.
func syncReplicaSet(ctx *controller.Context, states []rsState, i int, orphans []orphan) {
	st := &states[i]
	rs := st.rs
	ref := "replicaset/" + rs.Name
	if st.selErr != nil {
		ctx.Record(controller.SyncRecord{Controller: Component, Object: ref,
			Waiting: "invalid selector: " + st.selErr.Error()})
		return
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
	next := calculateStatus(rs, observed, res, now)
	if statusChanged(rs, next) {
		x := *rs
		x.Status = next
		x.Status.ObservedGeneration = rs.Generation
		if _, err := ctx.Store.UpdateStatus(&x); err != nil && res.waiting == "" {
			res.waiting = "status update: " + err.Error()
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
	ctx.Record(rec)
}
