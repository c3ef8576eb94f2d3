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
	help: `Checks each FILE (a scenario or a plain manifest file; - reads standard
input) as 'converge run' would read it: YAML syntax, unknown fields, types,
durations, steps, expect expressions, the API server's validation of every
object and of every apply step as an update of the object it replaces
(immutable fields such as a Deployment's selector), and kubectl's parsing of
every kubectl step (unknown commands and flags, bad flag values). A step with
expectError is meant to fail and is not checked. Every problem is printed as
FILE:LINE:COL: message. Exit status 2 when any file has a problem.`,
	flags: func(fs *flag.FlagSet) runFunc {
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) == 0 {
				return usageError("validate needs at least one FILE")
			}
			bad := false
			for _, arg := range args {
				data, err := readInput(e, arg)
				if err != nil {
					fprintln(e.stderr, err.Error())
					bad = true
					continue
				}
				file := displayName(arg)
				scn, probs := scenario.Parse(data, file)
				printProblems(e.stderr, probs)
				if probs.HasErrors() {
					bad = true
					continue
				}
				variants := ""
				if n := len(scn.Variants); n > 0 {
					variants = fmt.Sprintf(", %d variants", n)
				}
				fmt.Fprintf(e.stdout, "%s: ok: scenario %s, %d nodes, %d objects%s, %d steps, %ds\n", file, scn.Name,
					len(scn.Cluster.Nodes), len(scn.Objects), variants, len(scn.Steps), int64(scn.Duration.Seconds()))
			}
			if bad {
				return badInput(nil)
			}
			return nil
		}
	},
}
