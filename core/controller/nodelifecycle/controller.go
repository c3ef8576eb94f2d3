// Package nodelifecycle is the node lifecycle controller and the taint
// eviction controller of kube-controller-manager: it notices nodes whose
// kubelet stopped posting heartbeats, marks them Unknown and their pods not
// ready, taints them, keeps the NoSchedule taints in step with the node's
// conditions and cordon state, and deletes the pods that do not tolerate a
// NoExecute taint (at once, or when their tolerationSeconds run out).
//
// A node's life without heartbeats, with the defaults (grace 50s, the
// DefaultTolerationSeconds admission giving every pod 300s):
//
//	hb       last heartbeat
//	hb+50    Ready=Unknown (NodeStatusUnknown), event NodeNotReady, pods Ready=False,
//	         taints unreachable:NoSchedule and unreachable:NoExecute (timeAdded hb+50)
//	hb+350   TaintManagerEviction: each pod gets DisruptionTarget and is deleted;
//	         it stays Terminating, as nothing confirms its end
//	back     the kubelet posts Ready: the unreachable taints go
//
// The controller keeps no state: every Sync derives all of this from the
// objects, so Clone returns the controller itself.
package nodelifecycle

import (
	"strconv"
	"time"

	"converge/core/api"
	"converge/core/controller"
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
}

// Controller is the node lifecycle and taint eviction controller.
type Controller struct {
	grace    time.Duration
	eviction time.Duration
	// work is the scratch of one Sync, kept to spare its allocation (not
	// state: each Sync starts it afresh).
	work []nodeWork
}

var _ controller.Controller = (*Controller)(nil)

// New returns the controller.
func New(o Options) *Controller {
	c := &Controller{grace: o.NodeMonitorGracePeriod, eviction: o.PodEvictionTimeout}
	if c.grace <= 0 {
		c.grace = DefaultNodeMonitorGracePeriod
	}
	if c.eviction <= 0 {
		c.eviction = DefaultPodEvictionTimeout
	}
	return c
}

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller; the controller has no state.
func (c *Controller) Clone() controller.Controller { return c }

// nodeWork is what one Sync learned and did about one node.
type nodeWork struct {
	node      *api.Node
	age       time.Duration // since the last heartbeat
	grace     time.Duration
	wasReady  bool // Ready was True before this Sync
	ready     string
	pods      []*api.Pod
	actions   []string
	evictAt   time.Time // the earliest pending eviction
	evictions int       // pods whose eviction is pending
	blocked   string    // why no NoExecute taint is added
}

func (w *nodeWork) act(a string) { w.actions = append(w.actions, a) }

// Sync compares every node's heartbeat with the grace period, marks the
// silent ones Unknown and their pods not ready, brings the node taints in
// line with the conditions, and evicts the pods that NoExecute taints no
// longer allow.
func (c *Controller) Sync(ctx *controller.Context) {
	s := ctx.Store
	now := ctx.Now()
	nodes := s.Nodes()
	clear(c.work)
	if cap(c.work) < len(nodes) {
		c.work = make([]nodeWork, len(nodes))
	}
	work := c.work[:len(nodes)]
	for i, n := range nodes {
		work[i] = c.monitorHealth(ctx, n, now)
	}
	c.groupPods(s, work)
	for i := range work {
		c.markPodsNotReady(ctx, &work[i])
	}
	full, partial := disruption(work)
	for i := range work {
		c.updateTaints(ctx, &work[i], full, partial, now)
		c.evict(ctx, &work[i], now)
		c.record(ctx, &work[i], now)
	}
}

// groupPods gives every node that is not Ready or has a NoExecute taint its
// pods (in creation order, from the store's index by node); healthy nodes
// need none.
func (c *Controller) groupPods(s *store.Store, work []nodeWork) {
	for i := range work {
		if work[i].ready != api.ConditionTrue || hasNoExecute(work[i].node) {
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

// monitorHealth is tryUpdateNodeHealth: a node whose Ready heartbeat is at
// least the grace period old gets Ready (and the pressure conditions)
// Unknown. A node that never posted Ready is judged from its creation with
// the startup grace period.
func (c *Controller) monitorHealth(ctx *controller.Context, n *api.Node, now time.Time) nodeWork {
	w := nodeWork{node: n, grace: c.grace, ready: api.ConditionUnknown}
	ready := api.GetNodeCondition(&n.Status, api.NodeReady)
	hb := n.CreationTimestamp.Time
	if ready == nil {
		w.grace = NodeStartupGracePeriod
	} else {
		w.ready, w.wasReady = ready.Status, ready.Status == api.ConditionTrue
		if !ready.LastHeartbeatTime.IsZero() {
			hb = ready.LastHeartbeatTime.Time
		}
	}
	w.age = now.Sub(hb)
	if w.age < w.grace || (ready != nil && ready.Status == api.ConditionUnknown) {
		return w
	}
	conds := append([]api.NodeCondition(nil), n.Status.Conditions...)
	for _, t := range monitoredConditions {
		i := condIndex(conds, t)
		switch {
		case i < 0:
			conds = append(conds, api.NodeCondition{Type: t, Status: api.ConditionUnknown, Reason: ReasonNodeStatusNeverUpd,
				Message: msgNeverPosted, LastHeartbeatTime: n.CreationTimestamp, LastTransitionTime: api.NewTime(now)})
		case conds[i].Status != api.ConditionUnknown:
			conds[i].Status, conds[i].Reason, conds[i].Message = api.ConditionUnknown, ReasonNodeStatusUnknown, msgStoppedPosting
			conds[i].LastTransitionTime = api.NewTime(now)
		}
	}
	x := *n
	x.Status.Conditions = conds
	out, err := ctx.Store.UpdateStatus(&x)
	if err != nil {
		return w
	}
	w.node, w.ready = out.(*api.Node), api.ConditionUnknown
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

// markPodsNotReady is MarkPodsNotReady for every pod of a node that is not
// Ready: its Ready condition becomes False, with the NodeNotReady event.
func (c *Controller) markPodsNotReady(ctx *controller.Context, w *nodeWork) {
	if w.ready == api.ConditionTrue {
		return
	}
	now := ctx.Store.Now()
	marked := 0
	for i, p := range w.pods {
		cond := api.GetPodCondition(&p.Status, api.PodReady)
		if cond == nil || cond.Status == api.ConditionFalse {
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
		w.act("mark " + plural(marked, "pod") + " not ready")
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
