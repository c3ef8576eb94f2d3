package kubectl

import (
	"fmt"
	"strings"

	"converge/core/api"
)

// hpaRow is printHorizontalPodAutoscaler: NAME, REFERENCE, TARGETS,
// MINPODS, MAXPODS, REPLICAS, AGE.
func hpaRow(h *api.HorizontalPodAutoscaler, now api.Time) []string {
	minPods := "<unset>"
	if h.Spec.MinReplicas != nil {
		minPods = itoa32(*h.Spec.MinReplicas)
	}
	return []string{h.Name, h.Spec.ScaleTargetRef.Kind + "/" + h.Spec.ScaleTargetRef.Name, formatHPAMetrics(h), minPods,
		itoa32(h.Spec.MaxReplicas), itoa32(h.Status.CurrentReplicas), since(now, h.CreationTimestamp)}
}

// formatHPAMetrics is the printers' formatHPAMetrics for Resource metrics:
// "cpu: 150%/50%", "memory: 100Mi/200Mi", <unknown> before a reading, the
// first two and "+ N more...".
func formatHPAMetrics(h *api.HorizontalPodAutoscaler) string {
	specs, statuses := h.Spec.Metrics, h.Status.CurrentMetrics
	if len(specs) == 0 {
		return "<none>"
	}
	var list []string
	for i, m := range specs {
		if m.Type != api.ResourceMetricSourceType || m.Resource == nil {
			list = append(list, "<unknown type>")
			continue
		}
		cur, target := hpaCurrentTarget(m.Resource, statuses, i, false)
		list = append(list, fmt.Sprintf("%s: %s/%s", m.Resource.Name, cur, target))
	}
	const maxShown = 2
	if len(list) > maxShown {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:maxShown], ", "), len(list)-maxShown)
	}
	return strings.Join(list, ", ")
}

// hpaCurrentTarget is a resource metric's current value and target as the
// printers show them; describe adds the raw value to a utilization
// ("150% (150m)").
func hpaCurrentTarget(r *api.ResourceMetricSource, statuses []api.MetricStatus, i int, withRaw bool) (string, string) {
	cur := "<unknown>"
	var st *api.ResourceMetricStatus
	if i < len(statuses) {
		st = statuses[i].Resource
	}
	if r.Target.AverageValue != nil {
		if st != nil && st.Current.AverageValue != nil {
			cur = st.Current.AverageValue.CanonicalString()
		}
		return cur, r.Target.AverageValue.CanonicalString()
	}
	if st != nil && st.Current.AverageUtilization != nil {
		cur = fmt.Sprintf("%d%%", *st.Current.AverageUtilization)
		if withRaw && st.Current.AverageValue != nil {
			cur += " (" + st.Current.AverageValue.CanonicalString() + ")"
		}
	}
	target := "<auto>"
	if r.Target.AverageUtilization != nil {
		target = fmt.Sprintf("%d%%", *r.Target.AverageUtilization)
	}
	return cur, target
}

// horizontalPodAutoscaler is describeHorizontalPodAutoscalerV2.
func (d *describer) horizontalPodAutoscaler(h *api.HorizontalPodAutoscaler) {
	d.write(level0, "Name:\t%s\n", h.Name)
	d.write(level0, "Namespace:\t%s\n", h.Namespace)
	d.labelsMultiline("", "Labels", h.Labels)
	d.annotationsMultiline("Annotations", h.Annotations)
	d.write(level0, "CreationTimestamp:\t%s\n", rfc1123(h.CreationTimestamp))
	d.write(level0, "Reference:\t%s/%s\n", h.Spec.ScaleTargetRef.Kind, h.Spec.ScaleTargetRef.Name)
	d.write(level0, "Metrics:\t( current / target )\n")
	for i, m := range h.Spec.Metrics {
		if m.Type != api.ResourceMetricSourceType || m.Resource == nil {
			d.write(level1, "<unknown metric type %q>\n", m.Type)
			continue
		}
		d.write(level1, "resource %s on pods", m.Resource.Name)
		cur, target := hpaCurrentTarget(m.Resource, h.Status.CurrentMetrics, i, true)
		if m.Resource.Target.AverageValue != nil {
			d.write(level0, ":\t%s / %s\n", cur, target)
			continue
		}
		d.write(level1, "(as a percentage of request):\t%s / %s\n", cur, target)
	}
	minReplicas := "<unset>"
	if h.Spec.MinReplicas != nil {
		minReplicas = itoa32(*h.Spec.MinReplicas)
	}
	d.write(level0, "Min replicas:\t%s\n", minReplicas)
	d.write(level0, "Max replicas:\t%d\n", h.Spec.MaxReplicas)
	if b := h.Spec.Behavior; b != nil {
		d.write(level0, "Behavior:\n")
		d.directionBehavior("Scale Up", b.ScaleUp)
		d.directionBehavior("Scale Down", b.ScaleDown)
	}
	d.write(level0, "%s pods:\t", h.Spec.ScaleTargetRef.Kind)
	d.write(level0, "%d current / %d desired\n", h.Status.CurrentReplicas, h.Status.DesiredReplicas)
	if len(h.Status.Conditions) > 0 {
		d.write(level0, "Conditions:\n")
		d.write(level1, "Type\tStatus\tReason\tMessage\n")
		d.write(level1, "----\t------\t------\t-------\n")
		for _, c := range h.Status.Conditions {
			d.write(level1, "%v\t%v\t%v\t%v\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	d.events(h)
}

// directionBehavior is printDirectionBehavior.
func (d *describer) directionBehavior(direction string, r *api.HPAScalingRules) {
	if r == nil {
		return
	}
	d.write(level1, "%s:\n", direction)
	if r.StabilizationWindowSeconds != nil {
		d.write(level2, "Stabilization Window: %d seconds\n", *r.StabilizationWindowSeconds)
	}
	if len(r.Policies) > 0 {
		d.write(level2, "Select Policy: %s\n", r.SelectPolicyOf())
		d.write(level2, "Policies:\n")
		for _, p := range r.Policies {
			d.write(level3, "- Type: %s\tValue: %d\tPeriod: %d seconds\n", p.Type, p.Value, p.PeriodSeconds)
		}
	}
}
