package kubectl

import (
	"fmt"

	"converge/core/api"
)

// rollbackSkipAnnotations are the Deployment annotations undo keeps from the
// Deployment itself rather than taking them from the target ReplicaSet.
var rollbackSkipAnnotations = []string{api.LastAppliedAnnotation, api.RevisionAnnotation, api.RevisionHistoryAnnotation,
	api.DesiredReplicasAnnotation, api.MaxReplicasAnnotation, api.RollbackToAnnotation}

// runRolloutUndo is `kubectl rollout undo [--to-revision=N]`, kubectl's
// client-side DeploymentRollbacker: find the ReplicaSet of the revision
// (the second newest when N is 0), refuse a paused Deployment, skip when the
// template already matches, else write the ReplicaSet's template (without
// pod-template-hash) and annotations back into the Deployment.
func runRolloutUndo(x *execCtx) error {
	if err := x.requireResources(); err != nil {
		return err
	}
	infos, err := x.rolloutInfos()
	if err != nil {
		return err
	}
	to := x.cmd.integer("to-revision")
	for _, in := range infos {
		d, ok := in.obj.(*api.Deployment)
		if !ok {
			return &plainError{msg: fmt.Sprintf(msgNoRollbacker, in.rt.GroupKind())}
		}
		result, err := x.rollback(d, to)
		if err != nil {
			return err
		}
		x.printName(in.rt, d.Name, result)
	}
	return nil
}

func (x *execCtx) rollback(d *api.Deployment, to int64) (string, error) {
	if to < 0 {
		return "", &plainError{msg: fmt.Sprintf(msgRevisionNotFound, to)}
	}
	rs, err := x.revisionReplicaSet(d, to)
	if err != nil {
		return "", err
	}
	if x.dry == "client" {
		dw := newRawDescriber(x)
		dw.podTemplate(&rs.Spec.Template)
		return dw.String(), nil
	}
	if d.Spec.Paused {
		return "", &plainError{msg: msgRollbackPaused}
	}
	if equalIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
		return fmt.Sprintf(msgRollbackSkipped, to), nil
	}
	next := d.DeepCopy()
	next.Spec.Template = rs.Spec.Template.DeepCopy()
	delete(next.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey)
	annotations := map[string]string{}
	skip := map[string]bool{}
	for _, k := range rollbackSkipAnnotations {
		skip[k] = true
		if v, ok := d.Annotations[k]; ok {
			annotations[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !skip[k] {
			annotations[k] = v
		}
	}
	next.Annotations = annotations
	if _, err := x.st.Update(next); err != nil {
		return "", fmt.Errorf("failed restoring revision %d: %v", to, err)
	}
	return msgRolledBack, nil
}

// revisionReplicaSet is deploymentRevision: the ReplicaSet with revision
// to, or with to == 0 the one with the second-highest revision.
func (x *execCtx) revisionReplicaSet(d *api.Deployment, to int64) (*api.ReplicaSet, error) {
	old, newRS := deploymentReplicaSets(x.st, d)
	all := old
	if newRS != nil {
		all = append(all, newRS)
	}
	var latest, previous *api.ReplicaSet
	latestRev, previousRev := int64(-1), int64(-1)
	for _, rs := range all {
		v, ok := revisionOf(&rs.ObjectMeta)
		if !ok {
			continue
		}
		if to == 0 {
			if latestRev < v {
				previousRev, previous = latestRev, latest
				latestRev, latest = v, rs
			} else if previousRev < v {
				previousRev, previous = v, rs
			}
		} else if v == to {
			return rs, nil
		}
	}
	if to > 0 {
		return nil, &plainError{msg: fmt.Sprintf(msgRevisionNotFound, to)}
	}
	if previous == nil {
		return nil, &plainError{msg: fmt.Sprintf(msgNoRolloutHistoryFor, d.Name)}
	}
	return previous, nil
}
