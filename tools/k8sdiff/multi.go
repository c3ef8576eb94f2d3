package k8sdiff

import (
	"fmt"
	"slices"
	"strconv"

	"converge/core/api"
	"converge/core/k8scase"
)

// A multi-sync run starts from a settled Deployment whose template was just
// changed and drives the rollout to completion: each round runs one sync of
// the deployment controller and one of the ReplicaSet controller on both
// sides, compares them, goes on from Converge's state (the two agree, up to
// the names of what was created), and then plays the kubelet: pods are
// scheduled, start, become Ready, and terminating pods go away. Now and
// then the user scales, pauses or resumes, or rolls back mid-rollout.

// maxRounds bounds a run; a rollout that has not completed by then is
// reported as stuck (on both sides alike, or it would have differed).
const maxRounds = 200

// multiStart draws the first state of a run.
func (g *gen) multiStart(name string) *k8scase.Case {
	n := g.n32(1, 30)
	d := &k8scase.Deployment{Name: "web", Replicas: n, Image: "v2", Strategy: api.RollingUpdateDeploymentStrategyType,
		Created: -600, Generation: 2, Annotations: map[string]string{api.RevisionAnnotation: "1"}}
	if g.chance(0.2) {
		d.Strategy = api.RecreateDeploymentStrategyType
	} else {
		for {
			d.MaxSurge, d.MaxUnavailable = g.fencepost(n, true), g.fencepost(n, false)
			if !zero(d.MaxSurge) || !zero(d.MaxUnavailable) {
				break
			}
		}
	}
	if g.chance(0.3) {
		d.MinReadySeconds = g.n32(1, 5)
	}
	d.ProgressDeadlineSeconds = ptr32(1_000_000)
	if g.chance(0.3) {
		d.RevisionHistoryLimit = ptr32(g.n32(0, 2))
	}
	d.Paused = g.chance(0.1)
	old := k8scase.ReplicaSet{Name: "web-" + hashes[0], Hash: hashes[0], Image: "v1", Replicas: n, Created: -590, Generation: 1,
		MinReadySeconds: d.MinReadySeconds,
		Annotations: map[string]string{api.RevisionAnnotation: "1", api.DesiredReplicasAnnotation: strconv.Itoa(int(n)),
			api.MaxReplicasAnnotation: strconv.Itoa(int(n + maxSurgeOf(d)))},
		Status: k8scase.ReplicaSetStatus{Replicas: n, FullyLabeledReplicas: n, ReadyReplicas: n, AvailableReplicas: n,
			ObservedGeneration: 1, TerminatingReplicas: ptr32(0)}}
	c := &k8scase.Case{Name: name, State: k8scase.State{Deployment: d, ReplicaSets: []k8scase.ReplicaSet{old}}}
	for j := int32(0); j < n; j++ {
		since := int64(-500 + j)
		c.Pods = append(c.Pods, k8scase.Pod{Name: fmt.Sprintf("web-%s-p%02d", hashes[0], j), Owner: old.Name, Hash: old.Hash,
			Image: "v1", Node: g.pick("node-1", "node-2", "node-3"), Phase: api.PodRunning, Ready: true, ReadySince: &since,
			Created: -550 + int64(j)})
	}
	d.Status = k8scase.DeploymentStatus{ObservedGeneration: 1, Replicas: n, UpdatedReplicas: n, ReadyReplicas: n,
		AvailableReplicas: n, TerminatingReplicas: ptr32(0), Conditions: []k8scase.Condition{
			{Type: "Available", Status: "True", Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability.", LastUpdate: -400, LastTransition: -400},
			{Type: "Progressing", Status: "True", Reason: "NewReplicaSetAvailable", Message: fmt.Sprintf("ReplicaSet %q has successfully progressed.", old.Name), LastUpdate: -400, LastTransition: -580},
		}}
	return c
}

func zero(v *api.IntOrString) bool {
	return v != nil && (!v.IsString && v.IntVal == 0 || v.IsString && v.StrVal == "0%")
}

// maxSurgeOf is the surge the max-replicas annotation of a settled
// ReplicaSet records (only its consistency matters here, not the exact value).
func maxSurgeOf(d *k8scase.Deployment) int32 {
	if d.Strategy != api.RollingUpdateDeploymentStrategyType {
		return 0
	}
	return (d.Replicas + 3) / 4
}

// runOutcome is how a multi-sync run ended.
type runOutcome struct {
	syncs    int
	complete bool
	// diff is the single-sync case that differed, and its result.
	diff   *k8scase.Case
	result *Result
	known  []string
}

// multiRun drives one run. It must run in a synctest bubble.
func (g *gen) multiRun(start *k8scase.Case) (runOutcome, error) {
	var out runOutcome
	st := start.State
	for round := 0; round < maxRounds; round++ {
		g.userAction(&st, round)
		wrote := false
		for _, ctrl := range []string{k8scase.DeploymentController, k8scase.ReplicaSetController} {
			c := &k8scase.Case{Name: fmt.Sprintf("%s-round%d-%s", start.Name, round, ctrl), Controller: ctrl, State: st}
			c = c.Clone()
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
		if !wrote && settled(&st) {
			out.complete = true
			return out, nil
		}
		g.kubelet(&st)
	}
	return out, nil
}

// collectGarbage removes the pods of ReplicaSets the sync deleted
// (revisionHistoryLimit cleanup deletes only ReplicaSets without active
// pods): the garbage collector deletes them, and they are gone by the next
// sync as far as the controllers care.
func collectGarbage(st *k8scase.State) {
	st.Pods = slices.DeleteFunc(st.Pods, func(p k8scase.Pod) bool { return p.Owner != "" && st.ReplicaSet(p.Owner) == nil })
}

// settled reports a finished rollout: every replica updated and available,
// the generation observed, and no pod left terminating.
func settled(st *k8scase.State) bool {
	d := st.Deployment
	s := &d.Status
	for _, p := range st.Pods {
		if p.Terminating {
			return false
		}
	}
	return s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == d.Replicas && s.Replicas == d.Replicas &&
		s.AvailableReplicas == d.Replicas
}

// userAction is what the user does before a round: resume a paused
// rollout, scale in the middle of it, or roll back to the old template.
func (g *gen) userAction(st *k8scase.State, round int) {
	d := st.Deployment
	switch {
	case d.Paused && round == 3:
		d.Paused = false
	case round == 2 && g.chance(0.2):
		d.Replicas = g.n32(0, 40)
	case round == 4 && g.chance(0.1):
		d.Image = "v1"
	case round == 5 && g.chance(0.05):
		d.Paused = true
	case round == 9 && d.Paused:
		d.Paused = false
	default:
		return
	}
	d.Generation++
}

// kubelet plays the nodes between rounds: terminating pods go away,
// unscheduled pods are bound, pending pods start, running pods become
// Ready, and once in a while a Ready pod fails its readiness probe. Then
// the clock moves on (advance).
func (g *gen) kubelet(st *k8scase.State) {
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
		case p.Node == "":
			p.Node = g.pick("node-1", "node-2", "node-3")
		case p.Phase == api.PodPending && g.chance(0.8):
			p.Phase = api.PodRunning
		case p.Phase == api.PodRunning && !p.Ready && g.chance(0.7):
			p.Ready = true
			t.readied = append(t.readied, len(pods))
		case p.Phase == api.PodRunning && p.Ready && g.chance(0.01):
			p.Ready = false
			t.readied = append(t.readied, len(pods))
			p.Restarts++
		}
		pods = append(pods, p)
	}
	st.Pods = pods
	t.advance(st, int64(g.n(1, 3)))
}

