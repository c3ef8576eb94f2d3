package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"converge/core/compare"
	"converge/core/sim"
)

var compareCommand = &command{
	name:    "compare",
	args:    "FILE [--output text|json]",
	summary: "simulate every variant of a scenario and compare their rollouts",
	help: `Simulates each variant of FILE (its variants: list; docs/scenarios.md) to the
end of the scenario and prints, per Deployment and variant, what its rollout
cost: how long it took, the lowest availability, the most replicas and pods,
the pods created and whether the progress deadline was exceeded (docs/compare.md
defines each). --output text (the default) prints a table per Deployment;
--output json prints {"variants": [{"name": ..., "deployments": [...]}]}.
A file without variants is compared as one variant, named after the scenario.
Exit status 1 when an expect (or expectError) of a variant does not hold.`,
	flags: func(fs *flag.FlagSet) runFunc {
		output := fs.String("output", "text", "`FORMAT` of the output: text or json")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("compare needs exactly one FILE")
			}
			if *output != "text" && *output != "json" {
				return usageErrorf("--output must be text or json, not %q", *output)
			}
			return compareScenario(ctx, e, args[0], *output)
		}
	},
}

// compareScenario simulates every variant of file to the scenario's end
// and prints their outcomes.
func compareScenario(ctx context.Context, e *env, file, output string) error {
	scn, err := loadScenario(e, file)
	if err != nil {
		return err
	}
	run, err := compare.New(scn, sim.Options{CheckpointEvery: -1})
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", displayName(file), err))
	}
	end := int64(scn.Duration.Seconds())
	var failures []string
	for _, v := range run.Variants {
		s := v.Sim
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			for _, r := range s.Tick().Steps {
				if !r.OK {
					failures = append(failures, failureLine(displayName(file)+": variant "+v.Name, r))
				}
			}
			if s.T() >= end {
				break
			}
			s.Step(1)
		}
	}
	table := run.Outcomes(end)
	if output == "json" {
		b, err := json.MarshalIndent(table, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		title := scn.Name
		if scn.Title != "" {
			title += ": " + scn.Title
		}
		fmt.Fprintf(e.stdout, "Scenario %s\n", title)
		names := make([]string, len(run.Variants))
		for i, v := range run.Variants {
			names[i] = v.Name
		}
		fmt.Fprintf(e.stdout, "%d variants (%s), %ds simulated; measured from each rollout's start\n\n", len(names),
			strings.Join(names, ", "), end)
		if err := table.WriteText(e.stdout); err != nil {
			return err
		}
	}
	if len(failures) > 0 {
		for _, f := range failures {
			fprintln(e.stderr, f)
		}
		return expectFailed(nil)
	}
	return nil
}
