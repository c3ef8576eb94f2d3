// Package scheduler is kube-scheduler with its default profile, reduced to
// the plugins whose inputs Converge simulates.
//
// Every Sync takes the pods that are not bound to a node and not being
// deleted, in the scheduling queue's order (higher spec.priority first, then
// oldest), and for each one:
//
//   - filters the nodes, stopping at a node's first failing plugin, in the
//     default plugin order: NodeUnschedulable ("node(s) were
//     unschedulable"), TaintToleration (NoSchedule and NoExecute taints:
//     "node(s) had untolerated taint(s)"), NodeAffinity (spec.nodeSelector:
//     "node(s) didn't match Pod's node affinity/selector"), NodePorts and
//     NodeResourcesFit ("Too many pods", "Insufficient cpu", "Insufficient
//     memory"). A node whose Ready condition is not True is filtered through
//     its taints only, as in Kubernetes;
//   - scores the feasible nodes with the default weights: TaintToleration ×3
//     (PreferNoSchedule taints), NodeResourcesFit ×1 (LeastAllocated),
//     PodTopologySpread ×2 (the system default constraints: maxSkew 3 per
//     hostname, 5 per zone, counting the pods of the same owner) and
//     NodeResourcesBalancedAllocation ×1 (skipped for best-effort pods);
//     the highest total wins, ties going to the smallest node name where
//     Kubernetes picks at random;
//   - binds the pod (the binding subresource, which also sets PodScheduled
//     True) with the event "Successfully assigned default/web-x to node-1",
//     or marks it PodScheduled=False, reason Unschedulable, with the fit
//     error, e.g. "0/3 nodes are available: 1 node(s) were unschedulable, 2
//     Insufficient cpu.", and a FailedScheduling warning.
//
// The scheduler keeps no queue: an unschedulable pod is retried on the
// scheduler's back-off (1 s doubling to 10 s) counted from its PodScheduled
// condition's lastTransitionTime, and its FailedScheduling event is repeated
// at most every 10 s, or at once when the message changes. Node usage is
// computed once per Sync from the bound pods and updated as pods are bound.
//
// When no node fits, the message ends with DefaultPreemption's
// " preemption: ..." (filter.go preemptionTail). Not simulated: preemption
// itself (evicting lower-priority pods; the tail is then left out),
// affinity and topologySpreadConstraints written in the pod spec
// (kept raw), volumes, images on nodes, the percentage of nodes scored.
package scheduler
