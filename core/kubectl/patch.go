package kubectl

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
	document "converge/core/manifest"
	"converge/core/store"
)

// runPatch is `kubectl patch TYPE NAME -p PATCH [--type=strategic|merge|json]`.
func runPatch(x *execCtx) error {
	c := x.cmd
	typ := c.str("type")
	if typ != "json" && typ != "merge" && typ != "strategic" {
		return &plainError{msg: fmt.Sprintf(msgPatchType, typ)}
	}
	if c.str("patch-file") != "" {
		return &plainError{msg: msgPatchFileUnsup}
	}
	if c.str("patch") == "" {
		return &plainError{msg: msgPatchRequired}
	}
	patch, err := patchJSON(c.str("patch"))
	if err != nil {
		return &plainError{msg: fmt.Sprintf(msgPatchParse, c.str("patch"), err)}
	}
	if document.ValueTooDeep(patch) {
		return &plainError{msg: fmt.Sprintf(msgPatchTooDeep, document.MaxDepth)}
	}
	targets, _, err := x.targetsFromArgsOrFiles(c.Args)
	if err != nil {
		return err
	}
	for _, t := range targets {
		if t.name == "" {
			return &plainError{msg: msgNoNameSpecified}
		}
	}
	infos, errs := x.visit(targets, everything(), false)
	for _, in := range infos {
		if err := x.patchOne(in, typ, patch); err != nil {
			errs = append(errs, err)
		}
	}
	return newAggregate(errs)
}

// patchJSON reads a patch written as JSON or YAML.
func patchJSON(s string) (any, error) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err == nil {
		return v, nil
	}
	var y any
	if err := yaml.Unmarshal([]byte(s), &y); err != nil {
		return nil, err
	}
	return jsonCompatible(y), nil
}

// jsonCompatible turns what yaml.v3 decodes into the shapes encoding/json
// produces.
func jsonCompatible(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonCompatible(e)
		}
		return t
	case map[any]any:
		m := map[string]any{}
		for k, e := range t {
			m[fmt.Sprint(k)] = jsonCompatible(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = jsonCompatible(e)
		}
		return t
	case int:
		return float64(t)
	case int64:
		return float64(t)
	case uint64:
		return float64(t)
	}
	return v
}

func (x *execCtx) patchOne(in info, typ string, patch any) error {
	cur := genericOf(in.obj)
	var out any
	var err error
	switch typ {
	case "json":
		out, err = applyJSONPatch(cur, patch)
	case "merge":
		if _, ok := patch.(map[string]any); !ok {
			return store.NewBadRequest("the request body is not a JSON object")
		}
		out = store.MergeValue(cur, patch)
	default:
		if _, ok := patch.(map[string]any); !ok {
			return store.NewBadRequest("the request body is not a JSON object")
		}
		out = strategicPatch(cur, patch, "")
	}
	if err != nil {
		return store.NewBadRequest(err.Error())
	}
	next, err := decodeObject(in.rt, out)
	if err != nil {
		return err
	}
	m, cm := next.GetObjectMeta(), in.obj.GetObjectMeta()
	if m.Name != cm.Name || in.rt.Namespaced && m.Namespace != cm.Namespace {
		return store.NewBadRequest("the name and namespace of an object cannot be changed by a patch")
	}
	m.ResourceVersion = ""
	if sameJSON(withoutStatus(in.obj), withoutStatus(next)) {
		x.printObject(in.rt, in.obj, "patched (no change)")
		return nil
	}
	updated, err := x.st.Update(next)
	if err != nil {
		return err
	}
	x.printObject(in.rt, updated, "patched")
	return nil
}

// genericOf is an object as decoded JSON (float numbers, as the API
// server's patch code sees it).
func genericOf(obj any) any {
	b, _ := json.Marshal(obj)
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

// decodeObject turns a patched JSON value back into an object of the
// resource's kind, with the API server's BadRequest text when it does not fit.
func decodeObject(rt *resourceType, v any) (api.Object, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, store.NewBadRequest(err.Error())
	}
	obj := rt.New()
	if err := json.Unmarshal(b, obj); err != nil {
		return nil, store.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", rt.Kind, "v1", rt.Kind, err))
	}
	return obj, nil
}

