package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"converge/core/api"
)

// rolloutInfos resolves rollout's resource arguments (TYPE NAME, TYPE/NAME
// or -f); the first lookup that fails ends the command, as the builder's
// visitor does.
func (x *execCtx) rolloutInfos() ([]info, error) {
	c := x.cmd
	if err := x.requireResources(); err != nil {
		return nil, err
	}
	targets, _, err := x.targetsFromArgsOrFiles(c.Args)
	if err != nil {
		return nil, err
	}
	sel, err := x.selector()
	if err != nil {
		return nil, err
	}
	infos, errs := x.visit(targets, sel, false)
	if len(errs) > 0 {
		return infos, errs[0]
	}
	return infos, nil
}

// requireResources is rollout's Validate: a resource argument or -f.
func (x *execCtx) requireResources() error {
	if len(x.cmd.Args) == 0 && len(x.cmd.list("filename")) == 0 {
		return &plainError{msg: msgRequiredResource}
	}
	return nil
}

// RolloutStatus is kubectl's DeploymentStatusViewer: the line `kubectl
// rollout status` prints for a Deployment now and whether the rollout is
// done. A revision other than 0 must be the Deployment's current one. A
// Deployment whose Progressing condition says ProgressDeadlineExceeded is an
// error.
func RolloutStatus(d *api.Deployment, revision int64) (string, bool, error) {
	if revision > 0 {
		cur, ok := revisionOf(&d.ObjectMeta)
		if !ok {
			return "", false, &plainError{msg: fmt.Sprintf("cannot get the revision of deployment %q", d.Name)}
		}
		if cur != revision {
			return "", false, &plainError{msg: fmt.Sprintf(msgDesiredRevision, revision, cur)}
		}
	}
	if d.Generation > d.Status.ObservedGeneration {
		return msgWaitingObserved, false, nil
	}
	for _, c := range d.Status.Conditions {
		if c.Type == api.DeploymentProgressing && c.Reason == "ProgressDeadlineExceeded" {
			return "", false, &plainError{msg: fmt.Sprintf(msgDeadlineExceeded, d.Name)}
		}
	}
	st := d.Status
	if d.Spec.Replicas != nil && st.UpdatedReplicas < *d.Spec.Replicas {
		return fmt.Sprintf(msgWaitingUpdated, d.Name, st.UpdatedReplicas, *d.Spec.Replicas), false, nil
	}
	if st.Replicas > st.UpdatedReplicas {
		return fmt.Sprintf(msgWaitingOld, d.Name, st.Replicas-st.UpdatedReplicas), false, nil
	}
	if st.AvailableReplicas < st.UpdatedReplicas {
		return fmt.Sprintf(msgWaitingAvailable, d.Name, st.AvailableReplicas, st.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf(msgRolledOut, d.Name), true, nil
}

// runRolloutHistory is `kubectl rollout history [--revision=N]`.
func runRolloutHistory(x *execCtx) error {
	rev := x.cmd.integer("revision")
	if err := x.requireResources(); err != nil {
		return err
	}
	if rev < 0 {
		return &plainError{msg: fmt.Sprintf(msgRevisionPositive, rev)}
	}
	infos, err := x.rolloutInfos()
	if err != nil {
		return err
	}
	for _, in := range infos {
		d, ok := in.obj.(*api.Deployment)
		if !ok {
			return &plainError{msg: fmt.Sprintf(msgNoHistoryViewer, in.rt.GroupKind())}
		}
		text, err := x.history(d, rev)
		if err != nil {
			return err
		}
		with := ""
		if rev > 0 {
			with = fmt.Sprintf(msgHistoryWithRevision, rev)
		}
		x.printf("%s %s\n", ref(in.rt, d.Name), with+"\n"+text)
	}
	return nil
}

// history is DeploymentHistoryViewer.ViewHistory: revisions of the
// Deployment's ReplicaSets with their change-cause, or one revision's pod
// template.
func (x *execCtx) history(d *api.Deployment, rev int64) (string, error) {
	old, newRS := deploymentReplicaSets(x.st, d)
	all := old
	if newRS != nil {
		all = append(all, newRS)
	}
	templates := map[int64]*api.PodTemplateSpec{}
	for _, rs := range all {
		v, ok := revisionOf(&rs.ObjectMeta)
		if !ok {
			continue
		}
		t := rs.Spec.Template.DeepCopy()
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		if cause := rs.Annotations[api.ChangeCauseAnnotation]; cause != "" {
			t.Annotations[api.ChangeCauseAnnotation] = cause
		}
		templates[v] = &t
	}
	if len(templates) == 0 {
		return msgNoRolloutHistory, nil
	}
	if rev > 0 {
		t, ok := templates[rev]
		if !ok {
			return "", &plainError{msg: msgHistoryRevisionNF}
		}
		dw := newRawDescriber(x)
		dw.podTemplate(t)
		return dw.String(), nil
	}
	revs := make([]int64, 0, len(templates))
	for r := range templates {
		revs = append(revs, r)
	}
	sort.Slice(revs, func(i, j int) bool { return revs[i] < revs[j] })
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintf(w, "REVISION\tCHANGE-CAUSE\n")
	for _, r := range revs {
		cause := templates[r].Annotations[api.ChangeCauseAnnotation]
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(w, "%d\t%s\n", r, cause)
	}
	w.Flush()
	return b.String(), nil
}

// runRolloutPause sets spec.paused.
func runRolloutPause(x *execCtx) error {
	return x.rolloutToggle(true, "paused", msgAlreadyPaused, msgPausingUnsupported)
}

// runRolloutResume clears spec.paused.
func runRolloutResume(x *execCtx) error {
	return x.rolloutToggle(false, "resumed", msgNotPaused, msgResumingUnsupported)
}

func (x *execCtx) rolloutToggle(paused bool, operation, already, unsupported string) error {
	infos, err := x.rolloutInfos()
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	for _, in := range infos {
		d, ok := in.obj.(*api.Deployment)
		if !ok {
			errs = append(errs, &plainError{msg: fmt.Sprintf(msgRolloutObjectError, in.rt.GroupResource(), in.name(), unsupported)})
			continue
		}
		if d.Spec.Paused == paused {
			errs = append(errs, &plainError{msg: fmt.Sprintf(msgRolloutObjectError, in.rt.GroupResource(), in.name(), already)})
			continue
		}
		next := d.DeepCopy()
		next.Spec.Paused = paused
		updated, err := x.st.Update(next)
		if err != nil {
			errs = append(errs, fmt.Errorf("failed to patch: %v", err))
			continue
		}
		x.printObject(in.rt, updated, operation)
	}
	return newAggregate(errs)
}

// runRolloutRestart sets the pod template's restartedAt annotation to now.
func runRolloutRestart(x *execCtx) error {
	infos, err := x.rolloutInfos()
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	stamp := x.now().Format(api.RFC3339)
	for _, in := range infos {
		d, ok := in.obj.(*api.Deployment)
		if !ok {
			errs = append(errs, &plainError{msg: fmt.Sprintf(msgRolloutObjectError, in.rt.GroupResource(), in.name(), msgRestartingUnsupported)})
			continue
		}
		if d.Spec.Paused {
			errs = append(errs, &plainError{msg: fmt.Sprintf(msgRolloutObjectError, in.rt.GroupResource(), in.name(), msgRestartPaused)})
			continue
		}
		if d.Spec.Template.Annotations[api.RestartedAtAnnotation] == stamp {
			errs = append(errs, &plainError{msg: fmt.Sprintf(msgRestartSameSecond, d.Name)})
			continue
		}
		next := d.DeepCopy()
		if next.Spec.Template.Annotations == nil {
			next.Spec.Template.Annotations = map[string]string{}
		}
		next.Spec.Template.Annotations[api.RestartedAtAnnotation] = stamp
		updated, err := x.st.Update(next)
		if err != nil {
			errs = append(errs, fmt.Errorf("failed to patch: %v", err))
			continue
		}
		x.printObject(in.rt, updated, "restarted")
	}
	return newAggregate(errs)
}
