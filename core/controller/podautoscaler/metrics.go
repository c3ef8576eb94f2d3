package podautoscaler

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/labels"
	"converge/core/store"
)

// computeReplicasForMetrics is upstream's: the largest proposal of the
// metrics that could be computed; -1 and an error when none could, or
// when some could not and the others would scale down.
func (c *Controller) computeReplicasForMetrics(ctx *controller.Context, h *api.HorizontalPodAutoscaler, scale store.Scale,
	st *hpaState) (replicas int32, metric string, statuses []api.MetricStatus, err error) {
	now := ctx.Now()
	sel, err := c.validateAndParseSelector(ctx, h, scale.Selector, st)
	if err != nil {
		return -1, "", nil, err
	}
	statuses = make([]api.MetricStatus, len(h.Spec.Metrics))
	invalid := 0
	var firstErr error
	var firstCond api.HorizontalPodAutoscalerCondition
	for i, spec := range h.Spec.Metrics {
		proposal, name, cond, err := c.computeReplicasForMetric(ctx, h, spec, scale.SpecReplicas, sel, &statuses[i])
		if err != nil {
			if invalid == 0 {
				firstCond, firstErr = cond, err
			}
			invalid++
			continue
		}
		if replicas == 0 || proposal > replicas {
			replicas, metric = proposal, name
		}
	}
	if firstErr != nil {
		firstErr = fmt.Errorf("invalid metrics (%v invalid out of %v), first error is: %v", invalid, len(h.Spec.Metrics), firstErr)
	}
	if invalid >= len(h.Spec.Metrics) || (invalid > 0 && replicas < scale.SpecReplicas) {
		setCondition(h, firstCond.Type, firstCond.Status, firstCond.Reason, firstCond.Message, now)
		return -1, "", statuses, firstErr
	}
	setCondition(h, api.ScalingActive, api.ConditionTrue, "ValidMetricFound",
		fmt.Sprintf("the HPA was able to successfully calculate a replica count from %s", metric), now)
	return replicas, metric, statuses, firstErr
}

// validateAndParseSelector is upstream's: the scale must have a selector,
// and no other HPA may select the same pods.
func (c *Controller) validateAndParseSelector(ctx *controller.Context, h *api.HorizontalPodAutoscaler, selector string, st *hpaState) (labels.Selector, error) {
	now := ctx.Now()
	if selector == "" {
		const msg = "selector is required"
		ctx.Event(h, Component, api.EventTypeWarning, "SelectorRequired", msg)
		setCondition(h, api.ScalingActive, api.ConditionFalse, "InvalidSelector", "the HPA target's scale is missing a selector", now)
		return labels.Nothing(), errors.New(msg)
	}
	sel, err := labels.Parse(selector)
	if err != nil {
		msg := fmt.Sprintf("couldn't convert selector into a corresponding internal selector object: %v", err)
		ctx.Event(h, Component, api.EventTypeWarning, "InvalidSelector", msg)
		setCondition(h, api.ScalingActive, api.ConditionFalse, "InvalidSelector", msg, now)
		return labels.Nothing(), errors.New(msg)
	}
	st.selector = &sel
	key := h.Namespace + "/" + h.Name
	others := c.otherSelectors(key)
	controlling := map[string]bool{}
	for _, p := range podsOf(ctx.Store, h.Namespace, sel) {
		for k, os := range others {
			if strings.HasPrefix(k, p.Namespace+"/") && os.Matches(p.Labels) {
				controlling[k] = true
			}
		}
		controlling[key] = true
	}
	if len(controlling) > 1 {
		keys := sortedKeys(controlling)
		msg := fmt.Sprintf("pods by selector %v are controlled by multiple HPAs: [%s]", selector, strings.Join(keys, " "))
		ctx.Event(h, Component, api.EventTypeWarning, "AmbiguousSelector", msg)
		setCondition(h, api.ScalingActive, api.ConditionFalse, "AmbiguousSelector", msg, now)
		return labels.Nothing(), errors.New(msg)
	}
	return sel, nil
}

// podsOf lists the pods of a namespace that sel matches, as the pod lister does.
func podsOf(s *store.Store, namespace string, sel labels.Selector) []*api.Pod {
	var out []*api.Pod
	s.EachPod(func(p *api.Pod) bool {
		if p.Namespace == namespace && sel.Matches(p.Labels) {
			out = append(out, p)
		}
		return true
	})
	return out
}

