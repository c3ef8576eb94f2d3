// Package simtest holds builders for tests of the core packages: objects in
// their defaulted form and a store on a fresh clock, the way httptest sits
// beside net/http. Builders take the few values a test cares about and
// options for the rest.
package simtest

import (
	"time"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/store"
)

// NewStore returns an empty store on a clock at api.Epoch, seeded with 1.
func NewStore() *store.Store {
	return store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 1})
}

// Advance moves the store's clock forward by d.
func Advance(s *store.Store, d time.Duration) { s.Clock().Advance(d) }

// DeploymentOption changes a Deployment built by NewDeployment.
type DeploymentOption func(*api.Deployment)

// NewDeployment returns a defaulted Deployment `name` with selector and
// template labels app=name, one container `name` running image, and the given
// replicas.
func NewDeployment(name string, replicas int32, image string, opts ...DeploymentOption) *api.Deployment {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: api.NamespaceDefault}}
	d.Spec.Replicas = api.Int32(replicas)
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": name}}
	d.Spec.Template.Labels = map[string]string{"app": name}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: name, Image: image}}
	for _, o := range opts {
		o(d)
	}
	api.SetDefaultsDeployment(d)
	return d
}

// WithRollingUpdate sets maxSurge and maxUnavailable ("25%" or "1").
func WithRollingUpdate(maxSurge, maxUnavailable string) DeploymentOption {
	return func(d *api.Deployment) {
		d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: IntOrPercent(maxSurge), MaxUnavailable: IntOrPercent(maxUnavailable)}}
	}
}

// WithRecreate sets the Recreate strategy.
func WithRecreate() DeploymentOption {
	return func(d *api.Deployment) {
		d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
	}
}

// WithMinReadySeconds sets spec.minReadySeconds.
func WithMinReadySeconds(s int32) DeploymentOption {
	return func(d *api.Deployment) { d.Spec.MinReadySeconds = s }
}

// WithCPURequest sets the container's cpu request ("500m").
func WithCPURequest(q string) DeploymentOption {
	return func(d *api.Deployment) {
		d.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustQuantity(q)}
	}
}

// IntOrPercent parses "25%" as a string value and "3" as an int value.
func IntOrPercent(s string) *api.IntOrString {
	if s == "" {
		return nil
	}
	if s[len(s)-1] == '%' {
		v := api.FromString(s)
		return &v
	}
	n := int32(0)
	for _, c := range s {
		n = n*10 + int32(c-'0')
	}
	v := api.FromInt(n)
	return &v
}

// NewNode returns a Ready node with the given capacity ("4", "8Gi", 110 pods).
func NewNode(name, cpu, memory string, pods int) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}}}
	cap := api.ResourceList{
		api.ResourceCPU:    api.MustQuantity(cpu),
		api.ResourceMemory: api.MustQuantity(memory),
		api.ResourcePods:   api.MustQuantity(itoa(pods)),
	}
	n.Status.Capacity = cap
	n.Status.Allocatable = cap.DeepCopy()
	n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady",
		Message: "kubelet is posting ready status", LastHeartbeatTime: api.NewTime(api.Epoch), LastTransitionTime: api.NewTime(api.Epoch)}}
	api.SetDefaultsNode(n)
	return n
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
