package deployment

import (
	"converge/core/api"
	"converge/core/humanize"
	"converge/core/labels"
)

// rolloutRecreate runs one pass of a Recreate rollout:
//  1. look up the ReplicaSets without creating the new one, so that nothing
//     is scaled up before the old pods are gone;
//  2. scale every active old ReplicaSet to 0; if anything was scaled, sync
//     status and stop;
//  3. while old pods still exist (an old ReplicaSet reports replicas, or a
//     pod of an old ReplicaSet is in any phase but Succeeded or Failed,
//     Terminating pods included), sync status and stop;
//  4. create the new ReplicaSet if needed: it starts at spec.replicas;
//  5. scale the new ReplicaSet to spec.replicas;
//  6. if the stored status says complete, clean up old ReplicaSets; sync status.
func (s *syncer) rolloutRecreate(rsList []*api.ReplicaSet, sel labels.Selector) error {
	s.strategyPath = "recreate"
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if err != nil {
		return err
	}
	allRSs := append(oldRSs, newRS)

	scaledDown, err := s.scaleDownOldReplicaSetsForRecreate(activeReplicaSets(oldRSs))
	if err != nil {
		return err
	}
	if scaledDown {
		return s.syncStatusAfterScaling(allRSs, newRS)
	}

	if n := s.oldPodsRunning(newRS, oldRSs, rsList, sel); n > 0 {
		s.waiting = "waiting for " + humanize.Count(n, "old pod") + " to terminate (Recreate)"
		return s.syncRolloutStatus(allRSs, newRS)
	}

	if newRS == nil {
		newRS, oldRSs, err = s.getAllReplicaSetsAndSyncRevision(rsList, true)
		if err != nil {
			return err
		}
		allRSs = append(oldRSs, newRS)
	}
	if newRS == nil {
		return errNoNewRS
	}

	if _, _, err := s.scaleReplicaSetAndRecordEvent(newRS, replicas(s.d)); err != nil {
		return err
	}

	if DeploymentComplete(s.d, &s.d.Status) {
		if err := s.cleanupDeployment(oldRSs); err != nil {
			return err
		}
	}
	return s.syncStatusAfterScaling(allRSs, newRS)
}

// scaleDownOldReplicaSetsForRecreate scales every given old ReplicaSet to 0.
func (s *syncer) scaleDownOldReplicaSetsForRecreate(oldRSs []*api.ReplicaSet) (bool, error) {
	scaled := false
	for _, rs := range oldRSs {
		if rsReplicas(rs) == 0 {
			continue
		}
		ok, _, err := s.scaleReplicaSetAndRecordEvent(rs, 0)
		if err != nil {
			return false, err
		}
		scaled = scaled || ok
	}
	return scaled, nil
}

// oldPodsRunning returns how many old pods a Recreate rollout still waits
// for: the pods of the Deployment's ReplicaSets other than newRS that are not
// Succeeded or Failed (Terminating ones included), or, when more, the
// replicas the old ReplicaSets report. 0 means the new pods may start.
func (s *syncer) oldPodsRunning(newRS *api.ReplicaSet, oldRSs, rsList []*api.ReplicaSet, sel labels.Selector) int32 {
	reported := totals(oldRSs).replicas
	return max(reported, s.oldPodCount(sel, rsList, newRS))
}
