package session

import (
	"testing"

	"converge/core/simtest"
)

// BenchmarkPrepareLargest is the open of the largest scenario docs/limits.md
// allows (10,000 pods on 500 nodes): parsing and sim.New with its tick 0.
func BenchmarkPrepareLargest(b *testing.B) {
	src := []byte(simtest.RolloutYAML(simtest.RolloutOptions{Name: "day", Duration: "24h", Nodes: 500, PodsPerNode: 110,
		Replicas: 10000, Image: "nginx:1.25", Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}}))
	for b.Loop() {
		if p := Prepare(src, "s.yaml"); p.Sim == nil {
			b.Fatal(p.Problems)
		}
	}
}
