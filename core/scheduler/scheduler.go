package scheduler

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// Names, reasons and timings of kube-scheduler.
const (
	// Component is the scheduler's name: the source of its events and
	// records, and the spec.schedulerName of the pods it schedules.
	Component = "default-scheduler"

	ScheduledReason        = "Scheduled"
	FailedSchedulingReason = "FailedScheduling"
	// UnschedulableReason is v1.PodReasonUnschedulable, the PodScheduled=False reason.
	UnschedulableReason = "Unschedulable"

	// InitialBackoff and MaxBackoff are podInitialBackoffDuration and
	// podMaxBackoffDuration: the wait before retrying an unschedulable pod
	// doubles from the first to the second.
	InitialBackoff = 1 * time.Second
	MaxBackoff     = 10 * time.Second
	// EventInterval is the least time between two identical
	// FailedScheduling events of one pod.
	EventInterval = 10 * time.Second
)

// Controller is the scheduler. It keeps no state.
type Controller struct{}

var _ controller.Controller = (*Controller)(nil)

// New returns the scheduler.
func New() *Controller { return &Controller{} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller; the scheduler has no state.
func (c *Controller) Clone() controller.Controller { return c }

// Sync schedules every pending pod whose turn it is: it filters and scores
// the nodes against what is already bound to them, binds the pod to the best
// node, or records why no node fits.
func (c *Controller) Sync(ctx *controller.Context) {
	now := ctx.Now()
	queue := pendingPods(ctx, now)
	if len(queue) == 0 {
		return
	}
	owners, withPorts := queueNeeds(queue)
	cy := &cycle{ctx: ctx, now: now, snap: newSnapshot(ctx.Store, owners, withPorts)}
	for _, p := range queue {
		cy.scheduleOne(p)
		ctx.Yield()
	}
}

// pendingPods returns the pods to schedule now, in the queue's order
// (PrioritySort: higher priority first, then the older pod): not bound, not
// being deleted, not finished, meant for this scheduler, and not waiting out
// a back-off. The store keeps the unbound pods apart, as the scheduler's
// informer hands it only those: a cluster with none costs nothing.
func pendingPods(ctx *controller.Context, now time.Time) []*api.Pod {
	var queue []*api.Pod
	for _, p := range ctx.Store.UnboundPods() {
		if p.DeletionTimestamp != nil || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		if n := p.Spec.SchedulerName; n != "" && n != Component {
			continue
		}
		if attemptDue(p, now) {
			queue = append(queue, p)
		}
	}
	slices.SortStableFunc(queue, func(a, b *api.Pod) int {
		if c := cmp.Compare(api.Deref(b.Spec.Priority, 0), api.Deref(a.Spec.Priority, 0)); c != 0 {
			return c
		}
		return a.CreationTimestamp.Compare(b.CreationTimestamp.Time)
	})
	return queue
}

// queueNeeds returns the owners whose pods are spread (the first
// ownerReference when it is a ReplicaSet: the default constraints select the
// ReplicaSet's pods) and whether any pod asks for host ports.
func queueNeeds(queue []*api.Pod) (owners []string, withPorts bool) {
	for _, p := range queue {
		if uid, ok := spreadOwner(p); ok && !slices.Contains(owners, uid) {
			owners = append(owners, uid)
		}
		if len(podHostPorts(p)) > 0 {
			withPorts = true
		}
	}
	return owners, withPorts
}

func spreadOwner(p *api.Pod) (string, bool) {
	if len(p.OwnerReferences) == 0 || p.OwnerReferences[0].Kind != api.KindReplicaSet {
		return "", false
	}
	return p.OwnerReferences[0].UID, true
}

// cycle is the state of one Sync.
type cycle struct {
	ctx      *controller.Context
	now      time.Time
	snap     *snapshot
	feasible []int
	counts   []int
	scores   scoreBuf
	// emitted lists the pods that already got a FailedScheduling event in
	// this tick (an earlier control-plane round); built on first use.
	emitted map[string]bool
}

// scheduleOne is one scheduling cycle: filter, score, bind or fail.
func (cy *cycle) scheduleOne(p *api.Pod) {
	c := &candidate{pod: p, req: podRequests(p), ports: podHostPorts(p), owner: -1}
	if uid, ok := spreadOwner(p); ok {
		c.owner = cy.snap.ownerIndex(uid)
	}
	cy.feasible = cy.feasible[:0]
	if cy.counts == nil {
		cy.counts = make([]int, len(reasonText))
	}
	clear(cy.counts)
	for i := range cy.snap.nodes {
		if r := filter(c, &cy.snap.nodes[i]); r != 0 {
			countReasons(cy.counts, r)
		} else {
			cy.feasible = append(cy.feasible, i)
		}
	}
	if len(cy.feasible) == 0 {
		msg := fitError(len(cy.snap.nodes), cy.counts)
		if len(cy.snap.nodes) > 0 {
			msg += preemptionTail(c, cy.snap.nodes)
		}
		cy.unschedulable(p, msg)
		return
	}
	cy.bind(c, pickNode(cy.snap, c, cy.feasible, &cy.scores))
}

// bind binds the pod, sets PodScheduled=True (as the binding subresource
// does), emits Scheduled and takes the node's resources for the next pods.
func (cy *cycle) bind(c *candidate, i int) {
	s := cy.ctx.Store
	p := c.pod
	n := &cy.snap.nodes[i]
	bound, err := s.Bind(p.Namespace, p.Name, n.name)
	rec := controller.SyncRecord{Controller: Component, Object: "pod/" + p.Name}
	if err != nil {
		rec.Waiting = fmt.Sprintf("bind pod %s to %s: %v", p.Name, n.name, err)
		cy.ctx.Record(rec)
		return
	}
	x := *bound
	x.ResourceVersion = ""
	x.Status.Conditions = setCondition(bound.Status.Conditions,
		api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}, cy.now)
	if updated, err := s.UpdateStatus(&x); err == nil {
		bound = updated.(*api.Pod)
	}
	cy.ctx.Event(bound, Component, api.EventTypeNormal, ScheduledReason,
		"Successfully assigned "+p.Namespace+"/"+p.Name+" to "+n.name)
	n.used.add(c.req)
	n.addPriority(api.Deref(p.Spec.Priority, 0))
	n.pods++
	n.ports = append(n.ports, c.ports...)
	if c.owner >= 0 {
		cy.snap.spread[c.owner][i]++
	}
	rec.Action = "bind pod " + p.Name + " to " + n.name
	cy.ctx.Record(rec)
}

