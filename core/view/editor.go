package view

import (
	"fmt"
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/manifest"
	"converge/core/scenario"
	"converge/core/store"
	"converge/core/validation"
	"converge/core/validation/field"
)

// EditorFile is the name problems of the editor's text are reported under.
const EditorFile = "scenario.yaml"

// Problem is one problem of the editor's text at a 1-based line and column
// (line 0: the text as a whole).
type Problem struct {
	// Key is "LINE:COL:N", stable while the text does not change.
	Key       string
	Line, Col int
	Message   string
	// Note marks information that does not stop Apply.
	Note bool
}

// Validate checks the editor's text as Apply would load it: the scenario
// parser's problems (unknown fields, bad values, the API server's create
// validation of every object, such as `selector` does not match template
// `labels`), and, when those pass, the update validation of each `apply`
// step against the object applied before it, such as an immutable
// selector (`spec.selector: Invalid value: ...: field is immutable`),
// which would otherwise only show when the step runs. A step with
// expectError is meant to fail and is not checked.
func Validate(src []byte) []Problem {
	scn, probs := scenario.Parse(src, EditorFile)
	if scn != nil && !probs.HasErrors() {
		probs = append(probs, updateProblems(scn)...)
		probs.Sort()
	}
	out := make([]Problem, 0, len(probs))
	for i, p := range probs {
		out = append(out, Problem{Key: fmt.Sprintf("%d:%d:%d", p.Line, p.Col, i), Line: p.Line, Col: max(p.Col, 1),
			Message: p.Message, Note: p.Note})
	}
	return out
}

// HasErrors reports whether any problem is not a note.
func HasErrors(ps []Problem) bool {
	for _, p := range ps {
		if !p.Note {
			return true
		}
	}
	return false
}

// updateProblems validates each apply step's objects as updates of the
// object last applied under the same kind and name.
func updateProblems(scn *scenario.Scenario) manifest.Problems {
	last := map[string]api.Object{}
	key := func(o api.Object) string { return store.KindOf(o) + "/" + o.GetObjectMeta().Name }
	for _, d := range scn.Objects {
		last[key(d.Object)] = defaulted(d.Object)
	}
	var probs manifest.Problems
	for _, st := range scn.Steps {
		if st.Kubectl != "" {
			forgetDeleted(last, st.Kubectl)
			continue
		}
		for _, d := range st.Apply {
			k := key(d.Object)
			obj := defaulted(d.Object)
			if old, ok := last[k]; ok && st.ExpectError == "" {
				probs = append(probs, place(d, obj, validation.ValidateObject(obj, old))...)
			}
			last[k] = obj
		}
	}
	return probs
}

func defaulted(o api.Object) api.Object {
	c := o.DeepCopyObject()
	api.SetDefaults(c)
	return c
}

// place puts field errors at their field, in kubectl's words, once each.
func place(d manifest.Doc, obj api.Object, errs field.ErrorList) manifest.Problems {
	var out manifest.Problems
	kind, name := obj.GetTypeMeta().Kind, obj.GetObjectMeta().Name
	seen := map[string]bool{}
	for _, e := range errs {
		m := e.Error()
		if seen[m] {
			continue
		}
		seen[m] = true
		pos := d.Positions.Lookup(e.Field)
		if pos.Line == 0 {
			pos = manifest.Position{Line: max(d.Line, 1), Col: max(d.Col, 1)}
		}
		out = append(out, manifest.Problem{File: EditorFile, Line: pos.Line, Col: pos.Col,
			Message: fmt.Sprintf("The %s %q is invalid: %s", kind, name, m)})
	}
	return out
}

// forgetDeleted drops the objects a `delete KIND NAME` step removes, so
// that a later apply counts as a create.
func forgetDeleted(last map[string]api.Object, line string) {
	w := strings.Fields(line)
	if len(w) < 2 || w[0] != "delete" {
		return
	}
	for k := range last {
		kind, name, _ := strings.Cut(k, "/")
		for i := 1; i < len(w); i++ {
			if strings.HasSuffix(w[i], "/"+name) || w[i] == name {
				delete(last, kind+"/"+name)
			}
		}
	}
}

// LineNumbers returns "1\n2\n...\nN" for a text of N lines (the editor's
// gutter).
func LineNumbers(text string) string {
	n := strings.Count(text, "\n") + 1
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i))
	}
	return b.String()
}
