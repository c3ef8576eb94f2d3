package session

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"converge/core/scenario"
	"converge/core/sim"
)

// Open is what the page opens for an address: the decision of Decide.
type Open struct {
	// Sim is the simulation to show, at t=0; nil only when nothing could be
	// opened (an empty library and no usable share).
	Sim *sim.Sim
	// Source is its YAML.
	Source []byte
	// Name is the built-in scenario's name; "" for a shared scenario.
	Name string
	// T is the second to open at (&t=), at most the scenario's duration.
	T int64
	// Embed is the compact view (&embed=1).
	Embed bool
	// Compare is the Compare view asked for (&compare=1); a scenario with
	// variants is shown compared anyway.
	Compare bool
	// Error is the message the page shows when the address asked for
	// something that cannot be opened: a corrupt or too large share, a
	// shared scenario that is invalid, an unknown built-in name, a bad t.
	// The page then opens the default scenario (or t=0). "" when all is well.
	Error string
	// pace is decideAddress's, for the opens it tries.
	pace func()
}

// DecideAddress chooses what the page opens for the address a (ParseAddress
// of the page's href, or a <converge-sim>'s attributes): the shared
// scenario if the address carries one, else the built-in one it names, else
// lib's default; when what it asks for cannot be opened, the default, with
// Error saying why. Examples:
//
//	/                      → the default scenario at 0s
//	/?scenario=basic-loop&t=30 → basic-loop at 30s
//	/#s=@@@                → the default, Error "The shared scenario cannot be opened: share link is corrupt: ..."
//	/?scenario=nope        → the default, Error "There is no built-in scenario "nope"; ..."
func DecideAddress(a Address, lib *Library) Open { return decideAddress(a, lib, nil) }

// decideAddress is DecideAddress with pace called between the pieces of
// the open's work (prepare); nil pace decides it whole.
func decideAddress(a Address, lib *Library, pace func()) Open {
	o := Open{Embed: a.Embed, Compare: a.Compare, pace: pace}
	var problem string
	switch {
	case a.HasShare && a.ShareErr != nil:
		problem = "The shared scenario cannot be opened: " + a.ShareErr.Error() + "."
	case a.HasShare:
		problem = o.openShare(a.Share)
	case a.Scenario != "":
		problem = o.openBuiltin(lib, a.Scenario)
	}
	if o.Sim == nil {
		def := lib.Default()
		if def == "" {
			o.Error = joinSentences(problem, "There are no built-in scenarios to open.")
			return o
		}
		if p := o.openBuiltin(lib, def); p != "" {
			o.Error = joinSentences(problem, p)
			return o
		}
		if problem != "" {
			problem = joinSentences(problem, fmt.Sprintf("Showing the built-in scenario %s instead.", def))
		}
	}
	t, tProblem := parseT(a.T, o.Sim.Duration())
	o.T = t
	o.Error = joinSentences(problem, tProblem)
	return o
}

func (o *Open) openShare(payload string) string {
	src, err := scenario.DecodeShare(payload)
	if err != nil {
		return "The shared scenario cannot be opened: " + err.Error() + "."
	}
	p := prepare(src, "shared.yaml", o.pace)
	if p.Sim == nil {
		return "The shared scenario is invalid: " + p.Result.Summary() + "."
	}
	o.Sim, o.Source, o.Name = p.Sim, p.Source, ""
	return ""
}

func (o *Open) openBuiltin(lib *Library, name string) string {
	src, err := lib.Source(name)
	var unknown *UnknownScenarioError
	switch {
	case errors.As(err, &unknown):
		// The page's message stays short: the picker lists the names.
		return fmt.Sprintf("There is no built-in scenario %q.", name)
	case err != nil:
		return capitalize(err.Error()) + "."
	}
	p := prepare(src, name+".yaml", o.pace)
	if p.Sim == nil {
		return fmt.Sprintf("The built-in scenario %s is invalid: %s.", name, p.Result.Summary())
	}
	o.Sim, o.Source, o.Name = p.Sim, p.Source, name
	return ""
}

// parseT reads &t=: whole seconds ("30") or a Go duration ("1m30s"), at most
// the scenario's duration (a later t opens at the end).
func parseT(v string, duration time.Duration) (int64, string) {
	if v == "" {
		return 0, ""
	}
	end := int64(duration / time.Second)
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) || scenario.DurationOutOfRange(v):
		// Beyond int64 or time.Duration: past the end, or before the start.
		if strings.HasPrefix(v, "-") {
			return 0, fmt.Sprintf("t=%s is before the start; opening at 0s.", shown(v))
		}
		return end, ""
	case err != nil:
		d, derr := time.ParseDuration(v)
		if derr != nil || d%time.Second != 0 {
			return 0, fmt.Sprintf("t=%s is not a whole number of seconds; opening at 0s.", shown(v))
		}
		n = int64(d / time.Second)
	}
	if n < 0 {
		return 0, fmt.Sprintf("t=%s is before the start; opening at 0s.", shown(v))
	}
	return min(n, end), ""
}

// shown is how a message writes a value from the address: as it is, or
// quoted with escapes when it holds characters that do not print.
func shown(v string) string {
	for _, r := range v {
		if !unicode.IsGraphic(r) {
			return strconv.Quote(v)
		}
	}
	return v
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func joinSentences(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// OpenResult is what the JS API's open and openURL return.
type OpenResult struct {
	// OK is false when Error is set.
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	// Name is the built-in scenario opened; "" for a shared one.
	Name  string `json:"name"`
	T     int64  `json:"t"`
	Embed bool   `json:"embed"`
	// Compare is whether the Compare view shows it: asked for, or a
	// scenario with variants.
	Compare bool `json:"compare"`
}

// Result is o as the JS API reports it.
func (o Open) Result() OpenResult {
	return OpenResult{OK: o.Error == "", Error: o.Error, Name: o.Name, T: o.T, Embed: o.Embed,
		Compare: o.Compare || (o.Sim != nil && len(o.Sim.Scenario().Variants) > 0)}
}
