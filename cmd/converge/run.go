package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"converge/core/scenario"
	"converge/core/sim"
)

var runCommand = &command{
	name:    "run",
	args:    "FILE [--output text|jsonl] [--until DURATION] [--variant NAME]",
	summary: "simulate a scenario (or a plain manifest file) natively",
	help: `Simulates FILE second by second and prints a readable timeline (--output text,
the default: each step with its output, each event as 'kubectl get events -w'
shows it, and a summary per Deployment) or the JSONL trace, one JSON object
per simulated second (--output jsonl), byte-identical run to run.
FILE may be a scenario or a plain manifest file; - reads standard input.
--until stops early (or runs past the scenario's duration); --until 0s prints
the state at t=0 alone. A scenario with variants runs its first variant, or
the one --variant names.
Exit status 1 when an expect (or expectError) does not hold.`,
	flags: func(fs *flag.FlagSet) runFunc {
		output := fs.String("output", "text", "`FORMAT` of the output: text or jsonl")
		until := fs.String("until", "", "simulate until `DURATION` (Go syntax, e.g. 90s or 5m) instead of the scenario's duration")
		variant := fs.String("variant", "", "run the scenario's variant `NAME` (default: its first)")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("run needs exactly one FILE")
			}
			if *output != "text" && *output != "jsonl" {
				return usageErrorf("--output must be text or jsonl, not %q", *output)
			}
			// --until 0s is t=0 alone: a given flag, not a zero, overrides the
			// scenario's duration.
			var end *time.Duration
			if given(fs, "until") {
				d, err := time.ParseDuration(*until)
				if err != nil || d < 0 || d > scenario.MaxDuration || d%time.Second != 0 {
					return usageErrorf("--until: %q is not a whole number of seconds between 0s and 24h (e.g. 90s, 5m)", *until)
				}
				end = &d
			}
			return runScenario(ctx, e, args[0], *output, end, *variant)
		}
	},
}

// runScenario simulates file (its variant variant, when not "") until the
// scenario's duration, or until *untilFlag when it is given.
func runScenario(ctx context.Context, e *env, file, output string, untilFlag *time.Duration, variant string) error {
	scn, err := loadScenario(e, file)
	if err != nil {
		return err
	}
	if variant != "" {
		if scn, err = scn.WithVariant(variant); err != nil {
			return badInput(fmt.Errorf("%s: %w", displayName(file), err))
		}
	}
	until := scn.Duration
	if untilFlag != nil {
		until = *untilFlag
	}
	s, err := sim.New(scn, sim.Options{CheckpointEvery: -1})
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", displayName(file), err))
	}
	w := e.stdout
	if output == "jsonl" && e.trace != nil {
		w = e.trace // JSON escapes control characters itself
	}
	out := bufio.NewWriterSize(w, 1<<16)
	defer out.Flush()
	var tl *timeline
	if output == "text" {
		tl = newTimeline(out, scn)
	}
	progress := newProgress(e, until)
	var failures []string
	end := int64(until / time.Second)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if output == "jsonl" {
			if err := s.WriteTraceLine(out); err != nil {
				return err
			}
			out.WriteByte('\n')
		} else {
			tl.tick(s)
		}
		for _, r := range s.Tick().Steps {
			if !r.OK {
				failures = append(failures, failureLine(displayName(file), r))
			}
		}
		progress.at(s.T())
		if s.T() >= end {
			break
		}
		s.Step(1)
	}
	progress.done()
	for _, r := range s.Unfinished() {
		if !r.OK {
			failures = append(failures, failureLine(displayName(file), r))
		}
	}
	if tl != nil {
		tl.summary(s)
	}
	out.Flush()
	if len(failures) > 0 {
		for _, f := range failures {
			fprintln(e.stderr, f)
		}
		return expectFailed(nil)
	}
	return nil
}

// failureLine renders a step that did not hold:
// `FILE: at 90s: expect deployment/web .status.availableReplicas == 3: got 2`.
func failureLine(file string, r sim.StepResult) string {
	msg := r.Error
	if msg == "" {
		msg = "failed"
	}
	return fmt.Sprintf("%s: at %s: %s: %s", file, r.At, r.Action, firstLines(msg, 3))
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, " | ")
}

// progress shows how far a long run is, on a terminal only.
type progress struct {
	w    io.Writer
	end  int64
	last int64
	on   bool
}

func newProgress(e *env, until time.Duration) *progress {
	p := &progress{w: e.progress, end: int64(until / time.Second), last: -1}
	if f, ok := e.progress.(*os.File); ok && p.end >= 120 {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) at(t int64) {
	if !p.on || t-p.last < 30 && t != p.end {
		return
	}
	p.last = t
	fmt.Fprintf(p.w, "\rsimulating: %ds of %ds", t, p.end)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
