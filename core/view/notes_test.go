package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/sim"
)

var notesDoc = "name: notes\nduration: 60s\nobjects:\n" + deploymentDoc("2", "nginx:1.27") + `steps:
- at: 5s
  note: The *loop* starts.
  focus: loop
- at: 20s
  note: "Look at ` + "`web`" + `."
  pause: true
  focus: deployment/web
- at: 20s
  note: Second of the same second.
- at: 40s
  note: Paused again.
  pause: true
`

func TestCaptionOf(t *testing.T) {
	t.Parallel()
	assert.Nil(t, CaptionOf(at(t, notesDoc, 4)), "no note before the first")
	c := CaptionOf(at(t, notesDoc, 12))
	require.NotNil(t, c, "a note stays shown after its second: stepping past it shows it")
	assert.Equal(t, &Caption{Key: "5", T: 5, At: "5s", Notes: []CaptionNote{{Spans: []scenario.Span{{Kind: scenario.SpanText, Text: "The "},
		{Kind: scenario.SpanEm, Text: "loop"}, {Kind: scenario.SpanText, Text: " starts."}}, Plain: "The loop starts."}},
		Focus: "loop", FocusArea: "loop"}, c)
	c = CaptionOf(at(t, notesDoc, 20))
	require.NotNil(t, c)
	assert.Equal(t, "20", c.Key)
	assert.Len(t, c.Notes, 2, "the notes of one second are shown together")
	assert.True(t, c.Pause)
	assert.Equal(t, [4]string{"deployment/web", "", "Deployment", "web"}, [4]string{c.Focus, c.FocusArea, c.FocusKind, c.FocusName})
	assert.Equal(t, "40", CaptionOf(at(t, notesDoc, 60)).Key)
}

func TestPlayStepStopsAtPauseNotes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		from      int64
		n         int
		wantSteps int
		wantStop  bool
	}{
		{"a plain note does not stop play", 0, 10, 10, false},
		{"a batch that crosses a pause stops on it", 10, 16, 10, true},
		{"one second onto the pause", 19, 1, 1, true},
		{"continuing from the pause plays on", 20, 4, 4, false},
		{"the next pause", 30, 64, 10, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			steps, stop := PlayStep(at(t, notesDoc, tc.from), tc.n)
			assert.Equal(t, tc.wantSteps, steps)
			assert.Equal(t, tc.wantStop, stop)
		})
	}
}

func TestNoteMarks(t *testing.T) {
	t.Parallel()
	marks := NoteMarks(load(t, notesDoc))
	require.Len(t, marks, 3, "the future notes are marked from t=0, one mark per second")
	assert.Equal(t, ScrubMarker{Key: "5/note", T: 5, Kind: "note", Left: "8.3", Label: "5s, note: The loop starts."}, marks[0])
	assert.Equal(t, "note-pause", marks[1].Kind)
	assert.Equal(t, "20s, note: Look at `web`. Second of the same second.", marks[1].Label)
	assert.Equal(t, "40/note", marks[2].Key)
}

// Notes are steps, which every variant shares: on the Compare view's one
// clock each variant shows the same caption and stops at the same second.
func TestNotesApplyToEveryVariant(t *testing.T) {
	t.Parallel()
	src := notesDoc + `variants:
- name: a
- name: b
  patch:
    deployment/web: {spec: {replicas: 4}}
`
	scn, probs := scenario.Parse([]byte(src), "v.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	for _, name := range scn.VariantNames() {
		v, err := scn.WithVariant(name)
		require.NoError(t, err)
		s, err := sim.New(v, sim.Options{})
		require.NoError(t, err)
		s.SeekTo(20)
		c := CaptionOf(s)
		require.NotNil(t, c, name)
		assert.Equal(t, "20", c.Key, name)
		steps, stop := PlayStep(s, 30)
		assert.Equal(t, [2]any{20, true}, [2]any{steps, stop}, name)
	}
}
