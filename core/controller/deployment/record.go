package deployment

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/humanize"
)

// This file turns one pass into its sync record: what the controller saw,
// what it wants, and the step it took or what it waits for, in the words a
// Kubernetes user reads.

// Blocking values of a RolloutRecord.
const (
	BlockingSurge            = "surge"
	BlockingUnavailable      = "unavailable"
	BlockingPaused           = "paused"
	BlockingProgressDeadline = "progress-deadline"
)

// FencepostMath explains how maxSurge and maxUnavailable resolve against
// replicas, in the numbers MaxSurge and MaxUnavailable return:
//
//	maxSurge 25% of 10 = 2.5, rounded up to 3
//	maxUnavailable 25% of 10 = 2.5, rounded down to 2
//	maxSurge 1 (an absolute number)
//	maxUnavailable 10% of 3 = 0.3, rounded down to 0; maxSurge 0 and maxUnavailable 0: maxUnavailable becomes 1
//	maxUnavailable 5 (an absolute number), capped at 3 replicas
//
// The view draws these next to the budget gauges.
func FencepostMath(maxSurge, maxUnavailable *api.IntOrString, replicas int32) (surgeMath, unavailableMath string) {
	surgeMath, surge, errS := explainScaled("maxSurge", maxSurge, replicas, true)
	unavailableMath, unavailable, errU := explainScaled("maxUnavailable", maxUnavailable, replicas, false)
	switch {
	case errS || errU:
		return surgeMath, unavailableMath + "; an invalid value makes both 0"
	case surge <= 0 && unavailable <= 0:
		unavailableMath += "; maxSurge 0 and maxUnavailable 0: maxUnavailable becomes 1"
		unavailable = 1
	}
	switch {
	case replicas == 0:
		unavailableMath += "; with 0 replicas it is 0"
	case unavailable > replicas:
		unavailableMath += fmt.Sprintf(", capped at %s", humanize.Count(replicas, "replica"))
	}
	return surgeMath, unavailableMath
}

// explainScaled renders one fencepost: "maxSurge 25% of 10 = 2.5, rounded up
// to 3", "maxSurge 1 (an absolute number)" or "maxSurge 20% of 10 = 2".
func explainScaled(field string, v *api.IntOrString, replicas int32, roundUp bool) (string, int32, bool) {
	if v == nil {
		return field + " not set: 0", 0, false
	}
	if !v.IsString {
		return fmt.Sprintf("%s %d (an absolute number)", field, v.IntVal), max(v.IntVal, 0), false
	}
	n, err := scaledValue(v, replicas, roundUp)
	if err != nil {
		return fmt.Sprintf("%s %q is not a number or a percentage", field, v.StrVal), 0, true
	}
	p, _ := api.ParsePercent(v.StrVal)
	exact := int64(min(p, 1<<31-1)) * int64(replicas)
	s := fmt.Sprintf("%s %s of %d = %s", field, v.StrVal, replicas, hundredths(exact))
	if exact%100 != 0 {
		dir := "down"
		if roundUp {
			dir = "up"
		}
		s += fmt.Sprintf(", rounded %s to %d", dir, n)
	}
	return s, n, false
}

// hundredths renders n/100 as a short decimal: 250 → "2.5", 75 → "0.75", 300 → "3".
func hundredths(n int64) string {
	whole, frac := n/100, n%100
	if frac == 0 {
		return strconv.FormatInt(whole, 10)
	}
	return strings.TrimRight(fmt.Sprintf("%d.%02d", whole, frac), "0")
}

// record builds the pass's sync record.
func (s *syncer) record(err error) controller.SyncRecord {
	d := s.d
	st := s.status
	if st == nil {
		st = &d.Status
	}
	r := controller.SyncRecord{Controller: Component, Object: "deployment/" + d.Name,
		Observed: fmt.Sprintf("%s: %d updated, %d available", humanize.Count(st.Replicas, "replica"), st.UpdatedReplicas, st.AvailableReplicas),
		Desired:  fmt.Sprintf("%s of revision %s", humanize.Count(replicas(d), "replica"), s.desiredRevision()),
	}
	steps := s.actions
	if len(steps) == 0 {
		steps = s.bookkeeping
	}
	switch {
	case len(steps) > 0:
		r.Action = strings.Join(steps, "; ")
		if err != nil {
			r.Action += "; then failed: " + err.Error()
		}
	case err != nil:
		r.Waiting = "retrying after error: " + err.Error()
	case s.inSync(st):
		r.InSync = true
	default:
		r.Waiting = s.waitText(st)
	}
	if s.strategyPath != "selectingAll" {
		r.Rollout = s.rolloutRecord(st)
	}
	return r
}

