package kubectl

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/store"
)

// Namespaces: the store holds no Namespace objects (every object names its
// namespace, and none is refused for a missing one), so `kubectl get ns`
// lists the namespaces a cluster starts with (kube-system, kube-public,
// kube-node-lease and default, made when the cluster starts) and every
// other namespace an object lives in, made when its first object was.
// Only get reads them; the other commands refuse the type
// (docs/fidelity.md).

// namespaceType is the namespaces resource, outside core/api's table: the
// store, the garbage collector and the view never see it.
var namespaceType = &api.Resource{Kind: "Namespace", Plural: "namespaces", Singular: "namespace", ShortNames: []string{"ns"},
	Version: "v1", Type: reflect.TypeFor[namespace]()}

// builtinNamespaces are the namespaces of a new cluster.
var builtinNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

// namespace is v1 Namespace as the API server returns it.
type namespace struct {
	api.TypeMeta   `json:",inline"`
	api.ObjectMeta `json:"metadata"`
	Spec           struct {
		Finalizers []string `json:"finalizers,omitempty"`
	} `json:"spec"`
	Status struct {
		Phase string `json:"phase,omitempty"`
	} `json:"status"`
}

// DeepCopyObject implements api.Object.
func (n *namespace) DeepCopyObject() api.Object {
	out := *n
	out.ObjectMeta = n.ObjectMeta.DeepCopy()
	out.Spec.Finalizers = slices.Clone(n.Spec.Finalizers)
	return &out
}

// isNamespaceType reports kubectl's spellings of the namespaces resource.
func isNamespaceType(s string) bool {
	switch strings.ToLower(s) {
	case "ns", "namespace", "namespaces", "namespaces.v1", "namespace.v1", "ns.v1":
		return true
	}
	return false
}

// namespaces returns the cluster's namespaces, sorted by name, as the API
// server lists them.
func (x *execCtx) namespaces() []*namespace {
	created := map[string]api.Time{}
	for _, ns := range builtinNamespaces {
		created[ns] = api.NewTime(api.Epoch)
	}
	for _, rt := range api.Resources() {
		if !rt.Namespaced {
			continue
		}
		for _, o := range x.st.List(rt.Kind) {
			m := o.GetObjectMeta()
			if t, ok := created[m.Namespace]; m.Namespace != "" && (!ok || m.CreationTimestamp.Before(t.Time)) {
				created[m.Namespace] = m.CreationTimestamp
			}
		}
	}
	names := make([]string, 0, len(created))
	for n := range created {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]*namespace, len(names))
	for i, n := range names {
		ns := &namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: api.ObjectMeta{Name: n, CreationTimestamp: created[n],
				Labels: map[string]string{"kubernetes.io/metadata.name": n}}}
		ns.Spec.Finalizers = []string{"kubernetes"}
		ns.Status.Phase = "Active"
		out[i] = ns
	}
	return out
}

// listNamespaces is list for the namespaces resource.
func (x *execCtx) listNamespaces(sel labels.Selector) []info {
	var out []info
	for _, ns := range x.namespaces() {
		if sel.Matches(ns.Labels) {
			out = append(out, info{rt: namespaceType, obj: ns})
		}
	}
	return out
}

// getNamespace is the API server's get of one namespace.
func (x *execCtx) getNamespace(name string) (api.Object, error) {
	for _, ns := range x.namespaces() {
		if ns.Name == name {
			return ns, nil
		}
	}
	return nil, &store.StatusError{Reason: store.ReasonNotFound, Kind: namespaceType.Kind, Name: name,
		Message: fmt.Sprintf("namespaces %q not found", name)}
}

// refuseNamespaces refuses the namespaces resource in a command other than
// get.
func (x *execCtx) refuseNamespaces(ts []target) error {
	for _, t := range ts {
		if t.rt == namespaceType && x.cmd.Path[0] != "get" {
			return &plainError{msg: fmt.Sprintf(msgNotSimulated, "kubectl "+strings.Join(x.cmd.Path, " ")+" namespace",
				"Converge simulates the objects of namespaces, not the namespaces themselves: kubectl get namespaces lists them")}
		}
	}
	return nil
}
