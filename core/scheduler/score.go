package scheduler

import (
	"math"
	"math/bits"

	"converge/core/api"
)

// MaxNodeScore is the score of a plugin's best node.
const MaxNodeScore int64 = 100

// Weights of the default profile's score plugins that Converge computes.
// NodeAffinity, InterPodAffinity and ImageLocality score every node alike
// here (no preferred terms, no image lists) and are left out.
const (
	weightTaintToleration   = 3
	weightNodeResourcesFit  = 1
	weightPodTopologySpread = 2
	weightBalanced          = 1
)

// System default topology spread constraints (PodTopologySpread,
// defaultingType System): ScheduleAnyway with these skews.
const (
	hostnameMaxSkew = 3
	zoneMaxSkew     = 5
)

// scoreBuf holds the per-node scores of one pod, reused between pods.
type scoreBuf struct {
	taint, fit, spread, balanced []int64
}

func (b *scoreBuf) reset(n int) {
	grow := func(s []int64) []int64 {
		if cap(s) < n {
			return make([]int64, n)
		}
		s = s[:n]
		clear(s)
		return s
	}
	b.taint, b.fit, b.spread, b.balanced = grow(b.taint), grow(b.fit), grow(b.spread), grow(b.balanced)
}

// pickNode scores the feasible nodes (indexes into snap.nodes) and returns
// the best one; ties go to the smallest node name.
func pickNode(snap *snapshot, c *candidate, feasible []int, buf *scoreBuf) int {
	if len(feasible) == 1 {
		return feasible[0]
	}
	buf.reset(len(feasible))
	for k, i := range feasible {
		n := &snap.nodes[i]
		buf.taint[k] = intolerablePreferNoSchedule(c.pod.Spec.Tolerations, n.node.Spec.Taints)
		buf.fit[k] = leastAllocated(c.req, n)
		if c.req.cpu != 0 || c.req.mem != 0 {
			buf.balanced[k] = balancedAllocation(c.req, n)
		}
	}
	normalizeReverse(buf.taint)
	if c.owner >= 0 {
		spreadScores(snap, c, feasible, buf.spread)
	}
	best, bestScore := -1, int64(math.MinInt64)
	for k, i := range feasible {
		total := weightTaintToleration*buf.taint[k] + weightNodeResourcesFit*buf.fit[k] +
			weightPodTopologySpread*buf.spread[k] + weightBalanced*buf.balanced[k]
		if total > bestScore || total == bestScore && snap.nodes[i].name < snap.nodes[best].name {
			best, bestScore = i, total
		}
	}
	return best
}

// intolerablePreferNoSchedule counts the node's PreferNoSchedule taints
// that no toleration with effect PreferNoSchedule (or none) tolerates.
func intolerablePreferNoSchedule(ts []api.Toleration, taints []api.Taint) int64 {
	var n int64
	for i := range taints {
		t := &taints[i]
		if t.Effect != api.TaintEffectPreferNoSchedule {
			continue
		}
		ok := false
		for j := range ts {
			if (ts[j].Effect == "" || ts[j].Effect == api.TaintEffectPreferNoSchedule) && tolerates(ts[j:j+1], t) {
				ok = true
				break
			}
		}
		if !ok {
			n++
		}
	}
	return n
}

// normalizeReverse is DefaultNormalizeScore(MaxNodeScore, reverse=true):
// the node with the most intolerable taints scores 0, a node with none 100.
func normalizeReverse(scores []int64) {
	var maxCount int64
	for _, s := range scores {
		maxCount = max(maxCount, s)
	}
	for i, s := range scores {
		if maxCount == 0 {
			scores[i] = MaxNodeScore
		} else {
			scores[i] = MaxNodeScore - MaxNodeScore*s/maxCount
		}
	}
}

// leastAllocated is NodeResourcesFit's LeastAllocated strategy with cpu and
// memory weighted 1: per resource (allocatable − requested) × 100 /
// allocatable, requests counted with the scoring defaults and including the
// pod, 0 once over; a resource the node does not have is left out.
//
// Example: allocatable 4 cpu / 8Gi, 1 cpu and 2Gi requested with the pod:
// cpu 75, memory 75, score 75.
func leastAllocated(pod resources, n *nodeInfo) int64 {
	var score, weights int64
	for _, r := range [2][2]int64{{n.used.nzCPU + pod.nzCPU, n.allocCPU}, {n.used.nzMem + pod.nzMem, n.allocMem}} {
		requested, capacity := r[0], r[1]
		if capacity == 0 {
			continue
		}
		weights++
		if requested > capacity {
			continue
		}
		hi, lo := bits.Mul64(uint64(capacity-requested), uint64(MaxNodeScore))
		q, _ := bits.Div64(hi, lo, uint64(capacity))
		score += int64(q)
	}
	if weights == 0 {
		return 0
	}
	return score / weights
}

// balancedAllocation is NodeResourcesBalancedAllocation for cpu and memory:
// with f the requested fraction of each (pod included, capped at 1),
// (1 − |f_cpu − f_mem| / 2) × 100, truncated. It is computed exactly on
// integers: 100 − ceil(50 × |c·M − m·C| / (C·M)) for c of C cpu and m of M
// memory. With one resource the score is 100.
//
// Example: 2 of 4 cpu and 2Gi of 8Gi: fractions 0.5 and 0.25, std 0.125,
// score 87.
func balancedAllocation(pod resources, n *nodeInfo) int64 {
	c, C := n.used.cpu+pod.cpu, n.allocCPU
	m, M := n.used.mem+pod.mem, n.allocMem
	if C == 0 || M == 0 {
		return MaxNodeScore
	}
	c, m = min(max(c, 0), C), min(max(m, 0), M)
	return MaxNodeScore - ceilHalfStdPercent(c, C, m, M)
}

