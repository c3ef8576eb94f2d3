package api

import (
	"reflect"
	"slices"
	"strings"
)

// Resource is one API resource Converge serves: its kind, the names the API
// server's discovery gives it (what `kubectl api-resources` lists and
// kubectl's REST mapper resolves), and its Go type. It is the one table of
// kind names: kubectl, `expect`, the store and the view all read it.
//
// The entries are shared: never modify one.
type Resource struct {
	Kind       string   // Deployment
	Plural     string   // deployments
	Singular   string   // deployment (the lower-case kind)
	ShortNames []string // deploy
	Group      string   // apps, or "" for the core group
	Version    string   // v1
	Namespaced bool
	// Categories are the discovery categories: "all" for what
	// `kubectl get all` lists.
	Categories []string
	// Type is the Go type of one object, api.Deployment.
	Type reflect.Type
}

// resources are the kinds Converge serves, in `kubectl api-resources`
// order: the core group first, then the other groups in discovery order
// (apps, autoscaling, ..., policy), each group by plural name.
var resources = []*Resource{
	{Kind: KindConfigMap, Plural: "configmaps", Singular: "configmap", ShortNames: []string{"cm"}, Version: "v1",
		Namespaced: true, Type: reflect.TypeFor[ConfigMap]()},
	{Kind: KindEndpoints, Plural: "endpoints", Singular: "endpoints", ShortNames: []string{"ep"}, Version: "v1",
		Namespaced: true, Type: reflect.TypeFor[Endpoints]()},
	{Kind: KindEvent, Plural: "events", Singular: "event", ShortNames: []string{"ev"}, Version: "v1",
		Namespaced: true, Type: reflect.TypeFor[Event]()},
	{Kind: KindNode, Plural: "nodes", Singular: "node", ShortNames: []string{"no"}, Version: "v1",
		Type: reflect.TypeFor[Node]()},
	{Kind: KindPod, Plural: "pods", Singular: "pod", ShortNames: []string{"po"}, Version: "v1",
		Namespaced: true, Categories: []string{"all"}, Type: reflect.TypeFor[Pod]()},
	{Kind: KindResourceQuota, Plural: "resourcequotas", Singular: "resourcequota", ShortNames: []string{"quota"}, Version: "v1",
		Namespaced: true, Type: reflect.TypeFor[ResourceQuota]()},
	{Kind: KindService, Plural: "services", Singular: "service", ShortNames: []string{"svc"}, Version: "v1",
		Namespaced: true, Categories: []string{"all"}, Type: reflect.TypeFor[Service]()},
	{Kind: KindDeployment, Plural: "deployments", Singular: "deployment", ShortNames: []string{"deploy"}, Group: "apps",
		Version: "v1", Namespaced: true, Categories: []string{"all"}, Type: reflect.TypeFor[Deployment]()},
	{Kind: KindReplicaSet, Plural: "replicasets", Singular: "replicaset", ShortNames: []string{"rs"}, Group: "apps",
		Version: "v1", Namespaced: true, Categories: []string{"all"}, Type: reflect.TypeFor[ReplicaSet]()},
	{Kind: KindHorizontalPodAutoscaler, Plural: "horizontalpodautoscalers", Singular: "horizontalpodautoscaler",
		ShortNames: []string{"hpa"}, Group: "autoscaling", Version: "v2", Namespaced: true, Categories: []string{"all"},
		Type: reflect.TypeFor[HorizontalPodAutoscaler]()},
	{Kind: KindPodDisruptionBudget, Plural: "poddisruptionbudgets", Singular: "poddisruptionbudget", ShortNames: []string{"pdb"},
		Group: "policy", Version: "v1", Namespaced: true, Type: reflect.TypeFor[PodDisruptionBudget]()},
}

// Resources returns every resource in `kubectl api-resources` order.
func Resources() []*Resource { return slices.Clone(resources) }

// ResourceFor returns the resource of a kind (Deployment), or nil.
func ResourceFor(kind string) *Resource {
	for _, r := range resources {
		if r.Kind == kind {
			return r
		}
	}
	return nil
}

// ResourceOf returns the resource of obj's Go type, or nil.
func ResourceOf(obj Object) *Resource {
	t := reflect.TypeOf(obj)
	if t == nil || t.Kind() != reflect.Pointer {
		return nil
	}
	t = t.Elem()
	for _, r := range resources {
		if r.Type == t {
			return r
		}
	}
	return nil
}

// KindOf returns the kind of obj's Go type, or "" for a type that is not a
// resource.
func KindOf(obj Object) string {
	if r := ResourceOf(obj); r != nil {
		return r.Kind
	}
	return ""
}

// LookupResource resolves a resource name the way kubectl's REST mapper
// does: the plural, the singular, a short name or the kind, in any case,
// alone or qualified by the group (deployments.apps), by version and group
// (deployment.v1.apps) or by the version alone (pods.v1, which matches in
// any group). kubectl's arguments, `expect` and the view all resolve names
// here, so they accept the same spellings.
func LookupResource(s string) (*Resource, bool) {
	name := strings.ToLower(s)
	group, version := "", ""
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name, group = name[:i], name[i+1:]
		if j := strings.IndexByte(group, '.'); j >= 0 && isVersion(group[:j]) {
			version, group = group[:j], group[j+1:]
		} else if isVersion(group) {
			version, group = group, ""
		}
	}
	for _, r := range resources {
		if group != "" && group != r.Group || version != "" && version != r.Version {
			continue
		}
		// The singular is the lower-case kind, so it matches the kind too.
		if name == r.Plural || name == r.Singular || slices.Contains(r.ShortNames, name) {
			return r, true
		}
	}
	return nil, false
}

// isVersion reports whether s is an API version such as v1, v2 or
// v1beta1, as the second part of "deployment.v1.apps" is.
func isVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '1' || s[1] > '9' {
		return false
	}
	rest := strings.TrimLeft(s[1:], "0123456789")
	for _, q := range []string{"alpha", "beta"} {
		if r, ok := strings.CutPrefix(rest, q); ok && r != "" && strings.Trim(r, "0123456789") == "" {
			return true
		}
	}
	return rest == ""
}

// Names are the plural, the singular (when it differs) and the short names:
// every unqualified spelling, as completion offers them.
func (r *Resource) Names() []string {
	out := []string{r.Plural}
	if r.Singular != r.Plural {
		out = append(out, r.Singular)
	}
	return append(out, r.ShortNames...)
}

// Spellings are every name LookupResource resolves to r, in lower case:
// Names, each also as NAME.GROUP and NAME.VERSION.GROUP (NAME.VERSION in
// the core group).
func (r *Resource) Spellings() []string {
	var out []string
	for _, n := range r.Names() {
		out = append(out, n)
		if r.Group == "" {
			out = append(out, n+"."+r.Version)
			continue
		}
		out = append(out, n+"."+r.Group, n+"."+r.Version+"."+r.Group)
	}
	return out
}

// APIVersion is "apps/v1", or "v1" in the core group.
func (r *Resource) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// GroupResource is "deployments.apps", or "pods" in the core group, as API
// errors name a resource.
func (r *Resource) GroupResource() string {
	if r.Group == "" {
		return r.Plural
	}
	return r.Plural + "." + r.Group
}

// GroupKind is "Deployment.apps", or "Pod" in the core group, as API errors
// name a kind.
func (r *Resource) GroupKind() string {
	if r.Group == "" {
		return r.Kind
	}
	return r.Kind + "." + r.Group
}

// New returns a new, empty object of the resource's type.
func (r *Resource) New() Object { return reflect.New(r.Type).Interface().(Object) }
