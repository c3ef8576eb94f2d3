package view

import (
	"testing"

	"converge/core/simtest"
)

// BenchmarkFirstRenderViews computes what the page's first render of a
// 10,000-pod scenario computes (the rollout, the why-lines, the intro and
// its checks, the loop, the charts, the timeline), at t=0 after the open.
func BenchmarkFirstRenderViews(b *testing.B) {
	src := simtest.RolloutYAML(simtest.RolloutOptions{Name: "day", Duration: "24h", Nodes: 500, PodsPerNode: 110,
		Replicas: 10000, Image: "nginx:1.25", Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}})
	s := load(b, src)
	s.SeekTo(1)
	b.Run("rollout", func(b *testing.B) {
		for b.Loop() {
			RolloutOf(s, "")
		}
	})
	b.Run("why", func(b *testing.B) {
		for b.Loop() {
			WhyWith(s, OnScreen(s, nil))
		}
	})
	b.Run("intro", func(b *testing.B) {
		for b.Loop() {
			IntroOf(s)
			Checks(s)
		}
	})
	b.Run("loop", func(b *testing.B) {
		for b.Loop() {
			Loop(s, "web")
		}
	})
	b.Run("charts", func(b *testing.B) {
		for b.Loop() {
			Charts(s, "web")
		}
	})
	b.Run("timeline", func(b *testing.B) {
		for b.Loop() {
			TimelineOf(s)
			TimeBands(s, "web")
		}
	})
	b.Run("nodes", func(b *testing.B) {
		for b.Loop() {
			Nodes(s)
		}
	})
}
