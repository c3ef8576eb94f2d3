package sim

import (
	"converge/core/api"
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

// DeploymentSample is one Deployment's replica counts at a second, and
// what its rollout does (see rollout.go).
type DeploymentSample struct {
	Name       string `json:"name"`
	Desired    int32  `json:"desired"`
	Updated    int32  `json:"updated"`
	Ready      int32  `json:"ready"`
	Available  int32  `json:"available"`
	Total      int32  `json:"total"`
	MaxSurge   int32  `json:"maxSurge"`       // resolved surge budget: total may reach desired + maxSurge
	MaxUnavail int32  `json:"maxUnavailable"` // resolved: available may drop to desired - maxUnavailable
	// SpecReplicas is the sum of its ReplicaSets' .spec.replicas: the pods
	// they want, the capacity paid for.
	SpecReplicas int32 `json:"specReplicas"`
	// Pods counts its ReplicaSets' pods that exist, Terminating included.
	Pods int32 `json:"pods"`
	// Created counts its ReplicaSets' pods created in this second.
	Created int32 `json:"created,omitempty"`
	// Revision is its revision annotation.
	Revision string `json:"revision,omitempty"`
	// Complete is set when the Deployment has rolled out, as `kubectl
	// rollout status` says it (see Complete).
	Complete bool `json:"complete"`
	// Rollout is what a Deployment that is not complete waits for; nil
	// when it is complete.
	Rollout *RolloutSample `json:"rollout,omitempty"`

	// UID, Generation and Template identify the Deployment and its pod
	// template (the pod-template-hash of .spec.template), to tell a
	// template change from one second to the next.
	UID        string `json:"-"`
	Generation int64  `json:"-"`
	Template   string `json:"-"`
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
	var prev []DeploymentSample
	if st.t > 0 && int64(len(s.samples)) >= st.t {
		prev = s.samples[st.t-1].Deployments
	}
	smp.Deployments = deploymentSamples(st, prev)
	for _, tr := range st.tick.Traffic {
		smp.Services = append(smp.Services, ServiceSample{Name: tr.Service, Requests: tr.Requests, Succeeded: tr.Succeeded})
	}
	for _, r := range st.tick.Steps {
		if r.Note != nil {
			continue // a note has its own mark (view.NoteMarks)
		}
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
