package view

import (
	"fmt"
	"strconv"
	"strings"

	"converge/core/outcome"
	"converge/core/sim"
)

// RolloutTime is where the time of one rollout went, as the Why panel
// says it in `kubectl describe` style:
//
//	Rollout 2 (web-6598877c79): 41 s so far — creating pods 8 s, waiting for readiness 20 s,
//	paced by maxUnavailable 13 s; progress deadline: 12 s of 600 s without progress
//
// (outcome.Rollouts computes it from the per-second history, up to now).
type RolloutTime struct {
	// Key is "DEPLOYMENT@START".
	Key        string `json:"key"`
	Deployment string `json:"deployment"`
	// Title is "Rollout 2 (web-6598877c79)".
	Title string `json:"title"`
	// State is outcome.StateComplete, StateReplaced or StateInProgress;
	// Start is the second it began, Seconds how long it has taken.
	State   string     `json:"state"`
	Start   int64      `json:"start"`
	Seconds int64      `json:"seconds"`
	Parts   []TimePart `json:"parts"`
	// Deadline is the progress deadline's clause, "" when it does not
	// matter (a rollout that completed or was replaced in time);
	// DeadlineKind is "counting", "paused" or "exceeded".
	Deadline     string `json:"deadline"`
	DeadlineKind string `json:"deadlineKind"`
	// Text is the whole line.
	Text string `json:"text"`
}

// TimePart is the seconds of a rollout spent one way.
type TimePart struct {
	// Key is one of outcome.PartKeys; Label its words ("blocked by
	// maxSurge", "new pods failing (ImagePullBackOff)").
	Key     string `json:"key"`
	Label   string `json:"label"`
	Seconds int64  `json:"seconds"`
}

// RolloutTimes returns the rollouts of the Deployment named name up to
// now, the latest first.
func RolloutTimes(s *sim.Sim, name string) []RolloutTime {
	ros := outcome.Rollouts(s.History(), name, s.T())
	out := make([]RolloutTime, 0, len(ros))
	for i := len(ros) - 1; i >= 0; i-- {
		out = append(out, rolloutTime(ros[i]))
	}
	return out
}

func rolloutTime(r outcome.Rollout) RolloutTime {
	rt := RolloutTime{Key: r.Deployment + "@" + strconv.FormatInt(r.Start, 10), Deployment: r.Deployment, State: r.State,
		Start: r.Start, Seconds: r.Seconds(), Title: rolloutTitle(r)}
	var parts []string
	for _, p := range r.Parts {
		label := outcome.PartLabel(p.Key)
		if p.Key == outcome.PartFailing && r.Stuck != "" {
			label += " (" + r.Stuck + ")"
		}
		rt.Parts = append(rt.Parts, TimePart{Key: p.Key, Label: label, Seconds: p.Seconds})
		parts = append(parts, label+" "+spacedSeconds(p.Seconds))
	}
	rt.Deadline, rt.DeadlineKind = deadlineText(r)
	var b strings.Builder
	b.WriteString(rt.Title + ": ")
	switch {
	case r.State == outcome.StateComplete && r.Seconds() == 0:
		b.WriteString("complete at once")
	case r.State == outcome.StateComplete:
		b.WriteString("complete in " + spacedSeconds(r.Seconds()))
	case r.State == outcome.StateReplaced:
		b.WriteString("replaced by a newer template after " + spacedSeconds(r.Seconds()))
	default:
		b.WriteString(spacedSeconds(r.Seconds()) + " so far")
	}
	if len(parts) > 0 {
		b.WriteString(" — " + strings.Join(parts, ", "))
	}
	if rt.Deadline != "" {
		b.WriteString("; " + rt.Deadline)
	}
	rt.Text = b.String()
	return rt
}

// rolloutTitle is "Rollout 2 (web-6598877c79)", by the new ReplicaSet's
// revision.
func rolloutTitle(r outcome.Rollout) string {
	switch {
	case r.Revision != "" && r.NewReplicaSet != "":
		return "Rollout " + r.Revision + " (" + r.NewReplicaSet + ")"
	case r.Revision != "":
		return "Rollout " + r.Revision
	}
	return "Rollout (no new ReplicaSet yet)"
}

