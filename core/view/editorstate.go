package view

import (
	"fmt"
	"strconv"
	"unicode/utf16"

	"converge/core/humanize"
	"converge/core/manifest"
	"converge/core/scenario"
)

// Editor is the view model of the scenario editor: whether its text was
// edited, the problems of the text (Validate's, or Apply's when Apply
// refused it), its line numbers and the status line above it. The text
// itself lives in the page's text area; the bridge hands it in. The zero
// value is an editor that has not taken a scenario's text yet.
type Editor struct {
	// edited is set once the user changed the text; until then the editor
	// follows the scenario (the steps the console adds).
	edited bool
	// scn is the scenario the text was last taken from, which then had
	// steps steps; taken is cleared by Revert.
	scn   *scenario.Scenario
	taken bool
	steps int
	// checked is the text last checked, with its problems and gutter.
	checked    string
	hasChecked bool
	problems   []Problem
	// errors counts the text's errors, shown or not; more counts the
	// problems beyond the shown ones.
	errors, more int
	gutter       string
}

// Tone says how a status line reads: "ok", "muted" or "bad".
type Tone string

// The tones of the editor's status line.
const (
	ToneOK    Tone = "ok"
	ToneMuted Tone = "muted"
	ToneBad   Tone = "bad"
)

// EditorStatus is the editor's status line and what it allows.
type EditorStatus struct {
	Text string
	Tone Tone
	// CanApply is set when Apply may load the text: it has no error.
	CanApply bool
}

// Take returns the text for the text area, and true, when the editor takes
// the scenario's text now: scn is another scenario than the one it took its
// text from (a load, which drops the edits), or the text was not edited and
// was reverted or the scenario gained steps since (a command from the
// console). The text is the scenario as it runs, with those steps
// (scn.Marshal), or source, the YAML it was loaded from, when it cannot be
// marshalled. Take checks the text it returns.
func (e *Editor) Take(scn *scenario.Scenario, source []byte) (text string, ok bool) {
	if scn != e.scn {
		e.scn, e.edited, e.taken = scn, false, false
	}
	if e.edited || e.taken && len(scn.Steps) == e.steps {
		return "", false
	}
	e.taken, e.steps = true, len(scn.Steps)
	text = string(source)
	if y, err := scn.Marshal(); err == nil {
		text = string(y)
	}
	e.Check(text)
	return text, true
}

// Edit notes that the user changed the text to text, and checks it.
func (e *Editor) Edit(text string) {
	e.edited = true
	e.Check(text)
}

// Edited reports whether the user changed the text since it was taken.
func (e *Editor) Edited() bool { return e.edited }

// Check validates text (Validate) unless it is the text last checked, and
// reports whether it did.
func (e *Editor) Check(text string) bool {
	if e.hasChecked && text == e.checked {
		return false
	}
	_, probs := scenario.Parse([]byte(text), EditorFile)
	e.show(text, probs, func(i int, p scenario.Problem) string { return fmt.Sprintf("%d:%d:%d", p.Line, p.Col, i) })
	return true
}

// show takes text's problems: the first manifest.MaxShown, keyed by key,
// and the counts.
func (e *Editor) show(text string, probs scenario.Problems, key func(int, scenario.Problem) string) {
	e.checked, e.hasChecked = text, true
	shown, more := probs.Head()
	e.problems, e.more, e.errors = problemsOf(shown, key), more, len(probs.Errors())
	e.gutter = LineNumbers(text)
}

// Revert drops the edits: the next Take gives the scenario's text again.
func (e *Editor) Revert() {
	e.edited, e.taken = false, false
}

// Applied takes the outcome of Apply on text, the problems of loading it:
// with an error the simulation was kept, the text stays edited and the
// load's problems are shown (they include what Validate cannot see, such as
// a simulation that cannot start); without one the simulation restarted
// from the text, which is no longer an edit. It reports whether the load
// succeeded.
func (e *Editor) Applied(text string, probs scenario.Problems) bool {
	if !probs.HasErrors() {
		e.edited = false
		return true
	}
	e.show(text, probs, loadKey)
	return false
}

// Problems are the problems of the text last checked, in order: the first
// manifest.MaxShown of them. The caller must not modify them.
func (e *Editor) Problems() []Problem { return e.problems }

// More is the line that counts the problems beyond Problems, "... and
// 59,901 more problems", or "" when all are shown.
func (e *Editor) More() string { return manifest.MoreText(e.more) }

// Gutter is the line numbers of the text last checked (LineNumbers).
func (e *Editor) Gutter() string { return e.gutter }

// Status is the status line:
//
//	no error, edited:   "Valid. Apply restarts the simulation from 0s." (ok)
//	no error, as taken: "The scenario as it runs, with the steps added from the console." (muted)
//	errors:             "2 problems: Apply is disabled until they are fixed." (bad)
//
// Notes are not errors: they neither count nor stop Apply.
func (e *Editor) Status() EditorStatus {
	errs := e.errors
	switch {
	case errs > 0:
		return EditorStatus{Text: pluralInt(errs, "problem") + ": Apply is disabled until they are fixed.", Tone: ToneBad}
	case e.edited:
		return EditorStatus{Text: "Valid. Apply restarts the simulation from 0s.", Tone: ToneOK, CanApply: true}
	}
	return EditorStatus{Text: "The scenario as it runs, with the steps added from the console.", Tone: ToneMuted, CanApply: true}
}

func loadKey(i int, _ scenario.Problem) string { return "load:" + strconv.Itoa(i) }

// Place says where a problem is, as the problem list reads it: "line 3,
// column 5", or "the file" for a problem of the text as a whole (line 0).
func (p Problem) Place() string {
	if p.Line == 0 {
		return "the file"
	}
	return "line " + strconv.Itoa(p.Line) + ", column " + strconv.Itoa(p.Col)
}

// TextOffset is the offset of line:col (1-based; col counts characters) in
// text, in UTF-16 code units, as a text area's selectionStart counts: where
// the caret goes to show a problem. A line past the end is the end of the
// text; a column past its line's end is the line's end.
func TextOffset(text string, line, col int) int {
	off, l, c := 0, 1, 1
	for _, r := range text {
		if l > line || l == line && (c >= col || r == '\n') {
			break
		}
		if r == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
		off += utf16.RuneLen(r)
	}
	return off
}

// pluralInt is "1 problem" or "3 problems".
func pluralInt(n int, word string) string {
	return manifest.Thousands(int64(n)) + " " + humanize.Noun(n, word)
}
