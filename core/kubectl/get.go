package kubectl

import (
	"fmt"
	"strings"

	"converge/core/api"
)

// runGet is `kubectl get`: tables, -o wide|yaml|json|name|jsonpath|
// custom-columns, --field-selector, --sort-by, and -w (getwatch.go).
func runGet(x *execCtx) error {
	c := x.cmd
	format := c.str("output")
	if _, _, isTmpl := x.templateFormat(format); !isTmpl {
		if err := checkOutput(format, true); err != nil {
			return err
		}
	}
	sl, err := x.selectForReading(msgGetNoType)
	if err != nil {
		return err
	}
	if c.boolean("ignore-not-found") {
		sl.errs = dropNotFound(sl.errs)
	}
	if fs := c.str("field-selector"); fs != "" {
		if sl.infos, err = filterByFields(sl.targets, sl.infos, fs); err != nil {
			return err
		}
	}
	if sb := c.str("sort-by"); sb != "" {
		if err := x.sortInfos(sl.infos, sb); err != nil {
			return err
		}
	}
	watch, watchOnly := c.boolean("watch"), c.boolean("watch-only")
	if !watchOnly {
		if err := x.printGetResult(sl.infos, sl.named && len(sl.targets) == 1 && len(sl.errs) == 0, len(sl.errs) == 0); err != nil {
			return err
		}
		if len(sl.infos) == 0 && len(sl.errs) == 0 && !c.boolean("ignore-not-found") && x.isTableFormat() {
			x.printNoResources(sl.targets, sl.allNS)
		}
	}
	if (watch || watchOnly) && len(sl.errs) == 0 {
		x.wait = newGetWatch(c, sl.infos, !watchOnly)
	}
	return newAggregate(sl.errs)
}

// isTableFormat reports a human-readable table (the default or wide).
func (x *execCtx) isTableFormat() bool {
	switch f := x.cmd.str("output"); f {
	case "", outputWide:
		return true
	}
	return false
}

// printGetResult prints what get found in its -o format.
func (x *execCtx) printGetResult(infos []info, single, _ bool) error {
	format := x.cmd.str("output")
	if kind, arg, ok := x.templateFormat(format); ok {
		if kind == "jsonpath" {
			return x.printJSONPath(infos, single, arg)
		}
		return x.printCustomColumns(infos, arg)
	}
	switch format {
	case outputYAML, outputJSON:
		return x.printGeneric(infos, single, format)
	case outputName:
		for _, in := range infos {
			x.printf("%s\n", ref(in.rt, in.name()))
		}
	default:
		x.printTables(infos, format == outputWide, x.cmd.boolean("all-namespaces"))
	}
	return nil
}

// printGeneric prints -o yaml|json: one object as itself, anything else as a
// List.
//
// What it would print beyond MaxOutput is an error instead (budget.go).
func (x *execCtx) printGeneric(infos []info, single bool, format string) error {
	if single && len(infos) == 1 {
		v := x.printValue(infos[0].obj)
		if err := checkPrinted(v, format, 1); err != nil {
			return err
		}
		x.out.WriteString(formatValue(v, format))
		return nil
	}
	objs := make([]api.Object, len(infos))
	for i, in := range infos {
		objs[i] = in.obj
	}
	v, err := x.listValueWithin(objs, format)
	if err != nil {
		return err
	}
	x.out.WriteString(formatValue(v, format))
	return nil
}

// printTables prints one table per run of objects of the same type, with a
// blank line between tables, names prefixed by their kind when more than one
// type is printed.
func (x *execCtx) printTables(infos []info, wide, allNS bool) {
	c := x.cmd
	withKind := c.boolean("show-kind")
	for _, in := range infos {
		if in.rt != infos[0].rt {
			withKind = true
		}
	}
	opts := tableOptions{wide: wide, withNamespace: allNS, withKind: withKind, showLabels: c.boolean("show-labels"),
		noHeaders: c.boolean("no-headers") || x.watchRows, labelColumns: c.list("label-columns")}
	var b strings.Builder
	for start := 0; start < len(infos); {
		end := start
		for end < len(infos) && infos[end].rt == infos[start].rt {
			end++
		}
		if start > 0 && !opts.noHeaders {
			b.WriteString("\n")
		}
		w := newTabWriter(&b)
		writeTable(w, infos[start].rt, infos[start:end], opts, x.now())
		w.Flush()
		start = end
	}
	x.out.WriteString(b.String())
}

// printNoResources is get's message when nothing matched.
func (x *execCtx) printNoResources(targets []target, allNS bool) {
	namespaced := !allNS
	for _, t := range targets {
		namespaced = namespaced && t.rt.Namespaced
	}
	if namespaced {
		x.printf(msgNoResourcesFound+"\n", x.ns)
		return
	}
	x.printf("%s\n", msgNoResourcesFoundNS)
}

func dropNotFound(errs []error) []error {
	var out []error
	for _, e := range errs {
		if !isNotFound(e) {
			out = append(out, e)
		}
	}
	return out
}

// targetsFromArgsOrFiles reads resource arguments, or with -f the objects a
// manifest names. named reports whether objects were named (TYPE NAME,
// TYPE/NAME or a file), as opposed to whole types.
func (x *execCtx) targetsFromArgsOrFiles(args []string) ([]target, bool, error) {
	if files := x.cmd.list("filename"); len(files) > 0 {
		if len(args) > 0 {
			return nil, false, &plainError{msg: fmt.Sprintf(msgUnexpectedArgs, args)}
		}
		objs, _, err := x.readManifests(files)
		if err != nil {
			return nil, false, err
		}
		var ts []target
		for _, o := range objs {
			rt := api.ResourceOf(o)
			if rt == nil {
				continue
			}
			ts = append(ts, target{rt: rt, name: o.GetObjectMeta().Name})
		}
		return ts, true, nil
	}
	ts, err := parseTargets(args)
	if err != nil {
		return nil, false, err
	}
	if err := x.refuseNamespaces(ts); err != nil {
		return nil, false, err
	}
	named := false
	for _, t := range ts {
		if t.name != "" {
			named = true
		}
	}
	return ts, named, nil
}

const msgUnexpectedArgs = "Unexpected args: %v"
