package kubectl

import (
	"sort"
	"strings"
	"unicode"

	"converge/core/api"
)

// event describes an Event with kubectl's generic describer (there is no
// Event describer): name, namespace, labels, annotations, then every other
// field under a label made from its name.
func (d *describer) event(e *api.Event) {
	d.write(level0, "Name:\t%s\n", e.Name)
	d.write(level0, "Namespace:\t%s\n", e.Namespace)
	d.labelsMultiline("", "Labels", e.Labels)
	d.annotationsMultiline("Annotations", e.Annotations)
	if m, ok := objectValue(e).(map[string]any); ok {
		d.unstructured(level0, m, "", ".metadata.managedFields", ".metadata.name", ".metadata.namespace",
			".metadata.labels", ".metadata.annotations")
	}
	d.events(e)
}

// unstructured is printUnstructuredContent.
func (d *describer) unstructured(level int, content map[string]any, prefix string, skip ...string) {
	fields := make([]string, 0, len(content))
	for f := range content {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	skipped := func(expr string) bool {
		for _, s := range skip {
			if s == expr {
				return true
			}
		}
		return false
	}
	for _, f := range fields {
		expr := prefix + "." + f
		if skipped(expr) {
			continue
		}
		switch v := content[f].(type) {
		case map[string]any:
			d.write(level, "%s:\n", smartLabel(f))
			d.unstructured(level+1, v, expr, skip...)
		case []any:
			d.write(level, "%s:\n", smartLabel(f))
			for _, child := range v {
				if m, ok := child.(map[string]any); ok {
					d.unstructured(level+1, m, expr, skip...)
					continue
				}
				d.write(level+1, "%v\n", child)
			}
		default:
			d.write(level, "%s:\t%v\n", smartLabel(f), v)
		}
	}
}

// smartLabel is smartLabelFor: "involvedObject" becomes "Involved Object",
// "apiVersion" becomes "API Version"; names with other characters than
// letters and '-' stay as they are.
func smartLabel(field string) string {
	for _, r := range field {
		if !unicode.IsLetter(r) && r != '-' {
			return field
		}
	}
	parts := camelSplit(field)
	var merged []string
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		if i < len(parts)-1 && len(p) >= 2 && isUpperWord(p) && unicode.IsUpper([]rune(parts[i+1])[0]) {
			merged = append(merged, p+parts[i+1])
			i++
			continue
		}
		merged = append(merged, p)
	}
	var out []string
	for _, p := range merged {
		switch up := strings.ToUpper(p); {
		case up == "API" || up == "URL" || up == "UID" || up == "GUID":
			p = up
		case strings.ToLower(p) == p:
			p = strings.ToUpper(p[:1]) + p[1:]
		}
		out = append(out, p)
	}
	return strings.Join(out, " ")
}

func isUpperWord(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// camelSplit is github.com/fatih/camelcase.Split: runs of lower case,
// upper case, digits and other characters; an upper-case run followed by
// lower case gives its last letter to the next word ("URLPath" → URL, Path).
func camelSplit(s string) []string {
	class := func(r rune) int {
		switch {
		case unicode.IsLower(r):
			return 1
		case unicode.IsUpper(r):
			return 2
		case unicode.IsDigit(r):
			return 3
		}
		return 4
	}
	var runs [][]rune
	last := 0
	for _, r := range s {
		c := class(r)
		if c == last && len(runs) > 0 {
			runs[len(runs)-1] = append(runs[len(runs)-1], r)
		} else {
			runs = append(runs, []rune{r})
		}
		last = c
	}
	for i := 0; i < len(runs)-1; i++ {
		if class(runs[i][0]) == 2 && class(runs[i+1][0]) == 1 && len(runs[i]) > 0 {
			runs[i+1] = append([]rune{runs[i][len(runs[i])-1]}, runs[i+1]...)
			runs[i] = runs[i][:len(runs[i])-1]
		}
	}
	var out []string
	for _, r := range runs {
		if len(r) > 0 {
			out = append(out, string(r))
		}
	}
	return out
}
