package view

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/sim"
	"converge/core/store"
)

// EventRow is one line of the event log, like `kubectl get events -w`
// prints it, or one scenario step. T is the second the row links to.
type EventRow struct {
	// Key is the event's uid, or "step/T/i" for a step.
	Key string
	T   int64
	// At is "12s" (the second), Ago "3s ago" relative to now.
	At, Ago string
	// Type is Normal, Warning, Step or FailedStep.
	Type    string
	Reason  string
	Object  string
	Message string
	// Count is how many times the event happened (kubectl's COUNT), 1 for a step.
	Count int32
	// Source is the component that emitted it ("deployment-controller").
	Source string
}

// ReasonRejected is the reason of the Warning row of a refused step or
// console command.
const ReasonRejected = "Rejected"

// Row types beyond the events' own Normal and Warning.
const (
	RowStep       = "Step"
	RowFailedStep = "FailedStep"
)

// EventFilter narrows the log: Text matches (case-insensitively) any of
// type, reason, object, message and source; Type keeps one row type
// ("Normal", "Warning", "Step" — which also keeps failed steps — or "" for all).
type EventFilter struct {
	Text string
	Type string
}

// EventList is the filtered log, newest first, at most MaxEventRows rows.
type EventList struct {
	Rows []EventRow
	// Total is every row; Matched those that pass the filter.
	Total, Matched int
}

// MaxEventRows bounds the rows drawn.
const MaxEventRows = 200

// EventsWith is the event log up to now (the events the API server holds,
// as `kubectl get events` lists them, and the scenario's steps that ran),
// filtered, newest first, with the console's refused commands
// (Console.Refusals) among the rows: each refusal, a step's or the
// console's, is a Warning row (reason Rejected) with the API server's or
// kubectl's text, beside the step's own row.
func EventsWith(s *sim.Sim, f EventFilter, console []Rejection) EventList {
	now := s.Now()
	var rows []EventRow
	for _, e := range s.Store().Events() {
		rows = append(rows, eventRow(e, now))
	}
	rows = append(rows, stepRows(s)...)
	for _, r := range append(StepRejections(s), console...) {
		if r.T > s.T() {
			continue
		}
		obj := r.Object
		if obj == "" {
			obj = "scenario"
		}
		source := "kube-apiserver"
		if strings.HasPrefix(r.Message, "error: ") {
			source = "kubectl"
		}
		rows = append(rows, EventRow{Key: "rejected/" + r.Key, T: r.T, At: r.At, Ago: secondsText(s.T()-r.T) + " ago",
			Type: api.EventTypeWarning, Reason: ReasonRejected, Object: obj, Message: r.Action + ": " + r.Message, Count: 1, Source: source})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].T > rows[j].T })
	out := EventList{Total: len(rows)}
	text := strings.ToLower(strings.TrimSpace(f.Text))
	for _, r := range rows {
		if !f.matches(&r, text) {
			continue
		}
		out.Matched++
		if len(out.Rows) < MaxEventRows {
			out.Rows = append(out.Rows, r)
		}
	}
	return out
}

func (f EventFilter) matches(r *EventRow, text string) bool {
	switch f.Type {
	case "":
	case RowStep:
		if r.Type != RowStep && r.Type != RowFailedStep {
			return false
		}
	default:
		if r.Type != f.Type {
			return false
		}
	}
	if text == "" {
		return true
	}
	for _, s := range []string{r.Type, r.Reason, r.Object, r.Message, r.Source} {
		if strings.Contains(strings.ToLower(s), text) {
			return true
		}
	}
	return false
}

func eventRow(e *api.Event, now time.Time) EventRow {
	ts := e.LastTimestamp
	if ts.IsZero() {
		ts = e.FirstTimestamp
	}
	t := int64(ts.Sub(api.Epoch) / time.Second)
	return EventRow{Key: e.UID, T: t, At: strconv.FormatInt(t, 10) + "s", Ago: age(now, ts.Time) + " ago", Type: e.Type,
		Reason: e.Reason, Object: store.ShortRef(e.InvolvedObject.Kind, e.InvolvedObject.Name), Message: e.Message,
		Count: max(e.Count, 1), Source: e.Source.Component}
}

// stepRows are the steps that ran up to now, from the per-second history.
func stepRows(s *sim.Sim) []EventRow {
	var out []EventRow
	hist := s.History()
	now := s.T()
	errs := map[string]string{}
	for _, r := range s.StepResults() {
		if !r.OK && r.Error != "" {
			errs[r.At+" "+r.Action] = r.Error
		}
	}
	for t := int64(0); t <= now && t < int64(len(hist)); t++ {
		for i, m := range hist[t].Markers {
			if m.Kind != "step" && m.Kind != "failed-step" {
				continue
			}
			typ := RowStep
			if m.Kind == "failed-step" {
				typ = RowFailedStep
			}
			verb, rest, _ := strings.Cut(m.Label, " ")
			if e, ok := errs[strconv.FormatInt(t, 10)+"s "+m.Label]; ok && typ == RowFailedStep {
				rest += ": " + e
			}
			out = append(out, EventRow{Key: "step/" + strconv.FormatInt(t, 10) + "/" + strconv.Itoa(i), T: t,
				At: strconv.FormatInt(t, 10) + "s", Ago: secondsText(now-t) + " ago", Type: typ, Reason: verb,
				Object: "scenario", Message: rest, Count: 1, Source: "scenario"})
		}
	}
	return out
}
