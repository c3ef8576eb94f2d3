package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// captionJS reads the page's caption: whether it shows, its second, its
// text, whether Continue shows, and what is highlighted.
const captionJS = `(() => {
	const c = document.querySelector(".cv-caption");
	const f = document.querySelector(".cv-focus-target");
	return {shown: !!c && !c.hidden, at: c?.dataset.noteT ?? "", text: c?.querySelector(".cv-caption-notes")?.textContent ?? "",
		cont: !!c && !c.querySelector(".cv-continue").hidden, focus: f ? f.className : "",
		t: converge.time(), playing: document.querySelector(".cv-play").getAttribute("aria-pressed") === "true",
		noteMarks: document.querySelectorAll(".cv-mark-note, .cv-mark-note-pause").length};
})()`

type captionState struct {
	Shown     bool   `json:"shown"`
	At        string `json:"at"`
	Text      string `json:"text"`
	Cont      bool   `json:"cont"`
	Focus     string `json:"focus"`
	T         int    `json:"t"`
	Playing   bool   `json:"playing"`
	NoteMarks int    `json:"noteMarks"`
}

// Play stops at a note that pauses and shows it with Continue; Enter
// continues to the next; the note's focus is highlighted; the timeline
// marks every note from the start.
func TestUINotesPauseAndContinue(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=desired-state", 1280, 800, "light")
	got := evalJS[captionState](t, p, captionJS)
	assert.True(t, got.Shown, "the note at 0s shows at 0s")
	assert.Equal(t, "0", got.At)
	assert.Contains(t, got.Text, "asks for 3 replicas")
	assert.False(t, got.Cont, "that note does not pause")
	assert.Contains(t, got.Focus, "cv-loop", "focus: loop highlights the loop")
	assert.Equal(t, 10, got.NoteMarks, "one mark per note, the future ones too")

	evalJS[bool](t, p, `(() => { const s = document.querySelector(".cv-speed"); s.value = "16"; s.dispatchEvent(new Event("change"));
		document.querySelector(".cv-play").click(); return true; })()`)
	p.waitFor(t, `converge.time() >= 12 && document.querySelector(".cv-play").getAttribute("aria-pressed") === "false"`)
	got = evalJS[captionState](t, p, captionJS)
	assert.Equal(t, 12, got.T, "play stopped at the note's second, not after")
	assert.Equal(t, "12", got.At)
	assert.Contains(t, got.Text, "The gap is closed")
	assert.True(t, got.Cont, "Continue shows at a note that paused play")
	assert.Contains(t, got.Focus, "cv-columns", "focus: pods highlights the tiles")

	evalJS[bool](t, p, `document.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true, cancelable: true}))`)
	p.waitFor(t, `converge.time() >= 16 && document.querySelector(".cv-play").getAttribute("aria-pressed") === "false"`)
	got = evalJS[captionState](t, p, captionJS)
	assert.Equal(t, 16, got.T, "Enter continued to the next note that pauses")
	assert.Contains(t, got.Text, "created a new pod, with a new name")
	p.shot(t, "note-1280", false)

	evalJS[bool](t, p, `(document.querySelector(".cv-continue").click(), true)`)
	p.waitFor(t, `converge.time() >= 31 && document.querySelector(".cv-play").getAttribute("aria-pressed") === "false"`)
	got = evalJS[captionState](t, p, captionJS)
	assert.Equal(t, 31, got.T, "Continue played past 25s (an expect) to the crash's note")

	// Stepping past a note shows it, without stopping anywhere.
	evalJS[bool](t, p, `(document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", shiftKey: true, bubbles: true, cancelable: true})), true)`)
	p.waitFor(t, `converge.time() === 41`)
	got = evalJS[captionState](t, p, captionJS)
	assert.Equal(t, "31", got.At, "the last note before 41s")
	assert.False(t, got.Cont, "no Continue away from the note's own second")
	p.assertNoConsoleErrors(t)
}

// A link with t= opens at a note with it shown, at 375 px too.
func TestUINoteLinkOpensAtTheNote(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for _, width := range []int64{1280, 375} {
		p := openUI(t, srv, "/?scenario=desired-state&t=46", width, 800, "light")
		got := evalJS[captionState](t, p, captionJS)
		assert.True(t, got.Shown)
		assert.Equal(t, "46", got.At)
		assert.Contains(t, got.Text, "Someone scaled the ReplicaSet to 5.")
		assert.True(t, got.Cont, "the note pauses: Continue offers to play on")
		p.shot(t, "note-link-"+map[int64]string{1280: "1280", 375: "375"}[width], false)
		p.assertNoConsoleErrors(t)
	}
}

