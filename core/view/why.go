package view

import (
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/deployment"
	"converge/core/sim"
)

// WhyLine answers "why is it waiting?" for one Deployment, from the
// deployment controller's sync record of this second: what it did, what it
// waits for and which bound blocks its next step.
type WhyLine struct {
	// Key is the Deployment's name.
	Key string
	// Kind is the badge (docs/page.md, "Badges"): "acting" (it took a
	// step this second), "progressing" (pods are starting or a budget
	// paces a healthy rollout: neutral), "waiting" (on something outside
	// the rollout: a drain, the controller's next look), "paused",
	// "stuck" (will not recover by itself: an image that cannot be pulled,
	// a container that keeps crashing or never becomes ready, no node
	// with room, a quota, ProgressDeadlineExceeded: red), "refused" (a
	// change was refused and nothing moved), "in-sync" or "error".
	Kind string
	// Blocking is the record's bound: "surge", "unavailable", "paused",
	// "progress-deadline" or "".
	Blocking string
	// Headline is the one sentence a new user reads first: the cause that
	// blocks progress when there is one (the scheduler's message, an image
	// that cannot be pulled, CrashLoopBackOff, a readiness probe that never
	// passes, a lost node), else the rollout's budget.
	Headline string
	// Budget is the budget arithmetic when Headline leads with a cause:
	// "Blocked by maxSurge: ...".
	Budget string
	// Detail is the controller's own words: "deployment-controller: at surge
	// cap 13/13: waiting for new pods to become available".
	Detail string
	// Pods says what the new ReplicaSet's pods that are not available yet
	// are doing: "new pods not available yet: 3 ContainerCreating, 2 Running, not ready".
	Pods string
	// Stuck is set when some of those pods will not get better by
	// themselves (CrashLoopBackOff, ImagePullBackOff, Evicted, or Pending
	// with no node that fits).
	Stuck bool
	// Acted lists the steps the controller took for this Deployment this
	// second, when it took any before it settled where Headline says.
	Acted string
	// Undone says who set back a person's last change of spec.replicas or
	// the pod template, and why (see Undone), while that is the field's
	// last write.
	Undone string
}

// Why returns one line per Deployment, sorted by name.
func Why(s *sim.Sim) []WhyLine { return WhyWith(s, OnScreen(s, nil)) }

// WhyWith is Why on the page, whose screen (OnScreen with the console's
// refusals) may hold a refusal or a waiting drain: a line never says "in
// sync" while the pods are not all available, a drain or an eviction
// waits, or a refusal is on screen.
func WhyWith(s *sim.Sim, screen Screen) []WhyLine {
	ds := s.Store().Deployments()
	sort.Slice(ds, func(i, j int) bool { return ds[i].Name < ds[j].Name })
	out := make([]WhyLine, 0, len(ds))
	for _, d := range ds {
		w := whyLine(s, d, deploymentRecord(s, d.Name))
		if w.Kind == "in-sync" {
			notInSync(s, d, screen, &w)
		}
		if w.Kind != "acting" {
			w.Acted = actedText(s, d.Name)
		}
		w.Undone = Undone(s, d.Name)
		out = append(out, w)
	}
	return out
}

