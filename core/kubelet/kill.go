package kubelet

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// minimumGracePeriod is kuberuntime's minimumGracePeriodInSeconds: however
// long the preStop hook took, a container gets this long after SIGTERM
// before SIGKILL.
const minimumGracePeriod = 2 * time.Second

// exitSIGKILL is the exit code of a container killed by SIGKILL (128+9).
const exitSIGKILL = 137

// killGrace is kuberuntime's setTerminationGracePeriod: the grace period
// of the pod's deletion when it is being deleted, else for a container
// killed by its liveness or startup probe that probe's
// terminationGracePeriodSeconds when set, else the pod's (which the API
// defaults to 30s).
func killGrace(p *api.Pod, c *api.Container, reason killReason) int64 {
	switch {
	case p.DeletionGracePeriodSeconds != nil:
		return *p.DeletionGracePeriodSeconds
	case p.Spec.TerminationGracePeriodSeconds != nil:
		var pr *api.Probe
		switch reason {
		case killLiveness:
			pr = c.LivenessProbe
		case killStartup:
			pr = c.StartupProbe
		}
		if pr != nil && pr.TerminationGracePeriodSeconds != nil {
			return *pr.TerminationGracePeriodSeconds
		}
		return *p.Spec.TerminationGracePeriodSeconds
	}
	return int64(minimumGracePeriod / time.Second)
}

// kill starts stopping running container i as kuberuntime's killContainer
// does: Killing, then the preStop hook (for at most the grace period), then
// SIGTERM, then SIGKILL once what is left of the grace period, but at least
// 2s, has passed. The app exits after SIGTERM in its image's
// shutdownSeconds with its exitCode, or is killed with 137. The container
// keeps running (and serving, until SIGTERM) until it exits; its probes stop.
//
// Worked example: grace 30s, preStop sleep 5s, shutdownSeconds 40: Killing
// at t, SIGTERM at t+5, SIGKILL at t+30 (exit 137, reason Error). With
// preStop sleep 30s the hook takes the whole grace period: SIGTERM at t+30,
// SIGKILL at t+32.
func (k *Controller) kill(ctx *controller.Context, ps *podState, p *api.Pod, i int, reason killReason, grace int64, now time.Time, log *nodeLog) {
	c := &ps.ctrs[i]
	spec := &p.Spec.Containers[i]
	restart := p.Spec.RestartPolicy != api.RestartPolicyNever
	k.event(ctx, p, api.EventTypeNormal, ReasonKilling, msgKill(reason, c.name, restart))
	im := k.image(c.image)
	left := time.Duration(max(grace, 0)) * time.Second
	c.killAt, c.sigtermAt = now, now
	if h := preStopHook(spec); h != nil && left > 0 {
		d, failed := hookDuration(h, im, now.Sub(c.startedAt))
		if failed {
			k.event(ctx, p, api.EventTypeWarning, ReasonFailedPreStopHook, msgPreStopHookFailed)
		}
		d = min(d, left)
		c.sigtermAt, left = now.Add(d), left-d
	}
	left = max(left, minimumGracePeriod)
	if shutdown := seconds(im.ShutdownSeconds); shutdown <= left {
		c.at, c.exitCode, c.sigkill = c.sigtermAt.Add(shutdown), im.ExitCode, false
	} else {
		c.at, c.exitCode, c.sigkill = c.sigtermAt.Add(left), exitSIGKILL, true
	}
	if !c.crashAt.IsZero() && c.crashAt.Before(c.at) {
		c.at, c.exitCode, c.sigkill = c.crashAt, 1, false
	}
	c.ph, c.kill = phKilling, reason
	for kind := range c.probes {
		c.probes[kind].next = time.Time{}
	}
	switch reason {
	case killLiveness:
		log.act("kill container " + c.name + " in pod " + p.Name + ": liveness probe failed")
	case killStartup:
		log.act("kill container " + c.name + " in pod " + p.Name + ": startup probe failed")
	}
}

// killDone ends a kill at its exit time: a deleted pod's container stops
// for good; one killed by a probe is restarted (unless restartPolicy is
// Never) with the crash back-off.
func (k *Controller) killDone(ctx *controller.Context, ps *podState, p *api.Pod, i int, now time.Time, log *nodeLog) {
	c := &ps.ctrs[i]
	how := "exited with code " + strconv.Itoa(int(c.exitCode))
	if c.sigkill {
		how = "killed (SIGKILL at the end of the grace period, exit code 137)"
	}
	if c.kill != killDelete || c.sigkill || now.After(c.killAt) {
		// (a container that exits at once on SIGTERM is told by "stop pod")
		log.act("container " + c.name + " in pod " + p.Name + " " + how)
	}
	if c.kill == killDelete {
		c.finish(c.exitCode, now)
		c.ph, c.at = phStopped, time.Time{}
		return
	}
	k.exited(ctx, ps, p, i, c.exitCode, p.Spec.RestartPolicy != api.RestartPolicyNever, now, log)
}

