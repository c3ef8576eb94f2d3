package kubectl

import (
	"encoding/json"
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/store"
)

// Apply is what `kubectl apply` does for these objects (a scenario's
// `apply:` steps and initial objects): client-side apply with the
// last-applied-configuration annotation.
func Apply(env *Env, objs []api.Object) Result {
	c := &Command{Path: []string{"apply"}, spec: findCommand(commands, "apply")}
	if env == nil || env.Store == nil {
		return Result{Error: withErrorPrefix(msgNoStore)}
	}
	x := &execCtx{env: env, cmd: c, st: env.Store, ns: "default"}
	before := env.Store.ResourceVersion()
	sources := make([]string, len(objs))
	prev := env.Store.SetWriter(store.Writer{Manager: store.ManagerClientSideApply, By: "kubectl apply"})
	if err := x.applyObjects(objs, sources); err != nil {
		x.errText(renderError(err))
	}
	env.Store.SetWriter(prev)
	return Result{Output: trimNL(x.out.String()), Error: trimNL(x.errw.String()), Mutated: env.Store.ResourceVersion() != before}
}

// runApply is `kubectl apply -f FILE|-`.
func runApply(x *execCtx) error {
	c := x.cmd
	if c.boolean("server-side") {
		return &plainError{msg: msgServerSideUnsupported}
	}
	if err := checkOutput(c.str("output"), false); err != nil {
		return err
	}
	files := c.list("filename")
	if len(files) == 0 {
		return &usageError{path: c.path(), msg: msgCreateMustSpecify}
	}
	if len(c.Args) > 0 {
		return &usageError{path: c.path(), msg: fmt.Sprintf(msgUnexpectedArgs, c.Args)}
	}
	objs, sources, err := x.readManifests(files)
	if err != nil {
		return err
	}
	return x.applyObjects(objs, sources)
}

func (x *execCtx) applyObjects(objs []api.Object, sources []string) error {
	var errs []error
	n := 0
	for i, o := range objs {
		if o == nil {
			continue
		}
		n++
		if err := x.applyOne(o.DeepCopyObject(), sources[i]); err != nil {
			errs = append(errs, err)
		}
	}
	if n == 0 {
		return &plainError{msg: msgNoObjectsApply}
	}
	return newAggregate(errs)
}

// applyOne creates the object, or three-way merges it into the live one:
// fields dropped from the manifest since the last apply are removed, fields
// others set that neither manifest has are kept.
func (x *execCtx) applyOne(obj api.Object, source string) error {
	rt := api.ResourceOf(obj)
	if rt == nil {
		return &plainError{msg: fmt.Sprintf(msgNoResourceType, strings.ToLower(obj.GetTypeMeta().Kind))}
	}
	if err := x.setNamespace(rt, obj); err != nil {
		return err
	}
	modified, _, err := modifiedConfiguration(obj)
	if err != nil {
		return err
	}
	m := obj.GetObjectMeta()
	cur, err := x.st.Get(rt.Kind, m.Namespace, m.Name)
	if isNotFound(err) {
		next, err := decodeObject(rt, modified)
		if err != nil {
			return withSource("creating", source, err)
		}
		clearStatus(next)
		if x.dry == "client" {
			// kubectl sends nothing and prints the object it would send.
			x.printObject(rt, next, "created")
			return nil
		}
		created, err := x.create(next)
		if err != nil {
			return withSource("creating", source, err)
		}
		x.printObject(rt, created, "created")
		return nil
	}
	if err != nil {
		return withSource("retrieving current configuration of", source, err)
	}
	var original any
	if la, ok := cur.GetObjectMeta().Annotations[api.LastAppliedAnnotation]; ok {
		_ = json.Unmarshal([]byte(la), &original)
	} else {
		x.warn(fmt.Sprintf(msgApplyMissingAnnotation, rt.Plural+"/"+m.Name))
	}
	current := genericOf(cur)
	merged := threeWayMerge(original, modified, current, "")
	if sameJSON(stripForCompare(merged), stripForCompare(current)) {
		x.printObject(rt, cur, "unchanged")
		return nil
	}
	next, err := decodeObject(rt, merged)
	if err != nil {
		return withSource("patching", source, err)
	}
	updated, err := x.st.Update(next)
	if err != nil {
		return withSource("patching", source, err)
	}
	x.printObject(rt, updated, "configured")
	return nil
}

// setNamespace gives a namespaced object the command's namespace, refusing
// one that names another, as kubectl's builder does.
func (x *execCtx) setNamespace(rt *resourceType, obj api.Object) error {
	m := obj.GetObjectMeta()
	if !rt.Namespaced {
		m.Namespace = ""
		return nil
	}
	if m.Namespace == "" {
		m.Namespace = x.ns
		return nil
	}
	if x.cmd.changed("namespace") && m.Namespace != x.ns {
		return &plainError{msg: fmt.Sprintf(msgNamespaceMismatch, m.Namespace, x.ns, m.Namespace)}
	}
	return nil
}

