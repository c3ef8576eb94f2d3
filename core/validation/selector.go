package validation

import (
	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

// validateLabelSelector is metav1 validation's ValidateLabelSelector with
// strict label values (AllowInvalidLabelValueInSelector false), as the apps
// validation uses it.
func validateLabelSelector(ls *api.LabelSelector, p *path) field.ErrorList {
	if ls == nil {
		return nil
	}
	mp, ep := p.child("matchLabels"), p.child("matchExpressions")
	errs := validateLabels(ls.MatchLabels, &mp)
	for i, e := range ls.MatchExpressions {
		ip := ep.at(i)
		errs = append(errs, validateLabelSelectorRequirement(e, &ip)...)
	}
	return errs
}

func validateLabelSelectorRequirement(r api.LabelSelectorRequirement, p *path) field.ErrorList {
	var errs field.ErrorList
	vp := p.child("values")
	switch r.Operator {
	case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
		if len(r.Values) == 0 {
			errs = append(errs, vp.required("must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			errs = append(errs, vp.forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	default:
		errs = append(errs, p.child("operator").invalid(r.Operator, "not a valid selector operator"))
	}
	kp := p.child("key")
	errs = append(errs, validateLabelName(r.Key, &kp)...)
	for i, v := range r.Values {
		for _, msg := range labels.IsValidLabelValue(v) {
			errs = append(errs, vp.at(i).invalid(v, msg))
		}
	}
	return errs
}

// validateWorkloadSelector holds the selector rules shared by Deployments and
// ReplicaSets (ValidateDeploymentSpec, ValidateReplicaSetSpec): required,
// valid, not empty. It returns the parsed selector, and false when
// LabelSelectorAsSelector would fail (then the template is not validated,
// as in kube).
func validateWorkloadSelector(ls *api.LabelSelector, p *path) (labels.Selector, bool, field.ErrorList) {
	var errs field.ErrorList
	if ls == nil {
		errs = append(errs, p.required(""))
	} else {
		errs = append(errs, validateLabelSelector(ls, p)...)
		if len(ls.MatchLabels)+len(ls.MatchExpressions) == 0 {
			// kube says "deployment" for ReplicaSets too.
			errs = append(errs, p.invalid(ls, "empty selector is invalid for deployment"))
		}
	}
	sel, err := labels.FromLabelSelector(ls)
	if err != nil {
		return sel, false, append(errs, p.invalid(ls, "invalid label selector"))
	}
	return sel, true, errs
}
