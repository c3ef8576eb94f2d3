package validation

import (
	"converge/core/api"
	"converge/core/validation/field"
)

// TEMPORARY: placeholders until the validation package is written; the
// validation work replaces this file.

// ValidateDeployment validates a Deployment on create (old == nil) or update.
func ValidateDeployment(d, old *api.Deployment) field.ErrorList { return nil }

// ValidateReplicaSet validates a ReplicaSet on create (old == nil) or update.
func ValidateReplicaSet(rs, old *api.ReplicaSet) field.ErrorList { return nil }

// ValidatePod validates a Pod on create (old == nil) or update.
func ValidatePod(p, old *api.Pod) field.ErrorList { return nil }

// ValidateService validates a Service on create (old == nil) or update.
func ValidateService(s, old *api.Service) field.ErrorList { return nil }

// ValidateConfigMap validates a ConfigMap on create (old == nil) or update.
func ValidateConfigMap(c, old *api.ConfigMap) field.ErrorList { return nil }

// ValidateNode validates a Node on create (old == nil) or update.
func ValidateNode(n, old *api.Node) field.ErrorList { return nil }
