package simtest

import "converge/core/api"

// NodeOption changes a Node built by NewNodeWith.
type NodeOption func(*api.Node)

// NewNodeWith is NewNode with options.
func NewNodeWith(name, cpu, memory string, pods int, opts ...NodeOption) *api.Node {
	n := NewNode(name, cpu, memory, pods)
	for _, o := range opts {
		o(n)
	}
	return n
}

// WithNodeUnschedulable cordons the node (spec.unschedulable).
func WithNodeUnschedulable() NodeOption {
	return func(n *api.Node) { n.Spec.Unschedulable = true }
}

// WithNodeTaint adds a taint.
func WithNodeTaint(key, value, effect string) NodeOption {
	return func(n *api.Node) {
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: key, Value: value, Effect: effect})
	}
}

// WithNodeLabel sets a label.
func WithNodeLabel(key, value string) NodeOption {
	return func(n *api.Node) {
		if n.Labels == nil {
			n.Labels = map[string]string{}
		}
		n.Labels[key] = value
	}
}

// WithNodeNotReady sets the Ready condition to the given status (False or Unknown).
func WithNodeNotReady(status string) NodeOption {
	return func(n *api.Node) {
		for i := range n.Status.Conditions {
			if n.Status.Conditions[i].Type == api.NodeReady {
				n.Status.Conditions[i].Status = status
			}
		}
	}
}

// WithPodTolerations sets the pod's tolerations.
func WithPodTolerations(ts ...api.Toleration) PodOption {
	return func(p *api.Pod) { p.Spec.Tolerations = append(p.Spec.Tolerations, ts...) }
}

// WithPodNodeSelector sets spec.nodeSelector.
func WithPodNodeSelector(sel map[string]string) PodOption {
	return func(p *api.Pod) { p.Spec.NodeSelector = api.CopyStringMap(sel) }
}

// WithPodPriority sets spec.priority.
func WithPodPriority(v int32) PodOption {
	return func(p *api.Pod) { p.Spec.Priority = api.Int32(v) }
}

// WithPodHostPort makes the container claim a TCP host port.
func WithPodHostPort(port int32) PodOption {
	return func(p *api.Pod) {
		p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, api.ContainerPort{ContainerPort: port, HostPort: port})
	}
}

// WithPodLimits sets the container's cpu and memory limits ("" leaves one out).
func WithPodLimits(cpu, memory string) PodOption {
	return func(p *api.Pod) {
		r := api.ResourceList{}
		if cpu != "" {
			r[api.ResourceCPU] = api.MustQuantity(cpu)
		}
		if memory != "" {
			r[api.ResourceMemory] = api.MustQuantity(memory)
		}
		p.Spec.Containers[0].Resources.Limits = r
	}
}
