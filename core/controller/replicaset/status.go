package replicaset

import (
	"reflect"
	"time"

	"converge/core/api"
)

// calculateStatus is the controller's calculateStatus: the counters of the
// pods claimed at the start of the sync (so pods created or deleted in this
// sync show up in the next one), terminatingReplicas (the
// DeploymentReplicaSetTerminatingReplicas gate, on by default since 1.35),
// and the ReplicaFailure condition: added with reason FailedCreate or
// FailedDelete and the error text when manageReplicas failed and there is
// none yet, removed when it succeeded.
func calculateStatus(rs *api.ReplicaSet, c podCounts, res manageResult, now time.Time) api.ReplicaSetStatus {
	st := rs.Status
	st.Conditions = append([]api.ReplicaSetCondition(nil), rs.Status.Conditions...)
	failure := replicaFailure(&rs.Status)
	switch {
	case res.err != nil && failure == nil:
		reason := ""
		if diff := int(c.active) - int(api.Deref(rs.Spec.Replicas, 1)); diff < 0 {
			reason = FailedCreateReason
		} else if diff > 0 {
			reason = FailedDeleteReason
		}
		st.Conditions = append(st.Conditions, api.ReplicaSetCondition{Type: api.ReplicaSetReplicaFailure,
			Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now), Reason: reason, Message: res.err.Error()})
	case res.err == nil && failure != nil:
		st.Conditions = removeCondition(st.Conditions, api.ReplicaSetReplicaFailure)
	}
	if len(st.Conditions) == 0 {
		st.Conditions = nil
	}
	st.Replicas = c.active
	st.FullyLabeledReplicas = c.fullyLabeled
	st.ReadyReplicas = c.ready
	st.AvailableReplicas = c.available
	t := c.terminating
	st.TerminatingReplicas = &t
	return st
}

// statusChanged is updateReplicaSetStatus' steady-state test: nothing to
// write when every counter, the conditions and observedGeneration are as
// stored.
func statusChanged(rs *api.ReplicaSet, next api.ReplicaSetStatus) bool {
	cur := &rs.Status
	return cur.Replicas != next.Replicas ||
		cur.FullyLabeledReplicas != next.FullyLabeledReplicas ||
		cur.ReadyReplicas != next.ReadyReplicas ||
		cur.AvailableReplicas != next.AvailableReplicas ||
		!equalInt32Ptr(cur.TerminatingReplicas, next.TerminatingReplicas) ||
		rs.Generation != cur.ObservedGeneration ||
		!equalConditions(cur.Conditions, next.Conditions)
}

// equalConditions compares condition lists, nil and empty being equal.
func equalConditions(a, b []api.ReplicaSetCondition) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return reflect.DeepEqual(a, b)
}

func equalInt32Ptr(a, b *int32) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// replicaFailure returns the ReplicaFailure condition, or nil.
func replicaFailure(s *api.ReplicaSetStatus) *api.ReplicaSetCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == api.ReplicaSetReplicaFailure {
			return &s.Conditions[i]
		}
	}
	return nil
}

func removeCondition(cs []api.ReplicaSetCondition, t string) []api.ReplicaSetCondition {
	out := cs[:0]
	for _, c := range cs {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}
