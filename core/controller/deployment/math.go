package deployment

import (
	"errors"
	"fmt"
	"math"
	"time"

	"converge/core/api"
)

// This file holds the Deployment controller's pure arithmetic, ported from
// kubernetes/kubernetes pkg/controller/deployment/util/deployment_util.go.
// Every function takes objects and returns numbers or bools; none reads the
// store or the clock. All fencepost math is integer math.

// errInvalidIntOrPercent classifies a malformed maxSurge/maxUnavailable.
var errInvalidIntOrPercent = errors.New("invalid value for IntOrString")

// scaledValue is intstr.GetScaledValueFromIntOrPercent in integers: an
// integer value is used as is; "p%" of total is p·total/100, rounded up when
// roundUp is set and down otherwise. A string that is not digits followed by
// % is an error. A nil value is 0.
//
// Example: 25% of 10 is 2.5, so 3 rounded up (maxSurge) and 2 rounded down
// (maxUnavailable); 25% of 3 is 0.75, so 1 and 0.
func scaledValue(v *api.IntOrString, total int32, roundUp bool) (int32, error) {
	if v == nil {
		return 0, nil
	}
	if !v.IsString {
		return v.IntVal, nil
	}
	if _, ok := api.ParsePercent(v.StrVal); !ok {
		return 0, fmt.Errorf("%w: invalid value %q: must be an integer or percentage (e.g '5%%')", errInvalidIntOrPercent, v.StrVal)
	}
	q, err := api.ScaledValue(v, int(total), roundUp)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errInvalidIntOrPercent, err)
	}
	return clamp32(int64(q)), nil
}

func clamp32(v int64) int32 {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	if v < math.MinInt32 {
		return math.MinInt32
	}
	return int32(v)
}

// ResolveFenceposts resolves maxSurge (rounded up) and maxUnavailable
// (rounded down) against desired replicas. Both must be resolved in one step,
// because when both come out 0 maxUnavailable becomes 1: validation forbids
// both being literally 0, but rounding down can still make maxUnavailable 0,
// and a rollout with no surge and no unavailability could never move (surge
// might also be blocked by quota). Negative values are treated as 0. For
// example:
//
//	2 desired, max unavailable 1%, surge 0%  - should scale old(-1), then new(+1), then old(-1), then new(+1)
//	1 desired, max unavailable 1%, surge 0%  - should scale old(-1), then new(+1)
//	2 desired, max unavailable 25%, surge 1% - should scale new(+1), then old(-1), then new(+1), then old(-1)
//	1 desired, max unavailable 25%, surge 1% - should scale new(+1), then old(-1)
//	2 desired, max unavailable 0%, surge 1%  - should scale new(+1), then old(-1), then new(+1), then old(-1)
//	1 desired, max unavailable 0%, surge 1%  - should scale new(+1), then old(-1)
//
// With the defaults (25%/25%) on 10 replicas it returns (3, 2); on 3 replicas
// (1, 0). A malformed value ("oops") returns (0, 0) and an error.
func ResolveFenceposts(maxSurge, maxUnavailable *api.IntOrString, desired int32) (int32, int32, error) {
	surge, err := scaledValue(maxSurge, desired, true)
	if err != nil {
		return 0, 0, err
	}
	unavailable, err := scaledValue(maxUnavailable, desired, false)
	if err != nil {
		return 0, 0, err
	}
	surge, unavailable = max(surge, 0), max(unavailable, 0)
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable, nil
}

// replicas returns spec.replicas of d (1 when unset, as defaulting does).
func replicas(d *api.Deployment) int32 { return api.Deref(d.Spec.Replicas, 1) }

// rsReplicas returns spec.replicas of rs (0 for a nil rs).
func rsReplicas(rs *api.ReplicaSet) int32 {
	if rs == nil {
		return 0
	}
	return api.Deref(rs.Spec.Replicas, 1)
}

// IsRollingUpdate reports whether d uses the RollingUpdate strategy.
func IsRollingUpdate(d *api.Deployment) bool {
	return d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType
}

func rollingParams(d *api.Deployment) (maxSurge, maxUnavailable *api.IntOrString) {
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		return ru.MaxSurge, ru.MaxUnavailable
	}
	return nil, nil
}

// MaxSurge returns how many pods above spec.replicas a rolling Deployment may
// run: 0 for Recreate, otherwise the resolved maxSurge, not clamped (surge
// above 100% is allowed). An invalid value counts as 0.
//
// Example: 25% of 10 replicas is 3; 150% of 10 is 15.
func MaxSurge(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	s, u := rollingParams(d)
	surge, _, _ := ResolveFenceposts(s, u, replicas(d))
	return surge
}