// desiredRevision is the new ReplicaSet's revision, or the one the next new
// ReplicaSet will get.
func (s *syncer) desiredRevision() string {
	if s.newRS != nil {
		if v := s.newRS.Annotations[api.RevisionAnnotation]; v != "" {
			return v
		}
	}
	return strconv.FormatInt(MaxRevision(s.allRSs)+1, 10)
}

// inSync reports a finished rollout with nothing left to do.
func (s *syncer) inSync(st *api.DeploymentStatus) bool {
	return s.newRS != nil && DeploymentComplete(s.d, st) && sumSpec(s.allRSs) == int64(replicas(s.d)) &&
		(s.strategyPath == "rolling" || s.strategyPath == "recreate" || s.strategyPath == "sync")
}

// waitText says what a pass that took no step waits for.
func (s *syncer) waitText(st *api.DeploymentStatus) string {
	d := s.d
	switch {
	case s.waiting != "":
		return s.waiting
	case s.strategyPath == "status":
		return "deployment is being deleted"
	case d.Spec.Paused:
		s.blocking = BlockingPaused
		return "paused: template changes wait for rollout resume"
	case s.newRS == nil:
		return "waiting for the new replica set to be created"
	case s.strategyPath == "rolling":
		return s.rollingWait(st)
	}
	return s.podsWait(st)
}

// podsWait covers a pass whose ReplicaSets are all sized: it waits for the
// ReplicaSet controller or for pods.
func (s *syncer) podsWait(st *api.DeploymentStatus) string {
	n := replicas(s.d)
	switch {
	case st.Replicas > st.UpdatedReplicas:
		return "waiting for " + humanize.Count(st.Replicas-st.UpdatedReplicas, "old pod") + " to be removed"
	case s.newRS.Status.Replicas < rsReplicas(s.newRS):
		return fmt.Sprintf("waiting for the replica set controller: %d of %d new pods created", s.newRS.Status.Replicas, rsReplicas(s.newRS))
	}
	return fmt.Sprintf("waiting for new pods to become available: %d of %d available", st.AvailableReplicas, n)
}

// rollingWait explains a blocked rolling update: which budget stops the
// next step, refined by what the new pods are doing.
func (s *syncer) rollingWait(st *api.DeploymentStatus) string {
	d := s.d
	total, maxTotal := sumSpec(s.allRSs), int64(replicas(d))+int64(MaxSurge(d))
	newSpec := int64(rsReplicas(s.newRS))
	if total-newSpec == 0 {
		return s.podsWait(st)
	}
	var msg string
	if newSpec < int64(replicas(d)) && total >= maxTotal {
		s.blocking = BlockingSurge
		msg = fmt.Sprintf("at surge cap %d/%d: waiting for new pods to become available", total, maxTotal)
	} else {
		s.blocking = BlockingUnavailable
		msg = fmt.Sprintf("at unavailable cap %d/%d: waiting for new pods to become available",
			max(replicas(d)-st.AvailableReplicas, 0), MaxUnavailable(d))
	}
	if DeploymentTimedOut(d, st, s.now) {
		s.blocking = BlockingProgressDeadline
		return "progress deadline exceeded; " + msg
	}
	pods := s.newPodsState(st)
	switch {
	case pods.minReadyPod != "":
		return fmt.Sprintf("minReadySeconds %ds: %ds left for %s", d.Spec.MinReadySeconds, pods.minReadyLeft, pods.minReadyPod)
	case pods.stuck > 0:
		if left := progressDeadlineIn(d, st, s.now); left >= 0 {
			return fmt.Sprintf("ProgressDeadlineExceeded in %ds", left)
		}
	}
	return msg
}

