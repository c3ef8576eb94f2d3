package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"converge/core/export"
	"converge/core/version"
)

var exportKubectlCommand = &command{
	name:    "export-kubectl",
	args:    "FILE",
	summary: "print a bash script that replays a scenario on a real cluster",
	help: `Checks FILE like 'converge validate', then prints a bash script that replays
the scenario with kubectl on a real cluster (kind, say): it applies the
objects in a namespace of its own, runs each step at its second, checks each
expect with kubectl get -o jsonpath and prints each mismatch, and says when to
cause each fault by hand. The script's header says how to make a kind cluster
with the scenario's nodes; docs/sharing.md describes it.
  converge export-kubectl scenarios/rolling-update.yaml > replay.sh && bash replay.sh`,
	flags: func(fs *flag.FlagSet) runFunc {
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("export-kubectl needs exactly one FILE")
			}
			scn, err := loadScenario(e, args[0])
			if err != nil {
				return err
			}
			file := filepath.Base(displayName(args[0]))
			out, err := export.Kubectl(scn, export.KubectlOptions{File: file, Version: version.Version})
			if err != nil {
				return badInput(fmt.Errorf("%s: %w", displayName(args[0]), err))
			}
			_, err = e.stdout.Write(out)
			return err
		}
	},
}