// withoutStatus is an object's JSON value without status and resourceVersion,
// for comparing what a write would change.
func withoutStatus(obj api.Object) any {
	v := genericOf(obj)
	if m, ok := v.(map[string]any); ok {
		delete(m, "status")
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "resourceVersion")
		}
	}
	return v
}

// mergeKeys are the patchMergeKey of the Kubernetes lists that strategic
// merge patches merge item by item.
var mergeKeys = map[string]string{
	"containers": "name", "initContainers": "name", "ephemeralContainers": "name", "env": "name",
	"volumes": "name", "volumeMounts": "mountPath", "volumeDevices": "devicePath", "imagePullSecrets": "name",
	"conditions": "type", "ownerReferences": "uid", "hostAliases": "ip", "topologySpreadConstraints": "topologyKey",
}

// mergeKeyFor returns the merge key of a list field; ports are keyed by
// containerPort in containers and by port in services.
func mergeKeyFor(field string, items ...[]any) string {
	if k, ok := mergeKeys[field]; ok {
		return k
	}
	if field == "ports" {
		for _, list := range items {
			for _, it := range list {
				if m, ok := it.(map[string]any); ok {
					if _, ok := m["containerPort"]; ok {
						return "containerPort"
					}
					if _, ok := m["port"]; ok {
						return "port"
					}
				}
			}
		}
	}
	return ""
}

// strategicPatch applies a strategic merge patch the way the API server does
// for the fields Converge models: objects merge, null deletes, lists with a
// merge key merge item by item (an item with "$patch": "delete" removes its
// match), other lists replace.
func strategicPatch(doc, patch any, field string) any {
	switch p := patch.(type) {
	case map[string]any:
		dm, ok := doc.(map[string]any)
		if !ok {
			dm = map[string]any{}
		}
		if p["$patch"] == "replace" {
			out := map[string]any{}
			for k, v := range p {
				if k != "$patch" {
					out[k] = v
				}
			}
			return out
		}
		for k, v := range p {
			if strings.HasPrefix(k, "$") {
				continue
			}
			if v == nil {
				delete(dm, k)
				continue
			}
			dm[k] = strategicPatch(dm[k], v, k)
		}
		return dm
	case []any:
		dl, _ := doc.([]any)
		key := mergeKeyFor(field, p, dl)
		if key == "" {
			return p
		}
		out := append([]any(nil), dl...)
		for _, item := range p {
			im, ok := item.(map[string]any)
			if !ok {
				continue
			}
			idx := indexByKey(out, key, im[key])
			if im["$patch"] == "delete" {
				if idx >= 0 {
					out = append(out[:idx], out[idx+1:]...)
				}
				continue
			}
			if idx >= 0 {
				out[idx] = strategicPatch(out[idx], im, "")
			} else {
				out = append(out, strategicPatch(map[string]any{}, im, ""))
			}
		}
		return out
	}
	return patch
}

func indexByKey(list []any, key string, value any) int {
	for i, it := range list {
		if m, ok := it.(map[string]any); ok && fmt.Sprint(m[key]) == fmt.Sprint(value) {
			return i
		}
	}
	return -1
}

// applyJSONPatch applies an RFC 6902 JSON patch (add, remove, replace,
// move, copy, test), with evanphx/json-patch's error texts.
func applyJSONPatch(doc any, patch any) (any, error) {
	ops, ok := patch.([]any)
	if !ok {
		return nil, fmt.Errorf("%s", msgPatchJSONNotArray)
	}
	for _, o := range ops {
		op, _ := o.(map[string]any)
		kind, _ := op["op"].(string)
		p, _ := op["path"].(string)
		var err error
		switch kind {
		case "add":
			doc, err = jsonPointerSet(doc, p, op["value"], kind, true)
		case "replace":
			doc, err = jsonPointerSet(doc, p, op["value"], kind, false)
		case "remove":
			doc, err = jsonPointerRemove(doc, p)
		case "move", "copy":
			from, _ := op["from"].(string)
			var v any
			v, err = jsonPointerGet(doc, from, kind)
			if err == nil && kind == "move" {
				doc, err = jsonPointerRemove(doc, from)
			}
			if err == nil {
				doc, err = jsonPointerSet(doc, p, v, "add", true)
			}
		case "test":
			var v any
			v, err = jsonPointerGet(doc, p, kind)
			if err == nil && !sameJSON(v, op["value"]) {
				b, _ := json.Marshal(op["value"])
				err = fmt.Errorf(msgPatchJSONTest, string(b))
			}
		default:
			//lint:ignore ST1005 the text is kubectl's own (evanphx/json-patch), capital included
			err = fmt.Errorf(msgPatchJSONOp, kind)
		}
		if err != nil {
			return nil, err
		}
	}
	return doc, nil
}

