package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/labels"
)

// Operations label prints (kubectl's MsgLabeled, MsgUnLabeled, MsgModified, MsgNotLabeled).
const (
	opLabeled    = "labeled"
	opUnlabeled  = "unlabeled"
	opModified   = "modified"
	opNotLabeled = "not labeled"
)

// metaChange is what label or annotate asks for: keys to set (in the order
// given) and keys to remove.
type metaChange struct {
	set    map[string]string
	order  []string
	remove []string
}

// runLabel is `kubectl label TYPE NAME KEY=VALUE... [KEY-] [--overwrite]`,
// in kubectl's order: Complete parses the pairs (parseLabels: "invalid label
// spec" for k=v=w, "invalid label value" with apimachinery's reasons,
// modify-and-remove), Validate wants a resource and a change, and only then
// are objects fetched. A key is not checked here: the API server rejects a
// bad one.
func runLabel(x *execCtx) error {
	c := x.cmd
	resources, pairs, err := splitPairs(c.Args, "label")
	if err != nil {
		return err
	}
	ch, err := parseLabels(pairs)
	if err != nil {
		return err
	}
	if err := x.checkMetadataFlags(resources); err != nil {
		return err
	}
	if len(ch.set) == 0 && len(ch.remove) == 0 && !c.boolean("list") {
		return &plainError{msg: msgLabelRequired}
	}
	return x.visitMetadata(resources, ch, x.labelOne)
}

// parseLabels is kubectl label's parseLabels: KEY=VALUE (exactly one "=",
// a valid label value) or KEY-.
func parseLabels(pairs []string) (metaChange, error) {
	ch := metaChange{set: map[string]string{}}
	for _, p := range pairs {
		switch {
		case strings.Contains(p, "="):
			parts := strings.Split(p, "=")
			if len(parts) != 2 {
				return metaChange{}, &plainError{msg: fmt.Sprintf(msgInvalidLabelSpec, p)}
			}
			if errs := labels.IsValidLabelValue(parts[1]); len(errs) != 0 {
				return metaChange{}, &plainError{msg: fmt.Sprintf(msgInvalidLabelValue, p, strings.Join(errs, ";"))}
			}
			if _, dup := ch.set[parts[0]]; !dup {
				ch.order = append(ch.order, parts[0])
			}
			ch.set[parts[0]] = parts[1]
		case strings.HasSuffix(p, "-"):
			ch.remove = append(ch.remove, p[:len(p)-1])
		default:
			return metaChange{}, &plainError{msg: fmt.Sprintf(msgUnknownLabelSpec, p)}
		}
	}
	for _, r := range ch.remove {
		if _, ok := ch.set[r]; ok {
			return metaChange{}, &plainError{msg: msgLabelModifyRemove}
		}
	}
	return ch, nil
}

// labelOne is RunLabel's visit of one object: the "label "k" not found."
// lines (not in a client dry run), labelFunc, and a write only when a label
// was really added, changed or removed.
func (x *execCtx) labelOne(in info, ch metaChange) error {
	c := x.cmd
	m := in.obj.GetObjectMeta()
	if x.dry != "client" && !c.boolean("list") {
		for _, k := range ch.remove {
			if _, ok := m.Labels[k]; !ok {
				x.printf(msgLabelNotFound+"\n", k)
			}
		}
	}
	next := in.obj.DeepCopyObject()
	nm := next.GetObjectMeta()
	added, removed, err := labelFunc(nm, c.boolean("overwrite"), ch)
	if err != nil {
		return err
	}
	out := in.obj
	if (added > 0 || removed > 0) && !c.boolean("list") {
		nm.ResourceVersion = c.str("resource-version")
		if out, err = x.st.Update(next); err != nil {
			return err
		}
	}
	if c.boolean("list") {
		x.listPairs(in, "labels", out.GetObjectMeta().Labels)
		return nil
	}
	op := opNotLabeled
	switch {
	case added > 0 && removed > 0:
		op = opModified
	case added > 0:
		op = opLabeled
	case removed > 0:
		op = opUnlabeled
	}
	x.printObject(in.rt, out, op)
	return nil
}

// labelFunc is kubectl's labelFunc: refuse to overwrite a label with
// another value without --overwrite (validateNoOverwrites), then set and
// remove, counting what really changed.
func labelFunc(m *api.ObjectMeta, overwrite bool, ch metaChange) (added, removed int, err error) {
	if !overwrite {
		var errs []error
		for _, k := range ch.order {
			if cur, ok := m.Labels[k]; ok && cur != ch.set[k] {
				errs = append(errs, fmt.Errorf(msgLabelOverwrite, k, cur))
			}
		}
		if len(errs) > 0 {
			return 0, 0, newAggregate(errs)
		}
	}
	l := api.CopyStringMap(m.Labels)
	if l == nil {
		l = map[string]string{}
	}
	for _, k := range ch.order {
		if cur, ok := l[k]; !ok || cur != ch.set[k] {
			l[k] = ch.set[k]
			added++
		}
	}
	for _, k := range ch.remove {
		if _, ok := l[k]; ok {
			delete(l, k)
			removed++
		}
	}
	if len(l) == 0 {
		l = nil
	}
	m.Labels = l
	return added, removed, nil
}

