package kubectl

import (
	"slices"
	"strings"

	"converge/core/api"
)

// quotaScopeHelp is helpTextForResourceQuotaScope.
var quotaScopeHelp = map[string]string{
	api.QuotaScopeTerminating:    "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.",
	api.QuotaScopeNotTerminating: "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.",
	api.QuotaScopeBestEffort:     "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.",
	api.QuotaScopeNotBestEffort:  "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.",
}

// resourceQuota is describeQuota: the scopes with their help text, then
// Resource, Used and Hard for each resource of status.hard, a used value
// written in the hard value's notation.
func (d *describer) resourceQuota(q *api.ResourceQuota) {
	d.write(level0, "Name:\t%s\n", q.Name)
	d.write(level0, "Namespace:\t%s\n", q.Namespace)
	if len(q.Spec.Scopes) > 0 {
		scopes := slices.Clone(q.Spec.Scopes)
		slices.Sort(scopes)
		d.write(level0, "Scopes:\t%s\n", strings.Join(scopes, ", "))
		for _, sc := range scopes {
			if h := quotaScopeHelp[sc]; h != "" {
				d.write(level0, " * %s\n", h)
			}
		}
	}
	d.write(level0, "Resource\tUsed\tHard\n")
	d.write(level0, "--------\t----\t----\n")
	for _, r := range quotaNames(q.Status.Hard) {
		hard := q.Status.Hard[r]
		used := q.Status.Used[r]
		if used.IsZero() {
			used = api.NewQuantity(0)
		}
		d.write(level0, "%s\t%s\t%s\n", r, used.InFormatOf(hard).String(), hard.CanonicalString())
	}
}

// podDisruptionBudget is describePodDisruptionBudgetV1.
func (d *describer) podDisruptionBudget(p *api.PodDisruptionBudget) {
	d.write(level0, "Name:\t%s\n", p.Name)
	d.write(level0, "Namespace:\t%s\n", p.Namespace)
	switch {
	case p.Spec.MinAvailable != nil:
		d.write(level0, "Min available:\t%s\n", p.Spec.MinAvailable.String())
	case p.Spec.MaxUnavailable != nil:
		d.write(level0, "Max unavailable:\t%s\n", p.Spec.MaxUnavailable.String())
	}
	if p.Spec.Selector != nil {
		d.write(level0, "Selector:\t%s\n", formatLabelSelector(p.Spec.Selector))
	} else {
		d.write(level0, "Selector:\t<unset>\n")
	}
	d.write(level0, "Status:\n")
	d.write(level2, "Allowed disruptions:\t%d\n", p.Status.DisruptionsAllowed)
	d.write(level2, "Current:\t%d\n", p.Status.CurrentHealthy)
	d.write(level2, "Desired:\t%d\n", p.Status.DesiredHealthy)
	d.write(level2, "Total:\t%d\n", p.Status.ExpectedPods)
	d.events(p)
}
