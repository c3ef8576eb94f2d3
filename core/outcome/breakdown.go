package outcome

import (
	"converge/core/controller/deployment"
	"converge/core/sim"
)

// Rollout is where the time of one rollout went: from the second a step
// changed the Deployment's pod template (Start) to the second it was
// complete, a later template change replaced it, or the end of the
// history measured (End). A template change before the rollout has a new
// ReplicaSet (while the Deployment is paused) joins it: Kubernetes rolls
// out the last template once.
type Rollout struct {
	Deployment string
	// Revision and NewReplicaSet are those of the rollout's new ReplicaSet
	// ("" while it has none, a paused Deployment's say).
	Revision, NewReplicaSet string
	Start, End              int64
	// State is StateComplete, StateReplaced or StateInProgress.
	State string
	// Parts are the seconds Start..End-1 by what the rollout waited for,
	// in the order of PartKeys, the empty ones left out. Their seconds add
	// up to End - Start.
	Parts []Part
	// Spans are the same seconds in time order: each run of seconds spent
	// the same way.
	Spans []Span
	// Stuck is the last reason a new pod was stuck for (ImagePullBackOff,
	// CrashLoopBackOff, Unschedulable, ...); "" when none was.
	Stuck string
	// Deadline is the progress deadline's countdown at End.
	Deadline Deadline

	uid string
}

// States of a Rollout.
const (
	StateComplete   = "complete"
	StateReplaced   = "replaced"
	StateInProgress = "in-progress"
)

// Seconds is End - Start.
func (r Rollout) Seconds() int64 { return r.End - r.Start }

// Span is the seconds From..To-1 of a rollout, all spent the way Key says.
type Span struct {
	Key      string
	From, To int64
}

// Part is the seconds of a rollout spent one way.
type Part struct {
	// Key is one of PartKeys.
	Key     string
	Seconds int64
}

// The ways a second of a rollout is spent, in the order a second is
// classified: the first that holds wins (see Classify).
const (
	// PartPaused: .spec.paused; the rollout waits for rollout resume.
	PartPaused = "paused"
	// PartFailing: a new pod is stuck (image pull back-off, crash loop,
	// unschedulable): it will not get better by itself.
	PartFailing = "failing"
	// PartSurge, PartUnavailable: the new ReplicaSet is below the desired
	// count and the deployment controller may not grow it, or take old
	// pods away, because of that budget (the bound its pass names).
	PartSurge       = "surge"
	PartUnavailable = "unavailable"
	// PartCreating: new pods wait for a node, pull their image or start
	// their containers.
	PartCreating = "creating"
	// PartReadiness: new pods run but are not Ready yet, or are Ready but
	// not for minReadySeconds yet.
	PartReadiness = "readiness"
	// PartOldPods: only old pods are left to go (they are Terminating, or
	// the Recreate strategy waits for them before it creates new ones).
	PartOldPods = "old-pods"
	// PartStatus: nothing left to wait for but the controllers' status
	// (a second of lag).
	PartStatus = "status"
)

// PartKeys lists the parts in the order they are shown.
var PartKeys = []string{PartCreating, PartReadiness, PartSurge, PartUnavailable, PartPaused, PartFailing, PartOldPods, PartStatus}

// PartLabel is how a part is named in words: "creating pods", "paced by
// maxSurge".
func PartLabel(key string) string {
	switch key {
	case PartCreating:
		return "creating pods"
	case PartReadiness:
		return "waiting for readiness"
	case PartSurge:
		return "paced by maxSurge"
	case PartUnavailable:
		return "paced by maxUnavailable"
	case PartPaused:
		return "paused"
	case PartFailing:
		return "new pods failing"
	case PartOldPods:
		return "waiting for old pods to go"
	case PartStatus:
		return "waiting for the status"
	}
	return key
}

// Deadline is the progress deadline (.spec.progressDeadlineSeconds) at a
// second: how long the rollout has gone without progress, of how long it
// may.
type Deadline struct {
	// Limit is the deadline in seconds; 0 when the Deployment has none.
	Limit int32
	// WithoutProgress is the seconds since the Progressing condition was
	// last updated; Counting is false when the deadline does not count
	// (paused, complete, no condition yet).
	WithoutProgress int64
	Counting        bool
	// Exceeded is set once the condition says ProgressDeadlineExceeded,
	// which it first did at second ExceededAt.
	Exceeded   bool
	ExceededAt int64
}

