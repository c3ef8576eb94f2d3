package session

import (
	"testing"
	"time"

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

// BenchmarkPrepareLargestPaced is BenchmarkPrepareLargest cut as the page
// cuts it (a pace between the pieces: the parse, each controller's pass,
// each pod placed, each node's kubelet pass): longest-piece-ms is the
// longest stretch without a pace, the bound of the page's longest task
// (natively), and pieces how many there were.
func BenchmarkPrepareLargestPaced(b *testing.B) {
	src := []byte(simtest.RolloutYAML(simtest.RolloutOptions{Name: "day", Duration: "24h", Nodes: 500, PodsPerNode: 110,
		Replicas: 10000, Image: "nginx:1.25", Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}}))
	var longest time.Duration
	pieces := 0
	for b.Loop() {
		last := time.Now()
		pace := func() {
			now := time.Now()
			longest = max(longest, now.Sub(last))
			last = now
			pieces++
		}
		if p := prepare(src, "s.yaml", pace); p.Sim == nil {
			b.Fatal(p.Problems)
		}
		pace()
	}
	b.ReportMetric(float64(longest.Microseconds())/1000, "longest-piece-ms")
	b.ReportMetric(float64(pieces)/float64(b.N), "pieces")
}
