package kubectl

import (
	"fmt"
	"strings"

	"converge/core/api"
)

// --field-selector: the API server's field selectors. Each kind takes the
// fields its registry's field label conversion accepts (pods: metadata.name,
// metadata.namespace, spec.nodeName, spec.restartPolicy, spec.schedulerName,
// spec.serviceAccountName, spec.hostNetwork, status.phase, status.podIP,
// status.podIPs, status.nominatedNodeName; nodes: metadata.name,
// spec.unschedulable; events: involvedObject.*, reason,
// reportingComponent, source, type; services: spec.clusterIP, spec.type;
// every other kind only metadata.name and metadata.namespace), with =, ==
// and !=, terms joined by commas.

// fieldTerm is one term of a field selector.
type fieldTerm struct {
	field, value string
	not          bool
}

// selectableFields are the fields each kind's conversion accepts beyond
// metadata.name and metadata.namespace; kinds with a conversion of their
// own answer an unknown field with "field label not supported".
var selectableFields = map[string][]string{
	api.KindPod: {"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork",
		"status.phase", "status.podIP", "status.podIPs", "status.nominatedNodeName", "spec.host"},
	api.KindNode: {"spec.unschedulable"},
	api.KindEvent: {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid",
		"involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent",
		"source", "type"},
	api.KindService: {"spec.clusterIP", "spec.type"},
}

// parseFieldSelector is fields.ParseSelector: terms split on unescaped
// commas, each FIELD=VALUE, FIELD==VALUE or FIELD!=VALUE.
func parseFieldSelector(s string) ([]fieldTerm, error) {
	var out []fieldTerm
	for _, part := range splitUnescaped(s, ',') {
		if part == "" {
			continue
		}
		var t fieldTerm
		switch {
		case strings.Contains(part, "!="):
			t.field, t.value, _ = strings.Cut(part, "!=")
			t.not = true
		case strings.Contains(part, "=="):
			t.field, t.value, _ = strings.Cut(part, "==")
		case strings.Contains(part, "="):
			t.field, t.value, _ = strings.Cut(part, "=")
		default:
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, part)
		}
		t.value = strings.NewReplacer(`\,`, ",", `\=`, "=", `\\`, `\`).Replace(t.value)
		out = append(out, t)
	}
	return out, nil
}

func splitUnescaped(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// checkFieldTerms is the API server's ConvertFieldLabel for kind.
func checkFieldTerms(kind string, terms []fieldTerm) error {
	for _, t := range terms {
		if t.field == "metadata.name" || t.field == "metadata.namespace" {
			continue
		}
		extra, own := selectableFields[kind]
		if !own {
			return fmt.Errorf("%q is not a known field selector: only %q, %q", t.field, "metadata.name", "metadata.namespace")
		}
		found := false
		for _, f := range extra {
			found = found || f == t.field
		}
		if !found {
			return fmt.Errorf("field label not supported: %s", t.field)
		}
	}
	return nil
}

// fieldValue is an object's value of a selectable field, as its
// registry's ToSelectableFields sets it.
func fieldValue(obj api.Object, field string) string {
	m := obj.GetObjectMeta()
	switch field {
	case "metadata.name":
		return m.Name
	case "metadata.namespace":
		return m.Namespace
	}
	v := objectValue(obj)
	get := func(path string) string {
		cur := v
		for _, k := range strings.Split(path, ".") {
			mm, ok := cur.(map[string]any)
			if !ok {
				return ""
			}
			cur = mm[k]
		}
		if cur == nil {
			return ""
		}
		return fmt.Sprint(cur)
	}
	switch field {
	case "spec.host":
		return get("spec.nodeName")
	case "spec.hostNetwork", "spec.unschedulable":
		if s := get(field); s != "" {
			return s
		}
		return "false"
	case "status.podIP":
		if p, ok := obj.(*api.Pod); ok {
			return p.Status.PodIP
		}
		return ""
	case "status.podIPs":
		return "" // allowed by the conversion, but not one of the pod's selectable fields
	case "source":
		if s := get("source.component"); s != "" {
			return s
		}
		return get("reportingComponent")
	}
	return get(field)
}

// matchFields reports whether obj matches every term.
func matchFields(obj api.Object, terms []fieldTerm) bool {
	for _, t := range terms {
		if (fieldValue(obj, t.field) == t.value) == t.not {
			return false
		}
	}
	return true
}

// filterByFields keeps the objects that match the field selector sel,
// or returns the API server's BadRequest for a field the kind does not
// take.
func filterByFields(targets []target, infos []info, sel string) ([]info, error) {
	terms, err := parseFieldSelector(sel)
	if err != nil {
		return nil, &plainError{text: "Error from server (BadRequest): " + err.Error()}
	}
	for _, t := range targets {
		if err := checkFieldTerms(t.rt.Kind, terms); err != nil {
			return nil, &plainError{text: "Error from server (BadRequest): " + err.Error()}
		}
	}
	var out []info
	for _, in := range infos {
		if matchFields(in.obj, terms) {
			out = append(out, in)
		}
	}
	return out, nil
}
