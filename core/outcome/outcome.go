// Package outcome measures rollouts from a simulation's per-second history
// (sim.Sample): what a rollout cost, per Deployment (Of: how long it took,
// how low availability went, how many pods it needed), and where its time
// went, second by second (Rollouts: creating pods, waiting for readiness,
// blocked by a budget, paused, and the progress deadline's countdown).
// docs/compare.md defines every measure; `converge compare` and the page's
// Compare view and Why panel print them.
//
// Everything here is a pure function of the samples: the same history gives
// the same outcomes, and "so far" is the history up to a second.
package outcome

import (
	"sort"

	"converge/core/sim"
)

// Deployment is the outcome of one Deployment's rollout in one run,
// measured from the rollout's start (the first second in which a step
// changed its pod template) to the end of the history measured. With no
// rollout every measure is nil.
type Deployment struct {
	Name string `json:"name"`
	// RolloutStart is the second of the first step that changed the pod
	// template.
	RolloutStart *int64 `json:"rolloutStart"`
	// RolloutSeconds is how long from RolloutStart until the Deployment was
	// complete (sim.Complete); nil when it never was.
	RolloutSeconds *int64 `json:"rolloutSeconds"`
	// MinAvailable is the lowest .status.availableReplicas, and
	// MinAvailablePercent the lowest availableReplicas * 100 / spec.replicas
	// (rounded down; seconds with 0 replicas do not count).
	MinAvailable        *int32 `json:"minAvailable"`
	MinAvailablePercent *int32 `json:"minAvailablePercent"`
	// MaxReplicas is the highest sum of its ReplicaSets' .spec.replicas;
	// MaxPods the highest count of its pods that existed, Terminating
	// included.
	MaxReplicas *int32 `json:"maxReplicas"`
	MaxPods     *int32 `json:"maxPods"`
	// PodsCreated counts the pods created for it.
	PodsCreated *int32 `json:"podsCreated"`
	// ProgressDeadlineExceeded is set when its Progressing condition said
	// ProgressDeadlineExceeded at some second.
	ProgressDeadlineExceeded bool `json:"progressDeadlineExceeded"`
}

// Of returns the outcome of every Deployment in hist[0..upTo] (upTo is
// clamped to the history), sorted by name.
func Of(hist []sim.Sample, upTo int64) []Deployment {
	hist = window(hist, upTo)
	var out []Deployment
	for _, name := range names(hist) {
		out = append(out, of(hist, name))
	}
	return out
}

// window is hist up to and including second upTo.
func window(hist []sim.Sample, upTo int64) []sim.Sample {
	if upTo < 0 {
		return nil
	}
	if upTo+1 < int64(len(hist)) {
		return hist[:upTo+1]
	}
	return hist
}

// names lists the Deployments that appear in hist, sorted.
func names(hist []sim.Sample) []string {
	seen := map[string]bool{}
	var out []string
	for _, smp := range hist {
		for _, d := range smp.Deployments {
			if !seen[d.Name] {
				seen[d.Name] = true
				out = append(out, d.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// sampleOf returns the sample of the Deployment name in smp, or nil.
func sampleOf(smp sim.Sample, name string) *sim.DeploymentSample {
	for i := range smp.Deployments {
		if smp.Deployments[i].Name == name {
			return &smp.Deployments[i]
		}
	}
	return nil
}

// templateChanged reports whether the Deployment's pod template changed
// in second t: the same Deployment (uid) was there at t-1 with another
// template. A Deployment created at t (at t=0 with the objects, or by a
// step) did not change.
func templateChanged(hist []sim.Sample, t int64, name string) bool {
	if t < 1 || t >= int64(len(hist)) {
		return false
	}
	cur, prev := sampleOf(hist[t], name), sampleOf(hist[t-1], name)
	return cur != nil && prev != nil && cur.UID == prev.UID && cur.Template != prev.Template
}

// RolloutStart returns the second of the first template change of the
// Deployment name in hist, or -1.
func RolloutStart(hist []sim.Sample, name string) int64 {
	for t := int64(1); t < int64(len(hist)); t++ {
		if templateChanged(hist, t, name) {
			return t
		}
	}
	return -1
}

func of(hist []sim.Sample, name string) Deployment {
	out := Deployment{Name: name}
	start := RolloutStart(hist, name)
	if start < 0 {
		return out
	}
	var minAvail, minPct, maxRep, maxPods, created int32
	minPct = -1
	first := true
	for t := start; t < int64(len(hist)); t++ {
		ds := sampleOf(hist[t], name)
		if ds == nil {
			continue
		}
		if first {
			minAvail, maxRep, maxPods = ds.Available, ds.SpecReplicas, ds.Pods
			first = false
		}
		minAvail, maxRep, maxPods = min(minAvail, ds.Available), max(maxRep, ds.SpecReplicas), max(maxPods, ds.Pods)
		if ds.Desired > 0 {
			pct := int32(int64(ds.Available) * 100 / int64(ds.Desired))
			if minPct < 0 || pct < minPct {
				minPct = pct
			}
		}
		created += ds.Created
		if ds.Complete && out.RolloutSeconds == nil {
			out.RolloutSeconds = new(t - start)
		}
		if ds.Rollout != nil && ds.Rollout.DeadlineExceeded {
			out.ProgressDeadlineExceeded = true
		}
	}
	out.RolloutStart = new(start)
	out.MinAvailable, out.MaxReplicas, out.MaxPods, out.PodsCreated = new(minAvail), new(maxRep), new(maxPods), new(created)
	if minPct >= 0 {
		out.MinAvailablePercent = new(minPct)
	}
	return out
}
