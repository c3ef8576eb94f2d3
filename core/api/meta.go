package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Epoch is the simulated time of t=0: 2026-01-01T00:00:00Z.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Kinds, as written in apiVersion/kind pairs.
const (
	KindDeployment = "Deployment"
	KindReplicaSet = "ReplicaSet"
	KindPod        = "Pod"
	KindNode       = "Node"
	KindConfigMap  = "ConfigMap"
	KindService    = "Service"
	KindEndpoints  = "Endpoints"
	KindEvent      = "Event"
	// KindResourceQuota is v1 ResourceQuota.
	KindResourceQuota = "ResourceQuota"
	// KindPodDisruptionBudget is policy/v1 PodDisruptionBudget.
	KindPodDisruptionBudget = "PodDisruptionBudget"

	GroupVersionApps   = "apps/v1"
	GroupVersionCore   = "v1"
	GroupVersionPolicy = "policy/v1"

	// NamespaceDefault is the only namespace objects live in unless they say otherwise.
	NamespaceDefault = "default"
)

// APIVersionFor returns the apiVersion that goes with kind: its resource's,
// or v1 for a kind Converge does not serve.
func APIVersionFor(kind string) string {
	if r := ResourceFor(kind); r != nil {
		return r.APIVersion()
	}
	return GroupVersionCore
}

// Object is what every stored kind implements.
type Object interface {
	// GetObjectMeta returns a pointer to the object's own metadata.
	GetObjectMeta() *ObjectMeta
	// GetTypeMeta returns a pointer to the object's apiVersion and kind.
	GetTypeMeta() *TypeMeta
	// DeepCopyObject returns a copy that shares nothing mutable with the original.
	DeepCopyObject() Object
}

// TypeMeta is apiVersion and kind.
type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// GetTypeMeta implements part of Object.
func (t *TypeMeta) GetTypeMeta() *TypeMeta { return t }

// ObjectMeta is metadata as the API server keeps it.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitzero"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
	// ManagedFields and SelfLink are accepted from `kubectl get -o yaml` output
	// and dropped by the scenario loader; they are never stored.
}

// GetObjectMeta implements part of Object.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// The garbage collector's finalizers (metav1.FinalizerOrphanDependents and
// metav1.FinalizerDeleteDependents): the API server puts one on an object
// deleted with propagationPolicy Orphan or Foreground, and the collector
// takes it off once the dependents are orphaned or deleted.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// HasFinalizer reports whether m carries finalizer f.
func (m *ObjectMeta) HasFinalizer(f string) bool {
	for _, x := range m.Finalizers {
		if x == f {
			return true
		}
	}
	return false
}

// IsDeletingDependents reports whether m is being deleted in the
// foreground: it has a deletionTimestamp and the foregroundDeletion
// finalizer, and stays until the garbage collector has deleted its
// dependents that block it (blockOwnerDeletion: true).
func (m *ObjectMeta) IsDeletingDependents() bool {
	return m.DeletionTimestamp != nil && m.HasFinalizer(FinalizerDeleteDependents)
}

// BlocksOwnerDeletion reports whether r has blockOwnerDeletion: true.
func (r OwnerReference) BlocksOwnerDeletion() bool {
	return r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion
}

