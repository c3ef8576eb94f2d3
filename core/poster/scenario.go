package poster

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"converge/core/scenario"
	"converge/core/sim"
	"converge/scenarios"
)

// ErrVariants is the error for a scenario with variants: the page opens
// it in the Compare view, every variant side by side, which a poster does
// not draw.
var ErrVariants = errors.New("the scenario has variants: the page shows the Compare view, which a poster does not draw")

// Of draws scn at second t; a t past the scenario's end draws its end,
// as the page opens it.
func Of(scn *scenario.Scenario, t int64, o Options) ([]byte, error) {
	if len(scn.Variants) > 0 {
		return nil, ErrVariants
	}
	s, err := sim.New(scn, sim.Options{CheckpointEvery: -1})
	if err != nil {
		return nil, fmt.Errorf("the scenario cannot start: %w", err)
	}
	s.SeekTo(min(max(t, 0), int64(scn.Duration.Seconds())))
	if o.Title == "" {
		o.Title = scn.Name
	}
	return SVG(s, o), nil
}

// Builtin draws the built-in scenario name (scenarios/NAME.yaml) at
// second t.
func Builtin(name string, t int64) ([]byte, error) {
	scn, err := builtin(name)
	if err != nil {
		return nil, err
	}
	return Of(scn, t, Options{Title: name})
}

// builtin parses the built-in scenario name.
func builtin(name string) (*scenario.Scenario, error) {
	if name == "" || strings.ContainsAny(name, "/\\.") {
		return nil, fmt.Errorf("there is no built-in scenario %q", name)
	}
	src, err := fs.ReadFile(scenarios.FS, name+".yaml")
	if err != nil {
		return nil, fmt.Errorf("there is no built-in scenario %q", name)
	}
	scn, probs := scenario.Parse(src, name+".yaml")
	if probs.HasErrors() {
		return nil, fmt.Errorf("the built-in scenario %s is invalid: %s", name, probs.Errors()[0].String())
	}
	return scn, nil
}

// Builtins lists the built-in scenarios a poster draws (those without
// variants), by name.
func Builtins() []string {
	files, _ := fs.Glob(scenarios.FS, "*.yaml")
	sort.Strings(files)
	var out []string
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".yaml")
		if scn, err := builtin(name); err == nil && len(scn.Variants) == 0 {
			out = append(out, name)
		}
	}
	return out
}

// Path is where a site keeps the poster of the built-in scenario name at
// second t, relative to converge.js: "posters/NAME.svg" at 0s,
// "posters/NAME-30s.svg" later (web/converge-sim.js asks for it).
func Path(name string, t int64) string {
	if t <= 0 {
		return "posters/" + name + ".svg"
	}
	return fmt.Sprintf("posters/%s-%ds.svg", name, t)
}

// ParsePath reads a Path back: the scenario's name and the second; ok is
// false for anything else.
func ParsePath(p string) (name string, t int64, ok bool) {
	base, found := strings.CutPrefix(p, "posters/")
	if !found {
		return "", 0, false
	}
	base, found = strings.CutSuffix(base, ".svg")
	if !found || base == "" || strings.ContainsAny(base, "/\\.") {
		return "", 0, false
	}
	i := strings.LastIndexByte(base, '-')
	if i > 0 && strings.HasSuffix(base, "s") {
		digits := base[i+1 : len(base)-1]
		n := int64(0)
		for _, c := range digits {
			if c < '0' || c > '9' || n > scenario.MaxDuration.Milliseconds() {
				n = -1
				break
			}
			n = n*10 + int64(c-'0')
		}
		if digits != "" && n > 0 && digits[0] != '0' {
			return base[:i], n, true
		}
	}
	return base, 0, true
}

// Scenario parses the built-in scenario name.
func Scenario(name string) (*scenario.Scenario, error) { return builtin(name) }
