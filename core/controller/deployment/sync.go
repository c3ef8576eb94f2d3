package deployment

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	"converge/core/api"
	"converge/core/store"
)

// syncStatusOnly updates the status of a Deployment that is being deleted,
// and changes nothing else.
func (s *syncer) syncStatusOnly(rsList []*api.ReplicaSet) error {
	s.strategyPath = "status"
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if err != nil {
		return err
	}
	return s.syncDeploymentStatus(append(oldRSs, newRS), newRS)
}

// sync reconciles a Deployment on a scaling event or while it is paused:
// proportional scaling, then (only when paused and no legacy rollback is
// pending) revisionHistoryLimit cleanup, then status. It never creates a
// ReplicaSet.
func (s *syncer) sync(rsList []*api.ReplicaSet) error {
	s.strategyPath = "sync"
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if err != nil {
		return err
	}
	if err := s.scale(newRS, oldRSs); err != nil {
		return err
	}
	if s.d.Spec.Paused && !hasRollbackTo(s.d) {
		if err := s.cleanupDeployment(oldRSs); err != nil {
			return err
		}
	}
	return s.syncDeploymentStatus(append(oldRSs, newRS), newRS)
}

// checkPausedConditions sets Progressing to Unknown/DeploymentPaused when the
// Deployment is paused, and to Unknown/DeploymentResumed when it was resumed,
// so that time spent paused never counts against progressDeadlineSeconds. It
// needs a deadline, and never overwrites ProgressDeadlineExceeded.
func (s *syncer) checkPausedConditions() error {
	d := s.d
	if !HasProgressDeadline(d) {
		return nil
	}
	cond := GetDeploymentCondition(&d.Status, api.DeploymentProgressing)
	if cond != nil && cond.Reason == TimedOutReason {
		return nil
	}
	pausedCondExists := cond != nil && cond.Reason == PausedDeployReason
	switch {
	case d.Spec.Paused && !pausedCondExists:
		SetDeploymentCondition(&d.Status, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionUnknown, PausedDeployReason, pausedMessage, s.now))
	case !d.Spec.Paused && pausedCondExists:
		SetDeploymentCondition(&d.Status, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionUnknown, ResumedDeployReason, resumedMessage, s.now))
	default:
		return nil
	}
	return s.writeDeployment()
}

// isScalingEvent reports whether spec.replicas changed since the active
// ReplicaSets were last sized: any active ReplicaSet whose desired-replicas
// annotation is present and differs from spec.replicas.
func (s *syncer) isScalingEvent(rsList []*api.ReplicaSet) bool {
	newRS, oldRSs := FindNewReplicaSet(s.d, rsList), []*api.ReplicaSet(nil)
	for _, rs := range rsList {
		if newRS == nil || rs.UID != newRS.UID {
			oldRSs = append(oldRSs, rs)
		}
	}
	for _, rs := range append(oldRSs, newRS) {
		if rs == nil || rsReplicas(rs) == 0 {
			continue
		}
		if desired, ok := intAnnotation(rs, api.DesiredReplicasAnnotation); ok && desired != replicas(s.d) {
			return true
		}
	}
	return false
}

