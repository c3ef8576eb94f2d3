package view

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest"
)

// marshalled is the scenario's text as the editor shows it.
func marshalled(t *testing.T, scn *scenario.Scenario) string {
	t.Helper()
	y, err := scn.Marshal()
	require.NoError(t, err)
	return string(y)
}

func TestEditorTakesTheScenariosTextUntilEdited(t *testing.T) {
	t.Parallel()
	s := load(t, rolling)
	var e Editor
	text, ok := e.Take(s.Scenario(), []byte(rolling))
	require.True(t, ok, "a new editor takes the text")
	assert.Equal(t, marshalled(t, s.Scenario()), text)
	assert.Equal(t, LineNumbers(text), e.Gutter(), "and checks it")
	_, ok = e.Take(s.Scenario(), []byte(rolling))
	assert.False(t, ok, "nothing changed")

	r := s.Run("scale deployment/web --replicas=4")
	require.True(t, r.OK, r.Error)
	text, ok = e.Take(s.Scenario(), []byte(rolling))
	require.True(t, ok, "a console command added a step")
	assert.Contains(t, text, "kubectl: scale deployment/web --replicas=4")

	e.Edit(text + "# mine\n")
	assert.True(t, e.Edited())
	s.Run("scale deployment/web --replicas=5")
	_, ok = e.Take(s.Scenario(), []byte(rolling))
	assert.False(t, ok, "an edited text is kept while steps are added")

	e.Revert()
	assert.False(t, e.Edited())
	text, ok = e.Take(s.Scenario(), []byte(rolling))
	require.True(t, ok, "revert takes the text again")
	assert.Contains(t, text, "kubectl: scale deployment/web --replicas=5")

	e.Edit("name: mine\n")
	other := load(t, history)
	text, ok = e.Take(other.Scenario(), []byte(history))
	require.True(t, ok, "a load drops the edits")
	assert.False(t, e.Edited())
	assert.Equal(t, marshalled(t, other.Scenario()), text)
}

func TestEditorCheckValidatesEachTextOnce(t *testing.T) {
	t.Parallel()
	var e Editor
	assert.True(t, e.Check("name: a\n"))
	assert.False(t, e.Check("name: a\n"), "the same text again")
	assert.True(t, e.Check("name: a\nbogus: 1\n"))
	require.NotEmpty(t, e.Problems())
	assert.Equal(t, Validate([]byte("name: a\nbogus: 1\n")), e.Problems())
	assert.Equal(t, "1\n2\n3", e.Gutter())
}

func TestEditorStatus(t *testing.T) {
	t.Parallel()
	valid := "name: ok\n"
	invalid := "name: bad\nbogus: 1\nworse: 2\n"
	tests := []struct {
		name string
		do   func(t *testing.T, e *Editor)
		want EditorStatus
	}{
		{name: "the scenario as taken", do: func(t *testing.T, e *Editor) {
			e.Take(load(t, rolling).Scenario(), nil)
		}, want: EditorStatus{Text: "The scenario as it runs, with the steps added from the console.", Tone: ToneMuted, CanApply: true}},
		{name: "a valid edit", do: func(t *testing.T, e *Editor) { e.Edit(valid) },
			want: EditorStatus{Text: "Valid. Apply restarts the simulation from 0s.", Tone: ToneOK, CanApply: true}},
		{name: "an edit with problems", do: func(t *testing.T, e *Editor) { e.Edit(invalid) },
			want: EditorStatus{Text: "2 problems: Apply is disabled until they are fixed.", Tone: ToneBad}},
		{name: "one problem", do: func(t *testing.T, e *Editor) { e.Edit("name: bad\nbogus: 1\n") },
			want: EditorStatus{Text: "1 problem: Apply is disabled until they are fixed.", Tone: ToneBad}},
		{name: "notes do not stop Apply", do: func(t *testing.T, e *Editor) {
			e.Edit(valid)
			e.Applied(valid, scenario.Problems{{Line: 1, Col: 1, Message: "a note", Note: true}})
		}, want: EditorStatus{Text: "The scenario as it runs, with the steps added from the console.", Tone: ToneMuted, CanApply: true}},
		{name: "apply refused the text", do: func(t *testing.T, e *Editor) {
			e.Edit(valid)
			e.Applied(valid, scenario.Problems{{Message: "the simulation cannot start: node node-1: exists"}})
		}, want: EditorStatus{Text: "1 problem: Apply is disabled until they are fixed.", Tone: ToneBad}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var e Editor
			tc.do(t, &e)
			assert.Equal(t, tc.want, e.Status())
		})
	}
}

