package kubectl

import (
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/labels"
)

// Texts of kubectl taint (pkg/cmd/taint).
const (
	msgTaintResources     = "one or more resources must be specified as <resource> <name>"
	msgTaintRequired      = "at least one taint update is required"
	msgTaintBeforeChanges = "all resources must be specified before taint changes: %s"
	msgTaintInvalidSpec   = "invalid taint spec: %v"
	msgTaintInvalidReason = "invalid taint spec: %v, %s"
	msgTaintEffect        = "invalid taint effect: %v, unsupported taint effect"
	msgTaintDuplicated    = "duplicated taints with the same key and effect: %v"
	msgTaintNodesOnly     = "invalid resource type %s, only node types are supported"
	msgTaintModifyRemove  = "can not both modify and remove the following taint(s) in the same command: %s"
	msgTaintAllSelector   = "setting 'all' parameter with a non empty selector is prohibited"
	msgTaintNeedName      = "at least one resource name must be specified since 'all' parameter is not set"
	msgTaintExists        = "node %s already has %v taint(s) with same effect(s) and --overwrite is false"
	msgTaintNotFound      = "taint %q not found"
)

// runTaint is `kubectl taint nodes NAME... KEY[=VALUE]:EFFECT... [KEY[:EFFECT]-]`,
// in kubectl's order: Complete splits resources from taint changes and
// parses these (parseTaints), Validate checks the type, modify-and-remove
// and the names or selector, then each node's taints are reorganized and
// written, and "tainted", "untainted" or "modified" printed.
func runTaint(x *execCtx) error {
	c := x.cmd
	var resources, specs []string
	for _, a := range c.Args {
		isTaint := strings.Contains(a, "=") || strings.Contains(a, ":") || strings.HasSuffix(a, "-")
		switch {
		case isTaint:
			specs = append(specs, a)
		case len(specs) > 0:
			return &plainError{msg: fmt.Sprintf(msgTaintBeforeChanges, a)}
		default:
			resources = append(resources, a)
		}
	}
	if len(resources) == 0 {
		return &plainError{msg: msgTaintResources}
	}
	if len(specs) == 0 {
		return &plainError{msg: msgTaintRequired}
	}
	add, remove, err := parseTaints(specs)
	if err != nil {
		return &usageError{path: c.path(), msg: err.Error()}
	}
	rt, err := resolveType(resources[0])
	if err != nil {
		return err
	}
	if rt.Kind != api.KindNode {
		return &plainError{msg: fmt.Sprintf(msgTaintNodesOnly, strings.ToLower(resources[0]))}
	}
	var conflicts []string
	for _, a := range add {
		for _, r := range remove {
			if a.Key == r.Key && (r.Effect == "" || a.Effect == r.Effect) {
				conflicts = append(conflicts, r.Key+"="+r.Effect)
			}
		}
	}
	if len(conflicts) > 0 {
		return &plainError{msg: fmt.Sprintf(msgTaintModifyRemove, strings.Join(conflicts, ", "))}
	}
	sel := c.str("selector")
	all := c.boolean("all")
	switch {
	case all && sel != "":
		return &plainError{msg: msgTaintAllSelector}
	case !all && sel == "" && len(resources) < 2:
		return &plainError{msg: msgTaintNeedName}
	}
	infos, errs, err := x.taintTargets(rt, resources[1:], sel, all)
	if err != nil {
		return err
	}
	for _, in := range infos {
		if err := x.taintOne(in, add, remove); err != nil {
			errs = append(errs, err)
		}
	}
	return newAggregate(errs)
}

