package nodelifecycle

import (
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// Taint keys the controller manages besides the api ones.
const (
	TaintMemoryPressure     = "node.kubernetes.io/memory-pressure"
	TaintDiskPressure       = "node.kubernetes.io/disk-pressure"
	TaintPIDPressure        = "node.kubernetes.io/pid-pressure"
	TaintNetworkUnavailable = "node.kubernetes.io/network-unavailable"
	// labelExcludeDisruption keeps a node out of the disruption count.
	labelExcludeDisruption = "node.kubernetes.io/exclude-disruption"
	// largeClusterThreshold: a partially disrupted zone of at most this many
	// nodes gets no new NoExecute taints (its eviction rate drops to 0).
	largeClusterThreshold = 50
	// unhealthyZoneThreshold is the share of not-ready nodes that makes a
	// zone partially disrupted (with more than 2 of them).
	unhealthyZonePercent = 55
)

// conditionTaint is nodeConditionToTaintKeyStatusMap: the NoSchedule taint a
// node condition in a given status calls for.
func conditionTaint(c api.NodeCondition) string {
	switch {
	case c.Type == api.NodeReady && c.Status == api.ConditionFalse:
		return api.TaintNodeNotReady
	case c.Type == api.NodeReady && c.Status == api.ConditionUnknown:
		return api.TaintNodeUnreachable
	case c.Type == "MemoryPressure" && c.Status == api.ConditionTrue:
		return TaintMemoryPressure
	case c.Type == "DiskPressure" && c.Status == api.ConditionTrue:
		return TaintDiskPressure
	case c.Type == "PIDPressure" && c.Status == api.ConditionTrue:
		return TaintPIDPressure
	case c.Type == "NetworkUnavailable" && c.Status == api.ConditionTrue:
		return TaintNetworkUnavailable
	}
	return ""
}

// managedNoSchedule reports whether a NoSchedule taint key belongs to the
// controller (taintKeyToNodeConditionMap plus unschedulable).
func managedNoSchedule(key string) bool {
	switch key {
	case api.TaintNodeNotReady, api.TaintNodeUnreachable, TaintMemoryPressure, TaintDiskPressure, TaintPIDPressure,
		TaintNetworkUnavailable, api.TaintNodeUnschedulable:
		return true
	}
	return false
}

// disruption is handleDisruption's view of the zones: full reports that
// every zone has no Ready node (the controller then stops all evictions);
// partial names the zones, of at most 50 nodes, where more than 2 and at
// least 55% of the nodes are not Ready (no new NoExecute taints there).
func disruption(work []nodeWork) (full bool, partial map[string]bool) {
	type count struct{ ready, notReady int }
	zones := map[string]*count{}
	var order []string
	for i := range work {
		n := work[i].node
		if _, ok := n.Labels[labelExcludeDisruption]; ok {
			continue
		}
		z := zoneKey(n)
		c := zones[z]
		if c == nil {
			c = &count{}
			zones[z] = c
			order = append(order, z)
		}
		if work[i].ready == api.ConditionTrue {
			c.ready++
		} else {
			c.notReady++
		}
	}
	full = len(order) > 0
	for _, z := range order {
		c := zones[z]
		if c.ready > 0 || c.notReady == 0 {
			full = false
		}
		total := c.ready + c.notReady
		if c.ready > 0 && c.notReady > 2 && c.notReady*100 >= unhealthyZonePercent*total && total <= largeClusterThreshold {
			if partial == nil {
				partial = map[string]bool{}
			}
			partial[z] = true
		}
	}
	return full, partial
}

// zoneKey is GetZoneKey: region and zone labels.
func zoneKey(n *api.Node) string {
	region, zone := n.Labels["topology.kubernetes.io/region"], n.Labels["topology.kubernetes.io/zone"]
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

// updateTaints is doNoScheduleTaintingPass, every second: a NoSchedule
// taint for every condition that calls for one and for cordon; and at a
// check, processTaintBaseEviction with the NoExecute tainting:
// unreachable:NoExecute for a Ready=Unknown node, not-ready:NoExecute for
// Ready=False (the one swapped for the other at once), neither for a Ready
// node (markNodeAsReachable). New taints get timeAdded now. When every zone
// is fully disrupted the NoExecute taints come off all nodes; in a
// partially disrupted small zone none is added. Between checks the
// NoExecute taints stay as they are.
func (c *Controller) updateTaints(ctx *controller.Context, w *nodeWork, full bool, partial map[string]bool, now time.Time) {
	n := w.node
	var want []api.Taint
	for _, cond := range n.Status.Conditions {
		if key := conditionTaint(cond); key != "" {
			want = append(want, api.Taint{Key: key, Effect: api.TaintEffectNoSchedule})
		}
	}
	if n.Spec.Unschedulable {
		want = append(want, api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule})
	}
	noExec := ""
	if w.check {
		switch w.ready {
		case api.ConditionFalse:
			noExec = api.TaintNodeNotReady
		case api.ConditionUnknown:
			noExec = api.TaintNodeUnreachable
		}
		switch {
		case noExec == "":
		case full:
			w.health.blocked = "all nodes not ready: evictions stopped (full disruption)"
			noExec = ""
		case partial[zoneKey(n)] && !hasTaint(n.Spec.Taints, noExec, api.TaintEffectNoExecute) && !hasOppositeNoExecute(n, noExec):
			w.health.blocked = "zone partially disrupted: not tainting " + n.Name + " NoExecute"
			noExec = ""
		}
		c.health[n.Name] = w.health
		if noExec != "" {
			want = append(want, api.Taint{Key: noExec, Effect: api.TaintEffectNoExecute})
		}
	}

	var next []api.Taint
	changed := false
	for _, t := range n.Spec.Taints {
		keep := true
		switch {
		case t.Effect == api.TaintEffectNoSchedule && managedNoSchedule(t.Key):
			keep = hasTaint(want, t.Key, t.Effect)
		case w.check && t.Effect == api.TaintEffectNoExecute && (t.Key == api.TaintNodeNotReady || t.Key == api.TaintNodeUnreachable):
			keep = t.Key == noExec
		}
		if keep {
			next = append(next, t)
		} else {
			changed = true
			w.act("remove taint " + t.Key + ":" + t.Effect)
		}
	}
	for _, t := range want {
		if !hasTaint(n.Spec.Taints, t.Key, t.Effect) {
			t.TimeAdded = api.NewTimePtr(now)
			if t.Effect == api.TaintEffectNoExecute {
				// A swap between not-ready and unreachable keeps the time the
				// first one was added: the taint eviction controller keeps
				// the eviction it had scheduled then.
				if old := oppositeNoExecute(n, t.Key); old != nil && old.TimeAdded != nil {
					t.TimeAdded = api.NewTimePtr(old.TimeAdded.Time)
				}
			}
			next = append(next, t)
			changed = true
			w.act("add taint " + t.Key + ":" + t.Effect)
		}
	}
	if !changed {
		return
	}
	before := n
	x := *n
	x.Spec.Taints = next
	out, err := ctx.Store.Update(&x)
	if err != nil {
		return
	}
	w.node = out.(*api.Node)
	if hasNoExecute(before) && !hasNoExecute(w.node) {
		c.cancelEvictions(ctx, w, before, now)
	}
}

func hasTaint(ts []api.Taint, key, effect string) bool {
	for _, t := range ts {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
}

// hasOppositeNoExecute reports whether the node carries the other of the
// not-ready/unreachable NoExecute taints: those are swapped at once, even
// where no new taint is added.
func hasOppositeNoExecute(n *api.Node, key string) bool { return oppositeNoExecute(n, key) != nil }

func oppositeNoExecute(n *api.Node, key string) *api.Taint {
	other := api.TaintNodeNotReady
	if key == api.TaintNodeNotReady {
		other = api.TaintNodeUnreachable
	}
	for i := range n.Spec.Taints {
		if t := &n.Spec.Taints[i]; t.Key == other && t.Effect == api.TaintEffectNoExecute {
			return t
		}
	}
	return nil
}
