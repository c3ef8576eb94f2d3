package deployment

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/humanize"
	"converge/core/store"
)

// This file holds revisions: the revision annotations, finding or creating
// the new ReplicaSet with the next revision number, and copying the
// Deployment's annotations to it (sync.go getNewReplicaSet and
// deployment_util.go in Kubernetes).

// Revision returns the revision annotation of rs: 0 when it is missing, an
// error when it is not a number.
func Revision(rs *api.ReplicaSet) (int64, error) {
	v, ok := rs.Annotations[api.RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// MaxRevision returns the highest revision among rss, skipping nil and unparsable ones.
func MaxRevision(rss []*api.ReplicaSet) int64 {
	var m int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		if v, err := Revision(rs); err == nil && v > m {
			m = v
		}
	}
	return m
}

// LastRevision returns the second-highest revision among rss (the "last"
// revision a legacy rollback to revision 0 goes back to), or 0.
//
// Example: revisions 1, 3, 2 give 2.
func LastRevision(rss []*api.ReplicaSet) int64 {
	var m, second int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		v, err := Revision(rs)
		if err != nil {
			continue
		}
		if v >= m {
			second, m = m, v
		} else if v > second {
			second = v
		}
	}
	return second
}

// annotationsToSkip are the Deployment annotations never copied to its
// ReplicaSets (and kept on the Deployment in a rollback).
var annotationsToSkip = map[string]bool{
	api.LastAppliedAnnotation:     true,
	api.RevisionAnnotation:        true,
	api.RevisionHistoryAnnotation: true,
	api.DesiredReplicasAnnotation: true,
	api.MaxReplicasAnnotation:     true,
	api.RollbackToAnnotation:      true,
}

// copyDeploymentAnnotationsToReplicaSet adds the Deployment's copyable
// annotations to rs and reports whether anything changed. Annotations rs has
// that the Deployment lacks are kept.
func copyDeploymentAnnotationsToReplicaSet(d *api.Deployment, rs *api.ReplicaSet) bool {
	changed := false
	for k, v := range d.Annotations {
		if annotationsToSkip[k] {
			continue
		}
		if cur, ok := rs.Annotations[k]; ok && cur == v {
			continue
		}
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// setDeploymentAnnotationsTo replaces the Deployment's copyable annotations
// by those of the ReplicaSet it rolls back to, so that change-cause comes
// back with the template.
func setDeploymentAnnotationsTo(d *api.Deployment, rollbackTo *api.ReplicaSet) {
	kept := map[string]string{}
	for k, v := range d.Annotations {
		if annotationsToSkip[k] {
			kept[k] = v
		}
	}
	for k, v := range rollbackTo.Annotations {
		if !annotationsToSkip[k] {
			kept[k] = v
		}
	}
	d.Annotations = kept
}

// SetNewReplicaSetAnnotations brings the new ReplicaSet's annotations up to
// date and reports whether they changed: the Deployment's copyable
// annotations are copied, the revision is raised to newRevision when it is
// lower (a reused ReplicaSet keeps its earlier number in revision-history,
// capped at 2000 characters with the oldest entries dropped), and a
// ReplicaSet about to be created (exists false) gets desired-replicas and
// max-replicas.
//
// Example: an RS at revision 1 that becomes the new RS again when the highest
// old revision is 2 gets revision 3 and revision-history "1".
func SetNewReplicaSetAnnotations(d *api.Deployment, rs *api.ReplicaSet, newRevision string, exists bool, historyLimit int) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, rs)
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	oldRevision, had := rs.Annotations[api.RevisionAnnotation]
	oldInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return false
		}
		oldInt = 0
	}
	newInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldInt < newInt {
		rs.Annotations[api.RevisionAnnotation] = newRevision
		changed = true
		if had {
			appendRevisionHistory(rs, oldRevision, historyLimit)
		}
	}
	if !exists && SetReplicasAnnotations(rs, replicas(d), replicas(d)+MaxSurge(d)) {
		changed = true
	}
	return changed
}

// appendRevisionHistory appends rev to the revision-history annotation,
// dropping the oldest entries while the result would exceed limit characters.
//
// Example: history "12" with limit 5 and rev "13" gives "12,13"; appending
// "14" then gives "13,14".
func appendRevisionHistory(rs *api.ReplicaSet, rev string, limit int) {
	history := rs.Annotations[api.RevisionHistoryAnnotation]
	if history == "" {
		rs.Annotations[api.RevisionHistoryAnnotation] = rev
		return
	}
	old := strings.Split(history, ",")
	total := len(history) + len(rev) + 1
	start := 0
	for total > limit && start < len(old) {
		total -= len(old[start]) + 1
		start++
	}
	if total <= limit {
		rs.Annotations[api.RevisionHistoryAnnotation] = strings.Join(append(old[start:], rev), ",")
	}
}