// unschedulable records that no node fits: PodScheduled=False with reason
// Unschedulable and the fit error, and a FailedScheduling warning on the
// first failure, when the message changes, and otherwise at most every
// EventInterval of retries.
func (cy *cycle) unschedulable(p *api.Pod, msg string) {
	cy.ctx.Record(controller.SyncRecord{Controller: Component, Object: "pod/" + p.Name, Waiting: msg})
	cond := api.GetPodCondition(&p.Status, api.PodScheduled)
	emit := false
	if cond == nil || cond.Status != api.ConditionFalse || cond.Reason != UnschedulableReason || cond.Message != msg {
		x := *p
		x.ResourceVersion = ""
		x.Status.Conditions = setCondition(p.Status.Conditions, api.PodCondition{Type: api.PodScheduled,
			Status: api.ConditionFalse, Reason: UnschedulableReason, Message: msg}, cy.now)
		if _, err := cy.ctx.Store.UpdateStatus(&x); err != nil {
			return
		}
		emit = true
	} else {
		emit = eventDue(elapsedSeconds(cond, cy.now)) && !cy.emittedThisTick(p.Name)
	}
	if emit {
		cy.ctx.Event(p, Component, api.EventTypeWarning, FailedSchedulingReason, msg)
	}
}

func (cy *cycle) emittedThisTick(name string) bool {
	if cy.emitted == nil {
		cy.emitted = map[string]bool{}
		for _, e := range cy.ctx.Emitted {
			if e.Reason == FailedSchedulingReason && e.Source == Component && len(e.Object) > 4 && e.Object[:4] == "pod/" {
				cy.emitted[e.Object[4:]] = true
			}
		}
	}
	return cy.emitted[name]
}

// setCondition is podutil.UpdatePodCondition on a copy of conds: the
// condition replaces the one of its type in place (or is appended), with
// lastTransitionTime now unless the status stays the same.
func setCondition(conds []api.PodCondition, c api.PodCondition, now time.Time) []api.PodCondition {
	out := append([]api.PodCondition(nil), conds...)
	c.LastTransitionTime = api.NewTime(now)
	for i := range out {
		if out[i].Type == c.Type {
			if out[i].Status == c.Status {
				c.LastTransitionTime = out[i].LastTransitionTime
			}
			out[i] = c
			return out
		}
	}
	return append(out, c)
}
