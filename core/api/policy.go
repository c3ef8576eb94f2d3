package api

import "sort"

// PodDisruptionBudget is policy/v1 PodDisruptionBudget: how many of the
// pods its selector matches must stay healthy (minAvailable) or may be
// unavailable (maxUnavailable) while they are evicted voluntarily (kubectl
// drain, the Eviction API). The disruption controller keeps its status; the
// Eviction API refuses an eviction the status does not allow.
type PodDisruptionBudget struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       PodDisruptionBudgetSpec   `json:"spec"`
	Status     PodDisruptionBudgetStatus `json:"status"`
}

// PodDisruptionBudgetSpec is policy/v1 PodDisruptionBudgetSpec.
type PodDisruptionBudgetSpec struct {
	MinAvailable *IntOrString `json:"minAvailable,omitempty"`
	// Selector picks the pods; in policy/v1 a null selector matches no pod
	// and an empty one ({}) every pod of the namespace.
	Selector       *LabelSelector `json:"selector,omitempty"`
	MaxUnavailable *IntOrString   `json:"maxUnavailable,omitempty"`
	// UnhealthyPodEvictionPolicy is IfHealthyBudget (the default) or
	// AlwaysAllow: whether a pod that is not Ready may be evicted while the
	// budget is not met.
	UnhealthyPodEvictionPolicy *string `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// Unhealthy pod eviction policies.
const (
	IfHealthyBudget = "IfHealthyBudget"
	AlwaysAllow     = "AlwaysAllow"
)

// PodDisruptionBudgetStatus is policy/v1 PodDisruptionBudgetStatus; its
// counters are always written, zero or not, as the API does.
type PodDisruptionBudgetStatus struct {
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// DisruptedPods are the pods the Eviction API let go and that the
	// controller has not seen deleted yet, with the time of the eviction.
	DisruptedPods      map[string]Time `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32           `json:"disruptionsAllowed"`
	CurrentHealthy     int32           `json:"currentHealthy"`
	DesiredHealthy     int32           `json:"desiredHealthy"`
	ExpectedPods       int32           `json:"expectedPods"`
	Conditions         []Condition     `json:"conditions,omitempty"`
}

// The PodDisruptionBudget's condition and its reasons (policy/v1).
const (
	DisruptionAllowedCondition = "DisruptionAllowed"
	SufficientPodsReason       = "SufficientPods"
	InsufficientPodsReason     = "InsufficientPods"
	SyncFailedReason           = "SyncFailed"
	// DisruptionBudgetCause is the cause type of the Eviction API's refusal.
	DisruptionBudgetCause = "DisruptionBudget"
)

// Condition is metav1.Condition, the condition type of newer APIs.
type Condition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	LastTransitionTime Time   `json:"lastTransitionTime"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
}

// FindCondition is meta.FindStatusCondition: the condition of type t, or nil.
func FindCondition(cs []Condition, t string) *Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// SetCondition is meta.SetStatusCondition: add c, or update the condition
// of its type; lastTransitionTime moves to now only when the status
// changes (or was unset).
func SetCondition(cs *[]Condition, c Condition, now Time) {
	old := FindCondition(*cs, c.Type)
	if old == nil {
		if c.LastTransitionTime.IsZero() {
			c.LastTransitionTime = now
		}
		*cs = append(*cs, c)
		return
	}
	if old.Status != c.Status {
		old.Status = c.Status
		old.LastTransitionTime = now
		if !c.LastTransitionTime.IsZero() {
			old.LastTransitionTime = c.LastTransitionTime
		}
	}
	old.Reason, old.Message, old.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
}

// DeepCopy returns a copy of p.
func (p *PodDisruptionBudget) DeepCopy() *PodDisruptionBudget {
	if p == nil {
		return nil
	}
	out := &PodDisruptionBudget{TypeMeta: p.TypeMeta, ObjectMeta: p.ObjectMeta.DeepCopy(), Status: p.Status}
	out.Spec = PodDisruptionBudgetSpec{Selector: p.Spec.Selector.DeepCopy()}
	if p.Spec.MinAvailable != nil {
		out.Spec.MinAvailable = IntOrStringPtr(*p.Spec.MinAvailable)
	}
	if p.Spec.MaxUnavailable != nil {
		out.Spec.MaxUnavailable = IntOrStringPtr(*p.Spec.MaxUnavailable)
	}
	if p.Spec.UnhealthyPodEvictionPolicy != nil {
		v := *p.Spec.UnhealthyPodEvictionPolicy
		out.Spec.UnhealthyPodEvictionPolicy = &v
	}
	if p.Status.DisruptedPods != nil {
		out.Status.DisruptedPods = make(map[string]Time, len(p.Status.DisruptedPods))
		for k, v := range p.Status.DisruptedPods {
			out.Status.DisruptedPods[k] = v
		}
	}
	if p.Status.Conditions != nil {
		out.Status.Conditions = append([]Condition(nil), p.Status.Conditions...)
	}
	return out
}

// DeepCopyObject implements Object.
func (p *PodDisruptionBudget) DeepCopyObject() Object { return p.DeepCopy() }

// DisruptedPodNames returns the keys of status.disruptedPods, sorted.
func (p *PodDisruptionBudget) DisruptedPodNames() []string {
	out := make([]string, 0, len(p.Status.DisruptedPods))
	for k := range p.Status.DisruptedPods {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SetDefaultsPodDisruptionBudget sets apiVersion, kind and namespace (policy/v1
// has no field defaults).
func SetDefaultsPodDisruptionBudget(p *PodDisruptionBudget) {
	p.APIVersion, p.Kind = GroupVersionPolicy, KindPodDisruptionBudget
	if p.Namespace == "" {
		p.Namespace = NamespaceDefault
	}
}
