package validation

import (
	"converge/core/api"
	"converge/core/validation/field"
)

// ValidatePodDisruptionBudget validates a policy/v1 PodDisruptionBudget on
// create (old == nil) or update (the registry's metadata checks plus
// ValidatePodDisruptionBudget; the spec may change since Kubernetes 1.15):
// minAvailable and maxUnavailable not both set, each a non-negative integer
// or a valid percent of at most 100%, a valid selector, and a supported
// unhealthyPodEvictionPolicy.
func ValidatePodDisruptionBudget(pdb, old *api.PodDisruptionBudget) field.ErrorList {
	meta := root("metadata")
	var errs field.ErrorList
	if old != nil {
		errs = validateObjectMetaUpdate(&pdb.ObjectMeta, &old.ObjectMeta, &meta)
	}
	errs = append(errs, validateObjectMeta(&pdb.ObjectMeta, true, nameIsDNSSubdomain, &meta)...)
	s := &pdb.Spec
	spec := root("spec")
	if s.MinAvailable != nil && s.MaxUnavailable != nil {
		errs = append(errs, spec.invalid(*s, "minAvailable and maxUnavailable cannot be both set"))
	}
	for _, f := range []struct {
		name string
		v    *api.IntOrString
	}{{"minAvailable", s.MinAvailable}, {"maxUnavailable", s.MaxUnavailable}} {
		if f.v == nil {
			continue
		}
		fp := spec.child(f.name)
		errs = append(errs, validatePositiveIntOrPercent(*f.v, fp)...)
		errs = append(errs, isNotMoreThan100Percent(*f.v, fp)...)
	}
	sel := spec.child("selector")
	errs = append(errs, validateLabelSelector(s.Selector, &sel)...)
	if p := s.UnhealthyPodEvictionPolicy; p != nil && *p != api.IfHealthyBudget && *p != api.AlwaysAllow {
		errs = append(errs, spec.child("unhealthyPodEvictionPolicy").notSupported(*p, []string{api.AlwaysAllow, api.IfHealthyBudget}))
	}
	return errs
}
