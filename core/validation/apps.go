package validation

import (
	"strconv"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

// ValidateDeployment validates an apps/v1 Deployment on create (old == nil)
// or update: ValidateDeployment / ValidateDeploymentUpdate of
// pkg/apis/apps/validation plus the registry strategy's selector
// immutability, which applies to apps/v1. Names must be DNS-1123 subdomains;
// a name that is not a DNS label only gets a warning (see Warnings).
//
// Example: a Deployment without a selector gets two errors, because a nil
// selector matches nothing:
//
//	spec.selector: Required value
//	spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`
func ValidateDeployment(d, old *api.Deployment) field.ErrorList {
	var errs field.ErrorList
	meta, spec := root("metadata"), root("spec")
	if old == nil {
		errs = validateObjectMeta(&d.ObjectMeta, true, nameIsDNSSubdomain, &meta)
	} else {
		errs = validateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, &meta)
	}
	errs = append(errs, validateDeploymentSpec(&d.Spec, &spec)...)
	if old != nil {
		errs = append(errs, validateImmutable(d.Spec.Selector, old.Spec.Selector, spec.child("selector"))...)
	}
	return errs
}

// validateDeploymentSpec is ValidateDeploymentSpec.
func validateDeploymentSpec(s *api.DeploymentSpec, p *path) field.ErrorList {
	errs := validateNonnegative(int64(api.Deref(s.Replicas, 0)), p, "replicas")
	selPath, tmplPath, strategyPath := p.child("selector"), p.child("template"), p.child("strategy")
	sel, ok, selErrs := validateWorkloadSelector(s.Selector, &selPath)
	errs = append(errs, selErrs...)
	if ok {
		errs = append(errs, validatePodTemplateSpecForReplicaSet(&s.Template, sel, &tmplPath)...)
	}
	errs = append(errs, validateDeploymentStrategy(&s.Strategy, &strategyPath)...)
	errs = append(errs, validateNonnegative(int64(s.MinReadySeconds), p, "minReadySeconds")...)
	if s.RevisionHistoryLimit != nil {
		// zero is a valid revisionHistoryLimit
		errs = append(errs, validateNonnegative(int64(*s.RevisionHistoryLimit), p, "revisionHistoryLimit")...)
	}
	if s.ProgressDeadlineSeconds != nil {
		errs = append(errs, validateNonnegative(int64(*s.ProgressDeadlineSeconds), p, "progressDeadlineSeconds")...)
		if *s.ProgressDeadlineSeconds <= s.MinReadySeconds {
			errs = append(errs, p.child("progressDeadlineSeconds").invalid(s.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateDeploymentStrategy is ValidateDeploymentStrategy.
func validateDeploymentStrategy(s *api.DeploymentStrategy, p *path) field.ErrorList {
	ru := p.child("rollingUpdate")
	switch s.Type {
	case api.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{ru.forbidden("may not be specified when strategy `type` is 'Recreate'")}
		}
	case api.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{ru.required("this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, &ru)
	default:
		return field.ErrorList{p.notSupported(internalStrategy(s),
			[]string{api.RecreateDeploymentStrategyType, api.RollingUpdateDeploymentStrategyType})}
	}
	return nil
}

// validateRollingUpdateDeployment is ValidateRollingUpdateDeployment: both
// values non-negative integers or valid percents, not both 0 (an unset value
// counts as 0), maxUnavailable at most 100%. maxSurge above 100% is allowed.
func validateRollingUpdateDeployment(ru *api.RollingUpdateDeployment, p *path) field.ErrorList {
	maxUnavailable, maxSurge := derefIntOrString(ru.MaxUnavailable), derefIntOrString(ru.MaxSurge)
	mu, ms := p.child("maxUnavailable"), p.child("maxSurge")
	errs := validatePositiveIntOrPercent(maxUnavailable, mu)
	errs = append(errs, validatePositiveIntOrPercent(maxSurge, ms)...)
	if intOrPercentValue(maxUnavailable) == 0 && intOrPercentValue(maxSurge) == 0 {
		errs = append(errs, mu.invalid(maxUnavailable, "may not be 0 when `maxSurge` is 0"))
	}
	return append(errs, isNotMoreThan100Percent(maxUnavailable, mu)...)
}

// isNotMoreThan100Percent is IsNotMoreThan100Percent: a valid percent at
// most 100%.
func isNotMoreThan100Percent(v api.IntOrString, p path) field.ErrorList {
	if n, ok := percentValue(v); ok && n > 100 {
		return field.ErrorList{p.invalid(v, "must not be greater than 100%")}
	}
	return nil
}

func derefIntOrString(v *api.IntOrString) api.IntOrString {
	if v == nil {
		return api.IntOrString{}
	}
	return *v
}

// validatePositiveIntOrPercent is ValidatePositiveIntOrPercent.
func validatePositiveIntOrPercent(v api.IntOrString, p path) field.ErrorList {
	if !v.IsString {
		if v.IntVal < 0 {
			return field.ErrorList{p.invalid(int64(v.IntVal), isNegativeErrorMsg)}
		}
		return nil
	}
	var errs field.ErrorList
	for _, msg := range IsValidPercent(v.StrVal) {
		errs = append(errs, p.invalid(v, msg))
	}
	return errs
}

// percentValue is getPercentValue: the number of a valid percent string.
func percentValue(v api.IntOrString) (int, bool) {
	if !v.IsString || len(IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, err := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, err == nil
}

// intOrPercentValue is getIntOrPercentValue: a valid percent's number, else
// intstr's IntValue (which parses a string, and gives 0 when it cannot).
func intOrPercentValue(v api.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	if v.IsString {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

// ValidateReplicaSet validates an apps/v1 ReplicaSet on create (old == nil)
// or update (ValidateReplicaSet / ValidateReplicaSetUpdate plus the
// registry strategy's selector immutability).
func ValidateReplicaSet(rs, old *api.ReplicaSet) field.ErrorList {
	var errs field.ErrorList
	meta, p := root("metadata"), root("spec")
	if old == nil {
		errs = validateObjectMeta(&rs.ObjectMeta, true, nameIsDNSSubdomain, &meta)
	} else {
		errs = validateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, &meta)
	}
	errs = append(errs, validateNonnegative(int64(api.Deref(rs.Spec.Replicas, 0)), &p, "replicas")...)
	errs = append(errs, validateNonnegative(int64(rs.Spec.MinReadySeconds), &p, "minReadySeconds")...)
	selPath, tmplPath := p.child("selector"), p.child("template")
	sel, ok, selErrs := validateWorkloadSelector(rs.Spec.Selector, &selPath)
	errs = append(errs, selErrs...)
	if ok {
		errs = append(errs, validatePodTemplateSpecForReplicaSet(&rs.Spec.Template, sel, &tmplPath)...)
	}
	if old != nil {
		errs = append(errs, validateImmutable(rs.Spec.Selector, old.Spec.Selector, selPath)...)
	}
	return errs
}

// validatePodTemplateSpecForReplicaSet is ValidatePodTemplateSpecForReplicaSet:
// the template labels must match the selector (an empty selector matches
// anything, a nil one nothing), the template must be a valid pod template,
// restartPolicy must be Always and activeDeadlineSeconds unset. Used by
// Deployments and ReplicaSets alike (hence "in ReplicaSet").
func validatePodTemplateSpecForReplicaSet(t *api.PodTemplateSpec, sel labels.Selector, p *path) field.ErrorList {
	var errs field.ErrorList
	if !sel.Empty() && !sel.Matches(t.Labels) {
		m := p.child("metadata")
		errs = append(errs, m.child("labels").invalid(t.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, validatePodTemplateSpec(t, p)...)
	spec := p.child("spec")
	if t.Spec.RestartPolicy != api.RestartPolicyAlways {
		errs = append(errs, spec.child("restartPolicy").notSupported(t.Spec.RestartPolicy, []string{api.RestartPolicyAlways}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, spec.child("activeDeadlineSeconds").forbidden("activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}