// shortenKill applies a shorter grace period (a second deletion with a
// smaller --grace-period) to a container being stopped: it is killed at
// most max(grace, 2s) from now.
func (c *ctr) shortenKill(grace int64, now time.Time) {
	cut := now.Add(max(time.Duration(max(grace, 0))*time.Second, minimumGracePeriod))
	if cut.Before(c.at) {
		c.at, c.exitCode, c.sigkill = cut, exitSIGKILL, true
		if c.sigtermAt.After(now) {
			c.sigtermAt = now
		}
	}
}

func preStopHook(c *api.Container) *api.LifecycleHandler {
	if c.Lifecycle == nil {
		return nil
	}
	return c.Lifecycle.PreStop
}

// hookForever stands for a hook that never returns (an HTTP hook to a hung
// app): the grace period cuts it.
const hookForever = 100 * 365 * 24 * time.Hour

// hookDuration is how long a preStop hook runs, s after the container
// started, and whether it fails: a sleep action sleeps; an exec hook takes
// as long as the sleep commands it runs ("sleep 5", sh -c "sleep 5 && ...");
// an HTTP or TCP hook returns at once, fails at once when the app refuses
// connections, and hangs when the app does.
func hookDuration(h *api.LifecycleHandler, im Image, s time.Duration) (time.Duration, bool) {
	switch {
	case h.Sleep != nil:
		return time.Duration(max(h.Sleep.Seconds, 0)) * time.Second, false
	case h.Exec != nil:
		return execSleep(h.Exec.Command), false
	case len(h.HTTPGet) > 0 || len(h.TCPSocket) > 0:
		switch im.answers(livenessProbe, s) {
		case answerRefused:
			return 0, true
		case answerHung:
			return hookForever, false
		}
	}
	return 0, false
}

// execSleep is the time the sleep commands of an exec hook take: the
// command itself when it is sleep, or every "sleep N" in the script of a
// shell's -c. N is whole seconds, with an optional s or m suffix; anything
// else takes no time.
func execSleep(cmd []string) time.Duration {
	if len(cmd) == 0 {
		return 0
	}
	switch path.Base(cmd[0]) {
	case "sleep":
		if len(cmd) >= 2 {
			return sleepArg(cmd[1])
		}
	case "sh", "bash", "ash", "dash", "zsh":
		if len(cmd) >= 3 && cmd[1] == "-c" {
			var total time.Duration
			words := strings.FieldsFunc(cmd[2], func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '&' || r == '|' })
			for j := 0; j+1 < len(words); j++ {
				if path.Base(words[j]) == "sleep" {
					total += sleepArg(words[j+1])
				}
			}
			return total
		}
	}
	return 0
}

func sleepArg(s string) time.Duration {
	unit := time.Second
	switch {
	case strings.HasSuffix(s, "s"):
		s = s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		s, unit = s[:len(s)-1], time.Minute
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * unit
}

// startTermination begins stopping a deleted pod: every running container
// is killed with the deletion's grace period, a container being killed by
// a probe will not restart, and the others stop where they are. It reports
// whether a container was running.
func (k *Controller) startTermination(ctx *controller.Context, ps *podState, p *api.Pod, now time.Time, log *nodeLog) bool {
	ps.terminating, ps.grace, ps.termStart = true, killGrace(p, nil, killDelete), now
	running := false
	for i := range ps.ctrs {
		c := &ps.ctrs[i]
		switch c.ph {
		case phRunning:
			k.kill(ctx, ps, p, i, killDelete, ps.grace, now, log)
			running = true
		case phKilling:
			c.kill = killDelete
			c.shortenKill(ps.grace, now)
			running = true
		default:
			c.ph, c.at, c.ready, c.crashReq = phStopped, time.Time{}, false, false
		}
	}
	if running {
		log.act("stop pod " + p.Name)
	}
	return running
}

// msgKill is the Killing event's message (kuberuntime's killContainer and
// computePodActions).
func msgKill(reason killReason, container string, restart bool) string {
	var m string
	switch reason {
	case killLiveness:
		m = fmt.Sprintf("Container %s failed liveness probe", container)
	case killStartup:
		m = fmt.Sprintf("Container %s failed startup probe", container)
	default:
		return msgKilling(container)
	}
	if restart {
		m += ", will be restarted"
	}
	return m
}
