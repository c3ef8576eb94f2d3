package store

import (
	"fmt"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

// Scale is autoscaling/v1 Scale, the scale subresource of a Deployment or
// ReplicaSet: its spec.replicas, status.replicas and the label selector of
// its pods in its string form (what an HPA lists pods by).
type Scale struct {
	Kind, Namespace, Name string
	ResourceVersion       string
	SpecReplicas          int32
	StatusReplicas        int32
	Selector              string
}

// GetScale reads the scale subresource of a Deployment or ReplicaSet; any
// other kind is NotFound, as for a resource without one.
func (s *Store) GetScale(kind, namespace, name string) (Scale, error) {
	o, err := s.Get(kind, namespace, name)
	if err != nil {
		return Scale{}, err
	}
	sc := Scale{Kind: kind, Namespace: o.GetObjectMeta().Namespace, Name: name, ResourceVersion: o.GetObjectMeta().ResourceVersion}
	var sel *api.LabelSelector
	switch x := o.(type) {
	case *api.Deployment:
		sc.SpecReplicas, sc.StatusReplicas, sel = api.Deref(x.Spec.Replicas, 1), x.Status.Replicas, x.Spec.Selector
	case *api.ReplicaSet:
		sc.SpecReplicas, sc.StatusReplicas, sel = api.Deref(x.Spec.Replicas, 1), x.Status.Replicas, x.Spec.Selector
	default:
		return Scale{}, notFound(kind, name)
	}
	if ls, err := labels.FromLabelSelector(sel); err == nil && sel != nil {
		sc.Selector = ls.String()
	}
	return sc, nil
}

// UpdateScale writes spec.replicas through the scale subresource of a
// Deployment or ReplicaSet: a resourceVersion that is not the stored one is
// a Conflict, a negative count is invalid (as ValidateScale says), and the
// managedFields entry is the writer's with subresource scale.
func (s *Store) UpdateScale(kind, namespace, name string, replicas int32, resourceVersion string) (api.Object, error) {
	o, err := s.Get(kind, namespace, name)
	if err != nil {
		return nil, err
	}
	if replicas < 0 {
		errs := field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), replicas, "must be greater than or equal to 0")}
		return nil, NewInvalid("Scale", name, errs)
	}
	var next api.Object
	switch x := o.(type) {
	case *api.Deployment:
		d := x.DeepCopy()
		d.Spec.Replicas = api.Int32(replicas)
		next = d
	case *api.ReplicaSet:
		rs := x.DeepCopy()
		rs.Spec.Replicas = api.Int32(replicas)
		next = rs
	default:
		return nil, notFound(kind, name)
	}
	next.GetObjectMeta().ResourceVersion = resourceVersion
	return s.update(next, SubresourceScale)
}

// Apply stores obj, created when it does not exist and updated when it
// does, as the result of applying config: the writer's managedFields entry
// has operation Apply and exactly config's fields (server-side apply with
// force; how Converge merges config into the live object is its caller's,
// see docs/fidelity.md).
func (s *Store) Apply(obj, config api.Object) (api.Object, error) {
	kind := api.KindOf(obj)
	if kind == "" {
		return nil, NewBadRequest(fmt.Sprintf("cannot apply an object of type %T", obj))
	}
	s.applying = config
	defer func() { s.applying = nil }()
	m := obj.GetObjectMeta()
	if _, err := s.Get(kind, m.Namespace, m.Name); err != nil {
		return s.Create(obj)
	}
	return s.Update(obj)
}
