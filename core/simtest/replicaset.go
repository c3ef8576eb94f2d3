package simtest

import (
	"time"

	"converge/core/api"
)

// ReplicaSetOption changes a ReplicaSet built by NewReplicaSet.
type ReplicaSetOption func(*api.ReplicaSet)

// NewReplicaSet returns a defaulted standalone ReplicaSet `name` with
// selector and template labels app=name, one container `name` running image,
// and the given replicas.
func NewReplicaSet(name string, replicas int32, image string, opts ...ReplicaSetOption) *api.ReplicaSet {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: api.NamespaceDefault}}
	rs.Spec.Replicas = api.Int32(replicas)
	rs.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": name}}
	rs.Spec.Template.Labels = map[string]string{"app": name}
	rs.Spec.Template.Spec.Containers = []api.Container{{Name: name, Image: image}}
	for _, o := range opts {
		o(rs)
	}
	api.SetDefaultsReplicaSet(rs)
	return rs
}

// WithRSLabels sets both the selector's matchLabels and the template labels.
func WithRSLabels(l map[string]string) ReplicaSetOption {
	return func(rs *api.ReplicaSet) {
		rs.Spec.Selector = &api.LabelSelector{MatchLabels: api.CopyStringMap(l)}
		rs.Spec.Template.Labels = api.CopyStringMap(l)
	}
}

// WithRSTemplateLabels sets the template labels only (they must still
// contain the selector's).
func WithRSTemplateLabels(l map[string]string) ReplicaSetOption {
	return func(rs *api.ReplicaSet) { rs.Spec.Template.Labels = api.CopyStringMap(l) }
}

// WithRSOwner makes owner the ReplicaSet's controller, as the Deployment
// controller does for the ReplicaSets it creates.
func WithRSOwner(owner api.Object) ReplicaSetOption {
	return func(rs *api.ReplicaSet) {
		rs.OwnerReferences = append(rs.OwnerReferences, api.NewControllerRef(owner))
	}
}

// WithRSMinReadySeconds sets spec.minReadySeconds.
func WithRSMinReadySeconds(s int32) ReplicaSetOption {
	return func(rs *api.ReplicaSet) { rs.Spec.MinReadySeconds = s }
}

// PodOption changes a Pod built by NewPod.
type PodOption func(*api.Pod)

// NewPod returns a defaulted Pending pod `name` with one container `app`
// running nginx and no labels; options set the rest.
func NewPod(name string, opts ...PodOption) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: api.NamespaceDefault}}
	p.Spec.Containers = []api.Container{{Name: "app", Image: "nginx:1.25"}}
	p.Status.Phase = api.PodPending
	for _, o := range opts {
		o(p)
	}
	api.SetDefaultsPod(p)
	return p
}

// WithPodLabels sets the pod's labels.
func WithPodLabels(l map[string]string) PodOption {
	return func(p *api.Pod) { p.Labels = api.CopyStringMap(l) }
}

// WithPodAnnotations sets the pod's annotations.
func WithPodAnnotations(a map[string]string) PodOption {
	return func(p *api.Pod) { p.Annotations = api.CopyStringMap(a) }
}

// WithPodOwner makes owner the pod's controller.
func WithPodOwner(owner api.Object) PodOption {
	return func(p *api.Pod) { p.OwnerReferences = append(p.OwnerReferences, api.NewControllerRef(owner)) }
}

// WithPodOwnerRef adds a (non-controller unless ref says so) ownerReference.
func WithPodOwnerRef(ref api.OwnerReference) PodOption {
	return func(p *api.Pod) { p.OwnerReferences = append(p.OwnerReferences, ref) }
}

// WithPodNode binds the pod to node.
func WithPodNode(node string) PodOption {
	return func(p *api.Pod) { p.Spec.NodeName = node }
}

// WithPodPhase sets status.phase.
func WithPodPhase(phase string) PodOption {
	return func(p *api.Pod) { p.Status.Phase = phase }
}

// WithPodReady makes the pod Running with Ready=True since the given time
// (the zero time leaves lastTransitionTime empty).
func WithPodReady(since time.Time) PodOption {
	return func(p *api.Pod) {
		p.Status.Phase = api.PodRunning
		c := api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue}
		if !since.IsZero() {
			c.LastTransitionTime = api.NewTime(since)
		}
		p.Status.Conditions = append(p.Status.Conditions, c)
	}
}

// WithPodRestarts sets one container status with the given restart count.
func WithPodRestarts(n int32) PodOption {
	return func(p *api.Pod) {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{Name: "app", RestartCount: n})
	}
}

// WithPodRequests sets the container's cpu and memory requests ("" leaves one out).
func WithPodRequests(cpu, memory string) PodOption {
	return func(p *api.Pod) {
		r := api.ResourceList{}
		if cpu != "" {
			r[api.ResourceCPU] = api.MustQuantity(cpu)
		}
		if memory != "" {
			r[api.ResourceMemory] = api.MustQuantity(memory)
		}
		p.Spec.Containers[0].Resources.Requests = r
	}
}
