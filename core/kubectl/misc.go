package kubectl

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"converge/core/api"
)

// runVersion is `kubectl version`: the simulated cluster's version.
func runVersion(x *execCtx) error {
	c := x.cmd
	switch f := c.str("output"); f {
	case "":
	case outputYAML, outputJSON:
		info := func() map[string]any {
			parts := strings.SplitN(strings.TrimPrefix(KubernetesVersion, "v"), ".", 3)
			return map[string]any{"gitVersion": KubernetesVersion, "major": parts[0], "minor": parts[1], "platform": "js/wasm"}
		}
		v := map[string]any{"clientVersion": info(), "kustomizeVersion": kustomizeVersion}
		if !c.boolean("client") {
			v["serverVersion"] = info()
		}
		x.out.WriteString(formatValue(v, f))
		return nil
	default:
		return &plainError{msg: msgVersionOutputBad}
	}
	x.printf(msgClientVersion+"\n", KubernetesVersion)
	x.printf(msgKustomizeVersion+"\n", kustomizeVersion)
	if !c.boolean("client") {
		x.printf(msgServerVersion+"\n", KubernetesVersion)
	}
	return nil
}

// runAPIResources is `kubectl api-resources` for the kinds Converge serves.
func runAPIResources(x *execCtx) error {
	c := x.cmd
	format := c.str("output")
	if len(c.Args) > 0 {
		return &usageError{path: c.path(), msg: fmt.Sprintf(msgAPIResourcesArgs, c.Args)}
	}
	if format != "" && format != outputWide && format != outputName {
		return &plainError{msg: fmt.Sprintf(msgAPIResourcesOutputBad, format)}
	}
	sortBy := c.str("sort-by")
	if sortBy != "" && sortBy != "name" && sortBy != "kind" {
		return &plainError{msg: msgAPIResourcesSortBad}
	}
	var rows []*resourceType
	for _, rt := range api.Resources() {
		if c.changed("namespaced") && rt.Namespaced != c.boolean("namespaced") {
			continue
		}
		if c.changed("api-group") && rt.Group != c.str("api-group") {
			continue
		}
		if !hasVerbs(c.list("verbs")) {
			continue
		}
		rows = append(rows, rt)
	}
	// kubectl sorts by group (or the --sort-by column), then by name.
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i].Group, rows[j].Group
		switch sortBy {
		case "name":
			a, b = rows[i].Plural, rows[j].Plural
		case "kind":
			a, b = rows[i].Kind, rows[j].Kind
		}
		if a != b {
			return a < b
		}
		return rows[i].Plural < rows[j].Plural
	})
	if format == outputName {
		for _, rt := range rows {
			x.printf("%s\n", rt.GroupResource())
		}
		return nil
	}
	var b strings.Builder
	w := newTabWriter(&b)
	if !c.boolean("no-headers") {
		hdr := "NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND"
		if format == outputWide {
			hdr += "\tVERBS\tCATEGORIES"
		}
		w.Write([]byte(hdr + "\n"))
	}
	for _, rt := range rows {
		ns := "false"
		if rt.Namespaced {
			ns = "true"
		}
		line := strings.Join([]string{rt.Plural, strings.Join(rt.ShortNames, ","), rt.APIVersion(), ns, rt.Kind}, "\t")
		if format == outputWide {
			line += "\t" + apiVerbs(rt) + "\t" + apiCategories(rt)
		}
		w.Write([]byte(line + "\n"))
	}
	w.Flush()
	x.out.WriteString(b.String())
	return nil
}

// verbs are the API verbs every Converge type serves.
var verbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

func apiVerbs(*resourceType) string { return strings.Join(verbs, ",") }

// hasVerbs is --verbs: the type supports every verb asked for.
func hasVerbs(want []string) bool {
	for _, w := range want {
		if !slices.Contains(verbs, w) {
			return false
		}
	}
	return true
}

func apiCategories(rt *resourceType) string { return strings.Join(rt.Categories, ",") }
