package main

import (
	"context"
	"flag"
	"fmt"
	"os"
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
with the scenario's nodes; docs/sharing.md describes it. The simulation's
myrepo/ images exist in no registry: by default each becomes its own tag of
registry.k8s.io/pause; --image-map (or IMAGE_MAP) chooses others, and
--image-map none keeps the names (for kwok, which pulls nothing).
  converge export-kubectl scenarios/rolling-update.yaml > replay.sh && bash replay.sh
  converge export-kubectl --image-map myrepo/web:1.0=nginx:1.27,myrepo/web:2.0=nginx:1.28 FILE`,
	flags: func(fs *flag.FlagSet) runFunc {
		imageMap := fs.String("image-map", "", "`SIM=REAL,...`: the real image for each simulated one, or none to keep them (default: $IMAGE_MAP, else each myrepo/ image to a tag of "+export.DefaultImage+")")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("export-kubectl needs exactly one FILE")
			}
			spec := *imageMap
			if spec == "" {
				spec = os.Getenv("IMAGE_MAP")
			}
			var images map[string]string
			if spec != "" {
				m, err := export.ParseImageMap(spec)
				if err != nil {
					return usageError(err.Error())
				}
				images = m
			}
			scn, err := loadScenario(e, args[0])
			if err != nil {
				return err
			}
			file := filepath.Base(displayName(args[0]))
			out, err := export.Kubectl(scn, export.KubectlOptions{File: file, Version: version.Version, Images: images})
			if err != nil {
				return badInput(fmt.Errorf("%s: %w", displayName(args[0]), err))
			}
			_, err = e.stdout.Write(out)
			return err
		}
	},
}