func TestEditorApplied(t *testing.T) {
	t.Parallel()
	text := "name: ok\n"
	var e Editor
	e.Edit(text)
	refused := scenario.Problems{{File: EditorFile, Line: 0, Message: "the simulation cannot start"}, {Line: 2, Col: 3, Message: "bad"}}
	assert.False(t, e.Applied(text, refused))
	assert.True(t, e.Edited(), "a refused text stays an edit")
	assert.Equal(t, ProblemsOf(refused), e.Problems(), "the load's own problems show")
	assert.False(t, e.Check(text), "and stay until the text changes")

	assert.True(t, e.Applied(text, nil))
	assert.False(t, e.Edited(), "an applied text is the scenario's")
}

func TestProblemsOf(t *testing.T) {
	t.Parallel()
	got := ProblemsOf(scenario.Problems{{File: "scenario.yaml", Line: 3, Col: 7, Message: "a"}, {Line: 0, Message: "b", Note: true}})
	assert.Equal(t, []Problem{{Key: "load:0", Line: 3, Col: 7, Message: "a"}, {Key: "load:1", Line: 0, Col: 1, Message: "b", Note: true}}, got)
	assert.Empty(t, ProblemsOf(nil))
}

func TestProblemPlace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{name: "at a line and column", p: Problem{Line: 12, Col: 5}, want: "line 12, column 5"},
		{name: "the text as a whole", p: Problem{Line: 0, Col: 1}, want: "the file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.p.Place())
		})
	}
}

func TestTextOffset(t *testing.T) {
	t.Parallel()
	text := "name: a\nobjects:\n- x: 1\n"
	tests := []struct {
		name      string
		text      string
		line, col int
		want      int
	}{
		{name: "the start", text: text, line: 1, col: 1, want: 0},
		{name: "in the first line", text: text, line: 1, col: 7, want: 6},
		{name: "the start of a later line", text: text, line: 2, col: 1, want: 8},
		{name: "in a later line", text: text, line: 3, col: 3, want: 19},
		{name: "past a line's end stays on it", text: text, line: 1, col: 40, want: 7},
		{name: "past the last line is the end", text: text, line: 9, col: 1, want: len(text)},
		{name: "line 0 is the start", text: text, line: 0, col: 0, want: 0},
		{name: "an accent is one unit", text: "name: é\nx: 1\n", line: 2, col: 2, want: 9},
		{name: "an emoji is two units", text: "# 🚀\nx: 1\n", line: 2, col: 1, want: 5},
		{name: "an empty text", text: "", line: 3, col: 3, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, TextOffset(tc.text, tc.line, tc.col))
		})
	}
	// ASCII offsets are byte offsets.
	i := strings.Index(text, "x: 1")
	assert.Equal(t, i, TextOffset(text, 3, 3))
}

// TestEditorShowsTheFirstProblems: one bad anchor's 60,001 problems are
// counted in the status line, and the first 100 listed with a line for the
// rest.
func TestEditorShowsTheFirstProblems(t *testing.T) {
	t.Parallel()
	var e Editor
	e.Edit(simtest.AliasFloodYAML(60_000))
	assert.Len(t, e.Problems(), 100)
	assert.Equal(t, "... and 59,901 more problems", e.More())
	assert.Equal(t, EditorStatus{Text: "60,001 problems: Apply is disabled until they are fixed.", Tone: ToneBad}, e.Status())

	e.Edit("name: x\nbogus: 1\n")
	assert.Len(t, e.Problems(), 1)
	assert.Empty(t, e.More())
}

// ProblemsOf turns a load's problems into the editor's, keyed in order;
// a problem without a column is placed at column 1.
func ProblemsOf(ps scenario.Problems) []Problem {
	return problemsOf(ps, loadKey)
}
