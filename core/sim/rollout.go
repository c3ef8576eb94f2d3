package sim

import (
	"time"

	"converge/core/api"
	"converge/core/controller/deployment"
	"converge/core/kubectl"
	"converge/core/store"
)

// RolloutSample is what a Deployment that is not complete waits for at a
// second: the facts the rollouts' time breakdown and outcomes are computed
// from (core/outcome), recorded as the second ends.
type RolloutSample struct {
	// NewReplicaSet is the ReplicaSet whose template is the Deployment's
	// ("" before it exists), and NewDesired its .spec.replicas.
	NewReplicaSet string `json:"newReplicaSet,omitempty"`
	NewDesired    int32  `json:"newDesired"`
	// Paused is .spec.paused.
	Paused bool `json:"paused,omitempty"`
	// Blocking is the bound the deployment controller's last pass of the
	// second named ("surge", "unavailable", "paused", "progress-deadline",
	// or ""; see controller.RolloutRecord).
	Blocking string `json:"blocking,omitempty"`
	// The new ReplicaSet's pods that are not available yet (Terminating
	// ones aside), by where they are: waiting for a node (Pending), bound
	// but no container running yet (pulling, starting: Creating), running
	// but not Ready (NotReady), Ready but not for minReadySeconds yet
	// (Ready).
	Pending  int32 `json:"pending,omitempty"`
	Creating int32 `json:"creating,omitempty"`
	NotReady int32 `json:"notReady,omitempty"`
	Ready    int32 `json:"ready,omitempty"`
	// Stuck is why one of those pods will not get better by itself: a
	// container waiting reason (ImagePullBackOff, ErrImagePull,
	// InvalidImageName, CrashLoopBackOff, ...) or Unschedulable; "" when
	// none is stuck.
	Stuck string `json:"stuck,omitempty"`
	// OldPods counts the pods of its other ReplicaSets that exist,
	// Terminating included.
	OldPods int32 `json:"oldPods"`
	// SinceProgress is how long ago the Progressing condition was last
	// updated, in seconds: the time without progress that the progress
	// deadline counts; -1 when the deadline does not count (no condition,
	// paused, no deadline). ProgressDeadline is .spec.progressDeadlineSeconds
	// (0 for none), DeadlineExceeded is set once the condition says
	// ProgressDeadlineExceeded: the controller wrote it (and its
	// lastUpdateTime) in the first second with more than ProgressDeadline
	// seconds without progress, so SinceProgress counts on from
	// ProgressDeadline + 1 at that time.
	SinceProgress    int64 `json:"sinceProgress"`
	ProgressDeadline int32 `json:"progressDeadline"`
	DeadlineExceeded bool  `json:"deadlineExceeded,omitempty"`
}

// stuckWaiting are the container waiting reasons that do not clear by
// themselves.
var stuckWaiting = map[string]bool{"CrashLoopBackOff": true, "ImagePullBackOff": true, "ErrImagePull": true,
	"InvalidImageName": true, "CreateContainerConfigError": true, "ErrImageNeverPull": true}

// Complete reports whether d has rolled out, as `kubectl rollout status`
// decides it (kubectl.RolloutStatus): its status is of its generation, all
// its replicas are updated and available, and no old pod is counted.
func Complete(d *api.Deployment) bool {
	_, done, err := kubectl.RolloutStatus(d, 0)
	return done && err == nil
}

// rsRef is what a pod's controller reference tells about its Deployment.
type rsRef struct {
	dep      int // index in the samples
	isNew    bool
	minReady int32
}

// podTally is what the pass over the pods adds to one Deployment's sample:
// its pods, those created in the second, and, while it rolls out (rolling),
// where the new ReplicaSet's pods are and how many old ones there are.
type podTally struct {
	rolling                                     bool
	pods, created                               int32
	pending, creating, notReady, ready, oldPods int32
	stuck                                       string
}

