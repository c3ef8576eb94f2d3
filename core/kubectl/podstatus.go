package kubectl

import (
	"fmt"
	"strconv"

	"converge/core/api"
)

// nodeUnreachablePodReason is the pod status reason the node lifecycle
// controller sets on pods of a lost node (kubectl shows them as Unknown).
const nodeUnreachablePodReason = "NodeLost"

// podRow holds what `kubectl get pods` computes for one pod.
type podRow struct {
	ready    string // 1/1
	status   string // Running, ContainerCreating, CrashLoopBackOff, Terminating ...
	restarts string // 0, or "2 (5s ago)"
}

// podStatus is printPod of kubectl's printers: STATUS is the phase (or
// status.reason), replaced by an init container's or a container's waiting or
// terminated reason (the first container's wins), "Completed" turned back to
// Running/NotReady while a container still runs, and Terminating for a pod
// being deleted that has not finished. READY counts containers that are
// ready and running. RESTARTS adds "(<age> ago)" of the latest restart.
func podStatus(p *api.Pod, now api.Time) podRow {
	restarts := 0
	total := len(p.Spec.Containers)
	ready := 0
	var lastRestart api.Time
	reason := p.Status.Phase
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodScheduled && c.Reason == "SchedulingGated" {
			reason = "SchedulingGated"
		}
	}
	hasRunning := false
	for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
		c := p.Status.ContainerStatuses[i]
		restarts += int(c.RestartCount)
		if t := c.LastTerminationState.Terminated; t != nil && lastRestart.Before(t.FinishedAt.Time) {
			lastRestart = t.FinishedAt
		}
		switch {
		case c.State.Waiting != nil && c.State.Waiting.Reason != "":
			reason = c.State.Waiting.Reason
		case c.State.Terminated != nil && c.State.Terminated.Reason != "":
			reason = c.State.Terminated.Reason
		case c.State.Terminated != nil:
			if c.State.Terminated.Signal != 0 {
				reason = fmt.Sprintf("Signal:%d", c.State.Terminated.Signal)
			} else {
				reason = fmt.Sprintf("ExitCode:%d", c.State.Terminated.ExitCode)
			}
		case c.Ready && c.State.Running != nil:
			hasRunning = true
			ready++
		}
	}
	if reason == "Completed" && hasRunning {
		if api.IsPodReady(p) {
			reason = "Running"
		} else {
			reason = "NotReady"
		}
	}
	terminal := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
	if p.DeletionTimestamp != nil && p.Status.Reason == nodeUnreachablePodReason {
		reason = "Unknown"
	} else if p.DeletionTimestamp != nil && !terminal {
		reason = "Terminating"
	}
	r := strconv.Itoa(restarts)
	if restarts != 0 && !lastRestart.IsZero() {
		r = fmt.Sprintf("%d (%s ago)", restarts, since(now, lastRestart))
	}
	return podRow{ready: fmt.Sprintf("%d/%d", ready, total), status: reason, restarts: r}
}
