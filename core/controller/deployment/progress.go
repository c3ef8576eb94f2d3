package deployment

import (
	"fmt"
	"time"

	"converge/core/api"
)

// NewDeploymentCondition returns a condition stamped at now (both times).
func NewDeploymentCondition(condType, status, reason, message string, now time.Time) api.DeploymentCondition {
	t := api.NewTime(now)
	return api.DeploymentCondition{Type: condType, Status: status, LastUpdateTime: t, LastTransitionTime: t, Reason: reason, Message: message}
}

// GetDeploymentCondition returns a copy of the condition of type condType, or nil.
func GetDeploymentCondition(st *api.DeploymentStatus, condType string) *api.DeploymentCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == condType {
			c := st.Conditions[i]
			return &c
		}
	}
	return nil
}

// SetDeploymentCondition puts c into st. A condition of the same type,
// status and reason is left as it is (times included). Otherwise the old one
// is removed and c appended at the end, keeping the old lastTransitionTime
// when the status did not change. That is why a settled Deployment lists
// Available before Progressing.
func SetDeploymentCondition(st *api.DeploymentStatus, c api.DeploymentCondition) {
	cur := GetDeploymentCondition(st, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	st.Conditions = append(filterOutCondition(st.Conditions, c.Type), c)
}

// RemoveDeploymentCondition removes the condition of type condType.
func RemoveDeploymentCondition(st *api.DeploymentStatus, condType string) {
	st.Conditions = filterOutCondition(st.Conditions, condType)
}

func filterOutCondition(cs []api.DeploymentCondition, condType string) []api.DeploymentCondition {
	var out []api.DeploymentCondition
	for _, c := range cs {
		if c.Type != condType {
			out = append(out, c)
		}
	}
	return out
}

// ReplicaSetToDeploymentCondition turns a ReplicaSet's ReplicaFailure
// condition into the Deployment's (both times from its lastTransitionTime).
func ReplicaSetToDeploymentCondition(c api.ReplicaSetCondition) api.DeploymentCondition {
	return api.DeploymentCondition{Type: c.Type, Status: c.Status, LastTransitionTime: c.LastTransitionTime,
		LastUpdateTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message}
}

// syncRolloutStatus writes the status of a Deployment in a rollout: the
// status of calculateStatus plus the Progressing condition, estimated
// against the stored status unless the rollout had already completed
// (one ReplicaSet and NewReplicaSetAvailable):
//   - complete → True/NewReplicaSetAvailable;
//   - progress (DeploymentProgressing) → True/ReplicaSetUpdated, re-created
//     so lastUpdateTime is now (lastTransitionTime kept if it was True);
//   - no progress for progressDeadlineSeconds → False/ProgressDeadlineExceeded.
//
// Without a deadline the Progressing condition is removed. ReplicaFailure is
// copied from the new ReplicaSet, else from an old one, else removed.
func (s *syncer) syncRolloutStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) error {
	d := s.d
	st := calculateStatus(allRSs, newRS, d, s.now)
	if !HasProgressDeadline(d) {
		RemoveDeploymentCondition(&st, api.DeploymentProgressing)
	}
	cur := GetDeploymentCondition(&d.Status, api.DeploymentProgressing)
	isComplete := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == NewRSAvailableReason
	if HasProgressDeadline(d) && !isComplete {
		switch {
		case DeploymentComplete(d, &st):
			msg := fmt.Sprintf("Deployment %q has successfully progressed.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has successfully progressed.", newRS.Name)
			}
			SetDeploymentCondition(&st, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewRSAvailableReason, msg, s.now))
		case DeploymentProgressing(d, &st):
			msg := fmt.Sprintf("Deployment %q is progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q is progressing.", newRS.Name)
			}
			c := NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason, msg, s.now)
			if cur != nil {
				if cur.Status == api.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				RemoveDeploymentCondition(&st, api.DeploymentProgressing)
			}
			SetDeploymentCondition(&st, c)
		case DeploymentTimedOut(d, &st, s.now):
			msg := fmt.Sprintf("Deployment %q has timed out progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has timed out progressing.", newRS.Name)
			}
			SetDeploymentCondition(&st, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, TimedOutReason, msg, s.now))
		}
	}
	if failures := getReplicaFailures(allRSs, newRS); len(failures) > 0 {
		SetDeploymentCondition(&st, failures[0])
	} else {
		RemoveDeploymentCondition(&st, api.DeploymentReplicaFailure)
	}
	return s.writeStatus(st, allRSs, newRS)
}

// getReplicaFailures returns the ReplicaFailure conditions of the new
// ReplicaSet, or else those of the other ReplicaSets.
func getReplicaFailures(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) []api.DeploymentCondition {
	var out []api.DeploymentCondition
	collect := func(rs *api.ReplicaSet) {
		for _, c := range rs.Status.Conditions {
			if c.Type == api.ReplicaSetReplicaFailure {
				out = append(out, ReplicaSetToDeploymentCondition(c))
			}
		}
	}
	if newRS != nil {
		collect(newRS)
	}
	if len(out) > 0 {
		return out
	}
	for _, rs := range allRSs {
		if rs != nil {
			collect(rs)
		}
	}
	return out
}

// progressDeadlineIn returns the seconds left before the controller reports
// ProgressDeadlineExceeded: the deadline (the Progressing condition's
// lastUpdateTime + progressDeadlineSeconds) must be strictly passed, so with
// whole-second ticks it shows one second after that instant, which is also
// when Kubernetes requeues the Deployment (after + 1s). It is -1 when no
// deadline applies: none is set, the rollout is complete or paused, or it
// already timed out.
//
// Example: lastUpdateTime 00:00:01, deadline 10s, now 00:00:01 → 11.
func progressDeadlineIn(d *api.Deployment, st *api.DeploymentStatus, now time.Time) int64 {
	if !HasProgressDeadline(d) || d.Spec.Paused || st == nil || DeploymentComplete(d, st) {
		return -1
	}
	c := GetDeploymentCondition(st, api.DeploymentProgressing)
	if c == nil || c.Status == api.ConditionFalse || c.Reason == NewRSAvailableReason {
		return -1
	}
	left := deadlineAt(d, c).Sub(now)
	if left < 0 {
		return 0
	}
	return int64(left/time.Second) + 1
}
