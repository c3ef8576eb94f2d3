package api

// Deployment is apps/v1 Deployment.
type Deployment struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       DeploymentSpec   `json:"spec"`
	Status     DeploymentStatus `json:"status"`
}

// DeploymentSpec is apps/v1 DeploymentSpec.
type DeploymentSpec struct {
	Replicas                *int32             `json:"replicas,omitempty"`
	Selector                *LabelSelector     `json:"selector"`
	Template                PodTemplateSpec    `json:"template"`
	Strategy                DeploymentStrategy `json:"strategy,omitzero"`
	MinReadySeconds         int32              `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit    *int32             `json:"revisionHistoryLimit,omitempty"`
	Paused                  bool               `json:"paused,omitempty"`
	ProgressDeadlineSeconds *int32             `json:"progressDeadlineSeconds,omitempty"`
}

// Strategy types.
const (
	RecreateDeploymentStrategyType      = "Recreate"
	RollingUpdateDeploymentStrategyType = "RollingUpdate"
)

// DeploymentStrategy is apps/v1 DeploymentStrategy.
type DeploymentStrategy struct {
	Type          string                   `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// IsZero lets omitzero drop an empty strategy.
func (s DeploymentStrategy) IsZero() bool { return s.Type == "" && s.RollingUpdate == nil }

// RollingUpdateDeployment holds maxUnavailable and maxSurge.
type RollingUpdateDeployment struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus is apps/v1 DeploymentStatus.
type DeploymentStatus struct {
	ObservedGeneration  int64                 `json:"observedGeneration,omitempty"`
	Replicas            int32                 `json:"replicas,omitempty"`
	UpdatedReplicas     int32                 `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32                 `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32                 `json:"unavailableReplicas,omitempty"`
	TerminatingReplicas *int32                `json:"terminatingReplicas,omitempty"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty"`
	CollisionCount      *int32                `json:"collisionCount,omitempty"`
}

// Deployment condition types.
const (
	DeploymentAvailable      = "Available"
	DeploymentProgressing    = "Progressing"
	DeploymentReplicaFailure = "ReplicaFailure"
)

// Condition statuses.
const (
	ConditionTrue    = "True"
	ConditionFalse   = "False"
	ConditionUnknown = "Unknown"
)

// DeploymentCondition is one entry of status.conditions.
type DeploymentCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastUpdateTime     Time   `json:"lastUpdateTime,omitzero"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitzero"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// ReplicaSet is apps/v1 ReplicaSet.
type ReplicaSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       ReplicaSetSpec   `json:"spec"`
	Status     ReplicaSetStatus `json:"status"`
}

// ReplicaSetSpec is apps/v1 ReplicaSetSpec.
type ReplicaSetSpec struct {
	Replicas        *int32          `json:"replicas,omitempty"`
	MinReadySeconds int32           `json:"minReadySeconds,omitempty"`
	Selector        *LabelSelector  `json:"selector"`
	Template        PodTemplateSpec `json:"template"`
}

// ReplicaSetStatus is apps/v1 ReplicaSetStatus. replicas is always printed, as the API server does.
type ReplicaSetStatus struct {
	Replicas             int32                 `json:"replicas"`
	FullyLabeledReplicas int32                 `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32                 `json:"availableReplicas,omitempty"`
	TerminatingReplicas  *int32                `json:"terminatingReplicas,omitempty"`
	ObservedGeneration   int64                 `json:"observedGeneration,omitempty"`
	Conditions           []ReplicaSetCondition `json:"conditions,omitempty"`
}

// ReplicaSetReplicaFailure is the RS condition type set when pod create/delete fails.
const ReplicaSetReplicaFailure = "ReplicaFailure"

