package validation

import (
	"strings"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

// ValidateNode validates a v1 Node on create (old == nil) or update
// (ValidateNode / ValidateNodeUpdate): a DNS subdomain name and no
// namespace, valid taints (unique by key and effect), and non-negative
// capacity and allocatable (whole numbers of pods). kube reports taints at
// metadata.taints, which this keeps.
func ValidateNode(n, old *api.Node) field.ErrorList {
	meta := field.NewPath("metadata")
	var errs field.ErrorList
	if old == nil {
		errs = validateObjectMeta(&n.ObjectMeta, false, nameIsDNSSubdomain, meta)
		if len(n.Spec.Taints) > 0 {
			errs = append(errs, validateNodeTaints(n.Spec.Taints, meta.Child("taints"))...)
		}
		return append(errs, validateNodeResources(n)...)
	}
	errs = validateObjectMetaUpdate(&n.ObjectMeta, &old.ObjectMeta, meta)
	errs = append(errs, validateNodeResources(n)...)
	seen := map[api.NodeAddress]bool{}
	for i, a := range n.Status.Addresses {
		if seen[a] {
			errs = append(errs, field.Duplicate(field.NewPath("status", "addresses").Index(i), internalNodeAddress(a)))
		}
		seen[a] = true
	}
	if len(n.Spec.Taints) > 0 {
		errs = append(errs, validateNodeTaints(n.Spec.Taints, meta.Child("taints"))...)
	}
	return errs
}

func validateNodeResources(n *api.Node) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sortedKeys(n.Status.Capacity) {
		errs = append(errs, validateResourceQuantityValue(k, n.Status.Capacity[k], field.NewPath("status", "capacity", k))...)
	}
	for _, k := range sortedKeys(n.Status.Allocatable) {
		errs = append(errs, validateResourceQuantityValue(k, n.Status.Allocatable[k], field.NewPath("status", "allocatable", k))...)
	}
	return errs
}

// validateNodeTaints is validateNodeTaints.
func validateNodeTaints(ts []api.Taint, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	type key struct{ effect, key string }
	seen := map[key]bool{}
	for i, t := range ts {
		ip := p.Index(i)
		errs = append(errs, validateLabelName(t.Key, ip.Child("key"))...)
		if msgs := labels.IsValidLabelValue(t.Value); len(msgs) != 0 {
			errs = append(errs, field.Invalid(ip.Child("value"), t.Value, strings.Join(msgs, ";")))
		}
		if t.Effect == "" {
			errs = append(errs, field.Required(ip.Child("effect"), ""))
		} else {
			errs = append(errs, validateTaintEffect(t.Effect, ip.Child("effect"))...)
		}
		k := key{t.Effect, t.Key}
		if seen[k] {
			errs = append(errs, &field.Error{Type: field.ErrorTypeDuplicate, Field: ip.String(),
				BadValue: internalTaint{Key: t.Key, Value: t.Value, Effect: t.Effect, TimeAdded: t.TimeAdded},
				Detail:   "taints must be unique by key and effect pair"})
			continue
		}
		seen[k] = true
	}
	return errs
}
