package validation

import (
	"strings"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

var (
	tolerationOperators = []string{"Equal", "Exists"}
	taintEffects        = []string{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}
)

// validateTolerations is ValidateTolerations.
func validateTolerations(ts []api.Toleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range ts {
		ip := p.Index(i)
		if t.Key != "" {
			errs = append(errs, validateLabelName(t.Key, ip.Child("key"))...)
		}
		if t.Key == "" && t.Operator != "Exists" {
			errs = append(errs, field.Invalid(ip.Child("operator"), t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, field.Invalid(ip.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case "Equal", "":
			if msgs := labels.IsValidLabelValue(t.Value); len(msgs) != 0 {
				errs = append(errs, field.Invalid(ip.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case "Exists":
			if t.Value != "" {
				errs = append(errs, field.Invalid(ip.Child("operator"), internalTolerationOf(t), "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, field.NotSupported(ip.Child("operator"), t.Operator, tolerationOperators))
		}
		if t.Effect != "" {
			errs = append(errs, validateTaintEffect(t.Effect, ip.Child("effect"))...)
		}
	}
	return errs
}

func validateTaintEffect(e string, p *field.Path) field.ErrorList {
	for _, s := range taintEffects {
		if e == s {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(p, e, taintEffects)}
}

// validateOnlyAddedTolerations is validateOnlyAddedTolerations: on a pod
// update every existing toleration must still be there (its
// tolerationSeconds may change); new ones may be added.
func validateOnlyAddedTolerations(ts, old []api.Toleration, p *field.Path) field.ErrorList {
	for _, o := range old {
		found := false
		for _, t := range ts {
			if o.Key == t.Key && o.Operator == t.Operator && o.Value == t.Value && o.Effect == t.Effect {
				found = true
				break
			}
		}
		if !found {
			return field.ErrorList{field.Forbidden(p, "existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return validateTolerations(ts, p)
}