// runAnnotate is `kubectl annotate TYPE NAME KEY=VALUE... [KEY-]
// [--overwrite]`, in kubectl's order: the pairs (cmdutil.ParsePairs:
// "invalid annotation format"), a resource, a change, modify-and-remove;
// then each object is patched, and "annotated" printed, even when nothing
// changed.
func runAnnotate(x *execCtx) error {
	c := x.cmd
	resources, pairs, err := splitPairs(c.Args, "annotation")
	if err != nil {
		return err
	}
	set, order, remove, err := parsePairs(pairs, "annotation", true)
	if err != nil {
		return err
	}
	ch := metaChange{set: set, order: order, remove: remove}
	if err := x.checkMetadataFlags(resources); err != nil {
		return err
	}
	if len(set) == 0 && len(remove) == 0 && !c.boolean("list") {
		return &plainError{msg: msgAnnotationRequired}
	}
	var both []string
	for _, r := range remove {
		if _, ok := set[r]; ok {
			both = append(both, r)
		}
	}
	if len(both) > 0 {
		return &plainError{msg: fmt.Sprintf(msgAnnotModifyRemove, strings.Join(both, ", "))}
	}
	return x.visitMetadata(resources, ch, x.annotateOne)
}

// annotateOne is RunAnnotate's visit of one object.
func (x *execCtx) annotateOne(in info, ch metaChange) error {
	c := x.cmd
	next := in.obj.DeepCopyObject()
	m := next.GetObjectMeta()
	if !c.boolean("overwrite") {
		var found []string
		for _, k := range ch.order {
			if k == api.ChangeCauseAnnotation {
				continue
			}
			if cur, ok := m.Annotations[k]; ok && cur != ch.set[k] {
				found = append(found, fmt.Sprintf(msgAnnotateHasValue, k, cur))
			}
		}
		if len(found) > 0 {
			return &plainError{msg: fmt.Sprintf(msgAnnotateOverwrite, strings.Join(found, "; "))}
		}
	}
	m.Annotations = applyPairs(m.Annotations, ch.set, ch.order, ch.remove)
	if c.boolean("list") {
		x.listPairs(in, "annotations", m.Annotations)
		return nil
	}
	rv := c.str("resource-version")
	m.ResourceVersion = rv
	if sameJSON(in.obj, next) && rv == "" {
		x.printObject(in.rt, in.obj, "annotated")
		return nil
	}
	updated, err := x.st.Update(next)
	if err != nil {
		return err
	}
	x.printObject(in.rt, updated, "annotated")
	return nil
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

// checkMetadataFlags is what label's Validate and annotate's ToOptions
// check of the flags and resources, in their order.
func (x *execCtx) checkMetadataFlags(resources []string) error {
	c := x.cmd
	if c.boolean("list") && c.str("output") != "" {
		return &plainError{msg: msgListAndOutput}
	}
	if c.boolean("all") && c.str("selector") != "" {
		return &plainError{msg: msgAllAndSelector}
	}
	if len(resources) == 0 && len(c.list("filename")) == 0 {
		return &plainError{msg: msgOneOrMoreResources}
	}
	return nil
}

// visitMetadata resolves label's or annotate's objects and visits each
// with one, collecting the errors as kubectl's ContinueOnError visitor does.
func (x *execCtx) visitMetadata(resources []string, ch metaChange, one func(info, metaChange) error) error {
	c := x.cmd
	infos, errs, err := x.mutationInfos(resources)
	if err != nil {
		return err
	}
	// kubectl's IntoSingleItemImplied: one object named by one argument.
	single := len(infos) == 1 && len(errs) == 0 && c.str("selector") == "" && !c.boolean("all")
	if c.str("resource-version") != "" && !single {
		return &plainError{msg: msgResourceVersionOne}
	}
	x.listMany = !single
	for _, in := range infos {
		if err := one(in, ch); err != nil {
			errs = append(errs, err)
		}
	}
	return newAggregate(errs)
}

// listPairs is --list: KEY=VALUE lines, sorted (kubectl ranges over the
// map), under "Listing labels for Kind.group/name:" when there are several
// objects.
func (x *execCtx) listPairs(in info, what string, m map[string]string) {
	indent := ""
	if x.listMany {
		indent = " "
		x.printf("Listing %s for %s.%s/%s:\n", what, in.rt.Kind, in.rt.Group, in.name())
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x.printf("%s%s=%s\n", indent, k, m[k])
	}
}
