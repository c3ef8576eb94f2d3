package k8scase

import (
	"time"

	"converge/core/api"
)

// Dump returns what the store holds for the Deployment named name, in the
// case namespace, as a State (times relative to the store's clock): the
// inverse of Load, used to read the outcome of a sync.
func (l *Loaded) Dump(name string) State {
	s := l.Store
	now := l.Clock.Now()
	var out State
	if d, err := s.GetDeployment(Namespace, name); err == nil {
		out.Deployment = dumpDeployment(d, now)
	}
	for _, rs := range s.ReplicaSets() {
		if rs.Namespace == Namespace {
			out.ReplicaSets = append(out.ReplicaSets, dumpReplicaSet(rs, name, now))
		}
	}
	s.EachPod(func(p *api.Pod) bool {
		if p.Namespace == Namespace {
			out.Pods = append(out.Pods, dumpPod(p, now))
		}
		return true
	})
	return out
}

func dumpDeployment(d *api.Deployment, now time.Time) *Deployment {
	out := &Deployment{Name: d.Name, Replicas: api.Deref(d.Spec.Replicas, 1), Strategy: d.Spec.Strategy.Type,
		MinReadySeconds: d.Spec.MinReadySeconds, RevisionHistoryLimit: copyInt32(d.Spec.RevisionHistoryLimit),
		ProgressDeadlineSeconds: copyInt32(d.Spec.ProgressDeadlineSeconds), Paused: d.Spec.Paused,
		Created: Rel(now, d.CreationTimestamp.Time), Generation: d.Generation, Annotations: api.CopyStringMap(d.Annotations)}
	if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
		out.Image = cs[0].Image
	}
	out.Template = TemplateOf(&d.Spec.Template)
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		out.MaxSurge, out.MaxUnavailable = copyIntOrString(ru.MaxSurge), copyIntOrString(ru.MaxUnavailable)
	}
	st := &d.Status
	out.Status = DeploymentStatus{ObservedGeneration: st.ObservedGeneration, Replicas: st.Replicas,
		UpdatedReplicas: st.UpdatedReplicas, ReadyReplicas: st.ReadyReplicas, AvailableReplicas: st.AvailableReplicas,
		UnavailableReplicas: st.UnavailableReplicas, TerminatingReplicas: copyInt32(st.TerminatingReplicas),
		CollisionCount: copyInt32(st.CollisionCount)}
	for _, c := range st.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, Condition{Type: c.Type, Status: c.Status, Reason: c.Reason,
			Message: c.Message, LastUpdate: Rel(now, c.LastUpdateTime.Time), LastTransition: Rel(now, c.LastTransitionTime.Time)})
	}
	return out
}

func dumpReplicaSet(rs *api.ReplicaSet, deployment string, now time.Time) ReplicaSet {
	out := ReplicaSet{Name: rs.Name, Hash: rs.Spec.Template.Labels[api.DefaultDeploymentUniqueLabelKey],
		Replicas: api.Deref(rs.Spec.Replicas, 1), MinReadySeconds: rs.Spec.MinReadySeconds,
		Created: Rel(now, rs.CreationTimestamp.Time), Orphan: api.GetControllerOf(&rs.ObjectMeta) == nil,
		Unmatched: rs.Labels["app"] != deployment, Generation: rs.Generation, Annotations: api.CopyStringMap(rs.Annotations)}
	if cs := rs.Spec.Template.Spec.Containers; len(cs) > 0 {
		out.Image = cs[0].Image
	}
	out.Template = TemplateOf(&rs.Spec.Template)
	st := &rs.Status
	out.Status = ReplicaSetStatus{Replicas: st.Replicas, FullyLabeledReplicas: st.FullyLabeledReplicas,
		ReadyReplicas: st.ReadyReplicas, AvailableReplicas: st.AvailableReplicas,
		TerminatingReplicas: copyInt32(st.TerminatingReplicas), ObservedGeneration: st.ObservedGeneration}
	for _, c := range st.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, Condition{Type: c.Type, Status: c.Status, Reason: c.Reason,
			Message: c.Message, LastTransition: Rel(now, c.LastTransitionTime.Time)})
	}
	return out
}

func dumpPod(p *api.Pod, now time.Time) Pod {
	out := Pod{Name: p.Name, Hash: p.Labels[api.DefaultDeploymentUniqueLabelKey], Node: p.Spec.NodeName,
		Phase: p.Status.Phase, Created: Rel(now, p.CreationTimestamp.Time), Terminating: p.DeletionTimestamp != nil}
	if ref := api.GetControllerOf(&p.ObjectMeta); ref != nil {
		out.Owner = ref.Name
	}
	if cs := p.Spec.Containers; len(cs) > 0 {
		out.Image = cs[0].Image
	}
	if c := api.GetPodCondition(&p.Status, api.PodReady); c != nil {
		out.Ready = c.Status == api.ConditionTrue
		if !c.LastTransitionTime.IsZero() {
			t := Rel(now, c.LastTransitionTime.Time)
			out.ReadySince = &t
		}
	}
	for _, cs := range p.Status.ContainerStatuses {
		out.Restarts = max(out.Restarts, cs.RestartCount)
	}
	if v, ok := p.Annotations[api.PodDeletionCostAnnotation]; ok {
		out.DeletionCost = &v
	}
	return out
}