func whyLine(s *sim.Sim, d *api.Deployment, rec *controller.SyncRecord) WhyLine {
	w := WhyLine{Key: d.Name}
	n := api.Deref(d.Spec.Replicas, 1)
	if rec == nil {
		w.Kind = "waiting"
		w.Headline = fmt.Sprintf("deployment/%s has not been synced yet.", d.Name)
		return w
	}
	if rec.Rollout != nil {
		w.Blocking = rec.Rollout.Blocking
	}
	w.Detail = deployment.Component + ": " + recordText(rec)
	switch {
	case rec.Action != "":
		w.Kind = "acting"
		w.Headline = "Acting now: " + rec.Action + "."
	case rec.InSync:
		w.Kind = "in-sync"
		w.Headline = fmt.Sprintf("In sync: %s pods of revision %s available; nothing to do.", countOf(d.Status.AvailableReplicas, n),
			d.Annotations[api.RevisionAnnotation])
	case strings.HasPrefix(rec.Waiting, "retrying after error"):
		w.Kind = "error"
		w.Headline = "Failing: " + rec.Waiting + "."
	default:
		w.Kind, w.Headline = waitingHeadline(d, rec)
	}
	if w.Kind != "in-sync" {
		w.Pods, w.Stuck = newPodsText(s, d)
		if f := replicaFailure(d); f != nil {
			// The pods the rollout waits for are not even created: say why
			// (a ResourceQuota's refusal, say), as the ReplicaSet does, and
			// lead with it: the bound the controller reports is only the
			// consequence (the refused pod still counts as wanted).
			if w.Kind == "progressing" || w.Kind == "waiting" {
				w.Kind, w.Headline = "stuck", replicaFailureHeadline(f, w.Blocking)
			}
			w.Pods = strings.TrimSpace(w.Pods + " Pods cannot be created (" + f.Reason + "): " + strings.TrimSuffix(f.Message, ".") + ".")
			w.Stuck = true
		} else if kind, cause := blockingCause(s, d); cause != "" && w.Kind != "acting" && w.Kind != "paused" && w.Kind != "error" {
			// The bound the controller reports is the consequence: lead
			// with what keeps the pods from becoming available.
			w.Budget = heldText(w.Headline)
			w.Kind, w.Headline = kind, cause
		} else if w.Pods == "" && strings.Contains(rec.Waiting, "become available") {
			w.Pods = "The new pods became available just now, after the controller looked: it sees them in the next second."
		}
	}
	return w
}

// waitingHeadline explains a pass that took no step.
func waitingHeadline(d *api.Deployment, rec *controller.SyncRecord) (kind, text string) {
	r := rec.Rollout
	switch {
	case r != nil && r.Blocking == deployment.BlockingSurge:
		return "progressing", fmt.Sprintf("Progressing, paced by maxSurge: the ReplicaSets already want %d pods, the most allowed is %d desired + %d surge. "+
			"No new pod until old ones go, and old ones go only as new ones become available.",
			r.Replicas+r.SurgeUsed, r.Replicas, r.Surge)
	case r != nil && r.Blocking == deployment.BlockingUnavailable:
		return "progressing", fmt.Sprintf("Progressing, paced by maxUnavailable: %d of %d pods are unavailable, the most allowed is %d. "+
			"No old pod is removed until new ones become available.", r.UnavailableUsed, r.Replicas, r.Unavailable)
	case r != nil && r.Blocking == deployment.BlockingPaused, d.Spec.Paused:
		return "paused", "Paused: spec.paused is true, so template changes wait. Run kubectl rollout resume deployment/" + d.Name + "."
	case r != nil && r.Blocking == deployment.BlockingProgressDeadline:
		return "stuck", "Stuck: no progress for progressDeadlineSeconds, so Progressing=False (ProgressDeadlineExceeded). " +
			"The controller keeps the rollout where it is; nothing rolls back by itself."
	}
	return "progressing", progressText(d, rec.Waiting)
}

// heldText is a progressing headline told as the consequence of a cause
// that does not clear by itself: "Held by maxSurge: ...".
func heldText(h string) string {
	if rest, ok := strings.CutPrefix(h, "Progressing, paced by "); ok {
		return "Held by " + rest
	}
	if rest, ok := strings.CutPrefix(h, "Progressing: "); ok {
		return "The Deployment controller waits: " + rest
	}
	return h
}

// progressText is the headline of a pass that waits for pods, without
// the stutter of "Waiting: waiting for" and without calling "new" the pods
// of a first bring-up, a scale-up or a restart.
func progressText(d *api.Deployment, waiting string) string {
	n := api.Deref(d.Spec.Replicas, 1)
	if strings.HasPrefix(waiting, "waiting for new pods to become available") && d.Status.UpdatedReplicas >= d.Status.Replicas {
		// One ReplicaSet: nothing is replaced, pods are only starting.
		return fmt.Sprintf("Progressing: %d of %d pods available so far; the Deployment controller waits for the rest.",
			d.Status.AvailableReplicas, n)
	}
	return "Progressing: " + strings.TrimPrefix(waiting, "waiting for ") + "."
}