// ReplicaSetCondition is one entry of RS status.conditions.
type ReplicaSetCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitzero"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// Annotation and label keys of the Deployment controller and kubectl.
const (
	RevisionAnnotation              = "deployment.kubernetes.io/revision"
	RevisionHistoryAnnotation       = "deployment.kubernetes.io/revision-history"
	DesiredReplicasAnnotation       = "deployment.kubernetes.io/desired-replicas"
	MaxReplicasAnnotation           = "deployment.kubernetes.io/max-replicas"
	RollbackToAnnotation            = "deprecated.deployment.rollback.to"
	ChangeCauseAnnotation           = "kubernetes.io/change-cause"
	RestartedAtAnnotation           = "kubectl.kubernetes.io/restartedAt"
	LastAppliedAnnotation           = "kubectl.kubernetes.io/last-applied-configuration"
	PodDeletionCostAnnotation       = "controller.kubernetes.io/pod-deletion-cost"
	DefaultDeploymentUniqueLabelKey = "pod-template-hash"
)

// GetObjectMeta etc. are promoted from the embedded fields; DeepCopyObject is below.

// DeepCopy returns a copy of d.
func (d *Deployment) DeepCopy() *Deployment {
	if d == nil {
		return nil
	}
	out := &Deployment{TypeMeta: d.TypeMeta, ObjectMeta: d.ObjectMeta.DeepCopy()}
	out.Spec = d.Spec.DeepCopy()
	out.Status = d.Status.DeepCopy()
	return out
}

// DeepCopyObject implements Object.
func (d *Deployment) DeepCopyObject() Object { return d.DeepCopy() }

// DeepCopy returns a copy of s.
func (s DeploymentSpec) DeepCopy() DeploymentSpec {
	out := s
	out.Replicas = copyInt32(s.Replicas)
	out.Selector = s.Selector.DeepCopy()
	out.Template = s.Template.DeepCopy()
	out.Strategy = s.Strategy.DeepCopy()
	out.RevisionHistoryLimit = copyInt32(s.RevisionHistoryLimit)
	out.ProgressDeadlineSeconds = copyInt32(s.ProgressDeadlineSeconds)
	return out
}

// DeepCopy returns a copy of s.
func (s DeploymentStrategy) DeepCopy() DeploymentStrategy {
	out := s
	if s.RollingUpdate != nil {
		ru := &RollingUpdateDeployment{}
		if s.RollingUpdate.MaxSurge != nil {
			v := *s.RollingUpdate.MaxSurge
			ru.MaxSurge = &v
		}
		if s.RollingUpdate.MaxUnavailable != nil {
			v := *s.RollingUpdate.MaxUnavailable
			ru.MaxUnavailable = &v
		}
		out.RollingUpdate = ru
	}
	return out
}

// DeepCopy returns a copy of s.
func (s DeploymentStatus) DeepCopy() DeploymentStatus {
	out := s
	out.TerminatingReplicas = copyInt32(s.TerminatingReplicas)
	out.CollisionCount = copyInt32(s.CollisionCount)
	if s.Conditions != nil {
		out.Conditions = append([]DeploymentCondition(nil), s.Conditions...)
	}
	return out
}

// DeepCopy returns a copy of rs.
func (rs *ReplicaSet) DeepCopy() *ReplicaSet {
	if rs == nil {
		return nil
	}
	out := &ReplicaSet{TypeMeta: rs.TypeMeta, ObjectMeta: rs.ObjectMeta.DeepCopy()}
	out.Spec = rs.Spec
	out.Spec.Replicas = copyInt32(rs.Spec.Replicas)
	out.Spec.Selector = rs.Spec.Selector.DeepCopy()
	out.Spec.Template = rs.Spec.Template.DeepCopy()
	out.Status = rs.Status
	out.Status.TerminatingReplicas = copyInt32(rs.Status.TerminatingReplicas)
	if rs.Status.Conditions != nil {
		out.Status.Conditions = append([]ReplicaSetCondition(nil), rs.Status.Conditions...)
	}
	return out
}

// DeepCopyObject implements Object.
func (rs *ReplicaSet) DeepCopyObject() Object { return rs.DeepCopy() }

// Replicas returns *p, or def when p is nil.
func Deref(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}

// Deref64 returns *p, or def when p is nil.
func Deref64(p *int64, def int64) int64 {
	if p == nil {
		return def
	}
	return *p
}
