package api

import "encoding/json"

// ManagedFieldsEntry is metav1.ManagedFieldsEntry: which manager wrote
// which fields of an object, by which operation and when. The store keeps
// these beside the objects (core/store's managed.go), not in ObjectMeta:
// kubectl shows them only with --show-managed-fields, and the trace never
// does (docs/fidelity.md, managedFields).
type ManagedFieldsEntry struct {
	Manager     string    `json:"manager,omitempty"`
	Operation   string    `json:"operation,omitempty"`
	APIVersion  string    `json:"apiVersion,omitempty"`
	Time        *Time     `json:"time,omitempty"`
	FieldsType  string    `json:"fieldsType,omitempty"`
	FieldsV1    *FieldsV1 `json:"fieldsV1,omitempty"`
	Subresource string    `json:"subresource,omitempty"`
}

// Managed fields operations and the one fields type.
const (
	ManagedFieldsOperationApply  = "Apply"
	ManagedFieldsOperationUpdate = "Update"
	FieldsTypeFieldsV1           = "FieldsV1"
)

// FieldsV1 is the set of fields in the API server's FieldsV1 form: a tree of
// "f:<field>" keys (and "." for a map or list entry itself), each leaf {}.
// Marshal writes its keys sorted, as the API server does.
type FieldsV1 struct {
	// Children are the keys below this node; nil for a leaf.
	Children map[string]*FieldsV1
}

// MarshalJSON implements json.Marshaler: {"f:spec":{"f:replicas":{}}}.
func (f *FieldsV1) MarshalJSON() ([]byte, error) {
	if f == nil || len(f.Children) == 0 {
		return []byte("{}"), nil
	}
	return json.Marshal(f.Children)
}

// Value returns the set as nested maps (map[string]any), as kubectl's
// printers see JSON.
func (f *FieldsV1) Value() map[string]any {
	out := map[string]any{}
	if f == nil {
		return out
	}
	for k, c := range f.Children {
		out[k] = c.Value()
	}
	return out
}