// notInSync turns an in-sync line into what is true when the controller
// saw its pods all available but they no longer are (a crash after it
// looked), a drain waits on its pods, or a refusal is on screen.
func notInSync(s *sim.Sim, d *api.Deployment, screen Screen, w *WhyLine) {
	n := api.Deref(d.Spec.Replicas, 1)
	st := s.Store()
	now := s.Now()
	counts := map[string]int{}
	var words []string
	down := 0
	onDrained := 0
	for _, rs := range ownedReplicaSets(st, d) {
		st.EachPod(func(p *api.Pod) bool {
			if !api.IsControlledBy(&p.ObjectMeta, rs.UID) {
				return true
			}
			if screen.DrainNode != "" && p.Spec.NodeName == screen.DrainNode {
				onDrained++
			}
			tile := NewTile(p, now, rs.Spec.MinReadySeconds)
			switch tile.State {
			case StateAvailable, StateTerminating, StateCompleted, StateFailed, StateEvicted, StateUnknown:
				return true
			}
			down++
			word := statusWords(tile.State, tile.Status)
			if counts[word] == 0 {
				words = append(words, word)
			}
			counts[word]++
			return true
		})
	}
	switch {
	case down > 0:
		var parts []string
		for _, wd := range words {
			parts = append(parts, fmt.Sprintf("%d %s", counts[wd], wd))
		}
		w.Kind = "waiting"
		w.Headline = fmt.Sprintf("Not in sync: %s stopped being available after the Deployment controller looked (%s); "+
			"it sees them in the next second.", countOf(int32(down), n)+" pods", strings.Join(parts, ", "))
	case onDrained > 0:
		w.Kind = "waiting"
		w.Headline = fmt.Sprintf("Waiting on a drain: %s on node %s not gone yet. %s", plural(int64(onDrained), "pod"), screen.DrainNode,
			screen.Waiting)
	case len(screen.Refusals) > 0:
		r := screen.Refusals[0]
		w.Kind = "refused"
		w.Headline = fmt.Sprintf("Unchanged: %s was refused (%s), so nothing moved; %s pods of revision %s stay available.", r.Action, r.Age,
			countOf(d.Status.AvailableReplicas, n), d.Annotations[api.RevisionAnnotation])
	}
}

// recordText is the record's outcome in one line: observed, desired, then
// the step or the wait.
func recordText(rec *controller.SyncRecord) string {
	var parts []string
	if rec.Observed != "" {
		parts = append(parts, "observed "+rec.Observed)
	}
	if rec.Desired != "" {
		parts = append(parts, "desired "+rec.Desired)
	}
	switch {
	case rec.Action != "":
		parts = append(parts, rec.Action)
	case rec.Waiting != "":
		parts = append(parts, rec.Waiting)
	case rec.InSync:
		parts = append(parts, "in sync")
	}
	return strings.Join(parts, "; ")
}

func countOf(a, n int32) string {
	return fmt.Sprintf("%d of %d", a, n)
}

