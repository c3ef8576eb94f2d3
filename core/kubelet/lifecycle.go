package kubelet

import (
	"fmt"
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// maxPasses bounds the steps one container takes in one Sync (a chain of
// zero-second pull, start and probe needs four).
const maxPasses = 8

// advance takes every step that is due at now, container by container in
// spec order, until none is left. It reports whether anything the pod's
// status shows changed (a probe that changes nothing does not count).
func (k *Controller) advance(ctx *controller.Context, ps *podState, p *api.Pod, now time.Time, log *nodeLog) bool {
	dirty := false
	for pass := 0; pass < maxPasses; pass++ {
		progressed := false
		for i := range ps.ctrs {
			moved, changed := k.step(ctx, ps, p, i, now, log)
			progressed = progressed || moved
			dirty = dirty || changed
		}
		if !progressed {
			break
		}
	}
	return dirty
}

// step takes the one step of container i that is due, if any. It reports
// whether it took a step and whether the step changed the status.
func (k *Controller) step(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time, log *nodeLog) (bool, bool) {
	c := &ps.ctrs[i]
	switch c.ph {
	case phNew:
		if !mayStart(ps, i) {
			return false, false
		}
		k.ensureImage(ctx, ps, p, i, now, log)
		return true, true
	case phRunning:
		if c.crashReq || (!c.crashAt.IsZero() && !now.Before(c.crashAt)) {
			k.crash(ctx, ps, p, i, now, log)
			return true, true
		}
		if kind, at, ok := c.nextProbe(); ok && !now.Before(at) {
			return true, k.probe(ctx, ps, p, i, kind, now, log)
		}
		return false, false
	case phKilling:
		if c.crashReq {
			c.at, c.exitCode, c.sigkill, c.crashReq = now, 1, false, false
		}
	}
	if c.at.IsZero() || now.Before(c.at) {
		return false, false
	}
	switch c.ph {
	case phPulling:
		k.pullDone(ctx, ps, p, i, now, log)
	case phPullFailed:
		k.event(ctx, p, api.EventTypeNormal, ReasonBackOff, msgPullBackOff(c.image))
		k.event(ctx, p, api.EventTypeWarning, ReasonFailed, "Error: "+WaitingImagePullBackOff)
		c.ph, c.at = phPullBackOff, c.retryAt
	case phPullBackOff, phNeverPull, phInvalidImage:
		k.ensureImage(ctx, ps, p, i, now, log)
	case phKilling:
		k.killDone(ctx, ps, p, i, now, log)
	case phCreating:
		k.started(ctx, ps, p, i, now, log)
	case phExited:
		k.event(ctx, p, api.EventTypeWarning, ReasonBackOff, msgCrashBackOffEvent(c.name, formatPod(p.Name, p.Namespace, p.UID)))
		c.ph, c.at = phBackOff, c.restartAt
	case phBackOff:
		c.crashBO.next(c.cur.finished, now)
		k.ensureImage(ctx, ps, p, i, now, log)
	default:
		c.at = time.Time{}
		return false, false
	}
	return true, true
}

// mayStart reports whether container i may begin: the kubelet starts a pod's
// containers one after the other, each after the previous one's pull,
// create and start returned.
func mayStart(ps *podState, i int) bool {
	for j := 0; j < i; j++ {
		switch ps.ctrs[j].ph {
		case phNew, phPulling, phCreating:
			return false
		}
	}
	return true
}

func (k *Controller) event(ctx *controller.Context, p *api.Pod, eventType, reason, message string) {
	ctx.EventOnHost(p, Component, p.Spec.NodeName, eventType, reason, message)
}

// ensureImage is the image manager's EnsureImageExists followed by the
// container's creation: an image the node holds is used as is (unless the
// pull policy is Always), a missing one is pulled. Pods that need an image
// the node is already pulling share that pull.
func (k *Controller) ensureImage(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time, log *nodeLog) {
	c := &ps.ctrs[i]
	n := k.node(ps)
	im := k.image(c.image)
	if msg := k.info(c.image).invalid; msg != "" {
		k.event(ctx, p, api.EventTypeWarning, ReasonInspectFailed, msg)
		k.event(ctx, p, api.EventTypeWarning, ReasonFailed, "Error: "+WaitingInvalidImageName)
		c.ph, c.at = phInvalidImage, now.Add(sandboxRetry)
		return
	}
	policy := p.Spec.Containers[i].ImagePullPolicy
	present := n.hasImage(c.image, now)
	switch {
	case policy == "Never" && !present:
		k.event(ctx, p, api.EventTypeWarning, ReasonNeverPull, msgNeverPull(c.image))
		k.event(ctx, p, api.EventTypeWarning, ReasonFailed, "Error: "+WaitingErrImageNeverPull)
		c.ph, c.at = phNeverPull, now.Add(sandboxRetry)
		return
	case present && policy != "Always":
		k.event(ctx, p, api.EventTypeNormal, ReasonPulled, msgPresent(c.image))
		k.create(ctx, ps, p, i, now)
		return
	}
	k.event(ctx, p, api.EventTypeNormal, ReasonPulling, msgPulling(c.image))
	log.act("pull " + c.image + " for " + p.Name)
	c.ph, c.pullStart, c.pullWillFail = phPulling, now, false
	d := im.pull()
	if im.PullFailures > 0 && !im.PullFail {
		if n.tries == nil {
			n.tries = map[string]int32{}
		}
		n.tries[c.image]++
		c.pullWillFail = n.tries[c.image] <= im.PullFailures
	}
	switch {
	case im.PullFail || c.pullWillFail:
		c.at = now.Add(d)
	case present:
		c.at = now.Add(min(d, time.Second)) // pull policy Always: the layers are there already
	default:
		if end, ok := n.pulls[c.image]; ok && end.After(now) {
			c.at = end
		} else {
			c.at = now.Add(d)
			n.pulls[c.image] = c.at
		}
	}
}

// pullDone ends a pull: the image is on the node, or the pull failed and
// the back-off starts.
func (k *Controller) pullDone(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time, log *nodeLog) {
	c := &ps.ctrs[i]
	if im := k.image(c.image); im.PullFail || c.pullWillFail {
		c.pullErr = k.info(c.image).pullErr
		if c.pullWillFail {
			c.pullErr = k.info(c.image).transientErr
		}
		k.event(ctx, p, api.EventTypeWarning, ReasonFailed, msgPullFailed(c.image, c.pullErr))
		k.event(ctx, p, api.EventTypeWarning, ReasonFailed, "Error: "+WaitingErrImagePull)
		c.pullBO.next(now, now)
		c.pullFailed = true
		c.retryAt = now.Add(c.pullBO.d)
		c.ph, c.at = phPullFailed, now.Add(time.Second)
		log.act("pull of " + c.image + " for " + p.Name + " failed: back-off " + c.pullBO.d.String())
		return
	}
	took := now.Sub(c.pullStart)
	k.event(ctx, p, api.EventTypeNormal, ReasonPulled, msgPulled(c.image, took, took, k.info(c.image).size))
	n := k.node(ps)
	n.present[c.image] = true
	if end, ok := n.pulls[c.image]; ok && !end.After(now) {
		delete(n.pulls, c.image)
	}
	k.create(ctx, ps, p, i, now)
}

func (k *Controller) create(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time) {
	c := &ps.ctrs[i]
	k.event(ctx, p, api.EventTypeNormal, ReasonCreated, msgCreated)
	c.ph, c.at = phCreating, now.Add(k.image(c.image).start())
}

// started makes the container run: probes and the crash timer start.
func (k *Controller) started(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time, log *nodeLog) {
	c := &ps.ctrs[i]
	im := k.image(c.image)
	c.runs++
	c.ph, c.startedAt = phRunning, now
	c.id = containerID(ps.uid, c.name, c.runs-1)
	k.event(ctx, p, api.EventTypeNormal, ReasonStarted, msgStarted)
	if c.runs > 1 {
		log.act(fmt.Sprintf("restart container %s in pod %s (restart %d)", c.name, p.Name, c.runs-1))
	} else {
		log.act("start container " + c.name + " in pod " + p.Name)
	}
	c.crashAt = time.Time{}
	if im.CrashAfterSeconds > 0 {
		c.crashAt = now.Add(time.Duration(im.CrashAfterSeconds) * time.Second)
	}
	c.initProbes(&p.Spec.Containers[i], now)
	c.at = c.runningDue()
}

// crash ends the container's run with exit code 1 (the app exited by
// itself, or the crash fault).
func (k *Controller) crash(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time, log *nodeLog) {
	c := &ps.ctrs[i]
	log.act("container " + c.name + " in pod " + p.Name + " exited with code 1")
	k.exited(ctx, ps, p, i, 1, p.Spec.RestartPolicy != api.RestartPolicyNever, now, log)
}

// finish records the end of the container's current run.
func (c *ctr) finish(code int32, now time.Time) {
	reason := TerminatedCompleted
	if code != 0 {
		reason = TerminatedError
	}
	c.prev, c.cur = c.cur, term{valid: true, exitCode: code, reason: reason, startedAt: c.startedAt, finished: now, id: c.id}
	c.ready, c.started, c.crashReq, c.crashAt = false, false, false, time.Time{}
	for kind := range c.probes {
		c.probes[kind] = prober{}
	}
}

// exited ends the container's run with the exit code and, when it is to
// restart, decides when as kuberuntime's doBackOff does: at once when the
// back-off entry does not exist or expired, else after the back-off counted
// from the exit.
func (k *Controller) exited(ctx *controller.Context, ps *podState, p *api.Pod, i int, code int32, restart bool, now time.Time, log *nodeLog) {
	c := &ps.ctrs[i]
	c.finish(code, now)
	if !restart {
		c.ph, c.at = phStopped, time.Time{}
		return
	}
	if c.crashBO.inBackOffSince(now, now) {
		c.restartAt = now.Add(c.crashBO.d)
		c.ph, c.at = phExited, now.Add(time.Second)
		return
	}
	c.crashBO.next(now, now)
	k.ensureImage(ctx, ps, p, i, now, log)
}
