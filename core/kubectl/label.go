package kubectl

import (
	"fmt"
	"strings"

	"converge/core/api"
)

// runLabel is `kubectl label TYPE NAME KEY=VALUE... [KEY-] [--overwrite]`.
func runLabel(x *execCtx) error {
	return x.runMetadata("label", msgLabelRequired, func(m *api.ObjectMeta, set map[string]string, order, remove []string) (string, error) {
		if !x.cmd.boolean("overwrite") {
			var errs []error
			for _, k := range order {
				if cur, ok := m.Labels[k]; ok && cur != set[k] {
					errs = append(errs, fmt.Errorf(msgLabelOverwrite, k, cur))
				}
			}
			if len(errs) > 0 {
				return "", newAggregate(errs)
			}
		}
		before := api.CopyStringMap(m.Labels)
		m.Labels = applyPairs(m.Labels, set, order, remove)
		switch {
		case sameJSON(before, m.Labels):
			return "not labeled", nil
		case !x.cmd.boolean("overwrite") && len(m.Labels) < len(before):
			return "unlabeled", nil
		}
		return "labeled", nil
	})
}

// runAnnotate is `kubectl annotate TYPE NAME KEY=VALUE... [KEY-] [--overwrite]`.
func runAnnotate(x *execCtx) error {
	return x.runMetadata("annotation", msgAnnotationRequired, func(m *api.ObjectMeta, set map[string]string, order, remove []string) (string, error) {
		if !x.cmd.boolean("overwrite") {
			var found []string
			for _, k := range order {
				if k == api.ChangeCauseAnnotation {
					continue
				}
				if cur, ok := m.Annotations[k]; ok {
					found = append(found, fmt.Sprintf(msgAnnotateHasValue, k, cur))
				}
			}
			if len(found) > 0 {
				return "", &plainError{msg: fmt.Sprintf(msgAnnotateOverwrite, strings.Join(found, "; "))}
			}
		}
		m.Annotations = applyPairs(m.Annotations, set, order, remove)
		return "annotated", nil
	})
}

// applyPairs sets and removes keys; an emptied map becomes nil.
func applyPairs(m map[string]string, set map[string]string, order, remove []string) map[string]string {
	out := api.CopyStringMap(m)
	if out == nil {
		out = map[string]string{}
	}
	for _, k := range order {
		out[k] = set[k]
	}
	for _, k := range remove {
		delete(out, k)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// runMetadata is what label and annotate share: split resources from pairs,
// change each object's metadata with edit, print the operation edit names.
func (x *execCtx) runMetadata(pairType, required string,
	edit func(m *api.ObjectMeta, set map[string]string, order, remove []string) (string, error)) error {
	c := x.cmd
	resources, pairs, err := splitPairs(c.Args, pairType)
	if err != nil {
		return err
	}
	set, order, remove, err := parsePairs(pairs, pairType, true)
	if err != nil {
		return err
	}
	if len(resources) == 0 && len(c.list("filename")) == 0 {
		return &plainError{msg: msgOneOrMoreResources}
	}
	if len(set) == 0 && len(remove) == 0 && !c.boolean("list") {
		return &plainError{msg: required}
	}
	var both []string
	for _, r := range remove {
		if _, ok := set[r]; ok {
			both = append(both, r)
		}
	}
	if len(both) > 0 {
		if pairType == "label" {
			return &plainError{msg: msgLabelModifyRemove}
		}
		return &plainError{msg: fmt.Sprintf(msgAnnotModifyRemove, strings.Join(both, ", "))}
	}
	infos, errs, err := x.mutationInfos(resources)
	if err != nil {
		return err
	}
	rv := c.str("resource-version")
	if rv != "" && len(infos) > 1 {
		return &plainError{msg: msgResourceVersionOne}
	}
	for _, in := range infos {
		if c.boolean("list") {
			m := in.obj.GetObjectMeta()
			values := m.Labels
			if pairType == "annotation" {
				values = m.Annotations
			}
			for _, k := range sortedKeys(values) {
				x.printf("%s=%s\n", k, values[k])
			}
			continue
		}
		next := in.obj.DeepCopyObject()
		m := next.GetObjectMeta()
		op, err := edit(m, set, order, remove)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		m.ResourceVersion = rv
		if sameJSON(in.obj, next) && rv == "" {
			x.printObject(in.rt, in.obj, op)
			continue
		}
		updated, err := x.st.Update(next)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		x.printObject(in.rt, updated, op)
	}
	return newAggregate(errs)
}
