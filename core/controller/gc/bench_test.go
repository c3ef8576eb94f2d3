package gc

import (
	"testing"

	"converge/core/simtest"
)

// BenchmarkSyncSteadyState is one Sync over 5,000 owned pods on 50 nodes
// with nothing to collect: the cost every control-plane round pays.
func BenchmarkSyncSteadyState(b *testing.B) {
	c := simtest.NewCluster(b, simtest.ClusterOptions{Nodes: 50, Pods: 5000, Bound: true})
	simtest.BenchSteadyState(b, c.Store, New())
}