// LastApplied is the last-applied-configuration annotation that kubectl
// apply stores on obj: the manifest as JSON, without status and empty
// fields, and a newline.
func LastApplied(obj api.Object) (string, error) {
	if rt := api.ResourceOf(obj); rt != nil && rt.Namespaced && obj.GetObjectMeta().Namespace == "" {
		// As applyOne sends it: in the command's namespace.
		obj = obj.DeepCopyObject()
		obj.GetObjectMeta().Namespace = "default"
	}
	_, la, err := modifiedConfiguration(obj)
	return la, err
}

// modifiedConfiguration is GetModifiedConfiguration: the manifest as JSON
// (without status and empty fields, with an annotations map), and that JSON
// stored in its own last-applied-configuration annotation.
func modifiedConfiguration(obj api.Object) (any, string, error) {
	v := prune(genericOf(obj))
	m, ok := v.(map[string]any)
	if !ok {
		return nil, "", &plainError{msg: "the manifest is not an object"}
	}
	delete(m, "status")
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
	}
	delete(ann, api.LastAppliedAnnotation)
	md["annotations"] = ann
	b, err := json.Marshal(m)
	if err != nil {
		return nil, "", err
	}
	lastApplied := string(b) + "\n"
	ann[api.LastAppliedAnnotation] = lastApplied
	return m, lastApplied, nil
}

// prune drops nulls and empty objects and lists, which a typed manifest
// carries for fields the user did not write.
func prune(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			p := prune(e)
			if isEmptyValue(p) {
				delete(t, k)
				continue
			}
			t[k] = p
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = prune(e)
		}
		return t
	}
	return v
}

func isEmptyValue(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	}
	return false
}

// stripForCompare is a JSON value without status and resourceVersion.
func stripForCompare(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	if m, ok := out.(map[string]any); ok {
		delete(m, "status")
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "resourceVersion")
		}
	}
	return out
}

// clearStatus drops the status a manifest may carry: kubectl's create and
// apply never write status.
func clearStatus(obj api.Object) {
	switch o := obj.(type) {
	case *api.Deployment:
		o.Status = api.DeploymentStatus{}
	case *api.ReplicaSet:
		o.Status = api.ReplicaSetStatus{}
	case *api.Pod:
		o.Status = api.PodStatus{}
	case *api.Service:
		o.Status = api.ServiceStatus{}
	}
}

// threeWayMerge merges the new manifest (modified) into the live object
// (current), given the manifest applied last time (original), the way a
// strategic three-way merge patch does: maps merge key by key; a key in
// original but not in modified is removed; lists with a merge key merge item
// by item (items dropped since original are removed, others' items kept);
// other lists and scalars take modified's value.
func threeWayMerge(original, modified, current any, field string) any {
	switch mod := modified.(type) {
	case map[string]any:
		cur, _ := current.(map[string]any)
		orig, _ := original.(map[string]any)
		out := map[string]any{}
		for k, v := range cur {
			out[k] = v
		}
		for k, v := range mod {
			out[k] = threeWayMerge(orig[k], v, cur[k], k)
		}
		for k := range cur {
			if _, inMod := mod[k]; inMod {
				continue
			}
			if _, inOrig := orig[k]; inOrig || retainKeys[field] {
				delete(out, k)
			}
		}
		return out
	case []any:
		cur, _ := current.([]any)
		orig, _ := original.([]any)
		key := mergeKeyFor(field, mod, cur)
		if key == "" {
			return mod
		}
		var out []any
		seen := map[string]bool{}
		for _, item := range mod {
			im, ok := item.(map[string]any)
			if !ok {
				out = append(out, item)
				continue
			}
			k := fmt.Sprint(im[key])
			seen[k] = true
			out = append(out, threeWayMerge(itemByKey(orig, key, k), item, itemByKey(cur, key, k), ""))
		}
		for _, item := range cur {
			im, ok := item.(map[string]any)
			if !ok {
				continue
			}
			k := fmt.Sprint(im[key])
			if seen[k] || itemByKey(orig, key, k) != nil {
				continue
			}
			out = append(out, item)
		}
		return out
	}
	return modified
}

// retainKeys are the fields with patchStrategy retainKeys: a manifest that
// sets them replaces the live value's keys (strategy type Recreate drops the
// rollingUpdate block).
var retainKeys = map[string]bool{"strategy": true}

func itemByKey(list []any, key, value string) any {
	for _, it := range list {
		if m, ok := it.(map[string]any); ok && fmt.Sprint(m[key]) == value {
			return m
		}
	}
	return nil
}
