package kubelet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// The probes follow pkg/kubelet/prober: a worker per probe runs it every
// periodSeconds, skipping it during initialDelaySeconds; liveness and
// readiness probes do not run until the container has started (its startup
// probe passed), and the startup probe stops once it has. A result is set
// only after failureThreshold failures or successThreshold successes in a
// row (worker.doProbe). The initial results are Success for liveness,
// Failure for readiness and Unknown for startup. A failed liveness or
// startup probe puts its worker on hold until the container is restarted;
// a passed startup probe too.
//
// In Converge a worker's ticks are startedAt + initialDelaySeconds + k *
// periodSeconds, to the second.

func spec(p *api.Pod, i int) *api.Container { return &p.Spec.Containers[i] }

// specProbe is the container's probe of that kind, or nil.
func specProbe(c *api.Container, kind probeKind) *api.Probe {
	switch kind {
	case startupProbe:
		return c.StartupProbe
	case livenessProbe:
		return c.LivenessProbe
	}
	return c.ReadinessProbe
}

// observe counts one probe result as the tail of worker.doProbe does and
// reports whether it set the worker's result.
func (w *prober) observe(kind probeKind, r result, spec *api.Probe) bool {
	if w.last == r {
		w.run++
	} else {
		w.last, w.run = r, 1
	}
	if r == resultFailure && w.run < max(spec.FailureThreshold, 1) || r == resultSuccess && w.run < max(spec.SuccessThreshold, 1) {
		return false
	}
	w.result = r
	if kind == livenessProbe && r == resultFailure || kind == startupProbe {
		w.hold, w.run = true, 0
	}
	return true
}

// tickAfter is the first of the worker's ticks after t (at t when inclusive).
func (w *prober) tickAfter(t time.Time, inclusive bool) time.Time {
	if t.Before(w.base) || inclusive && t.Equal(w.base) {
		return w.base
	}
	n := t.Sub(w.base) / w.period
	next := w.base.Add(n * w.period)
	if !next.After(t) && !(inclusive && next.Equal(t)) {
		next = next.Add(w.period)
	}
	return next
}

// initProbes sets up the probe workers of a container that started at now:
// the startup probe first, the others once the container has started.
func (c *ctr) initProbes(spec *api.Container, now time.Time) {
	c.started = spec.StartupProbe == nil
	for kind := range numProbes {
		w := &c.probes[kind]
		*w = prober{}
		pr := specProbe(spec, kind)
		if pr == nil {
			continue
		}
		w.base = now.Add(time.Duration(max(pr.InitialDelaySeconds, 0)) * time.Second)
		w.period = time.Duration(max(pr.PeriodSeconds, 1)) * time.Second
		switch kind {
		case livenessProbe:
			w.result = resultSuccess
		case readinessProbe:
			w.result = resultFailure
		}
		if kind == startupProbe || c.started {
			w.next = w.base
		}
	}
	c.ready = c.started && spec.ReadinessProbe == nil
}

// nextProbe is the probe due first, or false.
func (c *ctr) nextProbe() (probeKind, time.Time, bool) {
	var at time.Time
	var which probeKind
	for kind := range numProbes {
		if n := c.probes[kind].next; !n.IsZero() && (at.IsZero() || n.Before(at)) {
			at, which = n, kind
		}
	}
	return which, at, !at.IsZero()
}

// runningDue is the next step of a running container: a probe or its crash.
func (c *ctr) runningDue() time.Time {
	_, at, ok := c.nextProbe()
	switch {
	case !ok:
		return c.crashAt
	case c.crashAt.IsZero() || at.Before(c.crashAt):
		return at
	}
	return c.crashAt
}

// probe runs container i's probe of that kind, due at now: it asks the app
// (answers), sends Unhealthy when it fails, counts the result and acts on
// the one it sets: a started container, a readiness change, or a kill for a
// failed liveness or startup probe. It reports whether the status changed.
func (k *Controller) probe(ctx *controller.Context, ps *podState, p *api.Pod, i int, kind probeKind, now time.Time, log *nodeLog) bool {
	c := &ps.ctrs[i]
	spec := &p.Spec.Containers[i]
	pr := specProbe(spec, kind)
	w := &c.probes[kind]
	if pr == nil {
		w.next = time.Time{}
		c.at = c.runningDue()
		return false
	}
	im := k.image(c.image)
	s := now.Sub(c.startedAt)
	ans := im.answers(kind, s)
	r := resultSuccess
	if ans != answerOK {
		r = resultFailure
		k.event(ctx, p, api.EventTypeWarning, ReasonUnhealthy, probeNames[kind]+" probe failed: "+probeOutput(pr, spec, ps.ip, ans))
	}
	set := w.observe(kind, r, pr)
	w.next = w.tickAfter(now, false)
	switch {
	case w.hold:
		w.next = time.Time{}
	case r == resultSuccess && w.result == resultSuccess:
		// A passing probe that has set its result need not run again until
		// the app's answer may change.
		if change := im.nextChange(kind, s); change == 0 {
			w.next = time.Time{}
		} else if at := c.startedAt.Add(change); at.After(w.next) {
			w.next = w.tickAfter(at, true)
		}
	}
	changed := false
	if set {
		changed = k.probeSet(ctx, ps, p, i, kind, now, log)
	}
	if c.ph == phRunning {
		c.at = c.runningDue()
	}
	return changed
}

