package kubelet

import (
	"fmt"
	"strconv"
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
		switch {
		case c.crashReq || (!c.crashAt.IsZero() && !now.Before(c.crashAt)):
			k.crash(ctx, ps, p, i, now, log)
			return true, true
		case !c.nextProbe.IsZero() && !now.Before(c.nextProbe):
			return true, k.probe(ctx, ps, p, i, now, log)
		}
		return false, false
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
	case phPullBackOff, phNeverPull:
		k.ensureImage(ctx, ps, p, i, now, log)
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
	c.ph, c.pullStart = phPulling, now
	d := im.pull()
	switch {
	case im.PullFail:
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
	if k.image(c.image).PullFail {
		k.event(ctx, p, api.EventTypeWarning, ReasonFailed, msgPullFailed(c.image, k.info(c.image).pullErr))
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
	c.succ, c.fail = 0, 0
	if pr := p.Spec.Containers[i].ReadinessProbe; pr != nil {
		c.ready = false
		c.nextProbe = now.Add(time.Duration(max(pr.InitialDelaySeconds, 0)) * time.Second)
	} else {
		c.ready = true
		c.nextProbe = time.Time{}
	}
	c.at = c.runningDue()
}

// runningDue is the next step of a running container: its probe or its crash.
func (c *ctr) runningDue() time.Time {
	switch {
	case c.nextProbe.IsZero():
		return c.crashAt
	case c.crashAt.IsZero() || c.nextProbe.Before(c.crashAt):
		return c.nextProbe
	}
	return c.crashAt
}

// probe runs one readiness probe. It passes once the app has run for the
// image's readySeconds, unless the image is neverReady. It reports whether
// the container's readiness changed.
func (k *Controller) probe(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time, log *nodeLog) bool {
	c := &ps.ctrs[i]
	spec := &p.Spec.Containers[i]
	pr := spec.ReadinessProbe
	if pr == nil {
		c.nextProbe, c.at = time.Time{}, c.crashAt
		return false
	}
	im := k.image(c.image)
	warm := now.Sub(c.startedAt) >= im.ready()
	was := c.ready
	if warm && !im.NeverReady {
		c.succ, c.fail = c.succ+1, 0
		if !c.ready && c.succ >= max(pr.SuccessThreshold, 1) {
			c.ready = true
			log.act("container " + c.name + " in pod " + p.Name + " is ready")
		}
		if c.ready {
			// A warm app of a healthy image passes every probe from now on,
			// until the container exits: no need to run them.
			c.nextProbe, c.at = time.Time{}, c.crashAt
			return !was
		}
	} else {
		c.succ, c.fail = 0, c.fail+1
		k.event(ctx, p, api.EventTypeWarning, ReasonUnhealthy, "Readiness probe failed: "+probeOutput(pr, spec, ps.ip, warm))
		if c.ready && c.fail >= max(pr.FailureThreshold, 1) {
			c.ready = false
			log.act("container " + c.name + " in pod " + p.Name + " is not ready")
		}
	}
	period := time.Duration(max(pr.PeriodSeconds, 1)) * time.Second
	c.nextProbe = c.nextProbe.Add(period)
	if !c.nextProbe.After(now) {
		c.nextProbe = now.Add(period)
	}
	c.at = c.runningDue()
	return was != c.ready
}

// crash ends the container's run with exit code 1 and decides on the
// restart as kuberuntime's doBackOff does: at once when the back-off entry
// does not exist or expired, else after the back-off counted from the exit.
func (k *Controller) crash(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time, log *nodeLog) {
	c := &ps.ctrs[i]
	c.prev, c.cur = c.cur, term{valid: true, exitCode: 1, reason: TerminatedError, startedAt: c.startedAt, finished: now,
		id: c.id}
	c.ready, c.crashReq, c.crashAt, c.nextProbe = false, false, time.Time{}, time.Time{}
	log.act("container " + c.name + " in pod " + p.Name + " exited with code 1")
	if p.Spec.RestartPolicy == api.RestartPolicyNever {
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

// probeOutput is what a failing probe reports: the app refuses connections
// until it is warm; a warm neverReady app answers HTTP 503.
func probeOutput(pr *api.Probe, c *api.Container, ip string, warm bool) string {
	switch {
	case len(pr.HTTPGet) > 0:
		h := parseHTTPGet(pr.HTTPGet)
		port := resolvePort(h.Port, c)
		if warm {
			return "HTTP probe failed with statuscode: 503"
		}
		host := ip
		if h.Host != "" {
			host = h.Host
		}
		return fmt.Sprintf("Get %q: dial tcp %s:%s: connect: connection refused", h.scheme()+"://"+host+":"+port+h.path(), host, port)
	case len(pr.TCPSocket) > 0:
		h := parseHTTPGet(pr.TCPSocket)
		return fmt.Sprintf("dial tcp %s:%s: connect: connection refused", ip, resolvePort(h.Port, c))
	case len(pr.GRPC) > 0:
		h := parseHTTPGet(pr.GRPC)
		return fmt.Sprintf("timeout: failed to connect service %q within %ds", ip+":"+resolvePort(h.Port, c), max(pr.TimeoutSeconds, 1))
	}
	return ""
}

// resolvePort turns a probe port (a number or a container port name) into digits.
func resolvePort(v api.IntOrString, c *api.Container) string {
	if !v.IsString {
		return strconv.Itoa(int(v.IntVal))
	}
	for _, p := range c.Ports {
		if p.Name == v.StrVal {
			return strconv.Itoa(int(p.ContainerPort))
		}
	}
	return v.StrVal
}
