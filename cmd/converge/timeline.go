package main

import (
	"bufio"
	"fmt"
	"strings"
	"unicode/utf8"

	"converge/core/api"
	"converge/core/scenario"
	"converge/core/sim"
)

// timeline writes `converge run --output text`: a header, then per second
// the steps with their output and the events in the columns of
// `kubectl get events -w` (TYPE REASON OBJECT MESSAGE) under the second they
// happened, then a summary per Deployment.
type timeline struct {
	w *bufio.Writer
}

func newTimeline(w *bufio.Writer, scn *scenario.Scenario) *timeline {
	t := &timeline{w: w}
	title := scn.Name
	if scn.Title != "" {
		title += ": " + scn.Title
	}
	fmt.Fprintf(w, "Scenario %s\n", title)
	if v := scn.Selected(); v != "" {
		fmt.Fprintf(w, "Variant %s, of %s\n", v, strings.Join(scn.VariantNames(), ", "))
	}
	fmt.Fprintf(w, "%d nodes, %d objects, %d steps, %ds simulated\n\n", len(scn.Cluster.Nodes), len(scn.Objects), len(scn.Steps),
		int64(scn.Duration.Seconds()))
	return t
}

func (t *timeline) tick(s *sim.Sim) {
	tick := s.Tick()
	at := fmt.Sprintf("%5ds", s.T())
	now := fmt.Sprintf("%ds", s.T())
	for _, r := range tick.Steps {
		if r.Note != nil {
			// A note is the scenario narrating: its plain text, marked ».
			fmt.Fprintf(t.w, "%s  » %s\n", at, r.Output)
			at = "      "
			continue
		}
		mark, action := "$", r.Action
		continued := r.Index >= 0 && r.At != now // a waiting step printing later
		switch {
		case r.Expect && r.OK:
			mark = "✓"
		case r.Expect:
			mark = "✗"
		case !r.OK:
			mark = "!"
		case continued:
			mark = "…"
		}
		if continued {
			action += " (since " + r.At + ")"
		}
		fmt.Fprintf(t.w, "%s  %s %s\n", at, mark, action)
		at = "      "
		for _, l := range lines(r.Output) {
			if r.Expect {
				break
			}
			fmt.Fprintf(t.w, "          %s\n", l)
		}
		for _, l := range lines(r.Error) {
			fmt.Fprintf(t.w, "          %s\n", l)
		}
	}
	for _, ev := range tick.Events {
		// fmt.Fprintf(t.w, "%s  %-7s  %-18s  %-34s  %s\n", ...) written
		// directly: the boxing of its five strings was a quarter of a
		// busy run's allocations.
		t.w.WriteString(at)
		t.pad(ev.Type, 7)
		t.pad(ev.Reason, 18)
		t.pad(ev.Object, 34)
		t.w.WriteString("  ")
		t.w.WriteString(ev.Message)
		t.w.WriteByte('\n')
		at = "      "
	}
}

// pad writes two spaces, then s left-justified in width runes (fmt's %-Ns).
func (t *timeline) pad(s string, width int) {
	t.w.WriteString("  ")
	t.w.WriteString(s)
	for n := utf8.RuneCountInString(s); n < width; n++ {
		t.w.WriteByte(' ')
	}
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// summary prints each Deployment's state at the end of the run.
func (t *timeline) summary(s *sim.Sim) {
	snap := s.Snapshot()
	fmt.Fprintf(t.w, "\nAt %ds:\n", snap.T)
	for _, d := range snap.Deployments {
		st := d.Status
		fmt.Fprintf(t.w, "  deployment/%s: %d desired, %d updated, %d ready, %d available, revision %s",
			d.Name, api.Deref(d.Spec.Replicas, 1), st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas,
			orNone(d.Annotations[api.RevisionAnnotation]))
		for _, c := range st.Conditions {
			fmt.Fprintf(t.w, "; %s=%s (%s)", c.Type, c.Status, c.Reason)
		}
		fmt.Fprintln(t.w)
	}
	if len(snap.Deployments) == 0 {
		fmt.Fprintln(t.w, "  no deployments")
	}
	for _, r := range s.Unfinished() {
		fmt.Fprintf(t.w, "  still waiting: %s (since %s)\n", r.Action, r.At)
	}
	passed, failed := 0, 0
	for _, r := range s.Expectations() {
		if r.OK {
			passed++
		} else {
			failed++
		}
	}
	if passed+failed > 0 {
		fmt.Fprintf(t.w, "  expectations: %d passed, %d failed\n", passed, failed)
	}
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