// newPodsText counts the states of the new ReplicaSet's pods that are not
// available yet: what the rollout is waiting for. stuck is set when some
// are in a state that does not clear by itself.
func newPodsText(s *sim.Sim, d *api.Deployment) (text string, stuck bool) {
	st := s.Store()
	rss := ownedReplicaSets(st, d)
	newRS := deployment.FindNewReplicaSet(d, rss)
	if newRS == nil {
		return "", false
	}
	others := false
	for _, rs := range rss {
		if rs.UID != newRS.UID && (rs.Status.Replicas > 0 || api.Deref(rs.Spec.Replicas, 1) > 0) {
			others = true
		}
	}
	now := s.Now()
	counts := map[State]int{}
	notReadyNodes := map[string]bool{}
	for _, n := range st.Nodes() {
		if !api.IsNodeReady(n) {
			notReadyNodes[n.Name] = true
		}
	}
	onLost := 0
	st.EachPod(func(p *api.Pod) bool {
		if api.IsControlledBy(&p.ObjectMeta, newRS.UID) {
			state := PodState(p, now, newRS.Spec.MinReadySeconds)
			switch state {
			case StateCompleted, StateTerminating, StateFailed, StateUnknown:
				return true // leaving, not waited for
			}
			counts[state]++
			if state != StateAvailable && notReadyNodes[p.Spec.NodeName] {
				onLost++
			}
			if state == StatePending && unschedulable(p) {
				stuck = true
			}
		}
		return true
	})
	var parts []string
	for _, li := range Legend() {
		if li.State == StateAvailable || counts[li.State] == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s", counts[li.State], stateWords(li.State)))
	}
	for _, st := range [...]State{StateErrImagePull, StateInvalidImage, StateUnknown} { // drawn as others, named as kubectl names them
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	stuck = stuck || counts[StateCrashLoop] > 0 || counts[StateImagePull] > 0 || counts[StateErrImagePull] > 0 ||
		counts[StateInvalidImage] > 0 || counts[StateEvicted] > 0
	who := "Pods (" + newRS.Name + ")"
	if others {
		who = "New pods (" + newRS.Name + ")"
	}
	text = who + " not available yet: " + strings.Join(parts, ", ")
	if onLost > 0 {
		text += fmt.Sprintf("; %d of them on a node that is not Ready", onLost)
	}
	return text + ".", stuck
}

// replicaFailureHeadline leads a line whose Deployment has the
// ReplicaFailure condition: the API server refuses the ReplicaSet's
// creates (or deletes), which the controllers retry until it admits them.
func replicaFailureHeadline(f *api.DeploymentCondition, blocking string) string {
	what := "the new pods cannot be created"
	if f.Reason == "FailedDelete" {
		what = "pods cannot be deleted"
	}
	text := "Stuck: " + what + " (ReplicaFailure, " + f.Reason + "): the API server refuses them, and the ReplicaSet controller retries until it admits them."
	if blocking == deployment.BlockingSurge {
		text += " The refused pods still count against maxSurge, so nothing else moves."
	}
	return text
}

// replicaFailure is the Deployment's ReplicaFailure condition (copied
// from a ReplicaSet whose pods cannot be created or deleted), or nil.
func replicaFailure(d *api.Deployment) *api.DeploymentCondition {
	for i := range d.Status.Conditions {
		if c := &d.Status.Conditions[i]; c.Type == api.DeploymentReplicaFailure && c.Status == api.ConditionTrue {
			return c
		}
	}
	return nil
}

func unschedulable(p *api.Pod) bool {
	c := api.GetPodCondition(&p.Status, api.PodScheduled)
	return c != nil && c.Status == api.ConditionFalse
}

// actedText joins the deployment controller's steps for the Deployment name this second.
func actedText(s *sim.Sim, name string) string {
	var out []string
	obj := "deployment/" + name
	for _, r := range s.Tick().Syncs {
		if r.Controller == deployment.Component && r.Object == obj && r.Action != "" {
			out = append(out, r.Action)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "This second it took a step: " + strings.Join(out, "; ") + "."
}

// NoDeployment is what the why-lines say when there is no Deployment at
// the current second: none yet, or the ones the scenario had were deleted
// (named, with the second they were gone at). The page adds where to
// create one; embed says so without it, as an embedded demo has neither
// console nor editor.
func NoDeployment(s *sim.Sim, embed bool) string {
	where := ": create one in the console or the editor."
	if embed {
		where = "."
	}
	samples, now := s.History(), s.T()
	for i := min(int64(len(samples))-1, now); i >= 0; i-- {
		ds := samples[i].Deployments
		if len(ds) == 0 {
			continue
		}
		if i == now {
			break // the store has none, but the second's sample does
		}
		names := make([]string, len(ds))
		for k, d := range ds {
			names[k] = "deployment/" + d.Name
		}
		verb := "was"
		if len(names) > 1 {
			verb = "were"
		}
		gone := now
		if i+1 < int64(len(samples)) {
			gone = samples[i+1].T
		}
		return "No Deployment: " + strings.Join(names, ", ") + " " + verb + " deleted at " + secondsText(gone) + where
	}
	return "No Deployment yet" + where
}