// Key returns "namespace/name", or "name" for cluster-scoped objects.
func (m *ObjectMeta) Key() string {
	if m.Namespace == "" {
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// DeepCopy returns a copy of m.
func (m ObjectMeta) DeepCopy() ObjectMeta {
	out := m
	out.DeletionTimestamp = copyTime(m.DeletionTimestamp)
	out.DeletionGracePeriodSeconds = copyInt64(m.DeletionGracePeriodSeconds)
	out.Labels = CopyStringMap(m.Labels)
	out.Annotations = CopyStringMap(m.Annotations)
	if m.OwnerReferences != nil {
		out.OwnerReferences = make([]OwnerReference, len(m.OwnerReferences))
		for i, r := range m.OwnerReferences {
			out.OwnerReferences[i] = r.DeepCopy()
		}
	}
	out.Finalizers = copyStrings(m.Finalizers)
	return out
}

// OwnerReference points from a dependent to its owner.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// DeepCopy returns a copy of r.
func (r OwnerReference) DeepCopy() OwnerReference {
	out := r
	out.Controller = copyBool(r.Controller)
	out.BlockOwnerDeletion = copyBool(r.BlockOwnerDeletion)
	return out
}

// NewControllerRef returns the controller reference an owner puts on what it creates.
func NewControllerRef(owner Object) OwnerReference {
	m, tm := owner.GetObjectMeta(), owner.GetTypeMeta()
	t := true
	b := true
	return OwnerReference{APIVersion: tm.APIVersion, Kind: tm.Kind, Name: m.Name, UID: m.UID, Controller: &t, BlockOwnerDeletion: &b}
}

// GetControllerOf returns the reference with controller: true, or nil.
func GetControllerOf(m *ObjectMeta) *OwnerReference {
	for i := range m.OwnerReferences {
		r := &m.OwnerReferences[i]
		if r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// IsControlledBy reports whether m's controller reference has the given uid.
func IsControlledBy(m *ObjectMeta, uid string) bool {
	r := GetControllerOf(m)
	return r != nil && r.UID == uid
}

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// DeepCopy returns a copy of s (nil stays nil).
func (s *LabelSelector) DeepCopy() *LabelSelector {
	if s == nil {
		return nil
	}
	out := &LabelSelector{MatchLabels: CopyStringMap(s.MatchLabels)}
	if s.MatchExpressions != nil {
		out.MatchExpressions = make([]LabelSelectorRequirement, len(s.MatchExpressions))
		for i, r := range s.MatchExpressions {
			out.MatchExpressions[i] = LabelSelectorRequirement{Key: r.Key, Operator: r.Operator, Values: copyStrings(r.Values)}
		}
	}
	return out
}

// LabelSelectorRequirement is one matchExpressions entry.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Label selector operators.
const (
	LabelSelectorOpIn           = "In"
	LabelSelectorOpNotIn        = "NotIn"
	LabelSelectorOpExists       = "Exists"
	LabelSelectorOpDoesNotExist = "DoesNotExist"
)

// Time is a timestamp that marshals as RFC 3339 in UTC with second precision,
// as metav1.Time does. The zero Time marshals as null and is omitted by omitzero.
type Time struct {
	time.Time
}

// NewTime wraps t.
func NewTime(t time.Time) Time { return Time{t.UTC()} }

// NewTimePtr wraps t and returns a pointer.
func NewTimePtr(t time.Time) *Time { x := NewTime(t); return &x }

// RFC3339 is the layout of every timestamp Converge prints.
const RFC3339 = "2006-01-02T15:04:05Z07:00"

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.UTC().Format(RFC3339) + `"`), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*t = Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("timestamp must be a string in RFC 3339 form")
	}
	if s == "" {
		*t = Time{}
		return nil
	}
	p, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("invalid timestamp %q: want RFC 3339, e.g. 2026-01-01T00:00:00Z", s)
	}
	t.Time = p.UTC()
	return nil
}

// Equal reports whether both are the same instant.
func (t Time) Equal(o Time) bool { return t.Time.Equal(o.Time) }

// CopyStringMap copies m; nil stays nil.
func CopyStringMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s...)
}

func copyTime(t *Time) *Time {
	if t == nil {
		return nil
	}
	x := *t
	return &x
}

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	x := *p
	return &x
}

func copyInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	x := *p
	return &x
}

func copyBool(p *bool) *bool {
	if p == nil {
		return nil
	}
	x := *p
	return &x
}

// Int32 returns a pointer to v.
func Int32(v int32) *int32 { return &v }

// Int64 returns a pointer to v.
func Int64(v int64) *int64 { return &v }

// Bool returns a pointer to v.
func Bool(v bool) *bool { return &v }
