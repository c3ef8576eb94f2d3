package view

import (
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/sim"
)

// NeverReadyAfter is how long a running container's readiness probe may
// fail before the why line says it never passes: the default probe's
// period (10s) times its failure threshold (3).
const NeverReadyAfter = 30

// blockingCause is what keeps a Deployment's rollout from progressing when
// its pods will not get better by themselves, in the order a user should
// look: pods that cannot be scheduled (the scheduler's own message), an
// image that cannot be pulled or is not a valid name, containers in
// CrashLoopBackOff, a readiness probe that has not passed in
// NeverReadyAfter seconds of running, pods on a node that is not Ready.
// kind is "stuck"; "" when nothing blocks beyond the budget
// (the pods are merely starting).
func blockingCause(s *sim.Sim, d *api.Deployment) (kind, text string) {
	st := s.Store()
	rss := ownedReplicaSets(st, d)
	uids := map[string]bool{}
	for _, rs := range rss {
		uids[rs.UID] = true
	}
	notReady := map[string]bool{}
	for _, n := range st.Nodes() {
		if !api.IsNodeReady(n) {
			notReady[n.Name] = true
		}
	}
	now := s.Now()
	var c causes
	st.EachPod(func(p *api.Pod) bool {
		ref := api.GetControllerOf(&p.ObjectMeta)
		if ref == nil || !uids[ref.UID] || p.DeletionTimestamp != nil || !api.IsPodActive(p) {
			return true
		}
		if cond := api.GetPodCondition(&p.Status, api.PodReady); cond != nil && cond.Status == api.ConditionTrue {
			return true
		}
		if notReady[p.Spec.NodeName] {
			c.lost.add(p.Spec.NodeName, p.Name)
			return true
		}
		if cond := api.GetPodCondition(&p.Status, api.PodScheduled); p.Spec.NodeName == "" && cond != nil && cond.Status == api.ConditionFalse {
			c.unschedulable.add(cond.Message, p.Name)
			return true
		}
		for _, cs := range p.Status.ContainerStatuses {
			switch w := cs.State.Waiting; {
			case w != nil && (w.Reason == "ErrImagePull" || w.Reason == "ImagePullBackOff"):
				c.pull.add(image(p, cs), p.Name)
				c.pullReason = w.Reason
			case w != nil && w.Reason == "InvalidImageName":
				c.invalid.add(image(p, cs), p.Name)
			case w != nil && w.Reason == "CrashLoopBackOff":
				c.crash.add(cs.Name, p.Name)
				c.restarts = max(c.restarts, cs.RestartCount)
			case cs.State.Running != nil && !cs.Ready && int64(now.Sub(cs.State.Running.StartedAt.Time).Seconds()) >= NeverReadyAfter:
				c.neverReady.add(cs.Name, p.Name)
				c.runningFor = max(c.runningFor, int64(now.Sub(cs.State.Running.StartedAt.Time).Seconds()))
			}
		}
		return true
	})
	switch {
	case c.unschedulable.n > 0:
		return "stuck", fmt.Sprintf("Stuck: %s cannot be scheduled: %s", podCount(c.unschedulable.n), strings.TrimSpace(c.unschedulable.first))
	case c.invalid.n > 0:
		return "stuck", fmt.Sprintf("Stuck: %s cannot start: image %q is not a valid image name (InvalidImageName).",
			podCount(c.invalid.n), c.invalid.first)
	case c.pull.n > 0:
		return "stuck", fmt.Sprintf("Stuck: %s cannot pull image %q (%s); the kubelet retries with back-off.",
			podCount(c.pull.n), c.pull.first, c.pullReason)
	case c.crash.n > 0:
		return "stuck", fmt.Sprintf("Stuck: %s crash after starting (CrashLoopBackOff, %s so far, container %q).",
			podCount(c.crash.n), plural(int64(c.restarts), "restart"), c.crash.first)
	case c.neverReady.n > 0:
		return "stuck", fmt.Sprintf("Stuck: %s run but never become ready: container %q's readiness probe has not passed in %ds.",
			podCount(c.neverReady.n), c.neverReady.first, c.runningFor)
	case c.lost.n > 0:
		return "stuck", fmt.Sprintf("Stuck: node %s is not Ready (its kubelet stopped posting status), so %s on it cannot be available.",
			c.lost.first, podCount(c.lost.n))
	}
	return "", ""
}

// causes counts the pods by what keeps them from becoming available.
type causes struct {
	unschedulable, pull, invalid, crash, neverReady, lost tally
	pullReason                                            string
	restarts                                              int32
	runningFor                                            int64
}

// tally counts pods and keeps the first thing named (an image, a message,
// a container, a node).
type tally struct {
	n     int
	first string
}

func (t *tally) add(what, _ string) {
	if t.n == 0 {
		t.first = what
	}
	t.n++
}

func podCount(n int) string {
	if n == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", n)
}

// image is the image a container status is about: its own field, or the
// pod spec's container of that name.
func image(p *api.Pod, cs api.ContainerStatus) string {
	for _, c := range p.Spec.Containers {
		if c.Name == cs.Name {
			return c.Image
		}
	}
	return cs.Image
}
