// Package validation is the API server's validation of the kinds Converge
// stores, with Kubernetes' field paths and texts (apps/v1 Deployment and
// ReplicaSet from pkg/apis/apps/validation, autoscaling/v2
// HorizontalPodAutoscaler from pkg/apis/autoscaling/validation, v1 Pod,
// Service, ConfigMap, Node and ResourceQuota from
// pkg/apis/core/validation, policy/v1 PodDisruptionBudget from
// pkg/apis/policy/validation, and the selector immutability of the
// registry strategies). Every function collects all errors; none stops at the
// first.
package validation

import (
	"converge/core/api"
	"converge/core/validation/field"
)

// ValidateObject validates obj on create (old == nil) or on update from old,
// dispatching on the object's kind. Objects are defaulted before they are
// validated, as the API server does. An old object of another kind counts
// as none. Kinds without validation (Endpoints, Event) give no errors.
func ValidateObject(obj, old api.Object) field.ErrorList {
	switch o := obj.(type) {
	case *api.Deployment:
		od, _ := old.(*api.Deployment) // nil on create, or when old is of another kind
		return ValidateDeployment(o, od)
	case *api.ReplicaSet:
		or, _ := old.(*api.ReplicaSet) // nil on create, or when old is of another kind
		return ValidateReplicaSet(o, or)
	case *api.Pod:
		op, _ := old.(*api.Pod) // nil on create, or when old is of another kind
		return ValidatePod(o, op)
	case *api.Service:
		os, _ := old.(*api.Service) // nil on create, or when old is of another kind
		return ValidateService(o, os)
	case *api.ConfigMap:
		oc, _ := old.(*api.ConfigMap) // nil on create, or when old is of another kind
		return ValidateConfigMap(o, oc)
	case *api.Node:
		on, _ := old.(*api.Node) // nil on create, or when old is of another kind
		return ValidateNode(o, on)
	case *api.HorizontalPodAutoscaler:
		oh, _ := old.(*api.HorizontalPodAutoscaler) // nil on create, or when old is of another kind
		return ValidateHorizontalPodAutoscaler(o, oh)
	case *api.ResourceQuota:
		oq, _ := old.(*api.ResourceQuota) // nil on create, or when old is of another kind
		return ValidateResourceQuota(o, oq)
	case *api.PodDisruptionBudget:
		op, _ := old.(*api.PodDisruptionBudget) // nil on create, or when old is of another kind
		return ValidatePodDisruptionBudget(o, op)
	}
	return nil
}