// tallies remembers the last pass over the pods of a state's store: while
// no pod, ReplicaSet or Deployment changed and no ready pod has reached
// minReadySeconds since, the next second's pass would count the same, but
// for the pods created in that second (none: a create changes the pods).
type tallies struct {
	store                  *store.Identity
	pods, rss, deployments store.Changes
	at, until              time.Time
	tally                  []podTally
}

// valid reports whether the pass remembered holds at now for s.
func (m *tallies) valid(s *store.Store, now time.Time) bool {
	return m != nil && m.store == s.Identity() && m.pods == s.Changes(api.KindPod) &&
		m.rss == s.Changes(api.KindReplicaSet) && m.deployments == s.Changes(api.KindDeployment) &&
		(m.until.IsZero() || now.Before(m.until))
}

// deploymentSamples records every Deployment of st at its second; prev
// are the samples of the second before, to reuse a template's hash while
// the Deployment's generation stays.
func deploymentSamples(st *state, prev []DeploymentSample) []DeploymentSample {
	deps := st.store.Deployments()
	if len(deps) == 0 {
		return nil
	}
	out := make([]DeploymentSample, len(deps))
	byRS := map[string]rsRef{}
	now := st.clock.Now()
	blocking := map[string]string{}
	for _, r := range st.tick.Syncs {
		if r.Controller == deployment.Component && r.Rollout != nil {
			blocking[r.Object] = r.Rollout.Blocking
		}
	}
	memo := st.tallies
	if !memo.valid(st.store, now) {
		memo = nil
	}
	for i, d := range deps {
		ds := DeploymentSample{Name: d.Name, Desired: api.Deref(d.Spec.Replicas, 1), Updated: d.Status.UpdatedReplicas,
			Ready: d.Status.ReadyReplicas, Available: d.Status.AvailableReplicas, Total: d.Status.Replicas,
			MaxSurge: deployment.MaxSurge(d), MaxUnavail: deployment.MaxUnavailable(d),
			Revision: d.Annotations[api.RevisionAnnotation], UID: d.UID, Generation: d.Generation, Complete: Complete(d)}
		ds.Template = templateHash(d, prev)
		var rss []*api.ReplicaSet
		for _, rs := range st.store.ReplicaSets() {
			if rs.Namespace == d.Namespace && api.IsControlledBy(&rs.ObjectMeta, d.UID) {
				rss = append(rss, rs)
				ds.SpecReplicas += api.Deref(rs.Spec.Replicas, 1)
			}
		}
		var newRS *api.ReplicaSet
		if !ds.Complete {
			newRS = deployment.FindNewReplicaSet(d, rss)
			ds.Rollout = rolloutSample(d, newRS, now, blocking["deployment/"+d.Name])
		}
		if memo == nil {
			for _, rs := range rss {
				byRS[rs.UID] = rsRef{dep: i, isNew: newRS != nil && rs.UID == newRS.UID, minReady: rs.Spec.MinReadySeconds}
			}
		}
		out[i] = ds
	}
	if memo == nil {
		memo = tallyPods(st.store, out, byRS, now)
		st.tallies = memo
	}
	for i := range out {
		memo.tally[i].addTo(&out[i], now.Equal(memo.at))
	}
	return out
}

// tallyPods is the pass over the pods of deploymentSamples.
func tallyPods(s *store.Store, out []DeploymentSample, byRS map[string]rsRef, now time.Time) *tallies {
	m := &tallies{store: s.Identity(), pods: s.Changes(api.KindPod), rss: s.Changes(api.KindReplicaSet),
		deployments: s.Changes(api.KindDeployment), at: now, tally: make([]podTally, len(out))}
	for i := range out {
		m.tally[i].rolling = out[i].Rollout != nil
	}
	s.EachPod(func(p *api.Pod) bool {
		ref := api.GetControllerOf(&p.ObjectMeta)
		if ref == nil {
			return true
		}
		r, ok := byRS[ref.UID]
		if !ok {
			return true
		}
		t := &m.tally[r.dep]
		t.pods++
		if p.CreationTimestamp.Time.Equal(now) {
			t.created++
		}
		if t.rolling {
			if r.isNew {
				m.until = earliest(m.until, t.countNewPod(p, now, r.minReady))
			} else {
				t.oldPods++
			}
		}
		return true
	})
	return m
}

