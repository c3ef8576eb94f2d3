package bridge

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"converge/core/scenario"
	"converge/core/sim"
)

// Address is what the page's URL asks for (docs/embedding.md), before anything is
// checked:
//
//	/#s=SHARE                  a shared scenario
//	/?scenario=NAME            a built-in one
//	&t=SECONDS                 open at that time
//	&embed=1                   the compact embed view
//	&compare=1                 the Compare view (a scenario with variants has it anyway)
//
// Parameters may sit in the query or in the fragment (`#s=SHARE&t=30`); the
// fragment's win.
type Address struct {
	Share    string
	HasShare bool
	// ShareErr is set, with HasShare, when the s= value cannot be read (a
	// bad % escape): the page says so instead of opening something else.
	ShareErr error
	Scenario string
	T        string
	Embed    bool
	Compare  bool
}

// ParseAddress reads an address. It never fails: what it cannot read it
// leaves empty, but for the share, whose problem is ShareErr. The query
// and the fragment are read as they are written, so that a bad escape in
// one parameter (or in the path) spoils only that one.
func ParseAddress(href string) Address {
	var a Address
	rest, fragment, _ := strings.Cut(href, "#")
	_, query, _ := strings.Cut(rest, "?")
	for _, raw := range []string{query, fragment} {
		q, shareErr := readParams(raw)
		if v, ok := q["s"]; ok {
			a.Share, a.HasShare, a.ShareErr = v[0], true, nil
		} else if shareErr != nil {
			a.Share, a.HasShare, a.ShareErr = "", true, shareErr
		}
		if v := q.Get("scenario"); v != "" {
			a.Scenario = v
		}
		if v := q.Get("t"); v != "" {
			a.T = v
		}
		if v, ok := q["embed"]; ok {
			a.Embed = v[0] == "" || v[0] == "1" || v[0] == "true"
		}
		if v, ok := q["compare"]; ok {
			a.Compare = v[0] == "" || v[0] == "1" || v[0] == "true"
		}
	}
	return a
}

// readParams reads the parameters of a query or a fragment as
// url.ParseQuery does (the first value of a key is the one read), and the
// error of an s= value that cannot be decoded. Another value that cannot
// be decoded is kept as written, so that its own check reports it.
func readParams(raw string) (url.Values, error) {
	q := url.Values{}
	var shareErr error
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			continue
		}
		value, err := url.QueryUnescape(v)
		switch {
		case err != nil && key == "s":
			if shareErr == nil {
				shareErr = escapeError(err)
			}
			continue
		case err != nil:
			value = v // as written: its check says what is wrong with it
		}
		q[key] = append(q[key], value)
	}
	return q, shareErr
}

// escapeError is the share error of an s= value that is not URL-encoded
// properly.
func escapeError(err error) error {
	var esc url.EscapeError
	if errors.As(err, &esc) {
		return fmt.Errorf("%w: its s= value has an invalid %% escape %q", scenario.ErrShareCorrupt, string(esc))
	}
	return fmt.Errorf("%w: its s= value cannot be read: %v", scenario.ErrShareCorrupt, err)
}

// ErrNoShare is the error of a link that carries no share.
var ErrNoShare = errors.New("the link has no s= (a share link is PAGE#s=SHARE)")

// ShareOfLink returns the share payload a link carries, read as the page
// reads its own address (ParseAddress): the s= value of the fragment, or of
// the query. A link that is neither a URL nor a fragment (no "://", '/',
// '?', '#' or '=') is the payload itself. It is the one reading of share
// links: `converge unshare` uses it, and the page's errors say the same.
func ShareOfLink(link string) (string, error) {
	if !strings.ContainsAny(link, "/?#=") {
		return link, nil
	}
	if !strings.Contains(link, "://") && !strings.HasPrefix(link, "/") && !strings.ContainsAny(link, "?#") {
		link = "#" + link // a fragment without its '#'
	}
	a := ParseAddress(link)
	switch {
	case !a.HasShare:
		return "", ErrNoShare
	case a.ShareErr != nil:
		return "", a.ShareErr
	}
	return a.Share, nil
}

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
func DecideAddress(a Address, lib *Library) Open {
	o := Open{Embed: a.Embed, Compare: a.Compare}
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
	p := Prepare(src, "shared.yaml")
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
	p := Prepare(src, name+".yaml")
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
