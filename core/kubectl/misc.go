package kubectl

import (
	"strings"
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
		return &plainError{msg: "--output must be 'yaml' or 'json'"}
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
	if format != "" && format != outputWide && format != outputName {
		return &plainError{msg: "--output " + format + " is not available"}
	}
	var rows []resourceType
	for _, rt := range resourceTypes {
		if c.changed("namespaced") && rt.namespaced != c.boolean("namespaced") {
			continue
		}
		if c.changed("api-group") && rt.group != c.str("api-group") {
			continue
		}
		rows = append(rows, rt)
	}
	if format == outputName {
		for _, rt := range rows {
			x.printf("%s\n", rt.qualified())
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
		if rt.namespaced {
			ns = "true"
		}
		line := strings.Join([]string{rt.plural, strings.Join(rt.short, ","), rt.apiVersion(), ns, rt.kind}, "\t")
		if format == outputWide {
			line += "\t" + apiVerbs(rt) + "\t" + apiCategories(rt)
		}
		w.Write([]byte(line + "\n"))
	}
	w.Flush()
	x.out.WriteString(b.String())
	return nil
}

func apiVerbs(rt resourceType) string {
	return "create,delete,deletecollection,get,list,patch,update,watch"
}

func apiCategories(rt resourceType) string {
	switch rt.plural {
	case "pods", "services", "deployments", "replicasets":
		return "all"
	}
	return ""
}
