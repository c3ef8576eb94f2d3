package kubelet

import (
	"strconv"
	"strings"
	"time"

	"converge/core/controller"
	"converge/core/humanize"
)

// maxListed is how many actions a node's sync record spells out.
const maxListed = 5

// nodeLog collects what one kubelet saw and did in one Sync.
type nodeLog struct {
	ns      *nodeState
	actions []string
	nAct    int
	pods    int
	cats    [numCategories]int
	ready   int
	wait    *podState // the pod whose wait ends first
	waitCtr int
	waitAt  time.Time
	waits   int
}

func (l *nodeLog) act(a string) {
	l.nAct++
	if len(l.actions) < maxListed {
		l.actions = append(l.actions, a)
	}
}

// count adds a pod to the summary: its category and, if it waits for
// something, when that ends.
func (l *nodeLog) count(ps *podState) {
	l.pods++
	cat, at, ci := ps.cat, ps.waitAt, ps.waitCtr
	l.cats[cat]++
	if cat == catRunningReady {
		l.ready++
	}
	if !at.IsZero() {
		l.waits++
		if l.wait == nil || at.Before(l.waitAt) {
			l.wait, l.waitAt, l.waitCtr = ps, at, ci
		}
	}
}

// summary classifies the pod and finds the wait shown in the record: which
// container waits and until when (zero when nothing but probes of ready
// containers or hidden crash timers is ahead).
func (ps *podState) summary() (category, time.Time, int) {
	if ps.killed {
		return catTerminating, ps.removeAt, -1
	}
	if ps.terminating {
		var at time.Time
		ci := -1
		for i := range ps.ctrs {
			if c := &ps.ctrs[i]; c.ph == phKilling && (at.IsZero() || c.at.Before(at)) {
				at, ci = c.at, i
			}
		}
		return catTerminating, at, ci
	}
	if ps.noIP {
		return catPending, ps.noIPAt, -1
	}
	cat := catRunningReady
	var at time.Time
	ci := -1
	worse := func(c category) {
		if categoryRank[c] > categoryRank[cat] {
			cat = c
		}
	}
	for i := range ps.ctrs {
		c := &ps.ctrs[i]
		var w time.Time
		switch c.ph {
		case phNew:
			worse(catPending)
		case phPulling:
			worse(catPulling)
			w = c.at
		case phPullFailed, phPullBackOff, phNeverPull:
			worse(catPullBackOff)
			w = c.retryAt
			if c.ph == phNeverPull {
				w = c.at
			}
		case phCreating:
			worse(catStarting)
			w = c.at
		case phExited, phBackOff, phStopped:
			worse(catCrashLoop)
			if c.ph != phStopped {
				w = c.restartAt
			}
		case phInvalidImage:
			worse(catInvalidImage)
			w = c.at
		case phKilling:
			worse(catRunning)
			w = c.at
		case phRunning:
			if !c.ready {
				worse(catRunning)
				_, w, _ = c.nextProbe()
			}
		}
		if !w.IsZero() && (at.IsZero() || w.Before(at)) {
			at, ci = w, i
		}
	}
	return cat, at, ci
}

// categoryOrder is the order of the categories in the Observed text.
var categoryOrder = [...]category{catRunning, catStarting, catPulling, catPullBackOff, catInvalidImage, catCrashLoop, catTerminating, catPending}

// categoryRank orders the categories for a pod with several containers: the
// pod counts as its least advanced container, a crash-looping one first.
var categoryRank = [numCategories]int{catPending: 4, catPulling: 5, catPullBackOff: 6, catStarting: 3, catRunning: 2,
	catRunningReady: 1, catInvalidImage: 7, catCrashLoop: 8, catTerminating: 9}

// waitText says what the pod waits for: "pulling nginx:1.25 for web-x: 1s left".
func (l *nodeLog) waitText(now time.Time) string {
	ps, left := l.wait, l.waitAt.Sub(now).String()
	var s string
	switch {
	case ps.killed:
		s = "removing " + ps.name + ": " + left + " left"
	case ps.terminating:
		s = "stopping pod " + ps.name + ": " + left + " left"
	case ps.noIP:
		s = "no pod IP free for " + ps.name + ": retry in " + left
	default:
		c := &ps.ctrs[l.waitCtr]
		switch c.ph {
		case phPulling:
			s = "pulling " + c.image + " for " + ps.name + ": " + left + " left"
		case phPullFailed, phPullBackOff:
			s = "back-off " + c.pullBO.d.String() + " pulling " + c.image + " for " + ps.name + ": " + left + " left"
		case phNeverPull:
			s = c.image + " not present (pull policy Never) for " + ps.name + ": retry in " + left
		case phCreating:
			s = "starting container " + c.name + " in pod " + ps.name + ": " + left + " left"
		case phExited, phBackOff:
			s = "back-off " + c.crashBO.d.String() + " for " + ps.name + ": " + left + " left"
		case phInvalidImage:
			s = "invalid image name " + strconv.Quote(c.image) + " for " + ps.name + ": retry in " + left
		case phKilling:
			s = "stopping container " + c.name + " in pod " + ps.name + ": " + left + " left"
		default:
			kind, _, _ := c.nextProbe()
			s = strings.ToLower(probeNames[kind]) + " probe of " + ps.name + ": next in " + left
		}
	}
	if l.waits > 1 {
		s += " (+" + strconv.Itoa(l.waits-1) + " more)"
	}
	return s
}

// observed is "4 pods: 3 running (2 ready), 1 pulling".
func (l *nodeLog) observed() string {
	var b strings.Builder
	b.WriteString(humanize.Count(l.pods, "pod"))
	sep := ": "
	for _, c := range categoryOrder {
		n := l.cats[c]
		if c == catRunning {
			n += l.cats[catRunningReady]
		}
		if n == 0 || c == catRunningReady {
			continue
		}
		b.WriteString(sep)
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(' ')
		b.WriteString(categoryWords[c])
		if c == catRunning && l.ready != n {
			b.WriteString(" (" + strconv.Itoa(l.ready) + " ready)")
		}
		sep = ", "
	}
	return b.String()
}

// observed returns l.observed(), reusing the last text while the counts
// stay the same.
func (n *nodeState) observed(l *nodeLog) string {
	if n.lastText == "" || n.lastCats != l.cats || n.lastReady != l.ready {
		n.lastCats, n.lastReady, n.lastText = l.cats, l.ready, l.observed()
	}
	return n.lastText
}

func (k *Controller) record(ctx *controller.Context, l *nodeLog, now time.Time) {
	r := controller.SyncRecord{Controller: Component, Object: l.ns.ref, Observed: l.ns.observed(l)}
	switch {
	case l.nAct > 0:
		r.Action = strings.Join(l.actions, "; ")
		if l.nAct > len(l.actions) {
			r.Action += "; and " + strconv.Itoa(l.nAct-len(l.actions)) + " more"
		}
	case l.wait != nil:
		r.Waiting = l.waitText(now)
	default:
		r.InSync = true
	}
	ctx.Record(r)
}

func (k *Controller) recordDown(ctx *controller.Context, ns *nodeState, pods []boundPod) {
	ctx.Record(controller.SyncRecord{Controller: Component, Object: ns.ref,
		Observed: "kubelet down: " + humanize.Count(len(pods), "pod") + " not synced", Waiting: "kubelet stopped (node-down fault)"})
}
