package api

// HorizontalPodAutoscaler is autoscaling/v2 HorizontalPodAutoscaler. Its
// fields are upstream's, in upstream's order (k8s.io/api/autoscaling/v2);
// Converge simulates the Resource metric source only (docs/fidelity.md).
type HorizontalPodAutoscaler struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       HorizontalPodAutoscalerSpec   `json:"spec"`
	Status     HorizontalPodAutoscalerStatus `json:"status"`
}

// KindHorizontalPodAutoscaler and GroupVersionAutoscaling name the HPA.
const (
	KindHorizontalPodAutoscaler = "HorizontalPodAutoscaler"
	GroupVersionAutoscaling     = "autoscaling/v2"
)

// HorizontalPodAutoscalerSpec is autoscaling/v2 HorizontalPodAutoscalerSpec.
type HorizontalPodAutoscalerSpec struct {
	ScaleTargetRef CrossVersionObjectReference      `json:"scaleTargetRef"`
	MinReplicas    *int32                           `json:"minReplicas,omitempty"`
	MaxReplicas    int32                            `json:"maxReplicas"`
	Metrics        []MetricSpec                     `json:"metrics,omitempty"`
	Behavior       *HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
}

// CrossVersionObjectReference names the HPA's target: kind, name, apiVersion.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// Metric source types (autoscaling/v2 MetricSourceType); Converge
// simulates Resource.
const (
	ObjectMetricSourceType            = "Object"
	PodsMetricSourceType              = "Pods"
	ResourceMetricSourceType          = "Resource"
	ContainerResourceMetricSourceType = "ContainerResource"
	ExternalMetricSourceType          = "External"
)

// Metric target types (autoscaling/v2 MetricTargetType).
const (
	UtilizationMetricType  = "Utilization"
	ValueMetricType        = "Value"
	AverageValueMetricType = "AverageValue"
)

// MetricSpec is one metric the HPA scales on.
type MetricSpec struct {
	Type     string                `json:"type"`
	Resource *ResourceMetricSource `json:"resource,omitempty"`
}

// ResourceMetricSource is a resource (cpu, memory) of the target's pods,
// as the resource metrics API (metrics-server) reports it.
type ResourceMetricSource struct {
	Name   string       `json:"name"`
	Target MetricTarget `json:"target"`
}

// MetricTarget is the target value of a metric: a Utilization percentage
// of the pods' requests or an AverageValue per pod.
type MetricTarget struct {
	Type               string    `json:"type"`
	Value              *Quantity `json:"value,omitempty"`
	AverageValue       *Quantity `json:"averageValue,omitempty"`
	AverageUtilization *int32    `json:"averageUtilization,omitempty"`
}

// HorizontalPodAutoscalerBehavior is spec.behavior: the scaling rules of
// each direction.
type HorizontalPodAutoscalerBehavior struct {
	ScaleUp   *HPAScalingRules `json:"scaleUp,omitempty"`
	ScaleDown *HPAScalingRules `json:"scaleDown,omitempty"`
}

// Scaling policy selections (ScalingPolicySelect).
const (
	MaxChangePolicySelect = "Max"
	MinChangePolicySelect = "Min"
	DisabledPolicySelect  = "Disabled"
)

// Scaling policy types (HPAScalingPolicyType).
const (
	PodsScalingPolicy    = "Pods"
	PercentScalingPolicy = "Percent"
)

// HPAScalingRules are one direction's rules: the stabilization window, how
// a policy is chosen, the policies and the tolerance.
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32             `json:"stabilizationWindowSeconds,omitempty"`
	SelectPolicy               *string            `json:"selectPolicy,omitempty"`
	Policies                   []HPAScalingPolicy `json:"policies,omitempty"`
	Tolerance                  *Quantity          `json:"tolerance,omitempty"`
}

// HPAScalingPolicy allows a change of Value pods (or percent) per PeriodSeconds.
type HPAScalingPolicy struct {
	Type          string `json:"type"`
	Value         int32  `json:"value"`
	PeriodSeconds int32  `json:"periodSeconds"`
}

// HorizontalPodAutoscalerStatus is autoscaling/v2 HorizontalPodAutoscalerStatus.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration *int64                             `json:"observedGeneration,omitempty"`
	LastScaleTime      *Time                              `json:"lastScaleTime,omitempty"`
	CurrentReplicas    int32                              `json:"currentReplicas,omitempty"`
	DesiredReplicas    int32                              `json:"desiredReplicas"`
	CurrentMetrics     []MetricStatus                     `json:"currentMetrics,omitempty"`
	Conditions         []HorizontalPodAutoscalerCondition `json:"conditions,omitempty"`
}

