package scheduler

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

func node(cpuMilli, mem, usedCPU, usedMem int64) *nodeInfo {
	return &nodeInfo{allocCPU: cpuMilli, allocMem: mem, used: resources{cpu: usedCPU, mem: usedMem, nzCPU: usedCPU, nzMem: usedMem}}
}

func TestLeastAllocated(t *testing.T) {
	t.Parallel()
	gi := int64(1 << 30)
	tests := []struct {
		name string
		pod  resources
		node *nodeInfo
		want int64
	}{
		{"quarter used", resources{nzCPU: 500, nzMem: gi}, node(4000, 8*gi, 500, gi), 75},
		{"empty node, default requests", resources{nzCPU: DefaultMilliCPURequest, nzMem: DefaultMemoryRequest}, node(4000, 8*gi, 0, 0), 97},
		{"over capacity scores 0 for that resource", resources{nzCPU: 5000, nzMem: gi}, node(4000, 8*gi, 0, 0), 43},
		{"no memory on the node: cpu only", resources{nzCPU: 1000}, node(4000, 0, 0, 0), 75},
		{"nothing allocatable", resources{nzCPU: 1000}, node(0, 0, 0, 0), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, leastAllocated(tc.pod, tc.node))
		})
	}
}

func TestBalancedAllocation(t *testing.T) {
	t.Parallel()
	gi := int64(1 << 30)
	tests := []struct {
		name string
		pod  resources
		node *nodeInfo
		want int64
	}{
		{"equal fractions", resources{cpu: 1000, mem: 2 * gi}, node(4000, 8*gi, 0, 0), 100},
		{"0.5 and 0.25", resources{cpu: 2000, mem: 2 * gi}, node(4000, 8*gi, 0, 0), 87},
		{"0.5 and 0.3 is exactly 90", resources{cpu: 500, mem: 300}, node(1000, 1000, 0, 0), 90},
		{"fractions capped at 1", resources{cpu: 8000}, node(4000, 8*gi, 0, 0), 50},
		{"one resource only", resources{cpu: 1000}, node(4000, 0, 0, 0), 100},
		{"huge node takes the exact big path", resources{cpu: 1 << 40, mem: 1 << 40}, node(1<<42, 1<<42, 1<<41, 0), 75},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, balancedAllocation(tc.pod, tc.node))
		})
	}
}

func TestCeilHalfStdPercentMatchesFloat(t *testing.T) {
	t.Parallel()
	for c := int64(0); c <= 40; c++ {
		for m := int64(0); m <= 30; m++ {
			got := ceilHalfStdPercent(c, 40, m, 30)
			std := math.Abs(float64(c)/40-float64(m)/30) / 2
			want := MaxNodeScore - int64((1-std)*float64(MaxNodeScore))
			// The float form can truncate one lower where the exact value is
			// an integer; it never differs by more.
			require.InDelta(t, want, got, 1, "c=%d m=%d", c, m)
		}
	}
}

// TestNanoLogIsPlatformIndependent checks that ln(x)·1e9 is never within
// 1e-3 of a rounding boundary for the sizes Converge can use, so a last-bit
// difference between math.Log implementations cannot change a score.
func TestNanoLogIsPlatformIndependent(t *testing.T) {
	t.Parallel()
	for x := 2; x <= store.MaxNodes+2; x++ {
		v := math.Log(float64(x)) * 1e9
		frac := v - math.Floor(v)
		require.Greater(t, math.Abs(frac-0.5), 1e-3, "x=%d", x)
	}
	assert.Equal(t, int64(1609437912), nanoLog(5))
}

func TestNormalizeReverse(t *testing.T) {
	t.Parallel()
	s := []int64{0, 1, 2}
	normalizeReverse(s)
	assert.Equal(t, []int64{100, 50, 0}, s)
	z := []int64{0, 0}
	normalizeReverse(z)
	assert.Equal(t, []int64{100, 100}, z)
}

func TestSpreadScoresExample(t *testing.T) {
	t.Parallel()
	snap := &snapshot{owners: []string{"rs"}, spread: [][]int64{{0, 1, 2}}}
	for i := 0; i < 3; i++ {
		snap.nodes = append(snap.nodes, nodeInfo{node: simtest.NewNode(fmt.Sprintf("node-%d", i+1), "4", "8Gi", 110), hasHostname: true})
	}
	c := &candidate{pod: simtest.NewPod("p"), owner: 0}
	out := make([]int64, 3)
	spreadScores(snap, c, []int{0, 1, 2}, out)
	assert.Equal(t, []int64{100, 60, 40}, out)
}

func TestSpreadScoresWithZones(t *testing.T) {
	t.Parallel()
	zone := func(name, z string) nodeInfo {
		return nodeInfo{node: simtest.NewNodeWith(name, "4", "8Gi", 110, simtest.WithNodeLabel(LabelZone, z)),
			hasHostname: true, zone: z, hasZone: true}
	}
	// a1 and a2 in zone a hold 2 pods together, b1 alone in zone b holds 1.
	snap := &snapshot{owners: []string{"rs"}, spread: [][]int64{{1, 1, 1}}, zoned: true,
		nodes: []nodeInfo{zone("a1", "a"), zone("a2", "a"), zone("b1", "b")}}
	c := &candidate{pod: simtest.NewPod("p"), owner: 0}
	out := make([]int64, 3)
	spreadScores(snap, c, []int{0, 1, 2}, out)
	assert.Equal(t, out[0], out[1])
	assert.Greater(t, out[2], out[0], "the emptier zone wins")
}