// MaxUnavailable returns how many of spec.replicas may be unavailable during
// a rolling update: 0 for Recreate and for 0 replicas, otherwise the resolved
// value clamped to spec.replicas.
//
// Example: maxUnavailable 5 on 3 replicas gives 3; 25% of 10 gives 2.
func MaxUnavailable(d *api.Deployment) int32 {
	n := replicas(d)
	if !IsRollingUpdate(d) || n == 0 {
		return 0
	}
	s, u := rollingParams(d)
	_, unavailable, _ := ResolveFenceposts(s, u, n)
	return min(unavailable, n)
}

// NewRSNewReplicas returns the size the new ReplicaSet should have now. For
// Recreate it is spec.replicas. For RollingUpdate it grows the new
// ReplicaSet up to the surge cap: with maxTotal = replicas + maxSurge and
// current = Σ spec.replicas over allRSs (which must include newRS), it
// returns newRS's size unchanged when current ≥ maxTotal, and otherwise
// newRS + min(maxTotal − current, replicas − newRS). Only spec counts enter;
// readiness and terminating pods do not.
//
// Example: 10 replicas, maxSurge 2, old RS at 5 and new RS at 0: maxTotal 12,
// current 5, so the new RS gets min(7, 10) = 7.
func NewRSNewReplicas(d *api.Deployment, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (int32, error) {
	switch d.Spec.Strategy.Type {
	case api.RollingUpdateDeploymentStrategyType:
		s, _ := rollingParams(d)
		maxSurge, err := scaledValue(s, replicas(d), true)
		if err != nil {
			return 0, err
		}
		current := sumSpec(allRSs)
		maxTotal := int64(replicas(d)) + int64(max(maxSurge, 0))
		if current >= maxTotal {
			return rsReplicas(newRS), nil
		}
		up := min(maxTotal-current, int64(replicas(d)-rsReplicas(newRS)))
		return rsReplicas(newRS) + int32(up), nil
	case api.RecreateDeploymentStrategyType:
		return replicas(d), nil
	}
	return 0, fmt.Errorf("deployment type %v isn't supported", d.Spec.Strategy.Type)
}

// sumSpec returns Σ spec.replicas (GetReplicaCountForReplicaSets), in int64
// so that no input overflows.
func sumSpec(rss []*api.ReplicaSet) int64 {
	var n int64
	for _, rs := range rss {
		if rs != nil {
			n += int64(rsReplicas(rs))
		}
	}
	return n
}

// rsTotals holds the status sums over a set of ReplicaSets.
type rsTotals struct {
	spec, replicas, ready, available int32
}

func totals(rss []*api.ReplicaSet) rsTotals {
	var t rsTotals
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		t.spec += rsReplicas(rs)
		t.replicas += rs.Status.Replicas
		t.ready += rs.Status.ReadyReplicas
		t.available += rs.Status.AvailableReplicas
	}
	return t
}

// IsSaturated reports whether rs owns the whole Deployment: its spec and its
// desired-replicas annotation both equal spec.replicas, and that many pods
// are available.
func IsSaturated(d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, ok := intAnnotation(rs, api.DesiredReplicasAnnotation)
	n := replicas(d)
	return ok && rsReplicas(rs) == n && desired == n && rs.Status.AvailableReplicas == n
}

// FindActiveOrLatest returns the only active ReplicaSet (spec.replicas > 0)
// when there is at most one: the active one, or with none active the new one,
// or the newest old one. With several active ReplicaSets it returns nil:
// they are scaled proportionally instead.
func FindActiveOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	var active []*api.ReplicaSet
	for _, rs := range append(sortedNewestFirst(oldRSs), newRS) {
		if rs != nil && rsReplicas(rs) > 0 {
			active = append(active, rs)
		}
	}
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return sortedNewestFirst(oldRSs)[0]
	case 1:
		return active[0]
	}
	return nil
}

