package main

import (
	"context"
	"flag"
	"fmt"

	"converge/core/scenario"
)

var validateCommand = &command{
	name:    "validate",
	args:    "FILE...",
	summary: "check scenarios and manifests; print every problem",
	help: `Checks each FILE (a scenario or a plain manifest file) as 'converge run' would
read it: YAML syntax, unknown fields, types, durations, steps, expect
expressions, and the API server's validation of every object. Every problem is
printed as FILE:LINE:COL: message. Exit status 2 when any file has a problem.`,
	flags: func(fs *flag.FlagSet) runFunc {
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) == 0 {
				return usageError("validate needs at least one FILE")
			}
			bad := false
			for _, file := range args {
				data, err := readInput(e, file)
				if err != nil {
					fprintln(e.stderr, err.Error())
					bad = true
					continue
				}
				scn, probs := scenario.Parse(data, file)
				for _, p := range probs {
					fprintln(e.stderr, p.String())
				}
				if probs.HasErrors() {
					bad = true
					continue
				}
				fmt.Fprintf(e.stdout, "%s: ok: scenario %s, %d nodes, %d objects, %d steps, %ds\n", file, scn.Name,
					len(scn.Cluster.Nodes), len(scn.Objects), len(scn.Steps), int64(scn.Duration.Seconds()))
			}
			if bad {
				return badInput(nil)
			}
			return nil
		}
	},
}