// deadlineText is the progress deadline's clause of a rollout.
func deadlineText(r outcome.Rollout) (text, kind string) {
	d := r.Deadline
	switch {
	case d.Exceeded:
		return fmt.Sprintf("progress deadline exceeded at %s: more than %s without progress (Progressing=False, ProgressDeadlineExceeded)",
			secondsText(d.ExceededAt), spacedSeconds(int64(d.Limit))), "exceeded"
	case r.State != outcome.StateInProgress || d.Limit == 0:
		return "", ""
	case !d.Counting:
		return fmt.Sprintf("progress deadline: not counting while paused (%s once resumed)", spacedSeconds(int64(d.Limit))), "paused"
	}
	return fmt.Sprintf("progress deadline: %s of %s without progress", spacedSeconds(d.WithoutProgress), spacedSeconds(int64(d.Limit))),
		"counting"
}

// spacedSeconds is "41 s".
func spacedSeconds(n int64) string { return strconv.FormatInt(n, 10) + " s" }

// TimeBand is one run of seconds of a rollout on the timeline, drawn as a
// band under the scrubber.
type TimeBand struct {
	// Key is "START/FROM"; Part is one of outcome.PartKeys.
	Key, Part string
	// Left and Width are in percent of the timeline's span ("12.5").
	Left, Width string
	// Label is "20s–27s: paced by maxSurge (7 s), rollout 2".
	Label string
}

// TimeMark is a point of the progress deadline on the timeline: when it
// was exceeded, or when it will be if the rollout makes no progress.
type TimeMark struct {
	// Kind is "exceeded" or "deadline".
	Kind        string
	T           int64
	Left, Label string
}

// TimeBands returns the timeline's bands for the rollouts of the
// Deployment named name (or the focus) up to now, and the progress
// deadline's mark of the latest rollout, if any.
func TimeBands(s *sim.Sim, name string) ([]TimeBand, *TimeMark) {
	d := Focus(s, name)
	if d == nil {
		return nil, nil
	}
	span := max(int64(s.Duration().Seconds()), s.Horizon(), s.T(), 1)
	ros := outcome.Rollouts(s.History(), d.Name, s.T())
	var bands []TimeBand
	pct := func(t int64) string { return tenths(min(t, span) * 1000 / span) }
	for _, r := range ros {
		title := rolloutTitle(r)
		for _, sp := range r.Spans {
			label := outcome.PartLabel(sp.Key)
			if sp.Key == outcome.PartFailing && r.Stuck != "" {
				label += " (" + r.Stuck + ")"
			}
			bands = append(bands, TimeBand{Key: strconv.FormatInt(r.Start, 10) + "/" + strconv.FormatInt(sp.From, 10), Part: sp.Key,
				Left: pct(sp.From), Width: tenths((min(sp.To, span) - min(sp.From, span)) * 1000 / span),
				Label: fmt.Sprintf("%s–%s: %s (%s), %s", secondsText(sp.From), secondsText(sp.To), label,
					spacedSeconds(sp.To-sp.From), strings.ToLower(title[:1])+title[1:])})
		}
	}
	if len(ros) == 0 {
		return bands, nil
	}
	last := ros[len(ros)-1]
	dl := last.Deadline
	switch {
	case dl.Exceeded:
		return bands, &TimeMark{Kind: "exceeded", T: dl.ExceededAt, Left: pct(dl.ExceededAt),
			Label: secondsText(dl.ExceededAt) + ": ProgressDeadlineExceeded (" + spacedSeconds(int64(dl.Limit)) + " without progress)"}
	case last.State == outcome.StateInProgress && dl.Counting && dl.Limit > 0:
		at := s.T() + dl.Left() + 1
		if at > span {
			return bands, nil
		}
		return bands, &TimeMark{Kind: "deadline", T: at, Left: pct(at),
			Label: fmt.Sprintf("%s: the progress deadline is exceeded then unless the rollout progresses (%s of %s without progress now)",
				secondsText(at), spacedSeconds(dl.WithoutProgress), spacedSeconds(int64(dl.Limit)))}
	}
	return bands, nil
}
