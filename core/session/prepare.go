package session

import (
	"fmt"

	"converge/core/manifest"
	"converge/core/scenario"
	"converge/core/sim"
)

// Prepared is a scenario ready to run: the outcome of Prepare.
type Prepared struct {
	Sim    *sim.Sim
	Source []byte
	// Problems are every problem and note of src; Result their JS shape.
	Problems scenario.Problems
	Result   LoadResult
}

// Prepare parses src (named file in its problems) and starts a simulation
// of it at t=0. On any problem Sim is nil and Problems says why (a
// simulation that cannot start is one problem without a position); a valid
// scenario's notes are in Problems too.
func Prepare(src []byte, file string) Prepared { return prepare(src, file, nil) }

// prepare is Prepare with pace called between the pieces of its work (the
// parse, then sim.New's: sim.Options.Pace); nil pace runs it whole.
func prepare(src []byte, file string, pace func()) Prepared {
	scn, probs := scenario.Parse(src, file)
	if probs.HasErrors() {
		return Prepared{Problems: probs, Result: NewLoadResult(probs)}
	}
	if pace != nil {
		pace()
	}
	s, err := sim.New(scn, sim.Options{Pace: pace})
	if err != nil {
		probs = append(probs, scenario.Problem{File: file, Message: fmt.Sprintf("the scenario cannot start: %v", err)})
		return Prepared{Problems: probs, Result: NewLoadResult(probs)}
	}
	return Prepared{Sim: s, Source: src, Problems: probs, Result: NewLoadResult(probs)}
}

// Validate parses src without starting anything: the editor's check as the
// user types.
func Validate(src []byte, file string) LoadResult {
	_, probs := scenario.Parse(src, file)
	return NewLoadResult(probs)
}

// Summary is the first problem of a failed result in one line,
// "LINE:COL: message", with how many more there are.
func (r LoadResult) Summary() string {
	switch {
	case r.Error != "":
		return r.Error
	case len(r.Errors) == 0:
		return ""
	}
	p := r.Errors[0]
	s := p.Message
	if p.Line > 0 {
		s = fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message)
	}
	if n := len(r.Errors) - 1 + r.MoreErrors; n == 1 {
		s += " (and 1 more problem)"
	} else if n > 1 {
		s += " (and " + manifest.Thousands(int64(n)) + " more problems)"
	}
	return s
}
