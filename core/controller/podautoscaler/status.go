package podautoscaler

import (
	"reflect"
	"time"

	"converge/core/api"
)

// setCondition is setConditionInList: the condition of that type is added
// when missing, its lastTransitionTime set when its status changes.
func setCondition(h *api.HorizontalPodAutoscaler, typ, status, reason, message string, now time.Time) {
	conds := h.Status.Conditions
	var c *api.HorizontalPodAutoscalerCondition
	for i := range conds {
		if conds[i].Type == typ {
			c = &conds[i]
			break
		}
	}
	if c == nil {
		conds = append(conds, api.HorizontalPodAutoscalerCondition{Type: typ})
		c = &conds[len(conds)-1]
	}
	if c.Status != status {
		c.LastTransitionTime = api.NewTime(now)
	}
	c.Status, c.Reason, c.Message = status, reason, message
	h.Status.Conditions = conds
}

// setStatus is setStatus: the current and desired counts and the metrics,
// lastScaleTime now when it rescaled.
func setStatus(h *api.HorizontalPodAutoscaler, current, desired int32, metrics []api.MetricStatus, rescale bool, now time.Time) {
	h.Status = api.HorizontalPodAutoscalerStatus{CurrentReplicas: current, DesiredReplicas: desired, LastScaleTime: h.Status.LastScaleTime,
		CurrentMetrics: metrics, Conditions: h.Status.Conditions}
	if rescale {
		h.Status.LastScaleTime = api.NewTimePtr(now)
	}
}

// statusEqual is apiequality.Semantic.DeepEqual of two statuses: times
// compare as instants, an empty list equals a missing one.
func statusEqual(a, b api.HorizontalPodAutoscalerStatus) bool {
	if len(a.CurrentMetrics) == 0 && len(b.CurrentMetrics) == 0 {
		a.CurrentMetrics, b.CurrentMetrics = nil, nil
	}
	if len(a.Conditions) == 0 && len(b.Conditions) == 0 {
		a.Conditions, b.Conditions = nil, nil
	}
	return reflect.DeepEqual(a, b)
}
