package view

import (
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

// problemsOf turns problems into the editor's, each keyed by key.
func problemsOf(ps scenario.Problems, key func(int, scenario.Problem) string) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{Key: key(i, p), Line: p.Line, Col: max(p.Col, 1), Message: p.Message, Note: p.Note}
	}
	return out
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
