package api

// ResourceQuota is v1 ResourceQuota: hard limits on what the pods (and the
// objects) of a namespace may use together. The quota controller keeps
// status.hard (a copy of spec.hard) and status.used; the ResourceQuota
// admission plugin refuses a create that would take used above hard. See
// docs/fidelity.md.
type ResourceQuota struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       ResourceQuotaSpec   `json:"spec,omitzero"`
	Status     ResourceQuotaStatus `json:"status,omitzero"`
}

// ResourceQuotaSpec is v1 ResourceQuotaSpec. scopeSelector is accepted and
// not simulated (the scenario loader says so).
type ResourceQuotaSpec struct {
	// Hard is the limit of each named resource: pods, cpu, memory,
	// requests.cpu, limits.memory, count/deployments.apps ...
	Hard ResourceList `json:"hard,omitempty"`
	// Scopes narrow the pods the quota counts: Terminating,
	// NotTerminating, BestEffort, NotBestEffort, PriorityClass.
	Scopes []string `json:"scopes,omitempty"`
}

// IsZero reports whether the spec is empty.
func (s ResourceQuotaSpec) IsZero() bool { return len(s.Hard) == 0 && len(s.Scopes) == 0 }

// ResourceQuotaStatus is v1 ResourceQuotaStatus.
type ResourceQuotaStatus struct {
	Hard ResourceList `json:"hard,omitempty"`
	Used ResourceList `json:"used,omitempty"`
}

// IsZero reports whether the status is empty.
func (s ResourceQuotaStatus) IsZero() bool { return s.Hard == nil && s.Used == nil }

// Resource names a quota limits beyond the scheduler's (cpu, memory, pods).
const (
	ResourceRequestsCPU    = "requests.cpu"
	ResourceRequestsMemory = "requests.memory"
	ResourceLimitsCPU      = "limits.cpu"
	ResourceLimitsMemory   = "limits.memory"
	// ResourceObjectCountPrefix starts an object-count resource:
	// count/pods, count/deployments.apps.
	ResourceObjectCountPrefix = "count/"
)

// Quota scopes (v1 ResourceQuotaScope).
const (
	QuotaScopeTerminating               = "Terminating"
	QuotaScopeNotTerminating            = "NotTerminating"
	QuotaScopeBestEffort                = "BestEffort"
	QuotaScopeNotBestEffort             = "NotBestEffort"
	QuotaScopePriorityClass             = "PriorityClass"
	QuotaScopeCrossNamespacePodAffinity = "CrossNamespacePodAffinity"
	QuotaScopeVolumeAttributesClass     = "VolumeAttributesClass"
)

// DeepCopy returns a copy of q.
func (q *ResourceQuota) DeepCopy() *ResourceQuota {
	if q == nil {
		return nil
	}
	return &ResourceQuota{TypeMeta: q.TypeMeta, ObjectMeta: q.ObjectMeta.DeepCopy(),
		Spec:   ResourceQuotaSpec{Hard: q.Spec.Hard.DeepCopy(), Scopes: copyStrings(q.Spec.Scopes)},
		Status: ResourceQuotaStatus{Hard: q.Status.Hard.DeepCopy(), Used: q.Status.Used.DeepCopy()}}
}

// DeepCopyObject implements Object.
func (q *ResourceQuota) DeepCopyObject() Object { return q.DeepCopy() }

// SetDefaultsResourceQuota sets apiVersion, kind and namespace.
func SetDefaultsResourceQuota(q *ResourceQuota) {
	q.APIVersion, q.Kind = GroupVersionCore, KindResourceQuota
	if q.Namespace == "" {
		q.Namespace = NamespaceDefault
	}
}