// addTo adds the tally to its Deployment's sample; sameSecond says it was
// counted in the sample's second (else no pod of it was created then).
func (t *podTally) addTo(ds *DeploymentSample, sameSecond bool) {
	ds.Pods = t.pods
	if sameSecond {
		ds.Created = t.created
	}
	if ro := ds.Rollout; ro != nil {
		ro.Pending, ro.Creating, ro.NotReady, ro.Ready, ro.OldPods, ro.Stuck =
			t.pending, t.creating, t.notReady, t.ready, t.oldPods, t.stuck
	}
}

// earliest is the earlier of two times, the zero time being none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// templateHash is the pod-template-hash of d's template, taken from prev
// when the same Deployment was there at the same generation.
func templateHash(d *api.Deployment, prev []DeploymentSample) string {
	for _, p := range prev {
		if p.UID == d.UID && p.Generation == d.Generation {
			return p.Template
		}
	}
	return deployment.ComputeHash(&d.Spec.Template, nil)
}

func rolloutSample(d *api.Deployment, newRS *api.ReplicaSet, now time.Time, blocking string) *RolloutSample {
	ro := &RolloutSample{Paused: d.Spec.Paused, Blocking: blocking, SinceProgress: -1}
	if newRS != nil {
		ro.NewReplicaSet, ro.NewDesired = newRS.Name, api.Deref(newRS.Spec.Replicas, 1)
	}
	if deployment.HasProgressDeadline(d) {
		ro.ProgressDeadline = *d.Spec.ProgressDeadlineSeconds
		c := deployment.GetDeploymentCondition(&d.Status, api.DeploymentProgressing)
		switch {
		case c == nil, d.Spec.Paused, c.Reason == deployment.NewRSAvailableReason:
		case c.Reason == deployment.TimedOutReason:
			ro.DeadlineExceeded = true
			ro.SinceProgress = int64(ro.ProgressDeadline) + 1 + int64(now.Sub(c.LastUpdateTime.Time)/time.Second)
		case c.Status == api.ConditionTrue:
			ro.SinceProgress = int64(now.Sub(c.LastUpdateTime.Time) / time.Second)
		}
	}
	return ro
}

// countNewPod adds a pod of the new ReplicaSet to where it is in its start.
// It returns when the pod becomes available, when it is Ready but not yet
// for minReadySeconds (zero otherwise).
func (t *podTally) countNewPod(p *api.Pod, now time.Time, minReady int32) time.Time {
	if p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded {
		return time.Time{}
	}
	if c := api.GetPodCondition(&p.Status, api.PodScheduled); c != nil && c.Status == api.ConditionFalse {
		t.pending++
		if t.stuck == "" {
			t.stuck = c.Reason
		}
		return time.Time{}
	}
	if p.Spec.NodeName == "" {
		t.pending++
		return time.Time{}
	}
	running := false
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && stuckWaiting[w.Reason] && t.stuck == "" {
			t.stuck = w.Reason
		}
		if cs.State.Running != nil || cs.RestartCount > 0 {
			running = true
		}
	}
	ready := api.GetPodCondition(&p.Status, api.PodReady)
	switch {
	case ready != nil && ready.Status == api.ConditionTrue:
		if !api.IsAvailable(ready, minReady, now) {
			t.ready++
			if !ready.LastTransitionTime.IsZero() {
				return ready.LastTransitionTime.Add(time.Duration(minReady) * time.Second)
			}
		}
	case running:
		t.notReady++
	default:
		t.creating++
	}
	return time.Time{}
}