// computeReplicasForMetric is upstream's for the Resource source (the one
// Converge simulates; validation refuses the others).
func (c *Controller) computeReplicasForMetric(ctx *controller.Context, h *api.HorizontalPodAutoscaler, spec api.MetricSpec, current int32,
	sel labels.Selector, status *api.MetricStatus) (int32, string, api.HorizontalPodAutoscalerCondition, error) {
	if spec.Type != api.ResourceMetricSourceType || spec.Resource == nil {
		err := fmt.Errorf("unknown metric source type %q", spec.Type)
		return 0, "", c.unableCondition(ctx, h, "InvalidMetricSourceType", err), err
	}
	proposal, value, name, err := c.computeStatusForResourceMetric(ctx, h, spec.Resource, current, sel)
	if err != nil {
		cond := c.unableCondition(ctx, h, "FailedGetResourceMetric", err)
		return 0, "", cond, fmt.Errorf("failed to get %s resource metric value: %v", spec.Resource.Name, err)
	}
	*status = api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: spec.Resource.Name, Current: value}}
	return proposal, name, api.HorizontalPodAutoscalerCondition{}, nil
}

// unableCondition is getUnableComputeReplicaCountCondition: a Warning
// event and the ScalingActive False condition it proposes.
func (c *Controller) unableCondition(ctx *controller.Context, h *api.HorizontalPodAutoscaler, reason string, err error) api.HorizontalPodAutoscalerCondition {
	ctx.Event(h, Component, api.EventTypeWarning, reason, err.Error())
	return api.HorizontalPodAutoscalerCondition{Type: api.ScalingActive, Status: api.ConditionFalse, Reason: reason,
		Message: fmt.Sprintf("the HPA was unable to compute the replica count: %v", err)}
}

// computeStatusForResourceMetric is computeStatusForResourceMetricGeneric.
func (c *Controller) computeStatusForResourceMetric(ctx *controller.Context, h *api.HorizontalPodAutoscaler, src *api.ResourceMetricSource,
	current int32, sel labels.Selector) (int32, api.MetricValueStatus, string, error) {
	resource := src.Name
	metrics, err := resourceMetrics(ctx.Metrics, resource, h.Namespace, sel)
	if err != nil {
		err = fmt.Errorf("unable to get metrics for resource %s: %v", resource, err)
	}
	in := ResourceInput{CurrentReplicas: current, Resource: resource, Tolerances: TolerancesFor(h), Metrics: metrics, Now: ctx.Now()}
	if err == nil {
		in.Pods = podsOf(ctx.Store, h.Namespace, sel)
	}
	binary := resource == api.ResourceMemory
	if t := src.Target; t.AverageValue != nil {
		var replicas int32
		var usage int64
		if err == nil {
			replicas, usage, err = c.calc.GetRawResourceReplicas(in, t.AverageValue.MilliValue())
		}
		if err != nil {
			return 0, api.MetricValueStatus{}, "", fmt.Errorf("failed to get %s usage: %v", resource, err)
		}
		q := api.NewMilliQuantity(usage, binary)
		return replicas, api.MetricValueStatus{AverageValue: &q}, resource + " resource", nil
	}
	if src.Target.AverageUtilization == nil {
		return 0, api.MetricValueStatus{}, "", errors.New("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set")
	}
	var replicas, util int32
	var raw int64
	if err == nil {
		replicas, util, raw, err = c.calc.GetResourceReplicas(in, *src.Target.AverageUtilization)
	}
	if err != nil {
		return 0, api.MetricValueStatus{}, "", fmt.Errorf("failed to get %s utilization: %v", resource, err)
	}
	q := api.NewMilliQuantity(raw, binary)
	return replicas, api.MetricValueStatus{AverageUtilization: api.Int32(util), AverageValue: &q},
		resource + " resource utilization (percentage of request)", nil
}

// resourceMetrics is the resource metrics client's GetResourceMetric: the
// pods' values of the resource; an error when the API returned nothing.
func resourceMetrics(m controller.MetricsAPI, resource, namespace string, sel labels.Selector) (PodMetricsInfo, error) {
	if m == nil {
		return nil, errors.New("unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)")
	}
	items := m.PodMetrics(namespace, sel)
	if len(items) == 0 {
		return nil, errors.New("no metrics returned from resource metrics API")
	}
	out := make(PodMetricsInfo, len(items))
	for _, it := range items {
		v := it.CPU
		if resource == api.ResourceMemory {
			v = it.Memory
		}
		out[it.Name] = PodMetric{Timestamp: it.Timestamp, Window: it.Window, Value: v}
	}
	return out, nil
}

