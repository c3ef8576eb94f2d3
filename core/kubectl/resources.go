package kubectl

import (
	"strings"

	"converge/core/api"
)

// resourceType is one API resource as kubectl's REST mapper knows it.
type resourceType struct {
	kind       string   // Deployment
	plural     string   // deployments
	singular   string   // deployment
	short      []string // deploy
	group      string   // apps, or "" for the core group
	namespaced bool
}

// resourceTypes lists the kinds Converge serves, in `kubectl api-resources`
// order: the core group first, then apps, each by name.
var resourceTypes = []resourceType{
	{kind: api.KindConfigMap, plural: "configmaps", singular: "configmap", short: []string{"cm"}, namespaced: true},
	{kind: api.KindEndpoints, plural: "endpoints", singular: "endpoints", short: []string{"ep"}, namespaced: true},
	{kind: api.KindEvent, plural: "events", singular: "event", short: []string{"ev"}, namespaced: true},
	{kind: api.KindNode, plural: "nodes", singular: "node", short: []string{"no"}},
	{kind: api.KindPod, plural: "pods", singular: "pod", short: []string{"po"}, namespaced: true},
	{kind: api.KindService, plural: "services", singular: "service", short: []string{"svc"}, namespaced: true},
	{kind: api.KindDeployment, plural: "deployments", singular: "deployment", short: []string{"deploy"}, group: "apps", namespaced: true},
	{kind: api.KindReplicaSet, plural: "replicasets", singular: "replicaset", short: []string{"rs"}, group: "apps", namespaced: true},
}

// allTypes is what `kubectl get all` expands to, in kubectl's order, for the
// kinds Converge has.
var allTypes = []string{api.KindPod, api.KindService, api.KindDeployment, api.KindReplicaSet}

// lookupType resolves what a user typed as a resource type: plural,
// singular, short name or kind, any case, optionally qualified by the group
// (deployments.apps, deployment.v1.apps).
func lookupType(s string) (*resourceType, bool) {
	name := strings.ToLower(s)
	group := ""
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name, group = name[:i], name[i+1:]
		if j := strings.IndexByte(group, '.'); j >= 0 && group[:j] == "v1" {
			group = group[j+1:]
		} else if group == "v1" {
			group = ""
		}
	}
	for i := range resourceTypes {
		rt := &resourceTypes[i]
		if group != "" && group != rt.group {
			continue
		}
		if name == rt.plural || name == rt.singular || name == strings.ToLower(rt.kind) {
			return rt, true
		}
		for _, sh := range rt.short {
			if name == sh {
				return rt, true
			}
		}
	}
	return nil, false
}

// typeOfKind returns the resource type of a kind.
func typeOfKind(kind string) *resourceType {
	for i := range resourceTypes {
		if resourceTypes[i].kind == kind {
			return &resourceTypes[i]
		}
	}
	return nil
}

// qualified is "deployments.apps" or "pods", as API errors and kubectl's
// rollout errors name a resource.
func (rt *resourceType) qualified() string {
	if rt.group == "" {
		return rt.plural
	}
	return rt.plural + "." + rt.group
}

// kindString is "deployment.apps" or "pod", as the name printer writes it.
func (rt *resourceType) kindString() string {
	k := strings.ToLower(rt.kind)
	if rt.group == "" {
		return k
	}
	return k + "." + rt.group
}

// groupKind is "Deployment.apps" or "Pod", as kubectl's "not implemented for"
// errors write a kind.
func (rt *resourceType) groupKind() string {
	if rt.group == "" {
		return rt.kind
	}
	return rt.kind + "." + rt.group
}

// ref is the name printer's "deployment.apps/web".
func (rt *resourceType) ref(name string) string { return rt.kindString() + "/" + name }

// apiVersion is "apps/v1" or "v1".
func (rt *resourceType) apiVersion() string {
	if rt.group == "" {
		return "v1"
	}
	return rt.group + "/v1"
}

// typeNames lists every spelling of every type, for completion.
func typeNames() []string {
	var out []string
	for _, rt := range resourceTypes {
		out = append(out, rt.plural)
		if rt.singular != rt.plural {
			out = append(out, rt.singular)
		}
		out = append(out, rt.short...)
	}
	return out
}
