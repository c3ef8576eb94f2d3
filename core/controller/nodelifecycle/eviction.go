package nodelifecycle

import (
	"math"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/humanize"
	"converge/core/store"
)

// evict is the taint eviction controller's processPodOnNode for every pod of
// the node: a pod that does not tolerate all of the node's NoExecute taints
// is deleted now; one that tolerates them for a while is deleted when the
// shortest tolerationSeconds of the matching tolerations has passed since
// the first of those taints was added; one that tolerates them forever
// stays. Pods already being deleted are left alone.
func (c *Controller) evict(ctx *controller.Context, w *nodeWork, now time.Time) {
	taints := noExecuteTaints(w.node)
	if len(taints) == 0 {
		return
	}
	evicted := 0
	for _, p := range w.pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		at, ok := evictionTime(w.node, taints, p)
		if !ok {
			continue
		}
		if at.After(now) {
			w.evictions++
			if w.evictAt.IsZero() || at.Before(w.evictAt) {
				w.evictAt = at
			}
			continue
		}
		if c.deletePod(ctx, p, now) {
			evicted++
		}
	}
	if evicted > 0 {
		w.act("evict " + humanize.Count(evicted, "pod"))
	}
}

// evictionTime is when the pod must go because of the NoExecute taints;
// false means never (it tolerates them forever).
func evictionTime(n *api.Node, taints []api.Taint, p *api.Pod) (time.Time, bool) {
	all, used := matchingTolerations(taints, p.Spec.Tolerations)
	if !all {
		return time.Time{}, true
	}
	d := minTolerationTime(used)
	if d < 0 {
		return time.Time{}, false
	}
	start := time.Time{}
	for _, t := range taints {
		added := n.CreationTimestamp.Time
		if t.TimeAdded != nil {
			added = t.TimeAdded.Time
		}
		if start.IsZero() || added.Before(start) {
			start = added
		}
	}
	return start.Add(d), true
}

// deletePod is addConditionAndDeletePod: the TaintManagerEviction event, the
// DisruptionTarget condition, then a graceful delete.
func (c *Controller) deletePod(ctx *controller.Context, p *api.Pod, now time.Time) bool {
	ctx.Event(p, TaintEvictionComponent, api.EventTypeNormal, ReasonTaintManagerEviction, "Marking for deletion Pod "+p.Namespace+"/"+p.Name)
	if dt := api.GetPodCondition(&p.Status, api.DisruptionTarget); dt == nil || dt.Status != api.ConditionTrue || dt.Reason != ReasonDeletionByTaintMgr {
		x := *p
		x.Status.Conditions = make([]api.PodCondition, 0, len(p.Status.Conditions)+1)
		for _, cond := range p.Status.Conditions {
			if cond.Type != api.DisruptionTarget {
				x.Status.Conditions = append(x.Status.Conditions, cond)
			}
		}
		x.Status.Conditions = append(x.Status.Conditions, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue,
			Reason: ReasonDeletionByTaintMgr, Message: msgDisruptionTarget, LastTransitionTime: api.NewTime(now)})
		if _, err := ctx.Store.UpdateStatus(&x); err != nil {
			return false
		}
	}
	return ctx.Store.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{}) == nil
}

// cancelEvictions sends "Cancelling deletion" for the pods whose eviction was
// pending when the node lost its last NoExecute taint.
func (c *Controller) cancelEvictions(ctx *controller.Context, w *nodeWork, before *api.Node, now time.Time) {
	taints := noExecuteTaints(before)
	cancelled := 0
	for _, p := range w.pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if at, ok := evictionTime(before, taints, p); ok && at.After(now) {
			ctx.Event(p, TaintEvictionComponent, api.EventTypeNormal, ReasonTaintManagerEviction, "Cancelling deletion of Pod "+p.Namespace+"/"+p.Name)
			cancelled++
		}
	}
	if cancelled > 0 {
		w.act("cancel the eviction of " + humanize.Count(cancelled, "pod"))
	}
}