// A note's text is never HTML: markup in it shows as text, links are
// http(s) anchors that open a new tab, code and emphasis are elements.
func TestUINoteTextIsInert(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update", 1280, 800, "light")
	src := "name: xss\nsteps:\n- at: 0s\n  note: \"<img src=x onerror=alert(1)> *new* `code` [docs](https://kubernetes.io/docs/)\"\n  focus: pod/nope\n"
	js, err := json.Marshal(src)
	require.NoError(t, err)
	got := evalJS[struct {
		OK     bool     `json:"ok"`
		Text   string   `json:"text"`
		Tags   []string `json:"tags"`
		Href   string   `json:"href"`
		Target string   `json:"target"`
		Rel    string   `json:"rel"`
	}](t, p, `(() => {
		const r = converge.load(`+string(js)+`);
		const n = document.querySelector(".cv-caption-notes");
		const a = n.querySelector("a");
		return {ok: r.ok, text: n.textContent, tags: [...n.querySelectorAll("*")].map((e) => e.tagName),
			href: a?.getAttribute("href") ?? "", target: a?.target ?? "", rel: a?.rel ?? ""};
	})()`)
	require.True(t, got.OK)
	assert.Equal(t, "<img src=x onerror=alert(1)> new code docs", got.Text)
	assert.Equal(t, []string{"P", "EM", "CODE", "A"}, got.Tags, "no IMG: the markup is text")
	assert.Equal(t, "https://kubernetes.io/docs/", got.Href)
	assert.Equal(t, "_blank", got.Target)
	assert.Equal(t, "noopener noreferrer", got.Rel)
	p.assertNoConsoleErrors(t)
}

// <converge-sim captions> shows the notes and stops at them; without the
// attribute the embed shows none.
func TestEmbedCaptions(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	docs := docsSite(t, srv.URL, `<converge-sim id="on" scenario="desired-state" t="16" captions loading="eager"></converge-sim>
<converge-sim id="off" scenario="desired-state" t="16" loading="eager"></converge-sim>`)
	p := openPage(t, docs)
	p.emulate(t, 375, 800, "light")
	p.waitFor(t, drawnJS)
	p.waitFor(t, `document.getElementById("on").shadowRoot.querySelector(".cv-caption")?.dataset.noteT === "16"`)
	got := evalJS[map[string]any](t, p, `(() => {
		const cap = (id) => document.getElementById(id).shadowRoot.querySelector(".cv-caption");
		return {on: !cap("on").hidden, text: cap("on").textContent, cont: !cap("on").querySelector(".cv-continue").hidden, off: !cap("off").hidden};
	})()`)
	assert.Equal(t, true, got["on"])
	assert.Contains(t, got["text"], "created a new pod")
	assert.Equal(t, true, got["cont"])
	assert.Equal(t, false, got["off"], "no captions without the attribute")
	p.shot(t, "embed-captions-375", true)
	p.assertNoConsoleErrors(t)
}

// The picker lists the library by lesson, numbered; the Lessons card shows
// the open scenario's lesson and Next; a scenario played to its end is
// ticked, and stays ticked after a reload (localStorage).
func TestUILessonsPath(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/", 1280, 800, "light")
	type state struct {
		Name    string   `json:"name"`
		Groups  []string `json:"groups"`
		First   string   `json:"first"`
		Head    string   `json:"head"`
		Items   []string `json:"items"`
		Done    []string `json:"done"`
		Next    string   `json:"next"`
		Current string   `json:"current"`
	}
	read := `(() => {
		const q = (s) => document.querySelector(s);
		return {name: converge.scenario().match(/^name: (.*)$/m)[1],
			groups: [...document.querySelectorAll(".cv-picker optgroup")].map((g) => g.label),
			first: q(".cv-picker option").textContent, head: q(".cv-lessons-head").textContent,
			items: [...document.querySelectorAll(".cv-lesson-link")].map((b) => b.textContent),
			done: [...document.querySelectorAll(".cv-lesson-done .cv-lesson-link")].map((b) => b.textContent),
			next: q(".cv-lesson-next").hidden ? "" : q(".cv-lesson-next").textContent,
			current: q(".cv-lesson-current .cv-lesson-link")?.textContent ?? ""};
	})()`
	got := evalJS[state](t, p, read)
	assert.Equal(t, "desired-state", got.Name, "a first visit opens the first lesson")
	assert.Equal(t, []string{"1. Desired state and self-healing", "2. Rolling updates and their budgets", "3. When rollouts get stuck",
		"4. Revisions and rollback", "5. Selectors and ownership", "6. Other writers of spec.replicas", "7. Nodes and disruptions"}, got.Groups)
	assert.Equal(t, "1.1 You describe the end state, the loop closes the gap (narrated)", got.First)
	assert.Equal(t, "Lesson 1 of 7: Desired state and self-healing", got.Head)
	require.Len(t, got.Items, 8)
	assert.Equal(t, got.Items[0], got.Current)
	assert.Empty(t, got.Done)
	assert.Equal(t, "Next: 1.2 The basic loop, scaling up and down ▶", got.Next)

	evalJS[bool](t, p, `(document.querySelector(".cv-lesson-next").click(), true)`)
	p.waitFor(t, `/^name: basic-loop$/m.test(converge.scenario())`)
	evalJS[bool](t, p, `(document.querySelector(".cv-lesson-next") && converge.seek(converge.duration()), true)`)
	p.waitFor(t, `document.querySelector(".cv-lesson-done .cv-lesson-link")?.textContent.startsWith("1.2 ")`)
	p.reload(t)
	p.waitFor(t, uiReady)
	got = evalJS[state](t, p, read)
	assert.Equal(t, "basic-loop", got.Name, "the address kept the scenario")
	assert.Equal(t, []string{"1.2 The basic loop, scaling up and down"}, got.Done, "the progress outlived the reload")
	p.shot(t, "lessons-1280", false)
	p.assertNoConsoleErrors(t)
}
