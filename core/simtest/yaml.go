package simtest

import (
	"fmt"
	"strings"
)

// DeploymentYAML is a Deployment `name` with `replicas` pods of one
// container `name` running image, selected by app=name, written as an item
// of a scenario's objects list. DeploymentYAML("web", 2, "nginx") is the
// item below `objects:` here:
//
//	objects:
//	- apiVersion: apps/v1
//	  kind: Deployment
//	  metadata: {name: web}
//	  spec:
//	    replicas: 2
//	    selector: {matchLabels: {app: web}}
//	    template:
//	      metadata: {labels: {app: web}}
//	      spec: {containers: [{name: web, image: nginx}]}
func DeploymentYAML(name string, replicas int, image string) string {
	return fmt.Sprintf(`- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: %[1]s}
  spec:
    replicas: %[2]d
    selector: {matchLabels: {app: %[1]s}}
    template:
      metadata: {labels: {app: %[1]s}}
      spec: {containers: [{name: %[1]s, image: %[3]s}]}
`, name, replicas, image)
}

// RolloutOptions describes a large rolling-update scenario for benchmarks.
type RolloutOptions struct {
	Name     string
	Title    string // optional
	Duration string // "600s", "10m"
	// Nodes is the number of nodes node-1..node-N, each with 64 cpu, 256Gi
	// and room for PodsPerNode pods.
	Nodes, PodsPerNode int
	// Replicas is the size of Deployment web; each pod requests 10m cpu and 16Mi.
	Replicas int
	// Image is the image the Deployment starts with.
	Image string
	// Images are lines of cluster.images ("nginx:1.28: {readySeconds: 5}").
	Images []string
	// Rollouts are the steps that set a new image: at (a duration) → image.
	Rollouts []Rollout
}

// Rollout is one `kubectl set image` step of a RolloutOptions scenario.
type Rollout struct{ At, Image string }

// RolloutYAML writes the scenario that o describes.
func RolloutYAML(o RolloutOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\n", o.Name)
	if o.Title != "" {
		fmt.Fprintf(&b, "title: %s\n", o.Title)
	}
	fmt.Fprintf(&b, "duration: %s\ncluster:\n  nodes:\n", o.Duration)
	for i := 1; i <= o.Nodes; i++ {
		fmt.Fprintf(&b, "  - {name: node-%d, cpu: \"64\", memory: 256Gi, pods: %d}\n", i, o.PodsPerNode)
	}
	if len(o.Images) > 0 {
		b.WriteString("  images:\n")
		for _, im := range o.Images {
			b.WriteString("    " + im + "\n")
		}
	}
	fmt.Fprintf(&b, `objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: %d
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: web
          image: %s
          resources: {requests: {cpu: 10m, memory: 16Mi}}
`, o.Replicas, o.Image)
	if len(o.Rollouts) > 0 {
		b.WriteString("steps:\n")
		for _, r := range o.Rollouts {
			fmt.Fprintf(&b, "- at: %s\n  kubectl: set image deployment/web web=%s\n", r.At, r.Image)
		}
	}
	return b.String()
}

// AliasFloodYAML is a scenario with one bad anchor, a mapping where
// container args want a string, aliased n times: n+1 problems at the
// anchor (line 16, column 18).
func AliasFloodYAML(n int) string {
	return `name: flood
duration: 10s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: web
          image: nginx
          args: [&a {x: 1}` + strings.Repeat(", *a", n) + "]\n"
}
