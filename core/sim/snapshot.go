package sim

import (
	"encoding/json"
	"sort"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/endpoints"
	"converge/core/store"
)

// Snapshot is the whole state at one second plus what happened in it: the
// trace line of docs/trace.md. Objects are in Kubernetes' JSON shape, sorted
// by namespace and name as `kubectl get` lists them.
type Snapshot struct {
	T           int64             `json:"t"`
	Time        string            `json:"time"`
	Deployments []*api.Deployment `json:"deployments"`
	ReplicaSets []*api.ReplicaSet `json:"replicaSets"`
	Pods        []*api.Pod        `json:"pods"`
	Nodes       []*api.Node       `json:"nodes"`
	Services    []*api.Service    `json:"services"`
	Endpoints   []*api.Endpoints  `json:"endpoints"`
	ConfigMaps  []*api.ConfigMap  `json:"configMaps"`
	// ResourceQuotas and PodDisruptionBudgets: v1 ResourceQuota and
	// policy/v1 PodDisruptionBudget.
	ResourceQuotas       []*api.ResourceQuota       `json:"resourceQuotas"`
	PodDisruptionBudgets []*api.PodDisruptionBudget `json:"podDisruptionBudgets"`
	Events               []store.EmittedEvent       `json:"events"`
	Steps                []StepResult               `json:"steps"`
	Syncs                []controller.SyncRecord    `json:"syncs"`
	Traffic              []endpoints.ServiceTraffic `json:"traffic"`
}

// Snapshot returns the current second's snapshot. Its objects are shared
// with the store: do not modify them.
func (s *Sim) Snapshot() *Snapshot {
	st := s.state
	tick := st.tick
	snap := &Snapshot{
		T:                    st.t,
		Time:                 st.clock.Now().Format(api.RFC3339),
		Deployments:          byName(st.store.Deployments()),
		ReplicaSets:          byName(st.store.ReplicaSets()),
		Pods:                 byName(st.store.Pods()),
		Nodes:                byName(st.store.Nodes()),
		Services:             byName(st.store.Services()),
		Endpoints:            byName(st.store.EndpointsList()),
		ConfigMaps:           byName(st.store.ConfigMaps()),
		ResourceQuotas:       byName(st.store.ResourceQuotas()),
		PodDisruptionBudgets: byName(st.store.PodDisruptionBudgets()),
		Events:               nonNil(tick.Events),
		Steps:                nonNil(tick.Steps),
		Syncs:                nonNil(tick.Syncs),
		Traffic:              nonNil(tick.Traffic),
	}
	return snap
}

// TraceLine returns the current snapshot as one line of JSON (no newline),
// the same bytes natively and in the browser.
func (s *Sim) TraceLine() ([]byte, error) {
	return json.Marshal(s.Snapshot())
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func byName[T api.Object](objs []T) []T {
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := objs[i].GetObjectMeta(), objs[j].GetObjectMeta()
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return objs
}
