package k8sdiff

import (
	"fmt"

	"converge/core/api"
	"converge/core/k8scase"
)

// Hard multi-sync runs (the "multi-sync hard" family): what the easy runs of
// multi.go leave out. A run starts like an easy one, then, at any round,
// the user may change the template a second and a third time mid-rollout,
// roll back to any earlier template, scale (sometimes beyond the
// ReplicaSet controller's 500-pod burst), pause or resume; one template
// may be broken (its pods run but never become Ready, and restart), so the
// rollout stalls, its progress deadline (short in some runs) expires, and
// a later fix makes it progress again; pods fail (phase Failed, as an
// evicted or OOM-killed pod does), are deleted by hand (terminating, or
// gone at once when not bound) or never get a node.

// brokenImage is the template whose pods never become Ready.
const brokenImage = "v9-crashloop"

// hardRun is the plan of one hard run: the rounds at which the user acts.
type hardRun struct {
	big      bool // sizes beyond the 500-pod burst
	deadline bool // a progress deadline short enough to expire
	changes  map[int]string
	scales   map[int]int32
	pauses   map[int]bool // true: pause, false: resume
	failRate float64      // chance per round that a running pod fails
	delRate  float64      // chance per round that a pod is deleted by hand
}

// hardStart draws the first state and plan of a hard run.
func (g *gen) hardStart(name string, big bool) (*k8scase.Case, *hardRun) {
	c := g.multiStart(name)
	d := c.Deployment
	plan := &hardRun{big: big, changes: map[int]string{}, scales: map[int]int32{}, pauses: map[int]bool{}}
	if big { // scaled beyond the burst early: one sync creates 500 pods, the next the rest
		d.Paused = false
		plan.scales[g.n(0, 2)] = g.n32(501, 600)
	}
	if g.chance(0.4) {
		plan.deadline = true
		d.ProgressDeadlineSeconds = ptr32(d.MinReadySeconds + g.n32(8, 40))
	}
	// Up to three template changes after the first (already in the start
	// state): v3, v4 or the broken one, or back to an earlier template.
	images := []string{"v1", "v2"}
	round := 0
	for i := 0; i < g.n(0, 3); i++ {
		round += g.n(1, 12)
		img := g.pick("v3", "v4", brokenImage, images[g.r.IntN(len(images))])
		if img == brokenImage && g.chance(0.5) {
			plan.changes[round+g.n(8, 30)] = "v5" // the fix, after the deadline may have expired
		}
		plan.changes[round] = img
		images = append(images, img)
	}
	if g.chance(0.3) {
		plan.changes[0] = brokenImage // broken from the start
		plan.changes[g.n(6, 40)] = "v6"
	}
	for i := 0; i < g.n(0, 2); i++ {
		r := g.n(0, 30)
		switch {
		case big:
			r = g.n(3, 30)
			plan.scales[r] = g.n32(0, 40)
		case g.chance(0.1):
			plan.scales[r] = g.n32(490, 560)
		default:
			plan.scales[r] = g.n32(0, 40)
		}
	}
	if g.chance(0.15) {
		r := g.n(1, 15)
		plan.pauses[r] = true
		plan.pauses[r+g.n(1, 6)] = false
	}
	if g.chance(0.5) {
		plan.failRate = 0.01 * float64(g.n(1, 4))
	}
	if g.chance(0.5) {
		plan.delRate = 0.01 * float64(g.n(1, 3))
	}
	return c, plan
}

// hardMaxRounds bounds a hard run (big runs cost more per round).
func hardMaxRounds(big bool) int {
	if big {
		return 25
	}
	return 60
}

// hardRunOutcome drives one hard run. It must run in a synctest bubble.
func (g *gen) hardRunOutcome(start *k8scase.Case, plan *hardRun) (runOutcome, error) {
	var out runOutcome
	st := start.State
	last := 0
	for r := range plan.changes {
		last = max(last, r)
	}
	for r := range plan.scales {
		last = max(last, r)
	}
	for round := 0; round < hardMaxRounds(plan.big); round++ {
		g.hardUserAction(&st, plan, round)
		wrote := false
		for _, ctrl := range []string{k8scase.DeploymentController, k8scase.ReplicaSetController} {
			c := (&k8scase.Case{Name: fmt.Sprintf("%s-round%d-%s", start.Name, round, ctrl), Controller: ctrl, State: st}).Clone()
			r, conv, err := compare(c)
			if err != nil {
				return out, fmt.Errorf("%s: %w", c.Name, err)
			}
			out.syncs++
			out.known = append(out.known, r.Known...)
			if !r.Equal() {
				out.diff, out.result = c, r
				return out, nil
			}
			if conv.Rejected != "" {
				return out, fmt.Errorf("%s: refused: %s", c.Name, conv.Rejected)
			}
			wrote = wrote || len(r.Converge) > 0
			st = conv.After
			collectGarbage(&st)
		}
		if !wrote && settled(&st) && round > last {
			out.complete = true
			return out, nil
		}
		g.hardKubelet(&st, plan)
	}
	return out, nil
}

// hardUserAction applies the plan's actions for this round.
func (g *gen) hardUserAction(st *k8scase.State, plan *hardRun, round int) {
	d := st.Deployment
	changed := false
	if img, ok := plan.changes[round]; ok && img != d.Image {
		d.Image, changed = img, true
	}
	if n, ok := plan.scales[round]; ok && n != d.Replicas {
		d.Replicas, changed = n, true
	}
	if p, ok := plan.pauses[round]; ok && p != d.Paused {
		d.Paused, changed = p, true
	}
	if changed {
		d.Generation++
	}
}

// hardKubelet is kubelet (multi.go) with the hard run's troubles: pods of
// the broken template never become Ready (and restart now and then),
// running pods fail, and pods are deleted by hand.
func (g *gen) hardKubelet(st *k8scase.State, plan *hardRun) {
	var t ticks
	pods := st.Pods[:0]
	for _, p := range st.Pods {
		switch {
		case p.Terminating:
			if g.chance(0.6) {
				continue
			}
		case p.Created == 0:
			t.created = append(t.created, len(pods))
		case plan.delRate > 0 && p.Phase != api.PodFailed && g.chance(plan.delRate):
			if p.Node == "" || p.Phase == api.PodSucceeded {
				continue // an unbound pod is deleted at once
			}
			p.Terminating = true
		case p.Node == "":
			if g.chance(0.9) { // a few wait for a node a while longer
				p.Node = g.pick("node-1", "node-2", "node-3")
			}
		case p.Phase == api.PodPending && g.chance(0.8):
			p.Phase = api.PodRunning
		case p.Phase == api.PodRunning && plan.failRate > 0 && g.chance(plan.failRate):
			p.Phase = api.PodFailed
			if p.Ready {
				p.Ready = false
				t.readied = append(t.readied, len(pods))
			}
		case p.Phase == api.PodRunning && p.Image == brokenImage:
			if g.chance(0.2) {
				p.Restarts++
			}
		case p.Phase == api.PodRunning && !p.Ready && g.chance(0.7):
			p.Ready = true
			t.readied = append(t.readied, len(pods))
		}
		pods = append(pods, p)
	}
	st.Pods = pods
	t.advance(st, int64(g.n(1, 3)))
}