// TolerancesFor is tolerancesForHpa: 0.1 each way, or the behavior's
// tolerance of a direction (HPAConfigurableTolerance, on in 1.35).
func TolerancesFor(h *api.HorizontalPodAutoscaler) Tolerances {
	t := Tolerances{ScaleDown: DefaultTolerance, ScaleUp: DefaultTolerance}
	b := h.Spec.Behavior
	if b == nil {
		return t
	}
	if b.ScaleDown != nil && b.ScaleDown.Tolerance != nil {
		t.ScaleDown = ApproximateFloat64(*b.ScaleDown.Tolerance)
	}
	if b.ScaleUp != nil && b.ScaleUp.Tolerance != nil {
		t.ScaleUp = ApproximateFloat64(*b.ScaleUp.Tolerance)
	}
	return t
}

// ApproximateFloat64 is Quantity.AsApproximateFloat64 for a value Converge
// holds in milli-units: the mantissa without trailing zeros times a power
// of ten (50m is 5 x 10^-2).
func ApproximateFloat64(q api.Quantity) float64 {
	v, exp := q.MilliValue(), -3
	for v != 0 && v%10 == 0 && exp < 0 {
		v /= 10
		exp++
	}
	if exp == 0 {
		return float64(v)
	}
	return float64(v) * pow10(exp)
}

func pow10(e int) float64 {
	switch e {
	case -1:
		return 0.1
	case -2:
		return 0.01
	}
	return 0.001
}

// metricsText is the HPA's metrics as `kubectl get hpa` shows its TARGETS
// ("cpu: 150%/50%"), for the sync records.
func metricsText(h *api.HorizontalPodAutoscaler) string {
	var parts []string
	for i, m := range h.Spec.Metrics {
		if m.Resource == nil {
			continue
		}
		cur := "<unknown>"
		if i < len(h.Status.CurrentMetrics) && h.Status.CurrentMetrics[i].Resource != nil {
			c := h.Status.CurrentMetrics[i].Resource.Current
			if m.Resource.Target.AverageUtilization != nil && c.AverageUtilization != nil {
				cur = fmt.Sprintf("%d%%", *c.AverageUtilization)
			} else if c.AverageValue != nil {
				cur = c.AverageValue.String()
			}
		}
		want := ""
		if t := m.Resource.Target; t.AverageUtilization != nil {
			want = fmt.Sprintf("%d%%", *t.AverageUtilization)
		} else if t.AverageValue != nil {
			want = t.AverageValue.String()
		}
		parts = append(parts, fmt.Sprintf("%s %s (target %s)", m.Resource.Name, cur, want))
	}
	if len(parts) == 0 {
		return "no metrics"
	}
	return strings.Join(parts, ", ")
}

// whyText is the reason of a rescale in a user's words, for the page's
// history: "cpu 150% above target 50%", "cpu 20% below target 50%".
func whyText(h *api.HorizontalPodAutoscaler, reason string) string {
	switch {
	case strings.HasPrefix(reason, "Current number of replicas"):
		return reason
	}
	up := strings.HasSuffix(reason, "above target")
	var parts []string
	for i, m := range h.Spec.Metrics {
		if m.Resource == nil || i >= len(h.Status.CurrentMetrics) || h.Status.CurrentMetrics[i].Resource == nil {
			continue
		}
		c := h.Status.CurrentMetrics[i].Resource.Current
		t := m.Resource.Target
		var cur, want string
		var above bool
		switch {
		case t.AverageUtilization != nil && c.AverageUtilization != nil:
			cur, want = fmt.Sprintf("%d%%", *c.AverageUtilization), fmt.Sprintf("%d%%", *t.AverageUtilization)
			above = *c.AverageUtilization > *t.AverageUtilization
		case t.AverageValue != nil && c.AverageValue != nil:
			cur, want = c.AverageValue.String(), t.AverageValue.String()
			above = c.AverageValue.MilliValue() > t.AverageValue.MilliValue()
		default:
			continue
		}
		if up && !above {
			continue
		}
		dir := "below"
		if above {
			dir = "above"
		} else if cur == want {
			dir = "at"
		}
		parts = append(parts, fmt.Sprintf("%s %s %s target %s", m.Resource.Name, cur, dir, want))
	}
	if len(parts) == 0 {
		return reason
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
