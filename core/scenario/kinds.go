package scenario

import (
	"reflect"
	"sort"
	"strings"

	"converge/core/api"
)

// LookupKind returns the kind a kubectl resource name stands for, by
// kubectl's own rules (api.LookupResource): deployment, deploy,
// deployments, deployment.apps and deployment.v1.apps all give Deployment,
// in any case. An `expect` target thus takes every spelling kubectl does.
func LookupKind(name string) (string, bool) {
	r, ok := api.LookupResource(name)
	if !ok {
		return "", false
	}
	return r.Kind, true
}

// kindType is the Go type of a kind LookupKind returned, for checking
// expect paths.
func kindType(kind string) reflect.Type { return api.ResourceFor(kind).Type }

// resourceName is the canonical lower-case singular name of a kind (a
// resource's singular name is its lower-case kind).
func resourceName(kind string) string { return strings.ToLower(kind) }

// kindNameList is every unqualified resource name, sorted, for "did you
// mean" hints.
func kindNameList() []string {
	var out []string
	for _, r := range api.Resources() {
		out = append(out, r.Names()...)
	}
	sort.Strings(out)
	return out
}
