// Package nodelifecycle is the node lifecycle controller and the taint
// eviction controller of kube-controller-manager: it notices nodes whose
// kubelet stopped posting heartbeats, marks them Unknown and their pods not
// ready, taints them, keeps the NoSchedule taints in step with the node's
// conditions and cordon state, and deletes the pods that do not tolerate a
// NoExecute taint (at once, or when their tolerationSeconds run out).
//
// As in Kubernetes, the heartbeats are checked every nodeMonitorPeriod (5s,
// from the controller's start: at 0s, 5s, 10s, ...), by monitorNodeHealth.
// It remembers when it last saw a node's heartbeat change (the
// probeTimestamp of its nodeHealthMap), and marks the node Unknown at the
// first check strictly more than the grace period after that. The NoSchedule
// taints follow every change of the node at once; the NoExecute taints are
// decided at the checks.
//
// A node's life without heartbeats, with the defaults (grace 50s, checks
// every 5s, the DefaultTolerationSeconds admission giving every pod 300s),
// when the kubelet's last heartbeat was at hb (it posts every 10s, after the
// control plane's work of that second):
//
//	hb       last heartbeat
//	hb+5     the next check sees it: probeTimestamp hb+5
//	hb+60    the first check more than 50s after hb+5: Ready=Unknown
//	         (NodeStatusUnknown), event NodeNotReady, pods Ready=False,
//	         taints unreachable:NoSchedule and unreachable:NoExecute (timeAdded hb+60)
//	hb+360   TaintManagerEviction: each pod gets DisruptionTarget and is deleted;
//	         it stays Terminating, as nothing confirms its end
//	back     the kubelet posts Ready: the unreachable:NoSchedule taint goes at
//	         once, unreachable:NoExecute at the next check
//
// The controller's state is what monitorNodeHealth remembers of each node
// and when it last ran; Clone copies it.
package nodelifecycle

import (
	"maps"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/humanize"
	"converge/core/store"
)

// Components that emit the events.
const (
	// Component is the node lifecycle controller's name, the one its events
	// and sync records carry (sim.TickOrder lists every component's).
	Component = "node-controller"
	// TaintEvictionComponent is the source of the taint eviction's events.
	TaintEvictionComponent = "taint-eviction-controller"
)

// Defaults of kube-controller-manager (1.32 and later).
const (
	DefaultNodeMonitorGracePeriod = 50 * time.Second
	DefaultPodEvictionTimeout     = 300 * time.Second
	// NodeStartupGracePeriod is the grace of a node that never posted a Ready condition.
	NodeStartupGracePeriod = 60 * time.Second
	// heartbeatPeriod is the kubelet's nodeStatusUpdateFrequency: a heartbeat
	// older than this is late.
	heartbeatPeriod = 10 * time.Second
)

// Event reasons and condition texts.
const (
	ReasonNodeNotReady         = "NodeNotReady"
	ReasonTaintManagerEviction = "TaintManagerEviction"
	ReasonNodeStatusUnknown    = "NodeStatusUnknown"
	ReasonNodeStatusNeverUpd   = "NodeStatusNeverUpdated"
	ReasonDeletionByTaintMgr   = "DeletionByTaintManager"
	msgStoppedPosting          = "Kubelet stopped posting node status."
	msgNeverPosted             = "Kubelet never posted node status."
	msgPodNodeNotReady         = "Node is not ready"
	msgDisruptionTarget        = "Taint manager: deleting due to NoExecute taint"
)

// Options configures the controller.
type Options struct {
	// NodeMonitorGracePeriod is how long a node may go without a heartbeat
	// before it is marked Unknown (default 50s).
	NodeMonitorGracePeriod time.Duration
	// PodEvictionTimeout is what the DefaultTolerationSeconds admission gives
	// pods (default 300s). The store applies it; the controller only quotes it.
	PodEvictionTimeout time.Duration
	// NodeMonitorPeriod is how often the heartbeats are checked (default 5s).
	NodeMonitorPeriod time.Duration
}

// DefaultNodeMonitorPeriod is kube-controller-manager's --node-monitor-period.
const DefaultNodeMonitorPeriod = 5 * time.Second

// Controller is the node lifecycle and taint eviction controller.
type Controller struct {
	grace    time.Duration
	eviction time.Duration
	period   time.Duration
	// health is the nodeHealthMap: what the last check saw of each node.
	health map[string]nodeHealth
	// lastCheck is when monitorNodeHealth last ran; checked is false
	// before the first run.
	lastCheck time.Time
	checked   bool
	// work is the scratch of one Sync, kept to spare its allocation (not
	// state: each Sync starts it afresh).
	work []nodeWork
}

// nodeHealth is nodeHealthData: when the controller last saw the node's
// heartbeat change, and the Ready condition it saw then.
type nodeHealth struct {
	// probe is probeTimestamp: when a check last saw a new heartbeat (or
	// first saw the node).
	probe time.Time
	// readyTransition is when a check last saw the Ready condition change.
	readyTransition time.Time
	// The saved Ready condition ("" status: the node posted none).
	status     string
	heartbeat  time.Time
	transition time.Time
	// blocked says why the last check added no NoExecute taint.
	blocked string
}

