package deployment

import (
	"errors"
	"fmt"

	"converge/core/api"
)

// rolloutRolling runs one pass of a rolling update:
//  1. find or create the new ReplicaSet (a created one already has the size
//     NewRSNewReplicas gives) and sync revisions;
//  2. scale up, if we can: if the new ReplicaSet changed, sync status and stop;
//  3. scale down, if we can: if an old ReplicaSet changed, sync status and stop;
//  4. if nothing was scaled and the stored status says the rollout is
//     complete, clean up old ReplicaSets beyond revisionHistoryLimit;
//  5. sync status.
//
// Scale-up and scale-down thus never happen in the same pass, except in the
// pass that creates the new ReplicaSet: it is created at its size, so step 2
// finds nothing to do and step 3 may scale down at once.
func (s *syncer) rolloutRolling(rsList []*api.ReplicaSet) error {
	s.strategyPath = "rolling"
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, true)
	if err != nil {
		return err
	}
	if newRS == nil {
		return errNoNewRS
	}
	allRSs := append(oldRSs, newRS)

	scaledUp, err := s.reconcileNewReplicaSet(allRSs, newRS)
	if err != nil {
		return err
	}
	if scaledUp {
		return s.syncStatusAfterScaling(allRSs, newRS)
	}

	scaledDown, err := s.reconcileOldReplicaSets(allRSs, activeReplicaSets(oldRSs), newRS)
	if err != nil {
		return err
	}
	if scaledDown {
		return s.syncStatusAfterScaling(allRSs, newRS)
	}

	if DeploymentComplete(s.d, &s.d.Status) {
		if err := s.cleanupDeployment(oldRSs); err != nil {
			return err
		}
	}
	return s.syncRolloutStatus(allRSs, newRS)
}

