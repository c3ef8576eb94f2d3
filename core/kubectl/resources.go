package kubectl

import (
	"slices"

	"converge/core/api"
)

// resourceType is one API resource as kubectl's REST mapper knows it: an
// entry of core/api's resource table (api.LookupResource resolves what a
// user typed), shared, never modified. Pointers to the same entry are
// equal, so commands compare types with ==.
type resourceType = api.Resource

// allTypes is what `kubectl get all` expands to: the kinds in the "all"
// category, in `kubectl api-resources` order.
func allTypes() []*resourceType {
	var out []*resourceType
	for _, rt := range api.Resources() {
		if slices.Contains(rt.Categories, "all") {
			out = append(out, rt)
		}
	}
	return out
}

// kindString is "deployment.apps" or "pod", as the name printer writes it.
func kindString(rt *resourceType) string {
	if rt.Group == "" {
		return rt.Singular
	}
	return rt.Singular + "." + rt.Group
}

// ref is the name printer's "deployment.apps/web".
func ref(rt *resourceType, name string) string { return kindString(rt) + "/" + name }

// typeNames lists every unqualified spelling of the given kinds (of every
// kind when none is given), for completion.
func typeNames(kinds ...string) []string {
	var out []string
	for _, rt := range api.Resources() {
		if len(kinds) == 0 || slices.Contains(kinds, rt.Kind) {
			out = append(out, rt.Names()...)
		}
	}
	return out
}
