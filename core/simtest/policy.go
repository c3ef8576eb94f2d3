package simtest

import "converge/core/api"

// NewPDB returns a defaulted PodDisruptionBudget `name` selecting
// matchLabels, with minAvailable (or maxUnavailable when maxUnavailable is
// set) as "2" or "50%".
func NewPDB(name string, matchLabels map[string]string, minAvailable, maxUnavailable string) *api.PodDisruptionBudget {
	p := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: name, Namespace: api.NamespaceDefault}}
	if matchLabels != nil {
		p.Spec.Selector = &api.LabelSelector{MatchLabels: matchLabels}
	}
	if minAvailable != "" {
		p.Spec.MinAvailable = IntOrPercent(minAvailable)
	}
	if maxUnavailable != "" {
		p.Spec.MaxUnavailable = IntOrPercent(maxUnavailable)
	}
	api.SetDefaultsPodDisruptionBudget(p)
	return p
}

// NewQuota returns a defaulted ResourceQuota `name` with the hard limits
// given as name, quantity pairs ("pods", "10", "requests.cpu", "2").
func NewQuota(name string, hard ...string) *api.ResourceQuota {
	q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: name, Namespace: api.NamespaceDefault},
		Spec: api.ResourceQuotaSpec{Hard: api.ResourceList{}}}
	for i := 0; i+1 < len(hard); i += 2 {
		q.Spec.Hard[hard[i]] = api.MustQuantity(hard[i+1])
	}
	api.SetDefaultsResourceQuota(q)
	return q
}