// SetReplicasAnnotations sets desired-replicas and max-replicas on rs and
// reports whether they changed.
func SetReplicasAnnotations(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	if !ReplicasAnnotationsNeedUpdate(rs, desired, maxReplicas) {
		return false
	}
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	rs.Annotations[api.DesiredReplicasAnnotation] = strconv.Itoa(int(desired))
	rs.Annotations[api.MaxReplicasAnnotation] = strconv.Itoa(int(maxReplicas))
	return true
}

// ReplicasAnnotationsNeedUpdate reports whether rs's desired-replicas or
// max-replicas annotation differs from the given values.
func ReplicasAnnotationsNeedUpdate(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	return rs.Annotations[api.DesiredReplicasAnnotation] != strconv.Itoa(int(desired)) ||
		rs.Annotations[api.MaxReplicasAnnotation] != strconv.Itoa(int(maxReplicas))
}

// intAnnotation reads an int32 annotation; false when missing or not a number.
func intAnnotation(rs *api.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}

// setDeploymentRevision sets the Deployment's revision annotation and
// reports whether it changed.
func setDeploymentRevision(d *api.Deployment, revision string) bool {
	if d.Annotations[api.RevisionAnnotation] == revision {
		return false
	}
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[api.RevisionAnnotation] = revision
	return true
}

// getAllReplicaSetsAndSyncRevision returns the new ReplicaSet (creating it
// when createIfNotExisted is set) and all old ones, with the new one's and
// the Deployment's revision brought up to date:
//  1. the old ReplicaSets give the highest old revision, maxOld;
//  2. the new ReplicaSet (same template) gets revision maxOld+1 if it has less;
//  3. the Deployment's revision annotation is copied from the new ReplicaSet.
func (s *syncer) getAllReplicaSetsAndSyncRevision(rsList []*api.ReplicaSet, createIfNotExisted bool) (*api.ReplicaSet, []*api.ReplicaSet, error) {
	_, allOld := FindOldReplicaSets(s.d, rsList)
	newRS, err := s.getNewReplicaSet(rsList, allOld, createIfNotExisted)
	return newRS, allOld, err
}

// getNewReplicaSet returns the ReplicaSet that matches the Deployment's
// template, or nil when there is none and createIfNotExisted is false. An
// existing one has its annotations and minReadySeconds synced first (and the
// Deployment's revision is then synced on the next pass, as in Kubernetes)
// and is returned as our copy, with the annotations
// SetNewReplicaSetAnnotations gave it even when they were not written (an
// unparsable revision annotation stops it early): a later scale in the
// pass writes them, as in Kubernetes. A missing one is created as <name>-<hash> with the size NewRSNewReplicas
// gives. A name taken by a ReplicaSet that is not ours with this template is
// a hash collision: status.collisionCount goes up and the next pass tries a
// new hash.
func (s *syncer) getNewReplicaSet(rsList, oldRSs []*api.ReplicaSet, createIfNotExisted bool) (*api.ReplicaSet, error) {
	d := s.d
	existing := FindNewReplicaSet(d, rsList)
	newRevision := strconv.FormatInt(MaxRevision(oldRSs)+1, 10)
	if existing != nil {
		return s.syncExistingNewRS(existing, newRevision)
	}
	if !createIfNotExisted {
		return nil, nil
	}
	rs := s.newReplicaSet()
	n, err := NewRSNewReplicas(d, append(oldRSs[:len(oldRSs):len(oldRSs)], rs), rs)
	if err != nil {
		return nil, err
	}
	rs.Spec.Replicas = api.Int32(n)
	SetNewReplicaSetAnnotations(d, rs, newRevision, false, maxRevHistoryLengthInChars)
	created, alreadyExisted, err := s.createReplicaSet(rs)
	if err != nil {
		return nil, err
	}
	if !alreadyExisted && n > 0 {
		s.event(EventNormal, ScalingReplicaSetReason, fmt.Sprintf("Scaled up replica set %s from 0 to %d", created.Name, n))
	}
	if !alreadyExisted {
		s.act(fmt.Sprintf("create replica set %s with %s", created.Name, humanize.Count(n, "replica")))
	}
	needsUpdate := setDeploymentRevision(s.d, newRevision)
	if !alreadyExisted && HasProgressDeadline(s.d) {
		msg := fmt.Sprintf("Created new replica set %q", created.Name)
		SetDeploymentCondition(&s.d.Status, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewReplicaSetReason, msg, s.now))
		needsUpdate = true
	}
	if needsUpdate {
		err = s.writeDeployment()
	}
	return created, err
}

