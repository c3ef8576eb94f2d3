package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/labels"
)

// target is one resource argument: a type and a name, or a type alone
// (every object of it, filtered by the label selector).
type target struct {
	rt   *resourceType
	name string
}

// info is one object a command works on.
type info struct {
	rt  *resourceType
	obj api.Object
}

func (i info) name() string { return i.obj.GetObjectMeta().Name }

// parseTargets reads kubectl's resource arguments: "TYPE[,TYPE] [NAME...]"
// or "TYPE/NAME ...". "all" stands for pods, services, deployments and
// replicasets.
func parseTargets(args []string) ([]target, error) {
	if len(args) == 0 {
		return nil, &plainError{msg: msgNoResources}
	}
	slashed := false
	for _, a := range args {
		if strings.Contains(a, "/") {
			slashed = true
		}
	}
	if slashed {
		var out []target
		for _, a := range args {
			i := strings.IndexByte(a, '/')
			if i < 0 {
				return nil, &plainError{msg: msgNoNeedForType}
			}
			if i == 0 || i == len(a)-1 || strings.Contains(a[i+1:], "/") {
				return nil, &plainError{msg: msgResourceNameForm}
			}
			rt, err := resolveType(a[:i])
			if err != nil {
				return nil, err
			}
			out = append(out, target{rt: rt, name: a[i+1:]})
		}
		return out, nil
	}
	var types []*resourceType
	for _, t := range strings.Split(args[0], ",") {
		if t == "" {
			continue
		}
		if strings.ToLower(t) == "all" {
			types = append(types, allTypes()...)
			continue
		}
		rt, err := resolveType(t)
		if err != nil {
			return nil, err
		}
		types = append(types, rt)
	}
	if len(types) == 0 {
		return nil, &plainError{msg: msgNoResources}
	}
	var out []target
	for _, rt := range types {
		if len(args) == 1 {
			out = append(out, target{rt: rt})
			continue
		}
		for _, n := range args[1:] {
			out = append(out, target{rt: rt, name: n})
		}
	}
	return out, nil
}

func resolveType(s string) (*resourceType, error) {
	if isNamespaceType(s) {
		return namespaceType, nil
	}
	rt, ok := api.LookupResource(s)
	if !ok {
		return nil, &plainError{msg: fmt.Sprintf(msgNoResourceType, s)}
	}
	return rt, nil
}

// selection is what get and describe resolve their arguments to.
type selection struct {
	targets []target
	// named reports that objects were named (TYPE NAME, TYPE/NAME or a
	// file), as opposed to whole types.
	named bool
	allNS bool // --all-namespaces
	infos []info
	// errs are the lookups that failed, beside the objects found.
	errs []error
}

// selectForReading is how get and describe find their objects: the
// resource arguments (or -f files), -l (refused next to named objects) and
// --all-namespaces. noType is the command's text for a call with neither
// arguments nor files.
func (x *execCtx) selectForReading(noType string) (selection, error) {
	c := x.cmd
	targets, named, err := x.targetsFromArgsOrFiles(c.Args)
	if err != nil {
		if len(c.Args) == 0 && len(c.list("filename")) == 0 {
			return selection{}, &plainError{text: noType}
		}
		return selection{}, err
	}
	sel, err := x.selector()
	if err != nil {
		return selection{}, err
	}
	if named && c.str("selector") != "" {
		return selection{}, &plainError{msg: msgNameWithSelector}
	}
	allNS := c.boolean("all-namespaces")
	infos, errs := x.visit(targets, sel, allNS)
	return selection{targets: targets, named: named, allNS: allNS, infos: infos, errs: errs}, nil
}

const msgNameWithSelector = "name cannot be provided when a selector is specified"

// selector parses -l.
func (x *execCtx) selector() (labels.Selector, error) {
	sel, err := labels.Parse(x.cmd.str("selector"))
	if err != nil {
		return labels.Nothing(), &plainError{msg: err.Error()}
	}
	return sel, nil
}

// visit resolves targets to objects, in kubectl's order: named objects in
// argument order; whole types sorted by namespace and name, filtered by the
// selector. Lookups that fail are returned as errors next to what was found.
func (x *execCtx) visit(targets []target, sel labels.Selector, allNamespaces bool) ([]info, []error) {
	var infos []info
	var errs []error
	for _, t := range targets {
		if t.rt.Kind == api.KindEndpoints {
			// Every request for v1 Endpoints carries the API server's
			// deprecation warning (apiserver's installer.go,
			// deprecation.WarningMessage of core/v1's lifecycle).
			x.serverWarning(msgEndpointsDeprecated)
		}
		if t.rt == namespaceType {
			if t.name == "" {
				infos = append(infos, x.listNamespaces(sel)...)
				continue
			}
			o, err := x.getNamespace(t.name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			infos = append(infos, info{rt: t.rt, obj: o})
			continue
		}
		if t.name != "" {
			o, err := x.st.Get(t.rt.Kind, x.nsFor(t.rt), t.name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			infos = append(infos, info{rt: t.rt, obj: o})
			continue
		}
		infos = append(infos, x.list(t.rt, sel, allNamespaces)...)
	}
	return infos, errs
}

// list returns the objects of a type in the namespace (or all), matching sel,
// sorted as the API server lists them: by namespace, then name.
func (x *execCtx) list(rt *resourceType, sel labels.Selector, allNamespaces bool) []info {
	var out []info
	for _, o := range x.st.List(rt.Kind) {
		m := o.GetObjectMeta()
		if rt.Namespaced && !allNamespaces && m.Namespace != x.ns {
			continue
		}
		if !sel.Matches(m.Labels) {
			continue
		}
		out = append(out, info{rt: rt, obj: o})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].obj.GetObjectMeta(), out[j].obj.GetObjectMeta()
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

func (x *execCtx) nsFor(rt *resourceType) string {
	if !rt.Namespaced {
		return ""
	}
	return x.ns
}

// splitPairs is cmdutil.GetResourcesAndPairs: resource arguments first, then
// KEY=VALUE or KEY- pairs.
func splitPairs(args []string, pairType string) (resources, pairs []string, err error) {
	found := false
	for _, s := range args {
		isPair := (strings.Contains(s, "=") && s[0] != '=') || (strings.HasSuffix(s, "-") && s != "-")
		switch {
		case isPair:
			found = true
			pairs = append(pairs, s)
		case found:
			return nil, nil, &plainError{msg: fmt.Sprintf(msgResourcesBeforePairs, pairType, s)}
		default:
			resources = append(resources, s)
		}
	}
	return resources, pairs, nil
}

// parsePairs is cmdutil.ParsePairs: KEY=VALUE sets, KEY- removes.
func parsePairs(pairs []string, pairType string, supportRemove bool) (map[string]string, []string, []string, error) {
	set := map[string]string{}
	var order, remove, invalid []string
	for _, p := range pairs {
		switch {
		case strings.Contains(p, "=") && p[0] != '=':
			k, v, _ := strings.Cut(p, "=")
			if _, dup := set[k]; !dup {
				order = append(order, k)
			}
			set[k] = v
		case supportRemove && strings.HasSuffix(p, "-") && p != "-":
			remove = append(remove, p[:len(p)-1])
		default:
			invalid = append(invalid, p)
		}
	}
	if len(invalid) > 0 {
		return nil, nil, nil, &plainError{msg: fmt.Sprintf(msgInvalidPairFormat, pairType, strings.Join(invalid, ", "))}
	}
	return set, order, remove, nil
}

func everything() labels.Selector { return labels.Everything() }
