package session

import (
	"encoding/json"

	"converge/core/scenario"
)

// Problem is one problem of a scenario as the JS API reports it: the
// editor underlines Line:Col (both 1-based; 0 when the problem has no
// position, such as an empty file).
type Problem struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// LoadResult is what load and validate return: ok, and the problems, the
// first manifest.MaxShown errors and notes with a count of the rest.
type LoadResult struct {
	OK bool `json:"ok"`
	// Errors make the scenario invalid; on load the previous simulation is
	// kept.
	Errors []Problem `json:"errors"`
	// Notes are information that does not make it invalid (such as a
	// dropped server-set field).
	Notes []Problem `json:"notes"`
	// MoreErrors and MoreNotes count the problems beyond the first 100 of
	// each list, which are left out.
	MoreErrors int `json:"moreErrors"`
	MoreNotes  int `json:"moreNotes"`
	// Error is set, instead of Errors, when the failure has nothing to do
	// with the text (an unknown built-in name, an internal error).
	Error string `json:"error,omitempty"`
}

// NewLoadResult classifies probs into errors and notes; ok when there is no
// error.
func NewLoadResult(probs scenario.Problems) LoadResult {
	errs, moreErrs := probs.Errors().Head()
	notes, moreNotes := probs.Notes().Head()
	return LoadResult{OK: !probs.HasErrors(), Errors: convert(errs), Notes: convert(notes), MoreErrors: moreErrs, MoreNotes: moreNotes}
}

// FailedLoad is the result of a load that failed for reason err, which is
// not a problem of the text.
func FailedLoad(err error) LoadResult {
	return LoadResult{Errors: []Problem{}, Notes: []Problem{}, Error: err.Error()}
}

func convert(probs scenario.Problems) []Problem {
	out := make([]Problem, 0, len(probs))
	for _, p := range probs {
		line, col := p.Line, p.Col
		if line > 0 && col < 1 {
			col = 1
		}
		out = append(out, Problem{Line: line, Col: col, Message: p.Message})
	}
	return out
}

// JSON marshals v for the bridge. The shapes of this package always
// marshal; anything else that fails becomes the JSON of an internal error,
// so callers need not handle an error they cannot act on.
func JSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return InternalErrorJSON(err.Error())
	}
	return string(data)
}

// InternalErrorJSON is the outcome object for a bug: {"ok":false,"error":"internal error: MSG"}.
func InternalErrorJSON(msg string) string {
	data, _ := json.Marshal(struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}{Error: "internal error: " + msg})
	return string(data)
}
