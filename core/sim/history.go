package sim

import (
	"converge/core/api"
	"converge/core/controller/deployment"
)

// Sample is the per-second summary the page charts and the scrubber's
// markers are drawn from. Samples are recorded as ticks run and kept across
// seeks: the same second always gives the same sample.
type Sample struct {
	T           int64              `json:"t"`
	Deployments []DeploymentSample `json:"deployments"`
	Services    []ServiceSample    `json:"services,omitempty"`
	Markers     []Marker           `json:"markers,omitempty"`
}

// DeploymentSample is one Deployment's replica counts at a second.
type DeploymentSample struct {
	Name       string `json:"name"`
	Desired    int32  `json:"desired"`
	Updated    int32  `json:"updated"`
	Ready      int32  `json:"ready"`
	Available  int32  `json:"available"`
	Total      int32  `json:"total"`
	MaxSurge   int32  `json:"maxSurge"`       // resolved surge budget: total may reach desired + maxSurge
	MaxUnavail int32  `json:"maxUnavailable"` // resolved: available may drop to desired - maxUnavailable
}

// ServiceSample is one Service's requests in a second.
type ServiceSample struct {
	Name      string `json:"name"`
	Requests  int    `json:"requests"`
	Succeeded int    `json:"succeeded"`
}

// Marker is something worth a mark on the scrubber: a step, or a warning event.
type Marker struct {
	Kind  string `json:"kind"` // "step", "failed-step", "warning"
	Label string `json:"label"`
}

func (s *Sim) record(st *state) {
	smp := Sample{T: st.t}
	for _, d := range st.store.Deployments() {
		ds := DeploymentSample{Name: d.Name, Desired: api.Deref(d.Spec.Replicas, 1), Updated: d.Status.UpdatedReplicas,
			Ready: d.Status.ReadyReplicas, Available: d.Status.AvailableReplicas, Total: d.Status.Replicas}
		ds.MaxSurge, ds.MaxUnavail = deployment.MaxSurge(d), deployment.MaxUnavailable(d)
		smp.Deployments = append(smp.Deployments, ds)
	}
	for _, tr := range st.tick.Traffic {
		smp.Services = append(smp.Services, ServiceSample{Name: tr.Service, Requests: tr.Requests, Succeeded: tr.Succeeded})
	}
	for _, r := range st.tick.Steps {
		kind := "step"
		if !r.OK {
			kind = "failed-step"
		}
		smp.Markers = append(smp.Markers, Marker{Kind: kind, Label: r.Action})
	}
	for _, e := range st.tick.Events {
		if e.Type == api.EventTypeWarning {
			smp.Markers = append(smp.Markers, Marker{Kind: "warning", Label: e.Reason + " " + e.Object})
		}
	}
	for int64(len(s.samples)) <= st.t {
		s.samples = append(s.samples, Sample{T: int64(len(s.samples))})
	}
	s.samples[st.t] = smp
}

// History returns the samples of every second computed so far, from 0.
// Seconds after the current one are those of the timeline as last computed;
// a step added at run time drops them.
func (s *Sim) History() []Sample { return s.samples }

// Horizon returns the last second whose sample is known.
func (s *Sim) Horizon() int64 { return int64(len(s.samples)) - 1 }