var _ controller.Controller = (*Controller)(nil)

// New returns the controller.
func New(o Options) *Controller {
	c := &Controller{grace: o.NodeMonitorGracePeriod, eviction: o.PodEvictionTimeout, period: o.NodeMonitorPeriod,
		health: map[string]nodeHealth{}}
	if c.grace <= 0 {
		c.grace = DefaultNodeMonitorGracePeriod
	}
	if c.period <= 0 {
		c.period = DefaultNodeMonitorPeriod
	}
	if c.eviction <= 0 {
		c.eviction = DefaultPodEvictionTimeout
	}
	return c
}

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller: a copy with its own node health.
func (c *Controller) Clone() controller.Controller {
	x := *c
	x.health = maps.Clone(c.health)
	x.work = nil
	return &x
}

// nodeWork is what one Sync learned and did about one node.
type nodeWork struct {
	node      *api.Node
	age       time.Duration // since the last heartbeat
	grace     time.Duration
	check     bool   // monitorNodeHealth ran for the node in this Sync
	wasReady  bool   // the check saw Ready=True before it updated the node
	ready     string // the Ready status now
	health    nodeHealth
	pods      []*api.Pod
	actions   []string
	evictAt   time.Time // the earliest pending eviction
	evictions int       // pods whose eviction is pending
}

func (w *nodeWork) act(a string) { w.actions = append(w.actions, a) }

// Sync runs what the controller's loops do in this second: when a check is
// due (every NodeMonitorPeriod), monitorNodeHealth compares every node's
// heartbeat with the grace period, marks the silent ones Unknown and their
// pods not ready, and adds or removes the NoExecute taints; every second
// the NoSchedule taints follow the nodes' conditions, pods that arrive on a
// node that is not ready are marked not ready, and the pods that NoExecute
// taints no longer allow are evicted.
func (c *Controller) Sync(ctx *controller.Context) {
	s := ctx.Store
	now := ctx.Now()
	check := !c.checked || !now.Before(c.lastCheck.Add(c.period))
	if check {
		c.checked, c.lastCheck = true, now
	}
	nodes := s.Nodes()
	clear(c.work)
	if cap(c.work) < len(nodes) {
		c.work = make([]nodeWork, len(nodes))
	}
	work := c.work[:len(nodes)]
	for i, n := range nodes {
		if check {
			work[i] = c.tryUpdateNodeHealth(ctx, n, now)
		} else {
			work[i] = c.observe(n, now)
		}
	}
	c.groupPods(s, work)
	for i := range work {
		c.markPodsNotReady(ctx, &work[i])
	}
	var full bool
	var partial map[string]bool
	if check {
		full, partial = disruption(work)
	}
	for i := range work {
		c.updateTaints(ctx, &work[i], full, partial, now)
		c.evict(ctx, &work[i], now)
		c.record(ctx, &work[i], now)
	}
	if check && len(c.health) > len(nodes) {
		for name := range c.health {
			if _, err := s.GetNode(name); err != nil {
				delete(c.health, name)
			}
		}
	}
}

// groupPods gives every node that is not Ready or has a NoExecute taint its
// pods (in creation order, from the store's index by node); healthy nodes
// need none.
func (c *Controller) groupPods(s *store.Store, work []nodeWork) {
	for i := range work {
		st := work[i].health.status
		if work[i].ready != api.ConditionTrue || (st != "" && st != api.ConditionTrue) || hasNoExecute(work[i].node) {
			work[i].pods = s.PodsOnNode(work[i].node.Name)
		}
	}
}

func hasNoExecute(n *api.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Effect == api.TaintEffectNoExecute {
			return true
		}
	}
	return false
}

// Monitored node condition types (the node lifecycle controller sets all of
// them Unknown; NetworkUnavailable is left to the network plugin).
var monitoredConditions = [...]string{api.NodeReady, "MemoryPressure", "DiskPressure", "PIDPressure"}

// observe is what a Sync without a check knows of a node: its conditions
// and what the last check saw.
func (c *Controller) observe(n *api.Node, now time.Time) nodeWork {
	w := nodeWork{node: n, grace: c.grace, ready: api.ConditionUnknown, health: c.health[n.Name]}
	hb := n.CreationTimestamp.Time
	if ready := api.GetNodeCondition(&n.Status, api.NodeReady); ready == nil {
		w.grace = NodeStartupGracePeriod
	} else {
		w.ready = ready.Status
		if !ready.LastHeartbeatTime.IsZero() {
			hb = ready.LastHeartbeatTime.Time
		}
	}
	w.age = now.Sub(hb)
	return w
}

