package view

import (
	"fmt"
	"strconv"
	"strings"

	"converge/core/scenario"
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

// Validate checks the editor's text as Apply would load it, with the
// scenario parser's one policy (scenario.Parse): unknown fields, bad
// values, the API server's create validation of every object (such as
// `selector` does not match template `labels`), the update validation of
// each apply step against the object it replaces (an immutable selector:
// `spec.selector: Invalid value: ...: field is immutable`) and kubectl's
// parser on every kubectl step (an unknown command or flag, a bad flag
// value), each at its line and column. It returns the first
// manifest.MaxShown problems; Editor.More counts the rest.
func Validate(src []byte) []Problem {
	_, probs := scenario.Parse(src, EditorFile)
	shown, _ := probs.Head()
	return problemsOf(shown, func(i int, p scenario.Problem) string { return fmt.Sprintf("%d:%d:%d", p.Line, p.Col, i) })
}

// problemsOf turns problems into the editor's, each keyed by key.
func problemsOf(ps scenario.Problems, key func(int, scenario.Problem) string) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{Key: key(i, p), Line: p.Line, Col: max(p.Col, 1), Message: p.Message, Note: p.Note}
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
