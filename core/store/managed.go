package store

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"converge/core/api"
)

// Writer is who writes to the store: the field manager the API server
// records in metadata.managedFields, and, for the page's history of a
// Deployment's spec, who that is in words and why it wrote. The writer is
// ambient: whoever drives the store (the engine before each component's
// turn, kubectl before each command, a controller around one write) sets it
// with SetWriter and puts the previous one back. A write with no manager
// records nothing.
type Writer struct {
	// Manager is the field manager: "kubectl-client-side-apply",
	// "kube-controller-manager", "gitops".
	Manager string
	// By names the writer for people: "kubectl scale", "the GitOps
	// reconciler", "the HorizontalPodAutoscaler web".
	By string
	// Reason says why it wrote, for the history: "Git declares 3".
	Reason string
}

// Field managers of the components and of kubectl (kubectl's defaults of
// --field-manager; a command without the flag, such as kubectl scale,
// sends none and the API server takes the user agent's first word).
const (
	ManagerControllerManager = "kube-controller-manager"
	ManagerScheduler         = "kube-scheduler"
	ManagerKubelet           = "kubelet"
	ManagerKubectl           = "kubectl"
	ManagerClientSideApply   = "kubectl-client-side-apply"
)

// Subresources a write may go through.
const (
	SubresourceStatus = "status"
	SubresourceScale  = "scale"
)

// SetWriter makes w the writer of the writes that follow and returns the
// previous one.
func (s *Store) SetWriter(w Writer) Writer {
	prev := s.writer
	s.writer = w
	return prev
}

// CurrentWriter returns the writer SetWriter set.
func (s *Store) CurrentWriter() Writer { return s.writer }

// managedKinds are the kinds whose managedFields the store keeps: the
// workloads and what users apply. Pods, nodes, endpoints and events have
// none in Converge (docs/fidelity.md).
var managedKinds = map[string]bool{api.KindDeployment: true, api.KindReplicaSet: true, api.KindHorizontalPodAutoscaler: true,
	api.KindService: true, api.KindConfigMap: true}

// managed is one object's managedFields and field history. It is never
// modified once stored: a write stores a new one, so clones share them.
type managed struct {
	entries []managedEntry
	history []FieldChange
}

// managedEntry is one managedFields entry; fields is a sorted set of paths.
type managedEntry struct {
	manager, operation, subresource, apiVersion string
	time                                        api.Time
	fields                                      []string
}

func (e *managedEntry) sameID(manager, operation, sub string) bool {
	return e.manager == manager && e.operation == operation && e.subresource == sub
}

// FieldChange is one write that changed a tracked field of a Deployment's
// spec (spec.replicas, spec.template): the page's "who wrote it" timeline.
type FieldChange struct {
	Time api.Time
	// Field is "spec.replicas" or "spec.template".
	Field string
	// Old and New are the field's JSON before and after ("" when absent).
	Old, New    string
	Manager     string
	Operation   string
	Subresource string
	By, Reason  string
}

// MaxFieldHistory bounds the changes kept per object (the oldest go first).
const MaxFieldHistory = 200

// historyFields are the Deployment spec fields whose changes are kept, by path.
var historyFields = []struct{ path, name string }{
	{pathOf("f:spec", "f:replicas"), "spec.replicas"},
	{pathOf("f:spec", "f:template"), "spec.template"},
}

const pathSep = "\x00"

func pathOf(parts ...string) string { return strings.Join(parts, pathSep) }

// ManagedFields returns the object's metadata.managedFields as the API
// server would serve them, sorted as it sorts them (Apply before Update,
// then by time, manager, apiVersion and subresource); nil when none.
func (s *Store) ManagedFields(uid string) []api.ManagedFieldsEntry {
	m := s.managed[uid]
	if m == nil {
		return nil
	}
	out := make([]api.ManagedFieldsEntry, 0, len(m.entries))
	for _, e := range m.entries {
		t := e.time
		out = append(out, api.ManagedFieldsEntry{Manager: e.manager, Operation: e.operation, APIVersion: e.apiVersion,
			Time: &t, FieldsType: api.FieldsTypeFieldsV1, FieldsV1: fieldsTree(e.fields), Subresource: e.subresource})
	}
	sort.SliceStable(out, func(i, j int) bool {
		p, q := out[i], out[j]
		switch {
		case p.Operation != q.Operation:
			return p.Operation < q.Operation
		case !p.Time.Equal(*q.Time):
			return p.Time.Before(q.Time.Time)
		case p.Manager != q.Manager:
			return p.Manager < q.Manager
		case p.APIVersion != q.APIVersion:
			return p.APIVersion < q.APIVersion
		}
		return p.Subresource < q.Subresource
	})
	return out
}