// scale scales the Deployment's ReplicaSets to spec.replicas without
// hastening the rollout:
//   - with at most one active ReplicaSet, that one (or the newest) gets
//     spec.replicas;
//   - with a saturated new ReplicaSet, the old ones go to 0;
//   - otherwise (RollingUpdate only) the change is spread over the active
//     ReplicaSets in proportion to their size (GetProportion), largest first
//     (ties: newer first when growing, older first when shrinking), and any
//     leftover goes to the first one.
//
// Worked example (TestScale "7 -> 10"): sizes v3=2, v2=3, v1=2 annotated
// max-replicas 7; allowed 10, toAdd 3. Order v2(3), v3(2, newer), v1(2):
// v2 round(30/7)=4 → +1, v3 round(20/7)=3 → +1, v1 capped at the 1 left → +1.
// Result v3=3, v2=4, v1=3.
func (s *syncer) scale(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) error {
	d := s.d
	if rs := FindActiveOrLatest(newRS, oldRSs); rs != nil {
		if rsReplicas(rs) == replicas(d) {
			return nil
		}
		_, _, err := s.scaleReplicaSetAndRecordEvent(rs, replicas(d))
		return err
	}
	if IsSaturated(d, newRS) {
		for _, old := range sortedNewestFirst(oldRSs) {
			if rsReplicas(old) == 0 {
				continue
			}
			if _, _, err := s.scaleReplicaSetAndRecordEvent(old, 0); err != nil {
				return err
			}
		}
		return nil
	}
	if !IsRollingUpdate(d) {
		return nil
	}
	var active []*api.ReplicaSet
	for _, rs := range append(sortedNewestFirst(oldRSs), newRS) {
		if rs != nil && rsReplicas(rs) > 0 {
			active = append(active, rs)
		}
	}
	var allowed int32
	if replicas(d) > 0 {
		allowed = replicas(d) + MaxSurge(d)
	}
	toAdd := allowed - int32(sumSpec(active))
	switch {
	case toAdd > 0:
		slices.SortFunc(active, bySizeNewer)
	case toAdd < 0:
		slices.SortFunc(active, bySizeOlder)
	}
	sizes := make([]int32, len(active))
	var added int32
	for i, rs := range active {
		p := GetProportion(rs, d, toAdd, added)
		sizes[i] = rsReplicas(rs) + p
		added += p
	}
	for i, rs := range active {
		if i == 0 && toAdd != 0 {
			sizes[0] = max(sizes[0]+toAdd-added, 0)
		}
		if _, _, err := s.scaleReplicaSet(rs, sizes[i]); err != nil {
			return err
		}
	}
	return nil
}

// bySizeNewer orders larger ReplicaSets first, newer first among equals
// (controller.ReplicaSetsBySizeNewer).
func bySizeNewer(a, b *api.ReplicaSet) int {
	if rsReplicas(a) == rsReplicas(b) {
		return byCreation(b, a)
	}
	return int(rsReplicas(b)) - int(rsReplicas(a))
}

// bySizeOlder orders larger ReplicaSets first, older first among equals
// (controller.ReplicaSetsBySizeOlder).
func bySizeOlder(a, b *api.ReplicaSet) int {
	if rsReplicas(a) == rsReplicas(b) {
		return byCreation(a, b)
	}
	return int(rsReplicas(b)) - int(rsReplicas(a))
}

// scaleReplicaSetAndRecordEvent scales rs to newScale when its size differs.
func (s *syncer) scaleReplicaSetAndRecordEvent(rs *api.ReplicaSet, newScale int32) (bool, *api.ReplicaSet, error) {
	if rsReplicas(rs) == newScale {
		return false, rs, nil
	}
	return s.scaleReplicaSet(rs, newScale)
}

// scaleReplicaSet writes rs with size newScale and the desired-replicas and
// max-replicas annotations of the Deployment's current size, when either
// differs. A size change sends "Scaled up replica set X from A to B" or
// "Scaled down ..." by that ReplicaSet's own change (the text since
// Kubernetes 1.32; in proportional scaling an RS can shrink while the
// Deployment grows) and reports true.
func (s *syncer) scaleReplicaSet(rs *api.ReplicaSet, newScale int32) (bool, *api.ReplicaSet, error) {
	d := s.d
	desired, maxReplicas := replicas(d), replicas(d)+MaxSurge(d)
	sizeNeedsUpdate := rsReplicas(rs) != newScale
	if !sizeNeedsUpdate && !ReplicasAnnotationsNeedUpdate(rs, desired, maxReplicas) {
		return false, rs, nil
	}
	oldScale := rsReplicas(rs)
	op := "down"
	if oldScale < newScale {
		op = "up"
	}
	cp := rs.DeepCopy()
	cp.Spec.Replicas = api.Int32(newScale)
	SetReplicasAnnotations(cp, desired, maxReplicas)
	out, err := s.store.Update(cp)
	if err != nil {
		return false, nil, err
	}
	if !sizeNeedsUpdate {
		s.act(fmt.Sprintf("set desired-replicas %d and max-replicas %d on replica set %s", desired, maxReplicas, rs.Name))
		return false, out.(*api.ReplicaSet), nil
	}
	s.event(EventNormal, ScalingReplicaSetReason, fmt.Sprintf("Scaled %s replica set %s from %d to %d", op, rs.Name, oldScale, newScale))
	s.act(fmt.Sprintf("scale %s replica set %s from %d to %d", op, rs.Name, oldScale, newScale))
	return true, out.(*api.ReplicaSet), nil
}