func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts
}

func jsonPointerGet(doc any, p, op string) (any, error) {
	cur := doc
	for _, part := range splitPointer(p) {
		switch t := cur.(type) {
		case map[string]any:
			v, ok := t[part]
			if !ok {
				return nil, fmt.Errorf(msgPatchJSONPath, op, p)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(t) {
				return nil, fmt.Errorf(msgPatchJSONPath, op, p)
			}
			cur = t[i]
		default:
			return nil, fmt.Errorf(msgPatchJSONPath, op, p)
		}
	}
	return cur, nil
}

// jsonPointerSet sets the value at p; insert (add) may create the last key
// or insert into a list ("-" appends), replace needs it to exist.
func jsonPointerSet(doc any, p string, v any, op string, insert bool) (any, error) {
	parts := splitPointer(p)
	if len(parts) == 0 {
		return v, nil
	}
	parent, err := jsonPointerGet(doc, "/"+strings.Join(escapeParts(parts[:len(parts)-1]), "/"), op)
	if len(parts) == 1 {
		parent, err = doc, nil
	}
	if err != nil {
		return nil, fmt.Errorf(msgPatchJSONPath, op, p)
	}
	last := parts[len(parts)-1]
	switch t := parent.(type) {
	case map[string]any:
		if _, ok := t[last]; !ok && !insert {
			return nil, fmt.Errorf(msgPatchJSONPath, op, p)
		}
		t[last] = v
		return doc, nil
	case []any:
		i := len(t)
		if last != "-" {
			n, err := strconv.Atoi(last)
			if err != nil || n < 0 || n > len(t) || !insert && n == len(t) {
				return nil, fmt.Errorf(msgPatchJSONPath, op, p)
			}
			i = n
		}
		var list []any
		if insert {
			list = append(append(append([]any(nil), t[:i]...), v), t[i:]...)
		} else {
			list = append([]any(nil), t...)
			list[i] = v
		}
		return jsonPointerSet(doc, "/"+strings.Join(escapeParts(parts[:len(parts)-1]), "/"), list, op, false)
	}
	return nil, fmt.Errorf(msgPatchJSONPath, op, p)
}

func jsonPointerRemove(doc any, p string) (any, error) {
	parts := splitPointer(p)
	if len(parts) == 0 {
		return nil, fmt.Errorf(msgPatchJSONPath, "remove", p)
	}
	parentPath := "/" + strings.Join(escapeParts(parts[:len(parts)-1]), "/")
	parent := doc
	if len(parts) > 1 {
		var err error
		if parent, err = jsonPointerGet(doc, parentPath, "remove"); err != nil {
			return nil, fmt.Errorf(msgPatchJSONPath, "remove", p)
		}
	}
	last := parts[len(parts)-1]
	switch t := parent.(type) {
	case map[string]any:
		if _, ok := t[last]; !ok {
			return nil, fmt.Errorf(msgPatchJSONPath, "remove", p)
		}
		delete(t, last)
		return doc, nil
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(t) {
			return nil, fmt.Errorf(msgPatchJSONPath, "remove", p)
		}
		list := append(append([]any(nil), t[:i]...), t[i+1:]...)
		if len(parts) == 1 {
			return list, nil
		}
		return jsonPointerSet(doc, parentPath, list, "remove", false)
	}
	return nil, fmt.Errorf(msgPatchJSONPath, "remove", p)
}

func escapeParts(parts []string) []string {
	out := make([]string, len(parts))
	for i, s := range parts {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return out
}
