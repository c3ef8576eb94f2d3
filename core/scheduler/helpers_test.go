package scheduler

import (
	"converge/core/api"
	"converge/core/store"
)

// placement counts the bound pods per node.
func placement(s *store.Store) map[string]int {
	out := map[string]int{}
	s.EachPod(func(p *api.Pod) bool {
		if p.Spec.NodeName != "" {
			out[p.Spec.NodeName]++
		}
		return true
	})
	return out
}

// deleteDefault deletes with the pod's own grace period.
var deleteDefault = store.DeleteOptions{}
