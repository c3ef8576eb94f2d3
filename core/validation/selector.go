package validation

import (
	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

// validateLabelSelector is metav1 validation's ValidateLabelSelector with
// strict label values (AllowInvalidLabelValueInSelector false), as the apps
// validation uses it.
func validateLabelSelector(ls *api.LabelSelector, p *field.Path) field.ErrorList {
	if ls == nil {
		return nil
	}
	errs := validateLabels(ls.MatchLabels, p.Child("matchLabels"))
	for i, e := range ls.MatchExpressions {
		errs = append(errs, validateLabelSelectorRequirement(e, p.Child("matchExpressions").Index(i))...)
	}
	return errs
}

func validateLabelSelectorRequirement(r api.LabelSelectorRequirement, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch r.Operator {
	case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
		if len(r.Values) == 0 {
			errs = append(errs, field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			errs = append(errs, field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	default:
		errs = append(errs, field.Invalid(p.Child("operator"), r.Operator, "not a valid selector operator"))
	}
	errs = append(errs, validateLabelName(r.Key, p.Child("key"))...)
	for i, v := range r.Values {
		for _, msg := range labels.IsValidLabelValue(v) {
			errs = append(errs, field.Invalid(p.Child("values").Index(i), v, msg))
		}
	}
	return errs
}

// validateWorkloadSelector holds the selector rules shared by Deployments and
// ReplicaSets (ValidateDeploymentSpec, ValidateReplicaSetSpec): required,
// valid, not empty. It returns the parsed selector, and false when
// LabelSelectorAsSelector would fail (then the template is not validated,
// as in kube).
func validateWorkloadSelector(ls *api.LabelSelector, p *field.Path) (labels.Selector, bool, field.ErrorList) {
	var errs field.ErrorList
	if ls == nil {
		errs = append(errs, field.Required(p, ""))
	} else {
		errs = append(errs, validateLabelSelector(ls, p)...)
		if len(ls.MatchLabels)+len(ls.MatchExpressions) == 0 {
			// kube says "deployment" for ReplicaSets too.
			errs = append(errs, field.Invalid(p, ls, "empty selector is invalid for deployment"))
		}
	}
	sel, err := labels.FromLabelSelector(ls)
	if err != nil {
		return sel, false, append(errs, field.Invalid(p, ls, "invalid label selector"))
	}
	return sel, true, errs
}
