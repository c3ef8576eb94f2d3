package deployment

import (
	"fmt"
	"testing"

	"converge/core/controller"
	"converge/core/simtest"
)

// BenchmarkSync measures one controller pass over a Deployment of 500 and
// 5,000 replicas with every pod and ReplicaSet status in place: settled (the
// common case of a simulation) and mid-rollout, blocked at the surge cap
// with new pods that never become ready (the pass also scans the new pods
// to explain the wait). Nothing changes, so every pass must write nothing.
func BenchmarkSync(b *testing.B) {
	for _, n := range []int32{500, 5000} {
		for _, phase := range []string{"settled", "rolling"} {
			b.Run(fmt.Sprintf("replicas=%d/%s", n, phase), func(b *testing.B) {
				c := settled(b, n, 1)
				c.rounds = 8
				if phase == "rolling" {
					c.newPodsNeverReady = c.hashOf("web", "web:2")
					c.setImage("web", "web:2")
					for i := 0; i < 3; i++ {
						c.run()
					}
				}
				ctx := &controller.Context{Store: c.f.store}
				c.ctrl.Sync(ctx)
				before := c.f.store.Writes()
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					c.ctrl.Sync(&controller.Context{Store: c.f.store})
				}
				b.StopTimer()
				if c.f.store.Writes() != before {
					b.Fatalf("a pass with nothing to change wrote %d times", c.f.store.Writes()-before)
				}
			})
		}
	}
}

// BenchmarkRollout runs a whole 5,000-replica rolling update through the
// test's hand-played cluster; the harness dominates, but any O(n²) in the
// controller would show.
func BenchmarkRollout(b *testing.B) {
	for b.Loop() {
		c := settled(b, 5000, 1, simtest.WithRollingUpdate("25%", "25%"))
		c.rounds = 8
		c.setImage("web", "web:2")
		c.runUntil(100, func() bool { return c.complete("web") })
	}
}