// Left is how much longer the rollout may go without progress: the
// deadline is exceeded once it has gone more than Limit seconds without
// (Kubernetes' DeploymentTimedOut); 0 once it has.
func (d Deadline) Left() int64 { return max(int64(d.Limit)-d.WithoutProgress, 0) }

// Classify says how the second of ds was spent (one of PartKeys), for a
// Deployment that is not complete (ds.Rollout set).
func Classify(ds *sim.DeploymentSample) string {
	ro := ds.Rollout
	switch {
	case ro == nil:
		return PartStatus
	case ro.Paused:
		return PartPaused
	case ro.Stuck != "":
		return PartFailing
	case ro.NewDesired < ds.Desired && ro.Blocking == deployment.BlockingSurge:
		return PartSurge
	case ro.NewDesired < ds.Desired && ro.Blocking == deployment.BlockingUnavailable:
		return PartUnavailable
	case ro.Pending+ro.Creating > 0:
		return PartCreating
	case ro.NotReady+ro.Ready > 0:
		return PartReadiness
	case ro.OldPods > 0:
		return PartOldPods
	}
	return PartStatus
}

// Rollouts returns the rollouts of the Deployment name in hist[0..upTo],
// oldest first: one per second in which a step changed its pod template.
func Rollouts(hist []sim.Sample, name string, upTo int64) []Rollout {
	hist = window(hist, upTo)
	var out []Rollout
	var cur *Rollout
	var spent map[string]int64
	closeAt := func(end int64, state string) {
		cur.End, cur.State = end, state
		for _, k := range PartKeys {
			if spent[k] > 0 {
				cur.Parts = append(cur.Parts, Part{Key: k, Seconds: spent[k]})
			}
		}
		cur.Deadline = deadlineAt(hist, name, cur.Start, end)
		out = append(out, *cur)
		cur = nil
	}
	for t := int64(1); t < int64(len(hist)); t++ {
		ds := sampleOf(hist[t], name)
		if cur != nil && (ds == nil || ds.UID != cur.uid) {
			closeAt(t, StateReplaced) // the Deployment was deleted
		}
		if ds == nil {
			continue
		}
		if templateChanged(hist, t, name) && (cur == nil || cur.NewReplicaSet != "") {
			if cur != nil {
				closeAt(t, StateReplaced)
			}
			cur = &Rollout{Deployment: name, Start: t}
			cur.uid = ds.UID
			spent = map[string]int64{}
		}
		if cur == nil {
			continue
		}
		if ro := ds.Rollout; ro != nil {
			if ro.NewReplicaSet != "" {
				cur.Revision, cur.NewReplicaSet = ds.Revision, ro.NewReplicaSet
			}
			if ro.Stuck != "" {
				cur.Stuck = ro.Stuck
			}
		}
		switch {
		case ds.Complete:
			if cur.Revision == "" {
				cur.Revision = ds.Revision
			}
			closeAt(t, StateComplete)
		case t == int64(len(hist))-1:
			// The last second measured is now: it has not been spent yet.
			closeAt(t, StateInProgress)
		default:
			k := Classify(ds)
			spent[k]++
			if n := len(cur.Spans); n > 0 && cur.Spans[n-1].Key == k && cur.Spans[n-1].To == t {
				cur.Spans[n-1].To = t + 1
			} else {
				cur.Spans = append(cur.Spans, Span{Key: k, From: t, To: t + 1})
			}
		}
	}
	return out
}

// deadlineAt is the progress deadline's countdown at second end of a
// rollout that started at start: from end's sample, or the latest before
// it that was not complete.
func deadlineAt(hist []sim.Sample, name string, start, end int64) Deadline {
	var d Deadline
	for t := end; t >= start && t >= 0; t-- {
		ds := sampleOf(hist[t], name)
		if ds == nil || ds.Rollout == nil {
			continue
		}
		ro := ds.Rollout
		d = Deadline{Limit: ro.ProgressDeadline, WithoutProgress: max(ro.SinceProgress, 0), Counting: ro.SinceProgress >= 0,
			Exceeded: ro.DeadlineExceeded}
		break
	}
	if !d.Exceeded {
		return d
	}
	for t := start; t <= end; t++ {
		if ds := sampleOf(hist[t], name); ds != nil && ds.Rollout != nil && ds.Rollout.DeadlineExceeded {
			d.ExceededAt = t
			break
		}
	}
	return d
}
