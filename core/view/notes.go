package view

import (
	"strconv"
	"time"

	"converge/core/scenario"
	"converge/core/sim"
)

// Caption is what the page shows over itself at the current second: the
// notes of the scenario shown then (scenario.NotesAt), their text as spans
// to draw (never HTML), whether the reader is asked to continue, and what
// to highlight (docs/scenarios.md, "Notes"; docs/page.md).
type Caption struct {
	// Key changes when other notes are shown: "T" of the notes' second.
	Key string
	// T is the notes' second: play stopped there when Pause is set.
	T int64
	// At is the notes' second, "62s".
	At    string
	Notes []CaptionNote
	// Pause is set when one of the notes pauses play.
	Pause bool
	// Focus is the first focus the notes name ("" for none); FocusArea,
	// FocusKind and FocusName are it split (scenario.Note.FocusTarget).
	Focus, FocusArea, FocusKind, FocusName string
}

// CaptionNote is one note of a caption.
type CaptionNote struct {
	Spans []scenario.Span
	// Plain is its text without markup, for an accessible label.
	Plain string
}

// CaptionOf returns the caption at s's current second, or nil when no
// note is shown (before the first note, or a scenario without notes).
func CaptionOf(s *sim.Sim) *Caption {
	scn := s.Scenario()
	idx := scn.NotesAt(time.Duration(s.T()) * time.Second)
	if len(idx) == 0 {
		return nil
	}
	at := int64(scn.Steps[idx[0]].At / time.Second)
	c := &Caption{Key: strconv.FormatInt(at, 10), T: at, At: secondsText(at)}
	for _, i := range idx {
		n := scn.Steps[i].Note
		c.Notes = append(c.Notes, CaptionNote{Spans: n.Spans(), Plain: n.Plain()})
		c.Pause = c.Pause || n.Pause
		if c.Focus == "" && n.Focus != "" {
			c.Focus = n.Focus
			c.FocusArea, c.FocusKind, c.FocusName = n.FocusTarget()
		}
	}
	return c
}

// PlayStep is how many of n seconds play may step from s's current second
// before it must stop at a note with pause (scenario.PauseIn), and whether
// it stops there. With stop, the page steps that many seconds and pauses;
// the reader continues from the note's second, past it.
func PlayStep(s *sim.Sim, n int) (steps int, stop bool) {
	t := s.T()
	at, ok := s.Scenario().PauseIn(time.Duration(t)*time.Second, time.Duration(t+int64(n))*time.Second)
	if !ok {
		return n, false
	}
	return int(int64(at/time.Second) - t), true
}

// NoteMarks are the scrubber's marks of the notes, for the whole scenario
// (the future too, so that a reader sees where the story goes): one per
// second with notes, Kind "note", or "note-pause" when one pauses.
func NoteMarks(s *sim.Sim) []ScrubMarker {
	scn := s.Scenario()
	span := max(int64(s.Duration().Seconds()), s.Horizon(), s.T(), 1)
	var out []ScrubMarker
	for _, i := range scn.NoteSteps() {
		st := scn.Steps[i]
		t := int64(st.At / time.Second)
		label := st.Note.Plain()
		if len(out) > 0 && out[len(out)-1].T == t {
			m := &out[len(out)-1]
			m.Label += " " + label
			if st.Note.Pause {
				m.Kind = "note-pause"
			}
			continue
		}
		kind := "note"
		if st.Note.Pause {
			kind = "note-pause"
		}
		out = append(out, ScrubMarker{Key: strconv.FormatInt(t, 10) + "/note", T: t, Kind: kind,
			Left: tenths(t * 1000 / span), Label: secondsText(t) + ", note: " + label})
	}
	return out
}
