package export

import (
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/scenario"
)

// The simulation's images are names (myrepo/web:1.0) that no registry
// holds; a replay on a real cluster maps each to a real image
// (docs/sharing.md, "Images"). The default map gives each simulated image
// under SimRepo its own tag of DefaultImage, which every cluster can pull
// (kind has it already): distinct images stay distinct, so that a
// `set image` still makes a new revision. An image the scenario makes fail
// its pull (pullFail) keeps its name, so that its pull fails on the cluster
// too, and so does every image outside SimRepo (nginx:1.27 is real).
const (
	// SimRepo is the prefix of the simulation's made-up images.
	SimRepo = "myrepo/"
	// DefaultImage is the repository of the default map's images: the
	// pause container, which runs until it is stopped and answers no probe.
	DefaultImage = "registry.k8s.io/pause"
)

// defaultTags are DefaultImage's tags, one for each simulated image in
// sorted order.
var defaultTags = []string{"3.10", "3.9", "3.8", "3.7", "3.6", "3.5", "3.4.1", "3.3", "3.2", "3.1"}

// ImageMapNone, as --image-map, keeps the simulation's image names (a
// cluster with fake kubelets, such as kwok, pulls nothing).
const ImageMapNone = "none"

// ParseImageMap parses SIM=REAL pairs separated by commas or spaces (the
// --image-map flag and IMAGE_MAP), or "none" for an empty map. Each SIM and
// REAL must be an image reference.
func ParseImageMap(s string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(s) == ImageMapNone {
		return out, nil
	}
	for _, pair := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
		sim, real, ok := strings.Cut(pair, "=")
		if !ok || sim == "" || real == "" {
			return nil, fmt.Errorf("image map: %q is not SIM=REAL (such as myrepo/web:1.0=nginx:1.27)", pair)
		}
		for _, im := range []string{sim, real} {
			if !imageWord(im) {
				return nil, fmt.Errorf("image map: %q is not an image reference", im)
			}
		}
		out[sim] = real
	}
	return out, nil
}

// imageWord reports whether s has only the characters of an image
// reference (registry/path:tag@sha256:digest).
func imageWord(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-/:@", c)) {
			return false
		}
	}
	return s != ""
}

// DefaultImageMap is the map a replay of scn uses without --image-map or
// IMAGE_MAP: each image of scenario's under SimRepo that pulls, in sorted
// order, to DefaultImage with its own tag. Images beyond the tags keep
// their names.
func DefaultImageMap(scn *scenario.Scenario) map[string]string {
	out := map[string]string{}
	i := 0
	for _, im := range scenarioImages(scn) {
		if !strings.HasPrefix(im, SimRepo) || scn.Cluster.Image(im).PullFail || i >= len(defaultTags) {
			continue
		}
		out[im] = DefaultImage + ":" + defaultTags[i]
		i++
	}
	return out
}

// imageMap is the map of a replay: the default one with Images over it;
// an empty, non-nil Images keeps every name.
func (o KubectlOptions) imageMap(scn *scenario.Scenario) map[string]string {
	if o.Images != nil && len(o.Images) == 0 {
		return o.Images
	}
	out := DefaultImageMap(scn)
	for sim, real := range o.Images {
		out[sim] = real
	}
	return out
}

// scenarioImages are the images scn's objects, apply steps and `set
// image` steps name, sorted, each once.
func scenarioImages(scn *scenario.Scenario) []string {
	seen := map[string]bool{}
	var docs []api.Object
	for _, d := range scn.Objects {
		docs = append(docs, d.Object)
	}
	for _, st := range scn.Steps {
		for _, d := range st.Apply {
			docs = append(docs, d.Object)
		}
		if cmd, err := kubectl.Parse(st.Kubectl); err == nil && st.Kubectl != "" && strings.Join(cmd.Path, " ") == "set image" {
			for _, a := range cmd.Args {
				if _, im, ok := strings.Cut(a, "="); ok && im != "" {
					seen[im] = true
				}
			}
		}
	}
	for _, obj := range docs {
		for _, c := range containersOf(obj) {
			seen[c.Image] = true
		}
	}
	out := make([]string, 0, len(seen))
	for im := range seen {
		out = append(out, im)
	}
	sort.Strings(out)
	return out
}

// containersOf are the containers of a workload or pod object.
func containersOf(obj api.Object) []api.Container {
	var spec *api.PodSpec
	switch o := obj.(type) {
	case *api.Deployment:
		spec = &o.Spec.Template.Spec
	case *api.ReplicaSet:
		spec = &o.Spec.Template.Spec
	case *api.Pod:
		spec = &o.Spec
	}
	if spec == nil {
		return nil
	}
	return append(append([]api.Container(nil), spec.InitContainers...), spec.Containers...)
}

// mapImages replaces, in an object as decoded JSON, the image of every
// container (containers and initContainers, at any depth) by its map entry.
func mapImages(v any, images map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for _, key := range []string{"containers", "initContainers"} {
			list, _ := x[key].([]any)
			for _, c := range list {
				if cm, ok := c.(map[string]any); ok {
					if im, ok := cm["image"].(string); ok && images[im] != "" {
						cm["image"] = images[im]
					}
				}
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			mapImages(x[k], images)
		}
	case []any:
		for _, e := range x {
			mapImages(e, images)
		}
	}
}

// mapSetImage rewrites the CONTAINER=IMAGE arguments of `set image` in out
// (cmd's quoted arguments) to the mapped images.
func (g *script) mapSetImage(cmd *kubectl.Command, out []string) {
	if strings.Join(cmd.Path, " ") != "set image" {
		return
	}
	for i, a := range cmd.Args {
		if name, im, ok := strings.Cut(a, "="); ok && g.imageMap[im] != "" {
			out[i] = shQuote(name + "=" + g.imageMap[im])
		}
	}
}

// imageMapComment says which real image stands for each simulated one and
// what of its simulated behaviour the cluster cannot reproduce.
func (g *script) imageMapComment() {
	names := make([]string, 0, len(g.imageMap))
	for sim := range g.imageMap {
		names = append(names, sim)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return
	}
	g.comment(`
The simulation's images are not in any registry; the replay runs these
instead (converge export-kubectl --image-map SIM=REAL,... or IMAGE_MAP chooses
others; --image-map none keeps the names):`)
	for _, sim := range names {
		g.comment("  " + sim + " -> " + g.imageMap[sim])
	}
	g.comment(`A real image keeps its own pace: the simulated pull, start and readiness
times, crashes, hangs, failing or flapping probes and shutdown times are not
reproduced (a pull failure is: such an image keeps its name). ` + DefaultImage + `
answers no probe, so a pod with a readiness, liveness or startup probe on it
never gets ready: map such images to one that answers the probes.`)
}
