package validation

import (
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

// Resource names kube calls standard (helper.IsStandardResourceName), the
// ones a container may request, and those whose quantities must be whole.
var (
	standardResources = map[string]bool{
		"cpu": true, "memory": true, "ephemeral-storage": true, "requests.cpu": true, "requests.memory": true,
		"requests.ephemeral-storage": true, "limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true,
		"pods": true, "services": true, "replicationcontrollers": true, "resourcequotas": true, "secrets": true,
		"configmaps": true, "persistentvolumeclaims": true, "storage": true, "requests.storage": true,
		"services.nodeports": true, "services.loadbalancers": true,
	}
	standardContainerResources = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}
	integerResources           = map[string]bool{
		"pods": true, "services": true, "replicationcontrollers": true, "resourcequotas": true, "secrets": true,
		"configmaps": true, "persistentvolumeclaims": true, "services.nodeports": true, "services.loadbalancers": true,
	}
)

const hugePagesPrefix = "hugepages-"

func isHugePageResourceName(n string) bool { return strings.HasPrefix(n, hugePagesPrefix) }

// isNativeResource: unprefixed, or in the kubernetes.io domain.
func isNativeResource(n string) bool {
	return !strings.Contains(n, "/") || strings.Contains(n, "kubernetes.io/")
}

// isExtendedResourceName is helper.IsExtendedResourceName (nvidia.com/gpu).
func isExtendedResourceName(n string) bool {
	if isNativeResource(n) || strings.HasPrefix(n, "requests.") {
		return false
	}
	return len(labels.IsQualifiedName("requests."+n)) == 0
}

func isOvercommitAllowed(n string) bool { return isNativeResource(n) && !isHugePageResourceName(n) }

func isIntegerResourceName(n string) bool { return integerResources[n] || isExtendedResourceName(n) }

// validateResourceName is validateResourceName.
func validateResourceName(n string, p *path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range labels.IsQualifiedName(n) {
		errs = append(errs, p.invalid(n, msg))
	}
	if len(errs) != 0 {
		return errs
	}
	if !strings.Contains(n, "/") && !standardResources[n] && !strings.HasPrefix(n, hugePagesPrefix) && !strings.HasPrefix(n, "requests."+hugePagesPrefix) {
		errs = append(errs, p.invalid(n, "must be a standard resource type or fully qualified"))
	}
	return errs
}

// validateContainerResourceName is validateContainerResourceName.
func validateContainerResourceName(n string, p *path) field.ErrorList {
	if standardContainerResources[n] {
		return nil
	}
	errs := validateResourceName(n, p)
	if !strings.Contains(n, "/") {
		if !isHugePageResourceName(n) {
			errs = append(errs, p.invalid(n, "must be a standard resource for containers"))
		}
	} else if !isNativeResource(n) && !isExtendedResourceName(n) {
		errs = append(errs, p.invalid(n, "doesn't follow extended resource name standard"))
	}
	return errs
}

// validateResourceQuantityValue is ValidateResourceQuantityValue: not
// negative, and whole for integer resources (pods, extended resources).
func validateResourceQuantityValue(n string, q api.Quantity, p *path) field.ErrorList {
	var errs field.ErrorList
	if q.Sign() < 0 {
		errs = append(errs, p.invalid(q.CanonicalString(), isNegativeErrorMsg))
	}
	if q.MilliValue()%1000 != 0 && isIntegerResourceName(n) {
		errs = append(errs, p.invalid(q.CanonicalString(), "must be an integer"))
	}
	return errs
}

// hugePageValueError is validateResourceQuantityHugePageValue: the amount must
// be a whole number of pages of the size in the resource name.
func hugePageValueError(n string, q api.Quantity) string {
	page, err := api.ParseQuantity(strings.TrimPrefix(n, hugePagesPrefix))
	if err != nil || page.Sign() <= 0 || page.MilliValue()%1000 != 0 || q.Value()%page.Value() != 0 {
		return fmt.Sprintf("%s is not positive integer multiple of %s", q.CanonicalString(), n)
	}
	return ""
}

// validateResourceRequirements is ValidateResourceRequirements: valid names
// and quantities, requests at most limits (equal for resources that cannot
// be overcommitted, such as extended resources and huge pages, which also
// need a limit), huge pages only with cpu or memory. Keys are checked in
// sorted order.
func validateResourceRequirements(r *api.ResourceRequirements, p *path) field.ErrorList {
	var errs field.ErrorList
	limPath, reqPath := p.child("limits"), p.child("requests")
	cpuOrMemory, hugePages := false, false
	for _, n := range sortedKeys(r.Limits) {
		q := r.Limits[n]
		kp := limPath.keyAt(n)
		errs = append(errs, validateContainerResourceName(n, &kp)...)
		errs = append(errs, validateResourceQuantityValue(n, q, &kp)...)
		if isHugePageResourceName(n) {
			hugePages = true
			if msg := hugePageValueError(n, q); msg != "" {
				errs = append(errs, kp.invalid(q.CanonicalString(), msg))
			}
		}
		cpuOrMemory = cpuOrMemory || n == api.ResourceCPU || n == api.ResourceMemory
	}
	for _, n := range sortedKeys(r.Requests) {
		q := r.Requests[n]
		kp := reqPath.keyAt(n)
		errs = append(errs, validateContainerResourceName(n, &kp)...)
		errs = append(errs, validateResourceQuantityValue(n, q, &kp)...)
		if limit, ok := r.Limits[n]; ok {
			switch {
			case q.MilliValue() != limit.MilliValue() && !isOvercommitAllowed(n):
				errs = append(errs, reqPath.invalid(q.CanonicalString(), fmt.Sprintf("must be equal to %s limit of %s", n, limit.CanonicalString())))
			case q.MilliValue() > limit.MilliValue():
				errs = append(errs, reqPath.invalid(q.CanonicalString(), fmt.Sprintf("must be less than or equal to %s limit of %s", n, limit.CanonicalString())))
			}
		} else if !isOvercommitAllowed(n) {
			errs = append(errs, limPath.required("Limit must be set for non overcommitable resources"))
		}
		if isHugePageResourceName(n) {
			hugePages = true
			if msg := hugePageValueError(n, q); msg != "" {
				errs = append(errs, kp.invalid(q.CanonicalString(), msg))
			}
		}
		cpuOrMemory = cpuOrMemory || n == api.ResourceCPU || n == api.ResourceMemory
	}
	if hugePages && !cpuOrMemory {
		errs = append(errs, p.forbidden("HugePages require cpu or memory"))
	}
	return errs
}
