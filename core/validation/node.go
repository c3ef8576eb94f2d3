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
	meta := root("metadata")
	taints := meta.child("taints")
	var errs field.ErrorList
	if old == nil {
		errs = validateObjectMeta(&n.ObjectMeta, false, nameIsDNSSubdomain, &meta)
		if len(n.Spec.Taints) > 0 {
			errs = append(errs, validateNodeTaints(n.Spec.Taints, &taints)...)
		}
		return append(errs, validateNodeResources(n)...)
	}
	errs = validateObjectMetaUpdate(&n.ObjectMeta, &old.ObjectMeta, &meta)
	errs = append(errs, validateNodeResources(n)...)
	seen := map[api.NodeAddress]bool{}
	status := root("status")
	addresses := status.child("addresses")
	for i, a := range n.Status.Addresses {
		if seen[a] {
			errs = append(errs, addresses.at(i).duplicate(internalNodeAddress(a)))
		}
		seen[a] = true
	}
	if len(n.Spec.Taints) > 0 {
		errs = append(errs, validateNodeTaints(n.Spec.Taints, &taints)...)
	}
	return errs
}

func validateNodeResources(n *api.Node) field.ErrorList {
	var errs field.ErrorList
	status := root("status")
	capacity, allocatable := status.child("capacity"), status.child("allocatable")
	for _, k := range sortedKeys(n.Status.Capacity) {
		kp := capacity.child(k)
		errs = append(errs, validateResourceQuantityValue(k, n.Status.Capacity[k], &kp)...)
	}
	for _, k := range sortedKeys(n.Status.Allocatable) {
		kp := allocatable.child(k)
		errs = append(errs, validateResourceQuantityValue(k, n.Status.Allocatable[k], &kp)...)
	}
	return errs
}

// validateNodeTaints is validateNodeTaints.
func validateNodeTaints(ts []api.Taint, p *path) field.ErrorList {
	var errs field.ErrorList
	type key struct{ effect, key string }
	seen := map[key]bool{}
	for i, t := range ts {
		ip := p.at(i)
		kp := ip.child("key")
		errs = append(errs, validateLabelName(t.Key, &kp)...)
		if msgs := labels.IsValidLabelValue(t.Value); len(msgs) != 0 {
			errs = append(errs, ip.child("value").invalid(t.Value, strings.Join(msgs, ";")))
		}
		if t.Effect == "" {
			errs = append(errs, ip.child("effect").required(""))
		} else {
			errs = append(errs, validateTaintEffect(t.Effect, &ip)...)
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