// MetricStatus is the last reading of one metric.
type MetricStatus struct {
	Type     string                `json:"type"`
	Resource *ResourceMetricStatus `json:"resource,omitempty"`
}

// ResourceMetricStatus is the current value of a resource metric.
type ResourceMetricStatus struct {
	Name    string            `json:"name"`
	Current MetricValueStatus `json:"current"`
}

// MetricValueStatus is a metric's current value.
type MetricValueStatus struct {
	Value              *Quantity `json:"value,omitempty"`
	AverageValue       *Quantity `json:"averageValue,omitempty"`
	AverageUtilization *int32    `json:"averageUtilization,omitempty"`
}

// HPA condition types.
const (
	ScalingActive  = "ScalingActive"
	AbleToScale    = "AbleToScale"
	ScalingLimited = "ScalingLimited"
)

// HorizontalPodAutoscalerCondition is one entry of status.conditions.
type HorizontalPodAutoscalerCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitzero"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// DeepCopy returns a copy of h.
func (h *HorizontalPodAutoscaler) DeepCopy() *HorizontalPodAutoscaler {
	if h == nil {
		return nil
	}
	out := &HorizontalPodAutoscaler{TypeMeta: h.TypeMeta, ObjectMeta: h.ObjectMeta.DeepCopy()}
	out.Spec = h.Spec.DeepCopy()
	out.Status = h.Status.DeepCopy()
	return out
}

// DeepCopyObject implements Object.
func (h *HorizontalPodAutoscaler) DeepCopyObject() Object { return h.DeepCopy() }

// DeepCopy returns a copy of s.
func (s HorizontalPodAutoscalerSpec) DeepCopy() HorizontalPodAutoscalerSpec {
	out := s
	out.MinReplicas = copyInt32(s.MinReplicas)
	if s.Metrics != nil {
		out.Metrics = make([]MetricSpec, len(s.Metrics))
		for i, m := range s.Metrics {
			out.Metrics[i] = m
			if m.Resource != nil {
				r := *m.Resource
				r.Target.Value = copyQuantity(r.Target.Value)
				r.Target.AverageValue = copyQuantity(r.Target.AverageValue)
				r.Target.AverageUtilization = copyInt32(r.Target.AverageUtilization)
				out.Metrics[i].Resource = &r
			}
		}
	}
	if s.Behavior != nil {
		out.Behavior = &HorizontalPodAutoscalerBehavior{ScaleUp: s.Behavior.ScaleUp.DeepCopy(), ScaleDown: s.Behavior.ScaleDown.DeepCopy()}
	}
	return out
}

// DeepCopy returns a copy of r (nil stays nil).
func (r *HPAScalingRules) DeepCopy() *HPAScalingRules {
	if r == nil {
		return nil
	}
	out := &HPAScalingRules{StabilizationWindowSeconds: copyInt32(r.StabilizationWindowSeconds), Tolerance: copyQuantity(r.Tolerance)}
	if r.SelectPolicy != nil {
		p := *r.SelectPolicy
		out.SelectPolicy = &p
	}
	if r.Policies != nil {
		out.Policies = append([]HPAScalingPolicy(nil), r.Policies...)
	}
	return out
}

// DeepCopy returns a copy of s.
func (s HorizontalPodAutoscalerStatus) DeepCopy() HorizontalPodAutoscalerStatus {
	out := s
	out.ObservedGeneration = copyInt64(s.ObservedGeneration)
	out.LastScaleTime = copyTime(s.LastScaleTime)
	if s.CurrentMetrics != nil {
		out.CurrentMetrics = make([]MetricStatus, len(s.CurrentMetrics))
		for i, m := range s.CurrentMetrics {
			out.CurrentMetrics[i] = m
			if m.Resource != nil {
				r := *m.Resource
				r.Current.Value = copyQuantity(r.Current.Value)
				r.Current.AverageValue = copyQuantity(r.Current.AverageValue)
				r.Current.AverageUtilization = copyInt32(r.Current.AverageUtilization)
				out.CurrentMetrics[i].Resource = &r
			}
		}
	}
	if s.Conditions != nil {
		out.Conditions = append([]HorizontalPodAutoscalerCondition(nil), s.Conditions...)
	}
	return out
}

func copyQuantity(q *Quantity) *Quantity {
	if q == nil {
		return nil
	}
	v := *q
	return &v
}

