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
func validateTolerations(ts []api.Toleration, p *path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range ts {
		ip := p.at(i)
		if t.Key != "" {
			kp := ip.child("key")
			errs = append(errs, validateLabelName(t.Key, &kp)...)
		}
		op := ip.child("operator")
		if t.Key == "" && t.Operator != "Exists" {
			errs = append(errs, op.invalid(t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, ip.child("effect").invalid(t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case "Equal", "":
			if msgs := labels.IsValidLabelValue(t.Value); len(msgs) != 0 {
				errs = append(errs, op.invalid(t.Value, strings.Join(msgs, ";")))
			}
		case "Exists":
			if t.Value != "" {
				errs = append(errs, op.invalid(internalTolerationOf(t), "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, op.notSupported(t.Operator, tolerationOperators))
		}
		if t.Effect != "" {
			errs = append(errs, validateTaintEffect(t.Effect, &ip)...)
		}
	}
	return errs
}

// validateTaintEffect checks an effect at p's child "effect".
func validateTaintEffect(e string, p *path) field.ErrorList {
	for _, s := range taintEffects {
		if e == s {
			return nil
		}
	}
	return field.ErrorList{p.child("effect").notSupported(e, taintEffects)}
}

// validateOnlyAddedTolerations is validateOnlyAddedTolerations: on a pod
// update every existing toleration must still be there (its
// tolerationSeconds may change); new ones may be added.
func validateOnlyAddedTolerations(ts, old []api.Toleration, p *path) field.ErrorList {
	for _, o := range old {
		found := false
		for _, t := range ts {
			if o.Key == t.Key && o.Operator == t.Operator && o.Value == t.Value && o.Effect == t.Effect {
				found = true
				break
			}
		}
		if !found {
			return field.ErrorList{p.forbidden("existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return validateTolerations(ts, p)
}
