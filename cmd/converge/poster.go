package main

import (
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"converge/core/poster"
	"converge/core/scenario"
)

var posterCommand = &command{
	name:    "poster",
	args:    "[--at T] [--deployment NAME] SCENARIO",
	summary: "print a scenario's state at a second as a small SVG poster (docs/embedding.md)",
	help: `Simulates SCENARIO (a file, or the name of a built-in scenario) up to --at
(seconds, "30", or a duration, "1m30s"; default 0; past the end is the end)
and prints an SVG of what the compact embed shows at that second: the
Deployment's badge and headline, its budgets and its ReplicaSets with their
pods, each titled with kubectl's STATUS. Put it inside a <converge-sim>
element (inline, or as <img src="...">): readers see it before the
simulator loads, and without JavaScript.
  converge poster --at 30 rolling-update > rolling-update-30s.svg`,
	flags: func(fs *flag.FlagSet) runFunc {
		at := fs.String("at", "0", "the second `T` to draw: 30 or 1m30s")
		dep := fs.String("deployment", "", "the Deployment `NAME` to draw (default: the first by name, as the page)")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("poster needs exactly one SCENARIO (a file or a built-in scenario's name)")
			}
			t, err := posterSecond(*at)
			if err != nil {
				return usageErrorf("--at: %v", err)
			}
			scn, title, err := posterScenario(e, args[0])
			if err != nil {
				return err
			}
			svg, err := poster.Of(scn, t, poster.Options{Title: title, Deployment: *dep})
			if err != nil {
				return badInput(err)
			}
			_, err = e.stdout.Write(append(svg, '\n'))
			return err
		}
	},
}

// posterSecond reads a second: whole seconds or a Go duration of whole
// seconds, at least 0.
func posterSecond(v string) (int64, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return n, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d%time.Second != 0 || d > scenario.MaxDuration {
		return 0, errors.New(strconv.Quote(v) + " is not a whole number of seconds between 0s and 24h")
	}
	return int64(d / time.Second), nil
}

// posterScenario reads the scenario the argument names: a file when one
// exists by that name (or it looks like a path), else a built-in.
func posterScenario(e *env, arg string) (*scenario.Scenario, string, error) {
	if _, err := os.Stat(arg); err == nil || arg == "-" || strings.ContainsAny(arg, "/\\.") {
		scn, err := loadScenario(e, arg)
		if err != nil {
			return nil, "", err
		}
		return scn, scn.Name, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", badInput(err)
	}
	svg := poster.Builtins()
	for _, name := range svg {
		if name == arg {
			scn, err := poster.Scenario(arg)
			return scn, arg, badInputOrNil(err)
		}
	}
	return nil, "", badInput(errors.New("there is no file " + strconv.Quote(arg) + " and no built-in scenario of that name without variants (converge poster draws one Deployment, not the Compare view)"))
}

func badInputOrNil(err error) error {
	if err != nil {
		return badInput(err)
	}
	return nil
}