// ceilHalfStdPercent is ceil(50·|c·M − m·C| / (C·M)) for 0 ≤ c ≤ C, 0 ≤ m ≤ M.
func ceilHalfStdPercent(c, C, m, M int64) int64 {
	if hi, _ := bits.Mul64(uint64(C), uint64(M)); hi == 0 {
		d1 := uint64(c) * uint64(M)
		d2 := uint64(m) * uint64(C)
		diff := max(d1, d2) - min(d1, d2)
		den := uint64(C) * uint64(M)
		h, l := bits.Mul64(diff, 50)
		q, r := bits.Div64(h, l, den)
		if r != 0 {
			q++
		}
		return int64(q)
	}
	// C·M does not fit in 64 bits: the same on 128-bit products. The
	// quotient is at most 50 (|c·M − m·C| ≤ C·M), so it is the first q
	// with q·C·M ≥ 50·|c·M − m·C|.
	d1, d2 := mul128(uint64(c), uint64(M)), mul128(uint64(m), uint64(C))
	if d1.less(d2) {
		d1, d2 = d2, d1
	}
	want := d1.sub(d2).times(50)
	den := mul128(uint64(C), uint64(M))
	q := uint64(0)
	for den.times(q).less(want) {
		q++
	}
	return int64(q)
}

// u128 is an unsigned 128-bit number, and times gives a 192-bit product:
// enough for ceilHalfStdPercent's rare case, without math/big (which
// stays out of the page's wasm, docs/performance.md).
type u128 struct{ hi, lo uint64 }

type u192 struct{ w2, w1, w0 uint64 }

func mul128(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (x u128) less(y u128) bool { return x.hi < y.hi || x.hi == y.hi && x.lo < y.lo }

func (x u128) sub(y u128) u128 {
	lo, borrow := bits.Sub64(x.lo, y.lo, 0)
	hi, _ := bits.Sub64(x.hi, y.hi, borrow)
	return u128{hi, lo}
}

func (x u128) times(k uint64) u192 {
	h0, l0 := bits.Mul64(x.lo, k)
	h1, l1 := bits.Mul64(x.hi, k)
	mid, carry := bits.Add64(l1, h0, 0)
	return u192{h1 + carry, mid, l0}
}

func (x u192) less(y u192) bool {
	if x.w2 != y.w2 {
		return x.w2 < y.w2
	}
	if x.w1 != y.w1 {
		return x.w1 < y.w1
	}
	return x.w0 < y.w0
}

// nanoLog is ln(x) in billionths, rounded: the topology normalizing weight
// of PodTopologySpread in fixed point, so that scores are the same on every
// platform. TestNanoLogIsPlatformIndependent checks that no value Converge
// can use lies near a rounding boundary.
func nanoLog(x int) int64 {
	return int64(math.Round(math.Log(float64(x)) * 1e9))
}

// spreadScores is PodTopologySpread's Score and NormalizeScore for the
// system default constraints. A node's raw score sums, per constraint whose
// topology label the node has, count × ln(size + 2) + (maxSkew − 1), where
// count is the active pods of the pod's owner in the node's domain and size
// the number of domains among the feasible nodes; it is rounded, then
// normalized so that the emptiest node scores 100:
// 100 × (max + min − score) / max.
//
// Example: 3 feasible nodes with 0, 1 and 2 pods of the owner: weight
// ln 5 = 1.609, raw scores 2, 4 (3.61) and 5 (5.22), normalized 100, 60, 40.
func spreadScores(snap *snapshot, c *candidate, feasible []int, out []int64) {
	counts := snap.spread[c.owner]
	hostWeight := nanoLog(len(feasible) + 2)
	var zones map[string]int64
	var zoneWeight int64
	if snap.zoned {
		domains := map[string]bool{}
		for _, i := range feasible {
			domains[snap.nodes[i].zone] = true
		}
		zoneWeight = nanoLog(len(domains) + 2)
		zones = map[string]int64{}
		for i := range snap.nodes {
			if n := &snap.nodes[i]; n.hasZone && nodeSelectorMatches(c.pod, n.node) {
				zones[n.zone] += counts[i]
			}
		}
	}
	minScore, maxScore := int64(math.MaxInt64), int64(0)
	for k, i := range feasible {
		n := &snap.nodes[i]
		var raw int64
		if n.hasHostname {
			raw += counts[i]*hostWeight + (hostnameMaxSkew-1)*1e9
		}
		if n.hasZone {
			raw += zones[n.zone]*zoneWeight + (zoneMaxSkew-1)*1e9
		}
		s := (raw + 5e8) / 1e9
		out[k] = s
		minScore, maxScore = min(minScore, s), max(maxScore, s)
	}
	for k := range out {
		if maxScore == 0 {
			out[k] = MaxNodeScore
		} else {
			out[k] = MaxNodeScore * (maxScore + minScore - out[k]) / maxScore
		}
	}
}

func nodeSelectorMatches(p *api.Pod, n *api.Node) bool {
	for k, v := range p.Spec.NodeSelector {
		if w, ok := n.Labels[k]; !ok || w != v {
			return false
		}
	}
	return true
}
