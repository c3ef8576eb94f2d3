// Package validation is the API server's validation of the kinds Converge
// stores, with Kubernetes' field paths and texts (apps/v1 Deployment and
// ReplicaSet from pkg/apis/apps/validation, v1 Pod, Service, ConfigMap and
// Node from pkg/apis/core/validation, and the selector immutability of the
// registry strategies). Every function collects all errors; none stops at the
// first.
package validation

import (
	"converge/core/api"
	"converge/core/validation/field"
)

// ValidateObject validates obj on create (old == nil) or on update from old,
// dispatching on the object's kind. Objects are defaulted before they are
// validated, as the API server does.
func ValidateObject(obj, old api.Object) field.ErrorList {
	switch o := obj.(type) {
	case *api.Deployment:
		var od *api.Deployment
		if old != nil {
			od = old.(*api.Deployment)
		}
		return ValidateDeployment(o, od)
	case *api.ReplicaSet:
		var or *api.ReplicaSet
		if old != nil {
			or = old.(*api.ReplicaSet)
		}
		return ValidateReplicaSet(o, or)
	case *api.Pod:
		var op *api.Pod
		if old != nil {
			op = old.(*api.Pod)
		}
		return ValidatePod(o, op)
	case *api.Service:
		var os *api.Service
		if old != nil {
			os = old.(*api.Service)
		}
		return ValidateService(o, os)
	case *api.ConfigMap:
		var oc *api.ConfigMap
		if old != nil {
			oc = old.(*api.ConfigMap)
		}
		return ValidateConfigMap(o, oc)
	case *api.Node:
		var on *api.Node
		if old != nil {
			on = old.(*api.Node)
		}
		return ValidateNode(o, on)
	}
	return nil
}