// taintTargets are the nodes: by -l, all of them with --all, else by name.
func (x *execCtx) taintTargets(rt *resourceType, names []string, sel string, all bool) ([]info, []error, error) {
	if sel != "" || all {
		s := everything()
		if sel != "" {
			parsed, err := labels.Parse(sel)
			if err != nil {
				return nil, nil, err
			}
			s = parsed
		}
		return x.list(rt, s, false), nil, nil
	}
	var infos []info
	var errs []error
	for _, n := range names {
		o, err := x.st.Get(api.KindNode, "", n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		infos = append(infos, info{rt: rt, obj: o})
	}
	return infos, errs, nil
}

// taintOne is updateTaints and the write: without --overwrite a taint of
// the same key and effect may not exist yet.
func (x *execCtx) taintOne(in info, add, remove []api.Taint) error {
	n := in.obj.(*api.Node)
	overwrite := x.cmd.boolean("overwrite")
	if !overwrite {
		var exists []string
		for _, t := range add {
			for _, o := range n.Spec.Taints {
				if t.MatchTaint(o) {
					exists = append(exists, t.Key)
				}
			}
		}
		if len(exists) > 0 {
			return &plainError{msg: fmt.Sprintf(msgTaintExists, n.Name, strings.Join(exists, ","))}
		}
	}
	op, taints, errs := reorganizeTaints(n.Spec.Taints, overwrite, add, remove)
	if len(errs) > 0 {
		return newAggregate(errs)
	}
	next := n.DeepCopy()
	next.Spec.Taints = taints
	if sameJSON(n, next) {
		x.printObject(in.rt, n, op)
		return nil
	}
	updated, err := x.st.Update(next)
	if err != nil {
		return err
	}
	x.printObject(in.rt, updated, op)
	return nil
}

// parseTaints is kubectl taint's parseTaints: KEY[=VALUE]:EFFECT to add
// (an effect is required), KEY[:EFFECT]- to remove; no key and effect twice.
func parseTaints(specs []string) (add, remove []api.Taint, err error) {
	seen := map[string]bool{}
	for _, spec := range specs {
		if strings.HasSuffix(spec, "-") {
			t, err := parseTaint(strings.TrimSuffix(spec, "-"))
			if err != nil {
				return nil, nil, err
			}
			remove = append(remove, api.Taint{Key: t.Key, Effect: t.Effect})
			continue
		}
		t, err := parseTaint(spec)
		if err != nil {
			return nil, nil, err
		}
		if t.Effect == "" {
			return nil, nil, fmt.Errorf(msgTaintInvalidSpec, spec)
		}
		if seen[t.Effect+"\x00"+t.Key] {
			return nil, nil, fmt.Errorf(msgTaintDuplicated, taintGoString(t))
		}
		seen[t.Effect+"\x00"+t.Key] = true
		add = append(add, t)
	}
	return add, remove, nil
}

// taintGoString is Go's %v of a v1.Taint: {key value effect <nil>}.
func taintGoString(t api.Taint) string {
	return fmt.Sprintf("{%s %s %s <nil>}", t.Key, t.Value, t.Effect)
}

// parseTaint is parseTaint: KEY, KEY:EFFECT or KEY=VALUE:EFFECT, the key a
// qualified name, the value a label value, the effect one of the three.
func parseTaint(st string) (api.Taint, error) {
	var t api.Taint
	parts := strings.Split(st, ":")
	switch len(parts) {
	case 1:
		t.Key = parts[0]
	case 2:
		t.Effect = parts[1]
		if t.Effect != api.TaintEffectNoSchedule && t.Effect != api.TaintEffectPreferNoSchedule && t.Effect != api.TaintEffectNoExecute {
			return api.Taint{}, fmt.Errorf(msgTaintEffect, t.Effect)
		}
		kv := strings.Split(parts[0], "=")
		if len(kv) > 2 {
			return api.Taint{}, fmt.Errorf(msgTaintInvalidSpec, st)
		}
		t.Key = kv[0]
		if len(kv) == 2 {
			t.Value = kv[1]
			if errs := labels.IsValidLabelValue(t.Value); len(errs) > 0 {
				return api.Taint{}, fmt.Errorf(msgTaintInvalidReason, st, strings.Join(errs, "; "))
			}
		}
	default:
		return api.Taint{}, fmt.Errorf(msgTaintInvalidSpec, st)
	}
	if errs := labels.IsQualifiedName(t.Key); len(errs) > 0 {
		return api.Taint{}, fmt.Errorf(msgTaintInvalidReason, st, strings.Join(errs, "; "))
	}
	return t, nil
}

// reorganizeTaints is kubectl's reorganizeTaints: the new taints first,
// then the old ones they do not replace, minus those removed; the
// operation is "modified" when taints were both added and removed (or with
// --overwrite), "tainted" when added, "untainted" otherwise. A removal
// that matches nothing is an error.
func reorganizeTaints(old []api.Taint, overwrite bool, add, remove []api.Taint) (string, []api.Taint, []error) {
	next := append([]api.Taint{}, add...)
	for _, o := range old {
		replaced := false
		for _, t := range next {
			if t.MatchTaint(o) {
				replaced = true
				break
			}
		}
		if !replaced {
			next = append(next, o)
		}
	}
	added := len(old) != len(next)
	var errs []error
	deleted := false
	for _, r := range remove {
		kept := []api.Taint{}
		for _, t := range next {
			if t.Key == r.Key && (r.Effect == "" || t.Effect == r.Effect) {
				continue
			}
			kept = append(kept, t)
		}
		deleted = len(kept) != len(next)
		if !deleted {
			errs = append(errs, fmt.Errorf(msgTaintNotFound, r.ToString()))
		}
		next = kept
	}
	if len(next) == 0 {
		next = nil
	}
	switch {
	case added && deleted || overwrite:
		return "modified", next, errs
	case added:
		return "tainted", next, errs
	}
	return "untainted", next, errs
}
