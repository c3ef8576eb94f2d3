package k8sdiff

import (
	"slices"

	"converge/core/k8scase"
)

// shrink returns the smallest case it finds that still shows the kind of
// difference: it removes ReplicaSets (with their pods), then pods, one at a
// time, and drops the create limit, keeping each removal after which the
// difference stays, until no removal keeps it. It must run in a synctest
// bubble.
func shrink(c *k8scase.Case, kind string) *k8scase.Case {
	best := c
	for {
		next := firstThatShows(candidates(best), kind)
		if next == nil {
			return best
		}
		best = next
	}
}

func firstThatShows(cands []*k8scase.Case, kind string) *k8scase.Case {
	for _, cand := range cands {
		if cand.Check() != nil {
			continue
		}
		r, _, err := compare(cand)
		if err == nil && slices.Contains(r.Kinds(), kind) {
			return cand
		}
	}
	return nil
}

// candidates lists the cases one removal away from c, biggest removals first.
func candidates(c *k8scase.Case) []*k8scase.Case {
	var out []*k8scase.Case
	if len(c.Pods) > 1 {
		cand := c.Clone()
		cand.Pods = nil
		out = append(out, cand)
	}
	for i := range c.ReplicaSets {
		cand := c.Clone()
		name := cand.ReplicaSets[i].Name
		cand.ReplicaSets = slices.Delete(cand.ReplicaSets, i, i+1)
		cand.Pods = slices.DeleteFunc(cand.Pods, func(p k8scase.Pod) bool { return p.Owner == name })
		out = append(out, cand)
	}
	if n := len(c.Pods); n > 3 { // halves first, then single pods
		for _, half := range [][2]int{{0, n / 2}, {n / 2, n}} {
			cand := c.Clone()
			cand.Pods = slices.Delete(cand.Pods, half[0], half[1])
			out = append(out, cand)
		}
	}
	for i := range c.Pods {
		cand := c.Clone()
		cand.Pods = slices.Delete(cand.Pods, i, i+1)
		out = append(out, cand)
	}
	if c.CreateLimit != nil {
		cand := c.Clone()
		cand.CreateLimit = nil
		out = append(out, cand)
	}
	return out
}