// FieldHistory returns the changes of a Deployment's spec.replicas and
// spec.template, oldest first (at most MaxFieldHistory). Shared: do not
// modify.
func (s *Store) FieldHistory(uid string) []FieldChange {
	if m := s.managed[uid]; m != nil {
		return m.history
	}
	return nil
}

func fieldsTree(paths []string) *api.FieldsV1 {
	root := &api.FieldsV1{}
	for _, p := range paths {
		n := root
		for _, k := range strings.Split(p, pathSep) {
			if n.Children == nil {
				n.Children = map[string]*api.FieldsV1{}
			}
			c := n.Children[k]
			if c == nil {
				c = &api.FieldsV1{}
				n.Children[k] = c
			}
			n = c
		}
	}
	return root
}

// trackWrite records a write of obj (old is nil on create) through sub
// ("", "status" or "scale") by the current writer, as the API server's
// field manager does for an Update: the writer's entry gains the fields the
// write added or changed, every other entry loses them, and fields the
// write removed leave every entry. applied, for an Apply, is the applied
// configuration: the writer's Apply entry becomes exactly its fields.
func (s *Store) trackWrite(kind string, old, obj api.Object, sub string, applied api.Object) {
	w := s.writer
	if w.Manager == "" || !managedKinds[kind] {
		return
	}
	uid := obj.GetObjectMeta().UID
	before := fieldValues(old, sub)
	after := fieldValues(obj, sub)
	var changed, removed []string
	for _, p := range sortedKeys(after) {
		if v, ok := before[p]; !ok || !bytes.Equal(v, after[p]) {
			changed = append(changed, p)
		}
	}
	for _, p := range sortedKeys(before) {
		if _, ok := after[p]; !ok {
			removed = append(removed, p)
		}
	}
	if len(changed) == 0 && len(removed) == 0 && applied == nil {
		return
	}
	prev := s.managed[uid]
	next := &managed{}
	if prev != nil {
		next.history = prev.history
	}
	op := api.ManagedFieldsOperationUpdate
	mine := changed
	if applied != nil {
		op = api.ManagedFieldsOperationApply
		mine = appliedFields(applied)
	}
	drop := append(slices.Clone(changed), removed...)
	found := false
	for _, e := range entriesOf(prev) {
		if e.sameID(w.Manager, op, sub) {
			found = true
			if applied != nil {
				e.fields = mine
			} else {
				e.fields = without(union(e.fields, mine), removed)
			}
			if len(changed) > 0 || len(removed) > 0 {
				e.time = s.Now()
			}
		} else {
			e.fields = without(e.fields, drop)
		}
		if len(e.fields) > 0 {
			next.entries = append(next.entries, e)
		}
	}
	if !found && len(mine) > 0 {
		next.entries = append(next.entries, managedEntry{manager: w.Manager, operation: op, subresource: sub,
			apiVersion: api.APIVersionFor(kind), time: s.Now(), fields: mine})
	}
	if kind == api.KindDeployment && sub != SubresourceStatus {
		next.history = s.appendHistory(next.history, before, after, op, sub)
	}
	if s.managed == nil {
		s.managed = map[string]*managed{}
	}
	s.managed[uid] = next
}

// appliedFields are the fields an applied configuration sets: its
// fieldValues without the ones it leaves null, and without the "." of its
// maps (an Apply owns the keys it sets, not the map).
func appliedFields(applied api.Object) []string {
	var out []string
	vals := fieldValues(applied, "")
	for _, p := range sortedKeys(vals) {
		if strings.HasSuffix(p, pathSep+".") || string(vals[p]) == "null" {
			continue
		}
		out = append(out, p)
	}
	return out
}

