package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"converge/core/kubectl"
	"converge/core/scenario"
	"converge/core/sim"
)

var kubectlCommand = &command{
	name:        "kubectl",
	args:        "[--scenario FILE] [--at DURATION] ARGS...",
	summary:     "run one kubectl-subset command against a scenario's state",
	passthrough: true,
	help: `Simulates FILE up to --at (default: the scenario's end), then runs the kubectl
command ARGS against that state and prints kubectl's output. Without
--scenario the cluster is the default one (node-1..node-3) at t=0.
'apply -f FILE' reads FILE (relative to the working directory), '-f -'
reads standard input.
Converge's own flags come before ARGS:
  converge kubectl --scenario rolling.yaml --at 40s get pods -o wide
Exit status 2 when the command fails (as kubectl, which exits non-zero).`,
	flags: func(fs *flag.FlagSet) runFunc {
		file := fs.String("scenario", "", "scenario or manifest `FILE` to simulate first")
		at := fs.String("at", "", "simulated time `DURATION` to run the command at")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) == 0 {
				return usageError("kubectl needs a command, e.g. get pods")
			}
			scn := &scenario.Scenario{Name: "default", Seed: scenario.DefaultSeed, Cluster: scenario.DefaultCluster()}
			if *file != "" {
				var err error
				if scn, err = loadScenario(e, *file); err != nil {
					return err
				}
			}
			t := scn.Duration
			if *at != "" {
				d, err := time.ParseDuration(*at)
				if err != nil || d < 0 || d > scenario.MaxDuration || d%time.Second != 0 {
					return usageErrorf("--at: %q is not a whole number of seconds between 0s and 24h", *at)
				}
				t = d
			}
			s, err := sim.New(scn, sim.Options{CheckpointEvery: -1})
			if err != nil {
				return badInput(err)
			}
			s.SeekTo(int64(t / time.Second))
			env := s.Env()
			if err := kubectlFiles(e, env); err != nil {
				return badInput(err)
			}
			res := kubectl.Run(env, kubectlLine(args))
			if res.Output != "" {
				fmt.Fprint(e.stdout, withNewline(res.Output))
			}
			if !res.OK() {
				fmt.Fprint(e.stderr, withNewline(res.Error))
				return badInput(nil)
			}
			return nil
		}
	},
}

// kubectlLine joins arguments back into one command line, quoting those
// that need it, so kubectl.Run splits them as the shell did.
func kubectlLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