// tryUpdateNodeHealth is the check of one node: it notes a new heartbeat
// (the probe time becomes now) or a first sight of the node, and when
// strictly more than the grace period has passed since the probe time it
// sets Ready (and the pressure conditions) Unknown. A node that never
// posted Ready is judged from its creation with the startup grace period.
func (c *Controller) tryUpdateNodeHealth(ctx *controller.Context, n *api.Node, now time.Time) nodeWork {
	w := c.observe(n, now)
	w.check = true
	h, known := c.health[n.Name]
	ready := api.GetNodeCondition(&n.Status, api.NodeReady)
	switch {
	case ready == nil:
		if !known {
			h = nodeHealth{probe: n.CreationTimestamp.Time, readyTransition: n.CreationTimestamp.Time}
		}
		h.status, h.heartbeat, h.transition = "", time.Time{}, time.Time{}
	case !known || h.status == "":
		// A node seen for the first time, or its first Ready condition.
		h = nodeHealth{probe: now, readyTransition: now}
	case !h.heartbeat.Equal(ready.LastHeartbeatTime.Time):
		rt := h.readyTransition
		if !h.transition.Equal(ready.LastTransitionTime.Time) {
			rt = now
		}
		h = nodeHealth{probe: now, readyTransition: rt}
	}
	if ready != nil {
		w.wasReady = ready.Status == api.ConditionTrue
		h.status, h.heartbeat, h.transition = ready.Status, ready.LastHeartbeatTime.Time, ready.LastTransitionTime.Time
	}
	h.blocked = ""
	w.health = h
	c.health[n.Name] = h
	if !now.After(h.probe.Add(w.grace)) {
		return w
	}
	conds := append([]api.NodeCondition(nil), n.Status.Conditions...)
	changed := false
	for _, t := range monitoredConditions {
		i := condIndex(conds, t)
		switch {
		case i < 0:
			conds = append(conds, api.NodeCondition{Type: t, Status: api.ConditionUnknown, Reason: ReasonNodeStatusNeverUpd,
				Message: msgNeverPosted, LastHeartbeatTime: n.CreationTimestamp, LastTransitionTime: api.NewTime(now)})
			changed = true
		case conds[i].Status != api.ConditionUnknown:
			conds[i].Status, conds[i].Reason, conds[i].Message = api.ConditionUnknown, ReasonNodeStatusUnknown, msgStoppedPosting
			conds[i].LastTransitionTime = api.NewTime(now)
			changed = true
		}
	}
	if !changed {
		return w
	}
	x := *n
	x.Status.Conditions = conds
	out, err := ctx.Store.UpdateStatus(&x)
	if err != nil {
		return w
	}
	w.node, w.ready = out.(*api.Node), api.ConditionUnknown
	r := api.GetNodeCondition(&w.node.Status, api.NodeReady)
	h.status, h.heartbeat, h.transition, h.readyTransition = r.Status, r.LastHeartbeatTime.Time, r.LastTransitionTime.Time, now
	w.health = h
	c.health[n.Name] = h
	w.act("mark Ready Unknown: no heartbeat for " + w.age.String())
	if w.wasReady {
		ctx.Event(w.node, Component, api.EventTypeNormal, ReasonNodeNotReady, "Node "+n.Name+" status is now: "+ReasonNodeNotReady)
	}
	return w
}

func condIndex(conds []api.NodeCondition, t string) int {
	for i := range conds {
		if conds[i].Type == t {
			return i
		}
	}
	return -1
}

// markPodsNotReady is MarkPodsNotReady: the pods' Ready condition becomes
// False, each with the NodeNotReady event. It runs for every pod of a node
// that a check just saw leave Ready, and (processPod) for a pod bound to a
// node the last check saw not ready, once it was already so.
func (c *Controller) markPodsNotReady(ctx *controller.Context, w *nodeWork) {
	transition := w.check && w.wasReady && w.ready != api.ConditionTrue
	if w.health.status == api.ConditionTrue || (w.health.status == "" && !transition) {
		return
	}
	now := ctx.Store.Now()
	marked := 0
	for i, p := range w.pods {
		cond := api.GetPodCondition(&p.Status, api.PodReady)
		if cond == nil || cond.Status == api.ConditionFalse {
			continue
		}
		if !transition && boundAt(p).Before(w.health.readyTransition) {
			continue
		}
		x := *p
		x.Status.Conditions = append([]api.PodCondition(nil), p.Status.Conditions...)
		rc := api.GetPodCondition(&x.Status, api.PodReady)
		rc.Status, rc.LastTransitionTime = api.ConditionFalse, now
		out, err := ctx.Store.UpdateStatus(&x)
		if err != nil {
			continue
		}
		w.pods[i] = out.(*api.Pod)
		ctx.Event(w.pods[i], Component, api.EventTypeWarning, ReasonNodeNotReady, msgPodNodeNotReady)
		marked++
	}
	if marked > 0 {
		w.act("mark " + humanize.Count(marked, "pod") + " not ready")
	}
}

// boundAt is when the pod was bound to its node: its PodScheduled
// condition's time, else its creation.
func boundAt(p *api.Pod) time.Time {
	if c := api.GetPodCondition(&p.Status, api.PodScheduled); c != nil && c.Status == api.ConditionTrue && !c.LastTransitionTime.IsZero() {
		return c.LastTransitionTime.Time
	}
	return p.CreationTimestamp.Time
}