func TestPicksTheEmptierNodeAndBreaksTiesByName(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	// Created in this order on purpose: ties go by name, not creation.
	for _, n := range []string{"node-b", "node-a", "node-c"} {
		simtest.MustCreate(t, s, simtest.NewNode(n, "4", "8Gi", 110))
	}
	simtest.MustCreate(t, s, simtest.NewPod("busy", simtest.WithPodRequests("2", "4Gi"), simtest.WithPodNode("node-a")))
	simtest.MustCreate(t, s, simtest.NewPod("first", simtest.WithPodRequests("1", "1Gi")))
	simtest.MustCreate(t, s, simtest.NewPod("second", simtest.WithPodRequests("1", "1Gi")))
	simtest.Sync(s, New())
	assert.Equal(t, "node-b", simtest.GetPod(t, s, "first").Spec.NodeName, "node-a is busier; b and c tie, b sorts first")
	assert.Equal(t, "node-c", simtest.GetPod(t, s, "second").Spec.NodeName, "node-b now holds first")
}

func TestAvoidsPreferNoScheduleTaints(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewNodeWith("node-1", "4", "8Gi", 110, simtest.WithNodeTaint("spot", "", api.TaintEffectPreferNoSchedule)))
	simtest.MustCreate(t, s, simtest.NewNode("node-2", "4", "8Gi", 110))
	simtest.MustCreate(t, s, simtest.NewPod("p"))
	simtest.MustCreate(t, s, simtest.NewPod("tolerant", simtest.WithPodTolerations(api.Toleration{Key: "spot", Operator: "Exists"}),
		simtest.WithPodRequests("10m", "")))
	simtest.Sync(s, New())
	assert.Equal(t, "node-2", simtest.GetPod(t, s, "p").Spec.NodeName)
	assert.Equal(t, "node-1", simtest.GetPod(t, s, "tolerant").Spec.NodeName, "tolerated, and node-1 is emptier")
}

func TestIntolerablePreferNoSchedule(t *testing.T) {
	t.Parallel()
	taints := []api.Taint{{Key: "a", Effect: api.TaintEffectPreferNoSchedule}, {Key: "b", Effect: api.TaintEffectPreferNoSchedule},
		{Key: "c", Effect: api.TaintEffectNoSchedule}}
	assert.Equal(t, int64(2), intolerablePreferNoSchedule(nil, taints))
	assert.Equal(t, int64(1), intolerablePreferNoSchedule([]api.Toleration{{Key: "a", Operator: "Exists"}}, taints))
	assert.Equal(t, int64(2), intolerablePreferNoSchedule([]api.Toleration{{Key: "a", Operator: "Exists", Effect: api.TaintEffectNoSchedule}}, taints),
		"a NoSchedule toleration does not count for PreferNoSchedule")
}

func TestSpreadsTheOwnersPodsAcrossNodes(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Nodes(t, s, 3, "4", "8Gi", 110)
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 6, "nginx"))
	other := simtest.MustCreate(t, s, simtest.NewReplicaSet("other", 6, "nginx", simtest.WithRSLabels(map[string]string{"app": "other"})))
	// other's pods crowd node-1 already; they must not push web around.
	ref := api.NewControllerRef(other)
	for i := 0; i < 3; i++ {
		simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("other-%d", i), simtest.WithPodOwnerRef(ref), simtest.WithPodNode("node-1")))
	}
	simtest.OwnedPods(t, s, rs, "web", 6)
	simtest.Sync(s, New())
	per := map[string]int{}
	s.EachPod(func(p *api.Pod) bool {
		if api.IsControlledBy(&p.ObjectMeta, rs.UID) {
			per[p.Spec.NodeName]++
		}
		return true
	})
	assert.Equal(t, map[string]int{"node-1": 2, "node-2": 2, "node-3": 2}, per)
}

// ceilHalfStdPercentBig is ceilHalfStdPercent on math/big, as it was
// first written: the oracle for the 128-bit arithmetic.
func ceilHalfStdPercentBig(c, C, m, M int64) int64 {
	num := new(big.Int).Sub(new(big.Int).Mul(big.NewInt(c), big.NewInt(M)), new(big.Int).Mul(big.NewInt(m), big.NewInt(C)))
	num.Abs(num).Mul(num, big.NewInt(50))
	den := new(big.Int).Mul(big.NewInt(C), big.NewInt(M))
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64()
}

func TestCeilHalfStdPercentHugeIsExact(t *testing.T) {
	t.Parallel()
	const maxI = math.MaxInt64
	tests := []struct {
		name       string
		c, C, m, M int64
	}{
		{"both full", maxI, maxI, maxI, maxI},
		{"one empty, one full", 0, maxI, maxI, maxI},
		{"a hair from an integer", maxI - 1, maxI, 0, maxI},
		{"quarter and three quarters", 1 << 60, 1 << 62, 3 << 60, 1 << 62},
		{"just past 64 bits", 1, 1 << 32, 0, 1 << 32},
		{"odd sizes", 123456789012345, 987654321098765, 55555555555, 99999999999999},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, ceilHalfStdPercentBig(tc.c, tc.C, tc.m, tc.M), ceilHalfStdPercent(tc.c, tc.C, tc.m, tc.M))
		})
	}
}

func FuzzCeilHalfStdPercent(f *testing.F) {
	f.Add(int64(1<<40), int64(1<<42), int64(1<<41), int64(1<<42))
	f.Add(int64(math.MaxInt64), int64(math.MaxInt64), int64(0), int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, c, C, m, M int64) {
		if C <= 0 || M <= 0 {
			return
		}
		c, m = min(max(c, 0), C), min(max(m, 0), M)
		if got, want := ceilHalfStdPercent(c, C, m, M), ceilHalfStdPercentBig(c, C, m, M); got != want {
			t.Fatalf("ceilHalfStdPercent(%d, %d, %d, %d) = %d, want %d", c, C, m, M, got, want)
		}
	})
}
