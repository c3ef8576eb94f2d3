package deployment

import (
	"fmt"
	"strconv"

	"converge/core/api"
)

// This file is the legacy, controller-side rollback: a Deployment carrying
// the deprecated.deployment.rollback.to annotation (from the removed
// extensions/v1beta1 and apps/v1beta1 rollback subresource) is rolled back
// by the controller. Modern `kubectl rollout undo` patches the template
// itself and never comes here, so its rollbacks send none of these events.

// getRollbackTo returns the revision the annotation asks for (0 means the
// last revision before the current one), or false when there is none or it
// is not a number (then it is ignored).
func getRollbackTo(d *api.Deployment) (int64, bool) {
	v := d.Annotations[api.RollbackToAnnotation]
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

func hasRollbackTo(d *api.Deployment) bool {
	_, ok := getRollbackTo(d)
	return ok
}

// rollback rolls the Deployment back to the requested revision and always
// clears the annotation:
//   - revision 0 means the second-highest revision; without one: Warning
//     DeploymentRollbackRevisionNotFound "Unable to find last revision.";
//   - a revision no ReplicaSet has: the same reason with "Unable to find the
//     revision to rollback to.";
//   - a template equal to the current one: Warning
//     DeploymentRollbackTemplateUnchanged;
//   - otherwise the template (and the ReplicaSet's copyable annotations) are
//     copied to the Deployment: Normal DeploymentRollback "Rolled back
//     deployment "web" to revision 2". The next pass makes that ReplicaSet
//     the new one, with revision max+1.
func (s *syncer) rollback(rsList []*api.ReplicaSet) error {
	s.strategyPath = "rollback"
	newRS, allOld, err := s.getAllReplicaSetsAndSyncRevision(rsList, true)
	if err != nil {
		return err
	}
	allRSs := allOld
	if newRS != nil {
		allRSs = append(allRSs, newRS)
	}
	rev, _ := getRollbackTo(s.d)
	if rev == 0 {
		if rev = LastRevision(allRSs); rev == 0 {
			s.event(EventWarning, RollbackRevisionNotFound, lastRevisionNotFoundMsg)
			return s.updateDeploymentAndClearRollbackTo("clear the rollback annotation (no last revision)")
		}
	}
	for _, rs := range allRSs {
		v, err := Revision(rs)
		if err != nil || v != rev {
			continue
		}
		if EqualIgnoreHash(&s.d.Spec.Template, &rs.Spec.Template) {
			s.event(EventWarning, RollbackTemplateUnchanged,
				fmt.Sprintf("The rollback revision contains the same template as current deployment %q", s.d.Name))
			return s.updateDeploymentAndClearRollbackTo(fmt.Sprintf("clear the rollback annotation (revision %d is the current template)", rev))
		}
		s.d.Spec.Template = rs.Spec.Template.DeepCopy()
		if _, ok := s.d.Spec.Template.Labels[api.DefaultDeploymentUniqueLabelKey]; ok {
			s.d.Spec.Template.Labels = withoutLabel(s.d.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey)
		}
		setDeploymentAnnotationsTo(s.d, rs)
		if err := s.updateDeploymentAndClearRollbackTo(fmt.Sprintf("roll back to revision %d", rev)); err != nil {
			return err
		}
		s.event(EventNormal, RollbackDone, fmt.Sprintf("Rolled back deployment %q to revision %d", s.d.Name, rev))
		return nil
	}
	s.event(EventWarning, RollbackRevisionNotFound, rollbackRevisionNotFoundMsg)
	return s.updateDeploymentAndClearRollbackTo(fmt.Sprintf("clear the rollback annotation (revision %d not found)", rev))
}

// updateDeploymentAndClearRollbackTo removes the rollback annotation and
// writes the Deployment's metadata and spec (a user-style update: the
// generation goes up).
func (s *syncer) updateDeploymentAndClearRollbackTo(action string) error {
	cp := s.d.DeepCopy()
	delete(cp.Annotations, api.RollbackToAnnotation)
	cp.ResourceVersion = ""
	out, err := s.store.Update(cp)
	if err != nil {
		return err
	}
	s.d = out.(*api.Deployment).DeepCopy()
	s.act(action)
	return nil
}