// probeSet acts on a result a probe worker set. It reports whether the
// status changed.
func (k *Controller) probeSet(ctx *controller.Context, ps *podState, p *api.Pod, i int, kind probeKind, now time.Time, log *nodeLog) bool {
	c := &ps.ctrs[i]
	w := &c.probes[kind]
	switch {
	case kind == startupProbe && w.result == resultSuccess:
		c.started = true
		log.act("container " + c.name + " in pod " + p.Name + " started (startup probe passed)")
		for _, other := range [...]probeKind{livenessProbe, readinessProbe} {
			if o := &c.probes[other]; o.period > 0 {
				o.next = o.tickAfter(now, false)
			}
		}
		if rd := &c.probes[readinessProbe]; rd.period > 0 {
			// The status update triggers the readiness worker at once
			// (prober_manager.UpdatePodStatus), once its initial delay passed.
			rd.next = rd.base
			if now.After(rd.base) {
				rd.next = now
			}
		} else {
			c.ready = true
		}
		return true
	case kind == startupProbe:
		k.kill(ctx, ps, p, i, killStartup, killGrace(p, spec(p, i), killStartup), now, log)
		return true
	case kind == livenessProbe && w.result == resultFailure:
		k.kill(ctx, ps, p, i, killLiveness, killGrace(p, spec(p, i), killLiveness), now, log)
		return true
	case kind == readinessProbe:
		was := c.ready
		c.ready = w.result == resultSuccess
		if c.ready != was {
			if c.ready {
				log.act("container " + c.name + " in pod " + p.Name + " is ready")
			} else {
				log.act("container " + c.name + " in pod " + p.Name + " is not ready")
			}
		}
		return c.ready != was
	}
	return false
}

// probeOutput is what a failing probe reports, in the prober's words
// (pkg/probe/http, tcp, grpc and exec): a starting app refuses connections,
// an unhealthy one answers HTTP 503 or NOT_SERVING, a hung one lets the
// probe time out. An exec probe prints what its command printed: nothing,
// unless it timed out.
func probeOutput(pr *api.Probe, c *api.Container, ip string, ans answer) string {
	timeout := time.Duration(max(pr.TimeoutSeconds, 1)) * time.Second
	switch {
	case len(pr.HTTPGet) > 0:
		h := parseHTTPGet(pr.HTTPGet)
		port := resolvePort(h.Port, c)
		host := ip
		if h.Host != "" {
			host = h.Host
		}
		url := strconv.Quote(h.scheme() + "://" + host + ":" + port + h.path())
		switch ans {
		case answerUnhealthy:
			return "HTTP probe failed with statuscode: 503"
		case answerHung:
			return "Get " + url + ": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
		}
		return fmt.Sprintf("Get %s: dial tcp %s:%s: connect: connection refused", url, host, port)
	case len(pr.TCPSocket) > 0:
		h := parseHTTPGet(pr.TCPSocket)
		addr := ip + ":" + resolvePort(h.Port, c)
		if ans == answerHung {
			return "dial tcp " + addr + ": i/o timeout"
		}
		return "dial tcp " + addr + ": connect: connection refused"
	case len(pr.GRPC) > 0:
		h := parseHTTPGet(pr.GRPC)
		switch ans {
		case answerUnhealthy:
			return `service unhealthy (responded with "NOT_SERVING")`
		case answerHung:
			return fmt.Sprintf("timeout: health rpc did not complete within %v", timeout)
		}
		return fmt.Sprintf("timeout: failed to connect service %q within %v: context deadline exceeded", ip+":"+resolvePort(h.Port, c), timeout)
	case len(pr.Exec) > 0 && ans == answerHung:
		return fmt.Sprintf("command %q timed out", strings.Join(parseExec(pr.Exec), " "))
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