func entriesOf(m *managed) []managedEntry {
	if m == nil {
		return nil
	}
	return slices.Clone(m.entries)
}

func (s *Store) appendHistory(h []FieldChange, before, after map[string][]byte, op, sub string) []FieldChange {
	w := s.writer
	for _, f := range historyFields {
		b, a := before[f.path], after[f.path]
		if bytes.Equal(b, a) {
			continue
		}
		if len(h) >= MaxFieldHistory {
			h = h[len(h)-MaxFieldHistory+1:]
		}
		h = append(slices.Clip(h), FieldChange{Time: s.Now(), Field: f.name, Old: string(b), New: string(a), Manager: w.Manager,
			Operation: op, Subresource: sub, By: w.By, Reason: w.Reason})
	}
	return h
}

// forgetManaged drops a removed object's managedFields.
func (s *Store) forgetManaged(uid string) {
	if s.managed[uid] != nil {
		delete(s.managed, uid)
	}
}

// fieldValues are the fields a write through sub can own, by path, with
// their JSON. The main resource has its labels, annotations and
// ownerReferences (one path each) and every child of its top-level fields
// other than metadata and status (spec.replicas, spec.template, data.KEY):
// Converge tracks ownership at that depth, not leaf by leaf
// (docs/fidelity.md). The status subresource has the children of status;
// the scale subresource has spec.replicas.
func fieldValues(obj api.Object, sub string) map[string][]byte {
	out := map[string][]byte{}
	if obj == nil {
		return out
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return out
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return out
	}
	switch sub {
	case SubresourceScale:
		var spec map[string]json.RawMessage
		if json.Unmarshal(top["spec"], &spec) == nil {
			if r, ok := spec["replicas"]; ok {
				out[pathOf("f:spec", "f:replicas")] = r
			}
		}
		return out
	case SubresourceStatus:
		// A Deployment's status subresource also writes its annotations
		// (the revision), as its registry's status strategy allows.
		var meta struct {
			Annotations map[string]string `json:"annotations"`
		}
		if json.Unmarshal(top["metadata"], &meta) == nil {
			for k, v := range meta.Annotations {
				out[pathOf("f:metadata", "f:annotations", "f:"+k)] = []byte(v)
			}
		}
		children(out, "f:status", top["status"])
		return out
	}
	var meta struct {
		Labels          map[string]string    `json:"labels"`
		Annotations     map[string]string    `json:"annotations"`
		OwnerReferences []api.OwnerReference `json:"ownerReferences"`
	}
	if json.Unmarshal(top["metadata"], &meta) == nil {
		for _, m := range []struct {
			name string
			kv   map[string]string
		}{{"f:labels", meta.Labels}, {"f:annotations", meta.Annotations}} {
			if len(m.kv) > 0 {
				out[pathOf("f:metadata", m.name, ".")] = nil
			}
			for k, v := range m.kv {
				out[pathOf("f:metadata", m.name, "f:"+k)] = []byte(v)
			}
		}
		if len(meta.OwnerReferences) > 0 {
			out[pathOf("f:metadata", "f:ownerReferences", ".")] = nil
		}
		for _, r := range meta.OwnerReferences {
			rb, _ := json.Marshal(r)
			out[pathOf("f:metadata", "f:ownerReferences", `k:{"uid":"`+r.UID+`"}`)] = rb
		}
	}
	for k, v := range top {
		switch k {
		case "apiVersion", "kind", "metadata", "status":
			continue
		}
		if len(v) > 0 && v[0] == '{' {
			children(out, "f:"+k, v)
			continue
		}
		out[pathOf("f:"+k)] = v
	}
	return out
}

// children adds the children of a JSON object at prefix.
func children(out map[string][]byte, prefix string, raw json.RawMessage) {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return
	}
	for k, v := range m {
		out[pathOf(prefix, "f:"+k)] = v
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// union merges two sorted sets.
func union(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// without returns a minus the elements of drop (a sorted, drop any order).
func without(a, drop []string) []string {
	if len(drop) == 0 {
		return a
	}
	gone := make(map[string]bool, len(drop))
	for _, d := range drop {
		gone[d] = true
	}
	out := make([]string, 0, len(a))
	for _, x := range a {
		if !gone[x] {
			out = append(out, x)
		}
	}
	return out
}