func (s *syncer) syncExistingNewRS(existing *api.ReplicaSet, newRevision string) (*api.ReplicaSet, error) {
	d := s.d
	cp := existing.DeepCopy()
	oldRevision := cp.Annotations[api.RevisionAnnotation]
	annotationsUpdated := SetNewReplicaSetAnnotations(d, cp, newRevision, true, maxRevHistoryLengthInChars)
	minReadyNeedsUpdate := cp.Spec.MinReadySeconds != d.Spec.MinReadySeconds
	if annotationsUpdated || minReadyNeedsUpdate {
		cp.Spec.MinReadySeconds = d.Spec.MinReadySeconds
		out, err := s.store.Update(cp)
		if err != nil {
			return nil, err
		}
		switch rev := cp.Annotations[api.RevisionAnnotation]; {
		case rev != oldRevision:
			s.act(fmt.Sprintf("set revision %s on replica set %s", rev, cp.Name))
		case annotationsUpdated:
			s.act("copy deployment annotations to replica set " + cp.Name)
		default:
			s.act(fmt.Sprintf("set minReadySeconds %d on replica set %s", cp.Spec.MinReadySeconds, cp.Name))
		}
		return out.(*api.ReplicaSet), nil
	}
	needsUpdate := setDeploymentRevision(d, cp.Annotations[api.RevisionAnnotation])
	if HasProgressDeadline(d) && GetDeploymentCondition(&d.Status, api.DeploymentProgressing) == nil {
		msg := fmt.Sprintf("Found new replica set %q", cp.Name)
		SetDeploymentCondition(&d.Status, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, FoundNewRSReason, msg, s.now))
		needsUpdate = true
	}
	if needsUpdate {
		if err := s.writeDeployment(); err != nil {
			return nil, err
		}
	}
	return cp, nil
}

// newReplicaSet builds the new ReplicaSet for the Deployment's template:
// name <deployment>-<hash>, the pod-template-hash label on its labels,
// selector and template, a controller reference to the Deployment and the
// Deployment's minReadySeconds.
func (s *syncer) newReplicaSet() *api.ReplicaSet {
	d := s.d
	tmpl := d.Spec.Template.DeepCopy()
	hash := ComputeHash(&tmpl, d.Status.CollisionCount)
	tmpl.Labels = withLabel(d.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey, hash)
	sel := d.Spec.Selector.DeepCopy()
	if sel == nil {
		sel = &api.LabelSelector{}
	}
	sel.MatchLabels = withLabel(sel.MatchLabels, api.DefaultDeploymentUniqueLabelKey, hash)
	return &api.ReplicaSet{
		TypeMeta: api.TypeMeta{APIVersion: api.GroupVersionApps, Kind: api.KindReplicaSet},
		ObjectMeta: api.ObjectMeta{
			Name: d.Name + "-" + hash, Namespace: d.Namespace,
			Labels:          api.CopyStringMap(tmpl.Labels),
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(d)},
		},
		Spec: api.ReplicaSetSpec{Replicas: api.Int32(0), MinReadySeconds: d.Spec.MinReadySeconds, Selector: sel, Template: tmpl},
	}
}

// createReplicaSet creates rs. When the name is taken by our own ReplicaSet
// with the same template it is used (alreadyExisted). When it is taken by
// anything else, collisionCount is bumped and the error returned. Any other
// failure sets Progressing to ReplicaSetCreateError (with a deadline) and
// sends a Warning event.
func (s *syncer) createReplicaSet(rs *api.ReplicaSet) (*api.ReplicaSet, bool, error) {
	name := rs.Name
	out, err := s.store.Create(rs)
	switch {
	case err == nil:
		return out.(*api.ReplicaSet), false, nil
	case errors.Is(err, store.ErrAlreadyExists):
		cur, getErr := s.store.GetReplicaSet(s.d.Namespace, name)
		if getErr != nil {
			return nil, false, getErr
		}
		if api.IsControlledBy(&cur.ObjectMeta, s.d.UID) && EqualIgnoreHash(&s.d.Spec.Template, &cur.Spec.Template) {
			return cur, true, nil
		}
		cc := api.Deref(s.d.Status.CollisionCount, 0) + 1
		s.d.Status.CollisionCount = api.Int32(cc)
		if werr := s.writeDeployment(); werr == nil {
			s.act(fmt.Sprintf("bump collisionCount to %d (hash collision on replica set %s)", cc, name))
		}
		return nil, false, err
	default:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", name, err)
		if HasProgressDeadline(s.d) {
			SetDeploymentCondition(&s.d.Status, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, FailedRSCreateReason, msg, s.now))
			_ = s.writeDeployment() // the create error is the one to report
		}
		s.event(EventWarning, FailedRSCreateReason, msg)
		return nil, false, err
	}
}