// newPodsState is what the new ReplicaSet's pods are doing.
type newPodsState struct {
	minReadyPod  string // the Ready pod closest to counting as available
	minReadyLeft int64  // seconds until it does
	stuck        int    // pods in image-pull or crash back-off, or unschedulable
}

// stuckReasons are container waiting reasons that will not clear by themselves.
var stuckReasons = map[string]bool{"CrashLoopBackOff": true, "ImagePullBackOff": true, "ErrImagePull": true,
	"CreateContainerConfigError": true, "InvalidImageName": true}

// newPodsState scans the new ReplicaSet's active pods once, and only when
// the answer can matter: some are Ready but not yet available under
// minReadySeconds, or some are not Ready while the rollout made no progress
// this second (the deadline clock is running).
func (s *syncer) newPodsState(st *api.DeploymentStatus) newPodsState {
	var out newPodsState
	rs, d := s.newRS, s.d
	wantMinReady := d.Spec.MinReadySeconds > 0 && rs.Status.ReadyReplicas > rs.Status.AvailableReplicas
	wantStuck := rs.Status.Replicas > rs.Status.ReadyReplicas && !progressedNow(st, s.now)
	if !wantMinReady && !wantStuck {
		return out
	}
	uid, minReady := rs.UID, time.Duration(d.Spec.MinReadySeconds)*time.Second
	s.store.EachPod(func(p *api.Pod) bool {
		if !api.IsPodActive(p) || !api.IsControlledBy(&p.ObjectMeta, uid) {
			return true
		}
		if c := api.GetPodCondition(&p.Status, api.PodReady); c != nil && c.Status == api.ConditionTrue {
			if at := c.LastTransitionTime.Add(minReady); wantMinReady && at.After(s.now) {
				// Available once lastTransitionTime + minReadySeconds is at or
				// before now (the ReplicaSet controller's rule): at that
				// instant, rounded up to the next whole second.
				left := int64((at.Sub(s.now) + time.Second - 1) / time.Second)
				if out.minReadyPod == "" || left < out.minReadyLeft || left == out.minReadyLeft && p.Name < out.minReadyPod {
					out.minReadyPod, out.minReadyLeft = p.Name, left
				}
			}
			return true
		}
		if wantStuck && isStuck(p) {
			out.stuck++
		}
		return true
	})
	return out
}

// progressedNow reports whether the Progressing condition was refreshed at now.
func progressedNow(st *api.DeploymentStatus, now time.Time) bool {
	c := GetDeploymentCondition(st, api.DeploymentProgressing)
	return c != nil && !c.LastUpdateTime.Before(now)
}

func isStuck(p *api.Pod) bool {
	if c := api.GetPodCondition(&p.Status, api.PodScheduled); c != nil && c.Status == api.ConditionFalse {
		return true
	}
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && stuckReasons[w.Reason] {
			return true
		}
	}
	return false
}

// rolloutRecord fills the budgets of the pass.
func (s *syncer) rolloutRecord(st *api.DeploymentStatus) *controller.RolloutRecord {
	d := s.d
	n := replicas(d)
	r := &controller.RolloutRecord{
		Strategy:           d.Spec.Strategy.Type,
		Replicas:           n,
		Surge:              MaxSurge(d),
		Unavailable:        MaxUnavailable(d),
		SurgeUsed:          int32(sumSpec(s.allRSs)) - n,
		UnavailableUsed:    max(n-st.AvailableReplicas, 0),
		Blocking:           s.blocking,
		ProgressDeadlineIn: progressDeadlineIn(d, st, s.now),
	}
	if s.newRS != nil {
		r.NewReplicaSet = s.newRS.Name
	}
	if IsRollingUpdate(d) {
		ms, mu := rollingParams(d)
		if ms != nil {
			r.MaxSurge = ms.String()
		}
		if mu != nil {
			r.MaxUnavailable = mu.String()
		}
		r.SurgeMath, r.UnavailableMath = FencepostMath(ms, mu, n)
	}
	return r
}
