package scheduler

import (
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
)

// Filter reasons, as the plugins word them.
const (
	ErrReasonUnschedulable      = "node(s) were unschedulable"
	ErrReasonUntoleratedTaint   = "node(s) had untolerated taint(s)"
	ErrReasonNodeSelector       = "node(s) didn't match Pod's node affinity/selector"
	ErrReasonNodePorts          = "node(s) didn't have free ports for the requested pod ports"
	ErrReasonTooManyPods        = "Too many pods"
	ErrReasonInsufficientCPU    = "Insufficient cpu"
	ErrReasonInsufficientMemory = "Insufficient memory"

	// The DefaultPreemption plugin's reasons (its PostFilter, run when no
	// node fits).
	ErrReasonPreemptionNotHelpful = "Preemption is not helpful for scheduling"
	ErrReasonNoVictims            = "No preemption victims found for incoming pod"
	msgPreemptNever               = "not eligible due to preemptionPolicy=Never."
	// msgNoClaims is DynamicResources' PostFilter for a pod without
	// resource claims; it runs before DefaultPreemption's (DRA is on by
	// default since 1.34), and RunPostFilterPlugins joins their reasons
	// with ", ".
	msgNoClaims = "no new claims to deallocate"

	// NoNodesAvailable is ErrNoNodesAvailable, for a cluster without nodes.
	NoNodesAvailable = "no nodes available to schedule pods"
)

// reason is one filter reason; a node can fail with several fit reasons.
type reason uint8

const (
	reasonUnschedulable reason = 1 << iota
	reasonTaint
	reasonSelector
	reasonPorts
	reasonTooManyPods
	reasonCPU
	reasonMemory
)

var reasonText = []struct {
	r    reason
	text string
}{
	{reasonUnschedulable, ErrReasonUnschedulable},
	{reasonTaint, ErrReasonUntoleratedTaint},
	{reasonSelector, ErrReasonNodeSelector},
	{reasonPorts, ErrReasonNodePorts},
	{reasonTooManyPods, ErrReasonTooManyPods},
	{reasonCPU, ErrReasonInsufficientCPU},
	{reasonMemory, ErrReasonInsufficientMemory},
}

// candidate is the pod being scheduled with what the filters and scores
// need of it.
type candidate struct {
	pod   *api.Pod
	req   resources
	ports []hostPort
	owner int // index into snapshot.owners, -1 when the pod is not spread
}

// filter runs the filter plugins of one node in the default order and
// returns the reasons of the first plugin that rejects the node, 0 when the
// node fits.
func filter(c *candidate, n *nodeInfo) reason {
	node := n.node
	if node.Spec.Unschedulable && !tolerates(c.pod.Spec.Tolerations,
		&api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}) {
		return reasonUnschedulable
	}
	for i := range node.Spec.Taints {
		t := &node.Spec.Taints[i]
		if (t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute) && !tolerates(c.pod.Spec.Tolerations, t) {
			return reasonTaint
		}
	}
	for k, v := range c.pod.Spec.NodeSelector {
		if w, ok := node.Labels[k]; !ok || w != v {
			return reasonSelector
		}
	}
	if conflicts(c.ports, n.ports) {
		return reasonPorts
	}
	return fits(c, n)
}

// fits is NodeResourcesFit's fitsRequest: the pod count first, then cpu and
// memory, each only when the pod requests some.
func fits(c *candidate, n *nodeInfo) reason {
	var r reason
	if n.pods+1 > n.allocPods {
		r |= reasonTooManyPods
	}
	if c.req.cpu > 0 && c.req.cpu > n.allocCPU-n.used.cpu {
		r |= reasonCPU
	}
	if c.req.mem > 0 && c.req.mem > n.allocMem-n.used.mem {
		r |= reasonMemory
	}
	return r
}

// tolerates is TolerationsTolerateTaint: some toleration matches the
// taint's effect (an empty effect matches all), key (an empty key matches
// all) and, with operator Equal (or none), value.
func tolerates(ts []api.Toleration, taint *api.Taint) bool {
	for i := range ts {
		t := &ts[i]
		if t.Effect != "" && t.Effect != taint.Effect {
			continue
		}
		if t.Key != "" && t.Key != taint.Key {
			continue
		}
		switch t.Operator {
		case "", "Equal":
			if t.Value == taint.Value {
				return true
			}
		case "Exists":
			return true
		}
	}
	return false
}

func conflicts(want, used []hostPort) bool {
	for _, w := range want {
		for _, u := range used {
			if w == u {
				return true
			}
		}
	}
	return false
}

// fitError is FitError.Error(): the count of nodes, then each reason with
// the number of nodes it rejected, as "count reason" strings sorted as
// strings, joined by ", " and ended with a period.
//
// Example: 3 nodes, node-1 cordoned, node-2 and node-3 short of cpu:
// "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu."
func fitError(numNodes int, counts []int) string {
	if numNodes == 0 {
		return NoNodesAvailable
	}
	var parts []string
	for i, rt := range reasonText {
		if counts[i] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[i], rt.text))
		}
	}
	sort.Strings(parts)
	msg := fmt.Sprintf("0/%d nodes are available:", numNodes)
	if len(parts) > 0 {
		msg += " " + strings.Join(parts, ", ") + "."
	}
	return msg
}

// countReasons adds a node's reasons to the histogram fitError reads.
func countReasons(counts []int, r reason) {
	for i, rt := range reasonText {
		if r&rt.r != 0 {
			counts[i]++
		}
	}
}

// preemptionTail is the " no new claims to deallocate, preemption: ..." the
// PostFilter plugins add to the fit error when no node fits:
// DynamicResources' (the pod has no claims) and DefaultPreemption's
// (defaultpreemption's PostFilter,
// Evaluator.Preempt): a pod with preemptionPolicy Never is not eligible;
// otherwise a node whose filter failure preemption cannot resolve
// (unschedulable, an untolerated taint, the node selector, a request larger
// than the node's allocatable) counts as "Preemption is not helpful for
// scheduling", and a node whose pods all have the pod's priority or a
// higher one as "No preemption victims found for incoming pod", in a
// FitError of their own. When a node has pods of a lower priority,
// Kubernetes would evict some of them (a preemption), which Converge does
// not simulate: the tail is left out (docs/fidelity.md).
func preemptionTail(c *candidate, nodes []nodeInfo) string {
	if pp := c.pod.Spec.PreemptionPolicy; pp != nil && *pp == "Never" {
		return " " + msgNoClaims + ", preemption: " + msgPreemptNever
	}
	prio := api.Deref(c.pod.Spec.Priority, 0)
	notHelpful, noVictims := 0, 0
	for i := range nodes {
		n := &nodes[i]
		r := filter(c, n)
		switch {
		case r&(reasonUnschedulable|reasonTaint|reasonSelector) != 0,
			r&reasonCPU != 0 && c.req.cpu > n.allocCPU,
			r&reasonMemory != 0 && c.req.mem > n.allocMem:
			notHelpful++
		case n.pods > 0 && n.minPriority < prio:
			return ""
		default:
			noVictims++
		}
	}
	var parts []string
	if notHelpful > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", notHelpful, ErrReasonPreemptionNotHelpful))
	}
	if noVictims > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", noVictims, ErrReasonNoVictims))
	}
	sort.Strings(parts)
	return fmt.Sprintf(" %s, preemption: 0/%d nodes are available: %s.", msgNoClaims, len(nodes), strings.Join(parts, ", "))
}
