package view

import (
	"fmt"

	"converge/core/scenario"
	"converge/core/sim"
)

// What only the tests call: the page reaches the same through Editor,
// EventsWith and the problems' Note.

// Events returns the event log up to now (the events the API server holds,
// as `kubectl get events` lists them, and the scenario's steps that ran),
// filtered, newest first.
func Events(s *sim.Sim, f EventFilter) EventList {
	return EventsWith(s, f, nil)
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
