package validation

import (
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/validation/field"
)

// Bounds of autoscaling/v2 behavior (pkg/apis/autoscaling/validation).
const (
	maxPeriodSeconds              = 1800
	maxStabilizationWindowSeconds = 3600
)

var (
	validSelectPolicies = []string{api.DisabledPolicySelect, api.MaxChangePolicySelect, api.MinChangePolicySelect}
	validPolicyTypes    = []string{api.PercentScalingPolicy, api.PodsScalingPolicy}
	validMetricSources  = []string{api.ContainerResourceMetricSourceType, api.ExternalMetricSourceType, api.ObjectMetricSourceType,
		api.PodsMetricSourceType, api.ResourceMetricSourceType}
)

// ValidateHorizontalPodAutoscaler validates an autoscaling/v2
// HorizontalPodAutoscaler on create (old == nil) or update, as
// ValidateHorizontalPodAutoscaler(Update) does with the registry's options
// (minReplicas at least 1, as HPAScaleToZero is off; the target's
// apiVersion must name a group, checked again only when the target's kind
// or apiVersion changes). Beyond Kubernetes, Converge refuses the metric
// sources and resources it does not simulate (every source but Resource,
// every resource but cpu and memory), saying so.
func ValidateHorizontalPodAutoscaler(h, old *api.HorizontalPodAutoscaler) field.ErrorList {
	var errs field.ErrorList
	meta := root("metadata")
	if old != nil {
		errs = validateObjectMetaUpdate(&h.ObjectMeta, &old.ObjectMeta, &meta)
	} else {
		errs = validateObjectMeta(&h.ObjectMeta, true, nameIsDNSSubdomain, &meta)
	}
	s := &h.Spec
	spec := root("spec")
	if s.MinReplicas != nil && *s.MinReplicas < 1 {
		errs = append(errs, spec.child("minReplicas").invalid(*s.MinReplicas, "must be greater than or equal to 1"))
	}
	if s.MaxReplicas < 1 {
		errs = append(errs, spec.child("maxReplicas").invalid(s.MaxReplicas, "must be greater than 0"))
	}
	if s.MinReplicas != nil && s.MaxReplicas < *s.MinReplicas {
		errs = append(errs, spec.child("maxReplicas").invalid(s.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	sameTarget := old != nil && old.Spec.ScaleTargetRef.APIVersion == s.ScaleTargetRef.APIVersion &&
		old.Spec.ScaleTargetRef.Kind == s.ScaleTargetRef.Kind
	ref := spec.child("scaleTargetRef")
	errs = append(errs, validateCrossVersionObjectReference(s.ScaleTargetRef, &ref, sameTarget)...)
	mp := spec.child("metrics")
	for i, m := range s.Metrics {
		ip := mp.at(i)
		errs = append(errs, validateMetricSpec(m, &ip)...)
	}
	if b := s.Behavior; b != nil {
		bp := spec.child("behavior")
		up, down := bp.child("scaleUp"), bp.child("scaleDown")
		errs = append(errs, validateScalingRules(b.ScaleUp, &up)...)
		errs = append(errs, validateScalingRules(b.ScaleDown, &down)...)
	}
	return errs
}

// validateCrossVersionObjectReference is ValidateCrossVersionObjectReference
// with AllowEmptyAPIGroup false (AllowInvalidAPIVersion when skipVersion).
func validateCrossVersionObjectReference(ref api.CrossVersionObjectReference, p *path, skipVersion bool) field.ErrorList {
	var errs field.ErrorList
	for _, f := range []struct{ name, v string }{{"kind", ref.Kind}, {"name", ref.Name}} {
		if f.v == "" {
			errs = append(errs, p.child(f.name).required(""))
			continue
		}
		for _, msg := range isValidPathSegmentName(f.v) {
			errs = append(errs, p.child(f.name).invalid(f.v, msg))
		}
	}
	if !skipVersion {
		if msg := apiVersionError(ref.APIVersion); msg != "" {
			errs = append(errs, p.child("apiVersion").invalid(ref.APIVersion, msg))
		}
	}
	return errs
}

// apiVersionError is schema.ParseGroupVersion's error, or "apiVersion must
// specify API group" for a version without one.
func apiVersionError(v string) string {
	if v == "" || v == "v1" {
		return "apiVersion must specify API group"
	}
	if strings.Count(v, "/") != 1 {
		return fmt.Sprintf("unexpected GroupVersion string: %s", v)
	}
	return ""
}

// isValidPathSegmentName is path.IsValidPathSegmentName.
func isValidPathSegmentName(name string) []string {
	if name == "." || name == ".." {
		return []string{fmt.Sprintf("may not be '%s'", name)}
	}
	var out []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			out = append(out, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return out
}

// validateMetricSpec is validateMetricSpec for the Resource source, and
// Converge's refusal of the others.
func validateMetricSpec(m api.MetricSpec, p *path) field.ErrorList {
	var errs field.ErrorList
	tp := p.child("type")
	switch m.Type {
	case "":
		errs = append(errs, tp.required("must specify a metric source type"),
			tp.notSupported(m.Type, validMetricSources), tp.notSupported(m.Type, validMetricSources))
	case api.ResourceMetricSourceType:
		if m.Resource == nil {
			rp := p.child("resource")
			errs = append(errs, rp.required("must populate information for the given metric source"))
		}
	case api.ContainerResourceMetricSourceType, api.ExternalMetricSourceType, api.ObjectMetricSourceType, api.PodsMetricSourceType:
		errs = append(errs, tp.invalid(m.Type, "Converge simulates only the Resource metric source (cpu and memory of the pods); "+
			"Kubernetes also takes ContainerResource, External, Object and Pods"))
	default:
		errs = append(errs, tp.notSupported(m.Type, validMetricSources), tp.notSupported(m.Type, validMetricSources))
	}
	if m.Resource != nil {
		rp := p.child("resource")
		errs = append(errs, validateResourceSource(m.Resource, &rp)...)
	}
	return errs
}

func validateResourceSource(src *api.ResourceMetricSource, p *path) field.ErrorList {
	var errs field.ErrorList
	np := p.child("name")
	switch src.Name {
	case "":
		errs = append(errs, np.required("must specify a resource name"))
	case api.ResourceCPU, api.ResourceMemory:
	default:
		errs = append(errs, np.invalid(src.Name, "Converge's metrics server reports only cpu and memory"))
	}
	tp := p.child("target")
	errs = append(errs, validateMetricTarget(src.Target, &tp)...)
	if src.Target.AverageUtilization == nil && src.Target.AverageValue == nil {
		errs = append(errs, tp.child("averageUtilization").required("must set either a target raw value or a target utilization"))
	}
	if src.Target.AverageUtilization != nil && src.Target.AverageValue != nil {
		errs = append(errs, tp.child("averageValue").forbidden("may not set both a target raw value and a target utilization"))
	}
	return errs
}

func validateMetricTarget(mt api.MetricTarget, p *path) field.ErrorList {
	var errs field.ErrorList
	if mt.Type == "" {
		errs = append(errs, p.child("type").required("must specify a metric target type"))
	}
	if mt.Type != api.UtilizationMetricType && mt.Type != api.ValueMetricType && mt.Type != api.AverageValueMetricType {
		errs = append(errs, p.child("type").invalid(mt.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if mt.Value != nil && mt.Value.Sign() != 1 {
		errs = append(errs, p.child("value").invalid(mt.Value, "must be positive"))
	}
	if mt.AverageValue != nil && mt.AverageValue.Sign() != 1 {
		errs = append(errs, p.child("averageValue").invalid(mt.AverageValue, "must be positive"))
	}
	if mt.AverageUtilization != nil && *mt.AverageUtilization < 1 {
		errs = append(errs, p.child("averageUtilization").invalid(mt.AverageUtilization, "must be greater than 0"))
	}
	return errs
}

func validateScalingRules(r *api.HPAScalingRules, p *path) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	if w := r.StabilizationWindowSeconds; w != nil {
		wp := p.child("stabilizationWindowSeconds")
		if *w < 0 {
			errs = append(errs, wp.invalid(*w, "must be greater than or equal to zero"))
		}
		if *w > maxStabilizationWindowSeconds {
			errs = append(errs, wp.invalid(*w, fmt.Sprintf("must be less than or equal to %d", maxStabilizationWindowSeconds)))
		}
	}
	if sp := r.SelectPolicy; sp != nil && *sp != api.MaxChangePolicySelect && *sp != api.MinChangePolicySelect && *sp != api.DisabledPolicySelect {
		errs = append(errs, p.child("selectPolicy").notSupported(*sp, validSelectPolicies))
	}
	pp := p.child("policies")
	if len(r.Policies) == 0 {
		errs = append(errs, pp.required("must specify at least one Policy"))
	}
	for i, pol := range r.Policies {
		ip := pp.at(i)
		if pol.Type != api.PodsScalingPolicy && pol.Type != api.PercentScalingPolicy {
			errs = append(errs, ip.child("type").notSupported(pol.Type, validPolicyTypes))
		}
		if pol.Value <= 0 {
			errs = append(errs, ip.child("value").invalid(pol.Value, "must be greater than zero"))
		}
		if pol.PeriodSeconds <= 0 {
			errs = append(errs, ip.child("periodSeconds").invalid(pol.PeriodSeconds, "must be greater than zero"))
		}
		if pol.PeriodSeconds > maxPeriodSeconds {
			errs = append(errs, ip.child("periodSeconds").invalid(pol.PeriodSeconds, fmt.Sprintf("must be less than or equal to %d", maxPeriodSeconds)))
		}
	}
	if t := r.Tolerance; t != nil && t.Sign() < 0 {
		errs = append(errs, p.child("tolerance").invalid(t.String(), isNegativeErrorMsg))
	}
	return errs
}