// cleanupDeployment deletes old ReplicaSets beyond revisionHistoryLimit:
// among the old ReplicaSets not being deleted, sorted by revision (then
// creation), it walks the first count − limit and deletes each one that is
// fully scaled down (spec and status replicas 0) and whose generation the
// ReplicaSet controller has observed. Ineligible ones are skipped, not
// replaced by later ones.
//
// Example (cleanupDeploymentOrder): revisions foo-1 "3", foo-2 "1", foo-3
// "4", foo-4 "2", all at 0, limit 2: the two lowest revisions go, foo-2 and foo-4.
func (s *syncer) cleanupDeployment(oldRSs []*api.ReplicaSet) error {
	d := s.d
	if !HasRevisionHistoryLimit(d) {
		return nil
	}
	var cleanable []*api.ReplicaSet
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := len(cleanable) - int(*d.Spec.RevisionHistoryLimit)
	if diff <= 0 {
		return nil
	}
	slices.SortStableFunc(cleanable, byRevision)
	for _, rs := range cleanable[:diff] {
		if rs.Status.Replicas != 0 || rsReplicas(rs) != 0 || rs.Generation > rs.Status.ObservedGeneration || rs.DeletionTimestamp != nil {
			continue
		}
		if err := s.store.Delete(api.KindReplicaSet, rs.Namespace, rs.Name, store.DeleteOptions{}); err != nil && !errorsIsNotFound(err) {
			return err
		}
		s.act(fmt.Sprintf("delete old replica set %s (revisionHistoryLimit %d)", rs.Name, *d.Spec.RevisionHistoryLimit))
	}
	return nil
}

// byRevision orders ReplicaSets by revision, falling back to creation order
// on ties or unparsable revisions (ReplicaSetsByRevision).
func byRevision(a, b *api.ReplicaSet) int {
	ra, errA := Revision(a)
	rb, errB := Revision(b)
	if errA != nil || errB != nil || ra == rb {
		return byCreation(a, b)
	}
	if ra < rb {
		return -1
	}
	return 1
}

// syncDeploymentStatus writes the status calculated from the ReplicaSets
// when it differs from the stored one.
func (s *syncer) syncDeploymentStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) error {
	st := calculateStatus(allRSs, newRS, s.d, s.now)
	return s.writeStatus(st, allRSs, newRS)
}

func (s *syncer) writeStatus(st api.DeploymentStatus, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) error {
	s.status, s.allRSs, s.newRS = &st, allRSs, newRS
	s.d.Status = st
	return s.writeDeployment()
}

// calculateStatus computes a Deployment's status from its ReplicaSets:
// replicas, ready and available are sums of ReplicaSet status (so
// terminating pods are not counted), updatedReplicas is the new
// ReplicaSet's status.replicas, unavailableReplicas is Σ spec − available
// (at least 0), and the Available condition says whether at least
// replicas − maxUnavailable pods are available.
func calculateStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, now time.Time) api.DeploymentStatus {
	t := totals(allRSs)
	st := api.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            t.replicas,
		ReadyReplicas:       t.ready,
		AvailableReplicas:   t.available,
		UnavailableReplicas: max(t.spec-t.available, 0),
		CollisionCount:      copyInt32(d.Status.CollisionCount),
		TerminatingReplicas: TerminatingReplicas(allRSs),
	}
	if newRS != nil {
		st.UpdatedReplicas = newRS.Status.Replicas
	}
	if d.Status.Conditions != nil {
		st.Conditions = slices.Clone(d.Status.Conditions)
	}
	if t.available >= replicas(d)-MaxUnavailable(d) {
		SetDeploymentCondition(&st, NewDeploymentCondition(api.DeploymentAvailable, api.ConditionTrue, MinimumReplicasAvailable, minAvailableMessage, now))
	} else {
		SetDeploymentCondition(&st, NewDeploymentCondition(api.DeploymentAvailable, api.ConditionFalse, MinimumReplicasUnavailable, minUnavailableMessage, now))
	}
	return st
}

func copyInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func statusEqual(a, b *api.DeploymentStatus) bool { return reflect.DeepEqual(a, b) }