// String is the policy selection or "" (for printing).
func strOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// SelectPolicyOf returns the rules' selectPolicy, Max when unset.
func (r *HPAScalingRules) SelectPolicyOf() string {
	if r == nil {
		return MaxChangePolicySelect
	}
	return strOr(r.SelectPolicy, MaxChangePolicySelect)
}

// Defaults of autoscaling/v2 (pkg/apis/autoscaling/v2/defaults.go).
const (
	// DefaultCPUUtilization is the target of an HPA without metrics: cpu 80%.
	DefaultCPUUtilization = 80
	// DefaultScaleUpPeriodSeconds, DefaultScaleUpPods and DefaultScaleUpPercent are
	// the scale-up policies a behavior gets: 4 pods or 100% per 15 s, the larger.
	DefaultScaleUpPeriodSeconds = 15
	DefaultScaleUpPods          = 4
	DefaultScaleUpPercent       = 100
	// DefaultScaleDownPeriodSeconds and DefaultScaleDownPercent are the
	// scale-down policy: 100% per 15 s (after the stabilization window,
	// which the controller's --horizontal-pod-autoscaler-downscale-stabilization
	// gives when the behavior does not: 300 s).
	DefaultScaleDownPeriodSeconds = 15
	DefaultScaleDownPercent       = 100
)

// SetDefaultsHorizontalPodAutoscaler is autoscaling/v2
// SetDefaults_HorizontalPodAutoscaler: minReplicas 1; without metrics, cpu
// at 80% utilization; a behavior that is given gets every unset rule of
// both directions filled (scale-up: stabilization 0, selectPolicy Max,
// policies Pods 4 and Percent 100 per 15 s; scale-down: selectPolicy Max,
// Percent 100 per 15 s, and no stabilization window, which the controller
// fills with its 300 s). Without a behavior the controller's older rules
// apply (see core/controller/podautoscaler).
func SetDefaultsHorizontalPodAutoscaler(h *HorizontalPodAutoscaler) {
	h.APIVersion, h.Kind = GroupVersionAutoscaling, KindHorizontalPodAutoscaler
	if h.Namespace == "" {
		h.Namespace = NamespaceDefault
	}
	if h.Spec.MinReplicas == nil {
		h.Spec.MinReplicas = Int32(1)
	}
	if len(h.Spec.Metrics) == 0 {
		h.Spec.Metrics = []MetricSpec{{Type: ResourceMetricSourceType, Resource: &ResourceMetricSource{Name: ResourceCPU,
			Target: MetricTarget{Type: UtilizationMetricType, AverageUtilization: Int32(DefaultCPUUtilization)}}}}
	}
	if b := h.Spec.Behavior; b != nil {
		b.ScaleUp = fillRules(b.ScaleUp, DefaultScaleUpRules())
		b.ScaleDown = fillRules(b.ScaleDown, DefaultScaleDownRules())
	}
}

// DefaultScaleUpRules are the scale-up rules a behavior without them gets.
func DefaultScaleUpRules() *HPAScalingRules {
	max := MaxChangePolicySelect
	return &HPAScalingRules{StabilizationWindowSeconds: Int32(0), SelectPolicy: &max, Policies: []HPAScalingPolicy{
		{Type: PodsScalingPolicy, Value: DefaultScaleUpPods, PeriodSeconds: DefaultScaleUpPeriodSeconds},
		{Type: PercentScalingPolicy, Value: DefaultScaleUpPercent, PeriodSeconds: DefaultScaleUpPeriodSeconds}}}
}

// DefaultScaleDownRules are the scale-down rules a behavior without them
// gets; StabilizationWindowSeconds stays nil (the controller's flag fills it).
func DefaultScaleDownRules() *HPAScalingRules {
	max := MaxChangePolicySelect
	return &HPAScalingRules{SelectPolicy: &max, Policies: []HPAScalingPolicy{
		{Type: PercentScalingPolicy, Value: DefaultScaleDownPercent, PeriodSeconds: DefaultScaleDownPeriodSeconds}}}
}

// fillRules is copyHPAScalingRules: the given fields over the defaults.
func fillRules(from, to *HPAScalingRules) *HPAScalingRules {
	if from == nil {
		return to
	}
	if from.SelectPolicy != nil {
		to.SelectPolicy = from.SelectPolicy
	}
	if from.StabilizationWindowSeconds != nil {
		to.StabilizationWindowSeconds = from.StabilizationWindowSeconds
	}
	if from.Policies != nil {
		to.Policies = from.Policies
	}
	if from.Tolerance != nil {
		to.Tolerance = from.Tolerance
	}
	return to
}