// GetProportion returns how many replicas rs gains (or, when negative,
// loses) in a proportional scaling step: its fraction of the change
// (getReplicaSetFraction), capped by what is left to distribute,
// toAdd − added. It is 0 for an empty rs or when nothing is left.
//
// Example: scaling 7 → 10 with sizes 3, 2, 2 (toAdd 3): the RS of 3 gets
// round(3·10/7) − 3 = 1, the next round(2·10/7) − 2 = 1, the last min(1, 3−2) = 1.
func GetProportion(rs *api.ReplicaSet, d *api.Deployment, toAdd, added int32) int32 {
	if rs == nil || rsReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := getReplicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// getReplicaSetFraction estimates rs's share of a scaling event:
// round(rs.spec × (replicas + maxSurge) / maxReplicas) − rs.spec, where
// maxReplicas is the max-replicas annotation rs got at its last scaling
// (the old replicas + surge), rounded half away from zero. A missing or "0"
// annotation falls back to status.replicas, and if that is 0 too the
// fraction is 0. Scaling to 0 replicas removes the whole rs.
//
// Example: 10 → 120 replicas, no surge, rs of 50 annotated 100: round(60) − 50 = 10.
func getReplicaSetFraction(rs *api.ReplicaSet, d *api.Deployment) int32 {
	if replicas(d) == 0 {
		return -rsReplicas(rs)
	}
	deploymentReplicas := int64(replicas(d)) + int64(MaxSurge(d))
	annotated, ok := intAnnotation(rs, api.MaxReplicasAnnotation)
	if !ok || annotated == 0 {
		annotated = d.Status.Replicas
	}
	if annotated <= 0 {
		return 0
	}
	num := int64(rsReplicas(rs)) * deploymentReplicas
	return clamp32(roundDiv(num, int64(annotated))) - rsReplicas(rs)
}

// roundDiv returns num/den rounded half away from zero, as
// integer.RoundToInt32 does for the float quotient; den must be > 0.
func roundDiv(num, den int64) int64 {
	if num < 0 {
		return -((-2*num + den) / (2 * den))
	}
	return (2*num + den) / (2 * den)
}

// DeploymentComplete reports whether newStatus shows a finished rollout: all
// spec.replicas updated, no other replicas, all available, and the current
// generation observed.
func DeploymentComplete(d *api.Deployment, newStatus *api.DeploymentStatus) bool {
	n := replicas(d)
	return newStatus.UpdatedReplicas == n && newStatus.Replicas == n && newStatus.AvailableReplicas == n &&
		newStatus.ObservedGeneration >= d.Generation
}

// DeploymentProgressing reports whether newStatus shows progress against the
// stored status: more updated pods, fewer old pods (replicas − updated), more
// ready pods or more available pods.
//
// Example: (replicas 10, updated 4, ready 6, available 6) → (8, 4, 6, 6) is
// progress (two old pods went); (10, 7, 3, 3) → (10, 6, 3, 3) is not.
func DeploymentProgressing(d *api.Deployment, newStatus *api.DeploymentStatus) bool {
	old := &d.Status
	oldOld := old.Replicas - old.UpdatedReplicas
	newOld := newStatus.Replicas - newStatus.UpdatedReplicas
	return newStatus.UpdatedReplicas > old.UpdatedReplicas || newOld < oldOld ||
		newStatus.ReadyReplicas > old.ReadyReplicas || newStatus.AvailableReplicas > old.AvailableReplicas
}

// HasProgressDeadline reports whether d can time out: progressDeadlineSeconds
// is set and is not math.MaxInt32.
func HasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != api.NoProgressDeadline
}

// HasRevisionHistoryLimit reports whether old ReplicaSets are cleaned up:
// revisionHistoryLimit is set and is not math.MaxInt32.
func HasRevisionHistoryLimit(d *api.Deployment) bool {
	return d.Spec.RevisionHistoryLimit != nil && *d.Spec.RevisionHistoryLimit != math.MaxInt32
}

// DeploymentTimedOut reports whether the Progressing condition in newStatus
// is older than progressDeadlineSeconds at now: its lastUpdateTime +
// deadline is strictly before now, or it already says
// ProgressDeadlineExceeded. A completed rollout (NewReplicaSetAvailable)
// never times out, nor does a Deployment without a deadline or condition.
//
// Example: deadline 10s, lastUpdateTime 00:01:09, now 00:01:20 → timed out
// (11 s); lastUpdateTime 00:01:11 → not (9 s).
func DeploymentTimedOut(d *api.Deployment, newStatus *api.DeploymentStatus, now time.Time) bool {
	if !HasProgressDeadline(d) {
		return false
	}
	c := GetDeploymentCondition(newStatus, api.DeploymentProgressing)
	if c == nil || c.Reason == NewRSAvailableReason {
		return false
	}
	if c.Reason == TimedOutReason {
		return true
	}
	return deadlineAt(d, c).Before(now)
}

// deadlineAt returns when the Progressing condition c times out.
func deadlineAt(d *api.Deployment, c *api.DeploymentCondition) time.Time {
	return c.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second)
}

// TerminatingReplicas is GetTerminatingReplicaCountForReplicaSets: the sum
// of the ReplicaSets' status.terminatingReplicas (the
// DeploymentReplicaSetTerminatingReplicas gate, on by default since 1.35).
// A ReplicaSet never synced by its controller (observedGeneration 0 and no
// count) does not contribute; when a synced one reports no count, the sum is
// unknown and the result is nil.
func TerminatingReplicas(rss []*api.ReplicaSet) *int32 {
	var n int32
	for _, rs := range rss {
		switch {
		case rs == nil:
		case rs.Status.ObservedGeneration == 0 && rs.Status.TerminatingReplicas == nil:
		case rs.Status.TerminatingReplicas == nil:
			return nil
		default:
			n += *rs.Status.TerminatingReplicas
		}
	}
	return &n
}
