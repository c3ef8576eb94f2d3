package store

import (
	"encoding/json"
	"fmt"

	"converge/core/api"
)

// Patch applies an RFC 7386 JSON merge patch to an object and stores the
// result with Update (or UpdateStatus when status is set). The patch may not
// change the name or namespace.
func (s *Store) Patch(kind, namespace, name string, patch []byte, status bool) (api.Object, error) {
	cur, err := s.Get(kind, namespace, name)
	if err != nil {
		return nil, err
	}
	orig, err := json.Marshal(cur)
	if err != nil {
		return nil, err
	}
	merged, err := MergePatch(orig, patch)
	if err != nil {
		return nil, NewBadRequest(err.Error())
	}
	next := NewObject(kind)
	if err := json.Unmarshal(merged, next); err != nil {
		return nil, NewBadRequest(fmt.Sprintf("unable to decode the patched object: %v", err))
	}
	m := next.GetObjectMeta()
	cm := cur.GetObjectMeta()
	if m.Name != cm.Name || (m.Namespace != cm.Namespace && kind != api.KindNode) {
		return nil, NewBadRequest("the name and namespace of an object cannot be changed by a patch")
	}
	m.ResourceVersion = ""
	if status {
		return s.UpdateStatus(next)
	}
	return s.Update(next)
}

// NewObject returns an empty object of a kind, or nil for an unknown kind.
func NewObject(kind string) api.Object {
	if r := api.ResourceFor(kind); r != nil {
		return r.New()
	}
	return nil
}

// MergePatch applies an RFC 7386 merge patch to a JSON document.
func MergePatch(doc, patch []byte) ([]byte, error) {
	var d, p any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("invalid document: %v", err)
	}
	if err := json.Unmarshal(patch, &p); err != nil {
		return nil, fmt.Errorf("invalid JSON patch: %v", err)
	}
	if _, ok := p.(map[string]any); !ok {
		return nil, fmt.Errorf("a merge patch must be a JSON object")
	}
	return json.Marshal(MergeValue(d, p))
}

// MergeValue applies an RFC 7386 merge patch to a decoded JSON value
// (map[string]any, []any, ...): objects merge, null deletes, anything else
// replaces. It may modify doc.
func MergeValue(doc, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	dm, ok := doc.(map[string]any)
	if !ok {
		dm = map[string]any{}
	}
	for k, v := range pm {
		if v == nil {
			delete(dm, k)
			continue
		}
		dm[k] = MergeValue(dm[k], v)
	}
	return dm
}