// activeReplicaSets returns the ReplicaSets with spec.replicas > 0.
func activeReplicaSets(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs != nil && rsReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// syncStatusAfterScaling writes the status of a pass that scaled, as
// Kubernetes does: calculated from the ReplicaSets as the pass read them,
// before its scale writes (the controller keeps working on its copies).
// Only unavailableReplicas (Σ spec − available) sees the difference: it
// counts the sizes from before the scale until the next pass. The sync
// record describes the ReplicaSets as they are now.
//
// Example: 3 replicas at 25%/25%, old RS at 3 with 3 available: the pass
// that scales the new RS from 0 to 1 writes unavailableReplicas 0, not 1.
func (s *syncer) syncStatusAfterScaling(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) error {
	err := s.syncRolloutStatus(allRSs, newRS)
	s.allRSs, s.newRS = s.refresh(allRSs), s.refreshOne(newRS)
	return err
}

// refresh returns rss with each ReplicaSet re-read from the store, for the
// sync record.
func (s *syncer) refresh(rss []*api.ReplicaSet) []*api.ReplicaSet {
	out := make([]*api.ReplicaSet, len(rss))
	for i, rs := range rss {
		out[i] = s.refreshOne(rs)
	}
	return out
}

func (s *syncer) refreshOne(rs *api.ReplicaSet) *api.ReplicaSet {
	if rs == nil {
		return nil
	}
	if cur, err := s.store.GetReplicaSet(rs.Namespace, rs.Name); err == nil && cur.UID == rs.UID {
		return cur
	}
	return rs
}

// reconcileNewReplicaSet sizes the new ReplicaSet: down to spec.replicas at
// once when it is larger, otherwise up to NewRSNewReplicas (the surge cap).
//
// Example (reconcileNewReplicaSet table): 10 replicas, maxSurge 2, old RS at
// 5, new at 0 → new scaled to 7; old at 2, new at 11 → new scaled down to 10.
func (s *syncer) reconcileNewReplicaSet(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (bool, error) {
	d := s.d
	if rsReplicas(newRS) == replicas(d) {
		return false, nil
	}
	if rsReplicas(newRS) > replicas(d) {
		scaled, _, err := s.scaleReplicaSetAndRecordEvent(newRS, replicas(d))
		return scaled, err
	}
	n, err := NewRSNewReplicas(d, allRSs, newRS)
	if err != nil {
		return false, err
	}
	scaled, _, err := s.scaleReplicaSetAndRecordEvent(newRS, n)
	return scaled, err
}

// reconcileOldReplicaSets scales old ReplicaSets down as far as availability
// allows. With allPods = Σ spec over all ReplicaSets and minAvailable =
// replicas − maxUnavailable,
//
//	maxScaledDown = allPods − minAvailable − newRSUnavailable
//
// where newRSUnavailable = new RS spec − its available pods, so that new
// pods that are not yet available never let more old pods go. Unhealthy old
// replicas are cleaned up first (they add no unavailability), then old
// ReplicaSets are scaled down while available > minAvailable.
//
// Concrete example: 10 replicas, maxUnavailable 2, maxSurge 3.
//
// Case 1: the new RS is created with 3 replicas, the old RS goes to 8, the new
// RS to 5, and the new pods crash-loop. allPods 13, minAvailable 8,
// newRSUnavailable 5, so 13 − 8 − 5 = 0: even when a node fails and an old
// pod becomes unavailable, the old RS is not scaled down. After a rollback
// to the good RS, newRSUnavailable is 1, so maxScaledDown = 13 − 8 − 1 = 4: 4
// crash-looping pods are scaled down and the (old, now new) RS can grow to 10.
//
// Case 2: same, but pushing yet another template ("roll over"): the newest RS
// starts at 0 (allPods is already 13), its newRSUnavailable is 0, so the two
// older RSs can be scaled down by 13 − 8 − 0 = 5, which then lets the newest
// RS grow by 5.
func (s *syncer) reconcileOldReplicaSets(allRSs, oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (bool, error) {
	d := s.d
	if sumSpec(oldRSs) == 0 {
		return false, nil
	}
	allPods := sumSpec(allRSs)
	minAvailable := int64(replicas(d) - MaxUnavailable(d))
	newRSUnavailable := int64(rsReplicas(newRS) - newRS.Status.AvailableReplicas)
	maxScaledDown := allPods - minAvailable - newRSUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	// Errors of the two scale-downs end this pass's scaling without failing
	// the sync (rolling.go returns false, nil): the status sync follows and
	// the next pass tries again.
	oldRSs, cleaned, err := s.cleanupUnhealthyReplicas(oldRSs, int32(min(maxScaledDown, 1<<31-1)))
	if err != nil {
		s.waiting = "no scale-down in this pass: " + err.Error()
		return false, nil
	}
	scaledDown, err := s.scaleDownOldReplicaSetsForRollingUpdate(append(oldRSs, newRS), oldRSs)
	if err != nil {
		s.waiting = "no scale-down in this pass: " + err.Error()
		return false, nil
	}
	return cleaned+scaledDown > 0, nil
}

// cleanupUnhealthyReplicas scales old ReplicaSets down by their unhealthy
// replicas (spec − available, not-yet-created pods included), oldest first,
// until maxCleanupCount is used up. The ReplicaSet controller deletes
// not-ready pods first, so the healthy ones survive.
//
// Example: an old RS of 10 with 8 available and maxCleanupCount 1 goes to 9;
// with 3 it goes to 8 (only 2 are unhealthy).
//
// An old RS whose status is stale, with more available pods than its spec
// (it was just scaled down and its controller has not caught up), would be
// "scaled down" to more replicas: that is an error, and the RSs before it
// keep the sizes this pass gave them. reconcileOldReplicaSets then stops
// scaling down in this pass.
func (s *syncer) cleanupUnhealthyReplicas(oldRSs []*api.ReplicaSet, maxCleanupCount int32) ([]*api.ReplicaSet, int32, error) {
	oldRSs = sortedOldestFirst(oldRSs)
	var total int32
	for i, rs := range oldRSs {
		if total >= maxCleanupCount {
			break
		}
		spec := rsReplicas(rs)
		if spec == 0 || spec == rs.Status.AvailableReplicas {
			continue
		}
		down := min(maxCleanupCount-total, spec-rs.Status.AvailableReplicas)
		if next := spec - down; next > spec {
			return nil, 0, fmt.Errorf("when cleaning up unhealthy replicas, got invalid request to scale down %s/%s %d -> %d",
				rs.Namespace, rs.Name, spec, next)
		}
		_, updated, err := s.scaleReplicaSetAndRecordEvent(rs, spec-down)
		if err != nil {
			return nil, total, err
		}
		total += down
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate removes available − minAvailable
// replicas from old ReplicaSets, oldest creationTimestamp first (so a
// rolled-back-to RS with an old creation time goes first, whatever its
// revision), where available counts every ReplicaSet, the new one included.
//
// Example: 10 replicas, maxUnavailable 2 (maxSurge 0), one old RS of 10 with
// 10 available → scaled to 8; with only 8 available → nothing.
func (s *syncer) scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs []*api.ReplicaSet) (int32, error) {
	d := s.d
	minAvailable := replicas(d) - MaxUnavailable(d)
	available := totals(allRSs).available
	if available <= minAvailable {
		return 0, nil
	}
	var total int32
	want := available - minAvailable
	for _, rs := range sortedOldestFirst(oldRSs) {
		if total >= want {
			break
		}
		if rsReplicas(rs) == 0 {
			continue
		}
		down := min(rsReplicas(rs), want-total)
		if _, _, err := s.scaleReplicaSetAndRecordEvent(rs, rsReplicas(rs)-down); err != nil {
			return total, err
		}
		total += down
	}
	return total, nil
}

// errNoNewRS is returned when a rollout pass has no new ReplicaSet to work with.
var errNoNewRS = errors.New("no new replica set")
