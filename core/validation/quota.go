package validation

import (
	"slices"
	"strings"

	"converge/core/api"
	"converge/core/validation/field"
)

// standardQuotaResources are helper.IsStandardQuotaResourceName's names
// (beside the huge-page ones).
var standardQuotaResources = map[string]bool{
	"cpu": true, "memory": true, "ephemeral-storage": true, "requests.cpu": true, "requests.memory": true,
	"requests.storage": true, "requests.ephemeral-storage": true, "limits.cpu": true, "limits.memory": true,
	"limits.ephemeral-storage": true, "pods": true, "resourcequotas": true, "services": true,
	"replicationcontrollers": true, "secrets": true, "persistentvolumeclaims": true, "configmaps": true,
	"services.nodeports": true, "services.loadbalancers": true,
}

// Quota scopes (helper.IsStandardResourceQuotaScope) and the resources a
// scope other than BestEffort may apply to (IsResourceQuotaScopeValidForResource:
// the pod object counts and compute resources); BestEffort applies to the
// object counts only.
var (
	standardQuotaScopes = []string{api.QuotaScopeTerminating, api.QuotaScopeNotTerminating, api.QuotaScopeBestEffort,
		api.QuotaScopeNotBestEffort, api.QuotaScopePriorityClass, api.QuotaScopeCrossNamespacePodAffinity,
		api.QuotaScopeVolumeAttributesClass}
	podObjectCountQuotaResources = []string{"pods", "count/pods"}
	podComputeQuotaResources     = []string{"cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory"}
)

const isInvalidQuotaResource = "must be a standard resource for quota"

// ValidateResourceQuota validates a v1 ResourceQuota on create (old == nil)
// or update (ValidateResourceQuota, ValidateResourceQuotaUpdate): the
// metadata, every spec.hard name a quota resource and its value
// non-negative (whole for counts), the scopes standard, fit for the
// resources limited, and not conflicting; status.hard and status.used the
// same way.
func ValidateResourceQuota(q, old *api.ResourceQuota) field.ErrorList {
	meta := root("metadata")
	var errs field.ErrorList
	if old != nil {
		errs = validateObjectMetaUpdate(&q.ObjectMeta, &old.ObjectMeta, &meta)
	}
	errs = append(errs, validateObjectMeta(&q.ObjectMeta, true, nameIsDNSSubdomain, &meta)...)
	spec := root("spec")
	hard := spec.child("hard")
	errs = append(errs, validateQuotaList(q.Spec.Hard, &hard)...)
	errs = append(errs, validateResourceQuotaScopes(&q.Spec, &spec)...)
	status := root("status")
	sh, su := status.child("hard"), status.child("used")
	errs = append(errs, validateQuotaList(q.Status.Hard, &sh)...)
	return append(errs, validateQuotaList(q.Status.Used, &su)...)
}

// validateQuotaList checks each name (ValidateResourceQuotaResourceName)
// and value (ValidateResourceQuantityValue), in key order.
func validateQuotaList(l api.ResourceList, p *path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sortedKeys(l) {
		kp := p.keyAt(k)
		errs = append(errs, validateResourceQuotaResourceName(k, &kp)...)
		errs = append(errs, validateResourceQuantityValue(k, l[k], &kp)...)
	}
	return errs
}

// validateResourceQuotaResourceName is ValidateResourceQuotaResourceName: a
// resource name, and a standard quota resource unless qualified.
func validateResourceQuotaResourceName(n string, p *path) field.ErrorList {
	errs := validateResourceName(n, p)
	if !strings.Contains(n, "/") && !standardQuotaResources[n] && !isQuotaHugePageResourceName(n) {
		errs = append(errs, p.invalid(n, isInvalidQuotaResource))
	}
	return errs
}

func isQuotaHugePageResourceName(n string) bool {
	return strings.HasPrefix(n, hugePagesPrefix) || strings.HasPrefix(n, "requests."+hugePagesPrefix)
}

// validateResourceQuotaScopes is validateResourceQuotaScopes.
func validateResourceQuotaScopes(s *api.ResourceQuotaSpec, p *path) field.ErrorList {
	if len(s.Scopes) == 0 {
		return nil
	}
	var errs field.ErrorList
	sp := p.child("scopes")
	hard := sortedKeys(s.Hard)
	for _, sc := range s.Scopes {
		if !slices.Contains(standardQuotaScopes, sc) {
			errs = append(errs, sp.invalid(s.Scopes, "unsupported scope"))
		}
		for _, k := range hard {
			if standardQuotaResources[k] && !scopeValidForResource(sc, k) {
				errs = append(errs, sp.invalid(s.Scopes, "unsupported scope applied to resource"))
			}
		}
	}
	for _, pair := range [][2]string{{api.QuotaScopeBestEffort, api.QuotaScopeNotBestEffort},
		{api.QuotaScopeTerminating, api.QuotaScopeNotTerminating}} {
		if slices.Contains(s.Scopes, pair[0]) && slices.Contains(s.Scopes, pair[1]) {
			errs = append(errs, sp.invalid(s.Scopes, "conflicting scopes"))
		}
	}
	return errs
}

// scopeValidForResource is helper.IsResourceQuotaScopeValidForResource.
func scopeValidForResource(scope, resource string) bool {
	switch scope {
	case api.QuotaScopeTerminating, api.QuotaScopeNotTerminating, api.QuotaScopeNotBestEffort,
		api.QuotaScopePriorityClass, api.QuotaScopeCrossNamespacePodAffinity:
		return slices.Contains(podObjectCountQuotaResources, resource) || slices.Contains(podComputeQuotaResources, resource)
	case api.QuotaScopeBestEffort:
		return slices.Contains(podObjectCountQuotaResources, resource)
	}
	return true
}