func noExecuteTaints(n *api.Node) []api.Taint {
	var out []api.Taint
	for _, t := range n.Spec.Taints {
		if t.Effect == api.TaintEffectNoExecute {
			out = append(out, t)
		}
	}
	return out
}

// ToleratesTaint is v1 Toleration.ToleratesTaint: the effect matches (or the
// toleration names none), the key matches (or the toleration names none),
// and the value is equal for operator Equal (the default) or anything for
// Exists.
func ToleratesTaint(tol api.Toleration, t api.Taint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect {
		return false
	}
	if tol.Key != "" && tol.Key != t.Key {
		return false
	}
	switch tol.Operator {
	case "", "Equal":
		return tol.Value == t.Value
	case "Exists":
		return true
	}
	return false
}

// matchingTolerations is GetMatchingTolerations: whether every taint is
// tolerated, and the first toleration that tolerates each.
func matchingTolerations(taints []api.Taint, tols []api.Toleration) (bool, []api.Toleration) {
	used := make([]api.Toleration, 0, len(taints))
	for _, t := range taints {
		found := false
		for _, tol := range tols {
			if ToleratesTaint(tol, t) {
				used = append(used, tol)
				found = true
				break
			}
		}
		if !found {
			return false, nil
		}
	}
	return true, used
}

// minTolerationTime is getMinTolerationTime: the shortest tolerationSeconds
// (0 for a non-positive one), or -1 when none is limited.
func minTolerationTime(tols []api.Toleration) time.Duration {
	if len(tols) == 0 {
		return 0
	}
	m := int64(math.MaxInt64)
	for _, t := range tols {
		if t.TolerationSeconds == nil {
			continue
		}
		if *t.TolerationSeconds <= 0 {
			return 0
		}
		m = min(m, *t.TolerationSeconds)
	}
	if m == math.MaxInt64 {
		return -1
	}
	return time.Duration(m) * time.Second
}

// record is the sync record of one node.
func (c *Controller) record(ctx *controller.Context, w *nodeWork, now time.Time) {
	n := w.node
	r := controller.SyncRecord{Controller: Component, Object: "node/" + n.Name}
	status := "Ready"
	if w.ready != api.ConditionTrue {
		status = "NotReady (Ready=" + w.ready + ")"
	}
	if api.GetNodeCondition(&n.Status, api.NodeReady) == nil {
		r.Observed = "no status posted yet, created " + w.age.String() + " ago"
	} else {
		r.Observed = status + ", last heartbeat " + w.age.String() + " ago"
	}
	if n.Spec.Unschedulable {
		r.Observed += ", cordoned"
	}
	if len(w.pods) > 0 {
		r.Observed += ", " + humanize.Count(len(w.pods), "pod")
	}
	switch {
	case len(w.actions) > 0:
		r.Action = join(w.actions)
	case w.health.blocked != "" && w.ready != api.ConditionTrue:
		r.Waiting = w.health.blocked
	case w.evictions > 0:
		r.Waiting = "pods on " + n.Name + " evicted in " + w.evictAt.Sub(now).String()
	case w.ready != api.ConditionTrue:
		r.Waiting = "waiting for the kubelet of " + n.Name + " (no heartbeat for " + w.age.String() + ")"
	case w.age > heartbeatPeriod:
		r.Waiting = "no heartbeat for " + w.age.String() + ": NotReady in " + c.unknownAt(w, now).Sub(now).String() +
			", pods evicted " + c.eviction.String() + " later"
	default:
		r.InSync = true
	}
	ctx.Record(r)
}

// unknownAt is when a check will mark the node Unknown if no heartbeat comes:
// the first check strictly after its probe time plus the grace period.
func (c *Controller) unknownAt(w *nodeWork, now time.Time) time.Time {
	limit := w.health.probe.Add(w.grace)
	next := c.lastCheck
	if !next.After(now) && !(w.check && next.Equal(now)) {
		next = now
	}
	for !next.After(limit) {
		next = next.Add(c.period)
	}
	return next
}

func join(as []string) string {
	out := as[0]
	for _, a := range as[1:] {
		out += "; " + a
	}
	return out
}