// ticks are the pods of one round whose creation or Ready time is this
// round's: indexes into the state's pods, in the order it happened.
type ticks struct{ created, readied []int }

// advance moves the clock on by more seconds than pods were created or
// became Ready in the round (at least min), and then gives the pods
// created in the round distinct creation times in the order they were
// created, and those readied distinct Ready times, all later than any time
// of an earlier round: no two pods tie in the deletion ranking (whose
// upstream sort is not stable).
func (t *ticks) advance(st *k8scase.State, min int64) {
	dt := max(int64(len(t.created))+1, int64(len(t.readied))+1, min)
	shift(st, dt)
	for i, at := range t.created { // the first created is the oldest
		st.Pods[at].Created = -dt + 1 + int64(i)
	}
	for i, at := range t.readied { // the first readied is the latest, as before
		v := -dt + int64(len(t.readied)-i)
		st.Pods[at].ReadySince = &v
	}
}

// shift moves the clock on by dt seconds: every time of the state is dt
// seconds further in the past.
func shift(st *k8scase.State, dt int64) {
	d := st.Deployment
	d.Created -= dt
	for i := range d.Status.Conditions {
		d.Status.Conditions[i].LastUpdate -= dt
		d.Status.Conditions[i].LastTransition -= dt
	}
	for i := range st.ReplicaSets {
		rs := &st.ReplicaSets[i]
		rs.Created -= dt
		for j := range rs.Status.Conditions {
			rs.Status.Conditions[j].LastTransition -= dt
		}
	}
	for i := range st.Pods {
		p := &st.Pods[i]
		p.Created -= dt
		if p.ReadySince != nil {
			v := *p.ReadySince - dt
			p.ReadySince = &v
		}
	}
}
