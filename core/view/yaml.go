package view

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"converge/core/api"
)

// TemplateYAML renders a pod template as `kubectl rollout history
// --revision=N` shows it, as YAML with sorted keys, without the
// pod-template-hash label (which differs between any two revisions and is
// not part of what the user wrote).
func TemplateYAML(t *api.PodTemplateSpec) string {
	c := t.DeepCopy()
	delete(c.Labels, api.DefaultDeploymentUniqueLabelKey)
	b, err := json.Marshal(c)
	if err != nil {
		return ""
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return ""
	}
	var sb strings.Builder
	writeYAML(&sb, v, 0)
	return sb.String()
}

// writeYAML writes v as block YAML at indent, each map with sorted keys as
// kubectl's printer (sigs.k8s.io/yaml) does.
func writeYAML(b *strings.Builder, v any, indent int) {
	pad := strings.Repeat("  ", indent)
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			b.WriteString(pad + yamlScalar(k) + ":")
			writeValue(b, x[k], indent)
		}
	case []any:
		for _, e := range x {
			b.WriteString(pad + "-")
			writeItem(b, e, indent)
		}
	default:
		b.WriteString(pad + yamlScalar(x) + "\n")
	}
}

// writeValue writes the value of a map entry after its "key:".
func writeValue(b *strings.Builder, v any, indent int) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, x, indent+1)
	case []any:
		if len(x) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, x, indent)
	default:
		b.WriteString(" " + yamlScalar(x) + "\n")
	}
}

// writeItem writes a list element after its "-": a map's first entry goes
// on the dash's line, the rest below it.
func writeItem(b *strings.Builder, v any, indent int) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		writeValue(b, v, indent)
		return
	}
	var sub strings.Builder
	writeYAML(&sub, m, indent+1)
	b.WriteString(" " + strings.TrimPrefix(sub.String(), strings.Repeat("  ", indent+1)))
}

// yamlScalar renders a scalar, quoting strings that YAML would read as
// something else.
func yamlScalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		if needsQuotes(x) {
			q, _ := json.Marshal(x)
			return string(q)
		}
		return x
	}
	return ""
}

func needsQuotes(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return true
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") {
		return true
	}
	return strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.ContainsAny(s, "\n\t")
}
