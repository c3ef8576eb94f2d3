package scenario

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseNoteText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []Span
	}{
		{"plain text", "The loop closes the gap.", []Span{{Kind: SpanText, Text: "The loop closes the gap."}}},
		{"emphasis and strong", "a *new* pod, **not** the old one, _again_ and __twice__", []Span{
			{Kind: SpanText, Text: "a "}, {Kind: SpanEm, Text: "new"}, {Kind: SpanText, Text: " pod, "},
			{Kind: SpanStrong, Text: "not"}, {Kind: SpanText, Text: " the old one, "}, {Kind: SpanEm, Text: "again"},
			{Kind: SpanText, Text: " and "}, {Kind: SpanStrong, Text: "twice"}}},
		{"inline code is shown as written", "run `kubectl scale --replicas=*3*`", []Span{
			{Kind: SpanText, Text: "run "}, {Kind: SpanCode, Text: "kubectl scale --replicas=*3*"}}},
		{"a link", "see [the docs](https://kubernetes.io/docs/concepts/) now", []Span{
			{Kind: SpanText, Text: "see "}, {Kind: SpanLink, Text: "the docs", Href: "https://kubernetes.io/docs/concepts/"},
			{Kind: SpanText, Text: " now"}}},
		{"HTML is text", `<img src=x onerror="alert(1)"> & <script>`, []Span{{Kind: SpanText, Text: `<img src=x onerror="alert(1)"> & <script>`}}},
		{"escapes", `\*not emphasis\* and \` + "`" + `tick`, []Span{{Kind: SpanText, Text: "*not emphasis* and `tick"}}},
		{"a star before a space and snake_case are text", "2 * 3 = 6, max_surge_value", []Span{{Kind: SpanText, Text: "2 * 3 = 6, max_surge_value"}}},
		{"a bracket that is no link is text", "[not a link] (x) [a](b c)", []Span{{Kind: SpanText, Text: "[not a link] (x) [a](b c)"}}},
		{"line breaks read as spaces", "one\ntwo", []Span{{Kind: SpanText, Text: "one two"}}},
		{"unicode", "élan – *ça*", []Span{{Kind: SpanText, Text: "élan – "}, {Kind: SpanEm, Text: "ça"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseNoteText(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseNoteTextErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		offset   int
		msg      string
	}{
		{"unclosed code", "run `kubectl", 4, "unclosed `"},
		{"unclosed emphasis", "a *new pod", 2, "unclosed *"},
		{"unclosed strong", "a **new pod*", 2, "unclosed **"},
		{"javascript link", "[x](javascript:alert(1))", 4, "only go to an http or https address"},
		{"data link", "[x](data:text/html,hi)", 4, "only go to an http or https address"},
		{"relative link", "[x](/docs/page)", 4, "absolute http or https address"},
		{"link without host", "[x](https:///path)", 4, "needs a host"},
		{"link with a quote", `[x](https://a.b/"onmouseover=)`, 4, "may not hold"},
		{"empty link text", "[ ](https://a.b/)", 0, "a link needs a text"},
		{"code inside emphasis", "*a `b` c*", 3, "markup inside emphasis"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseNoteText(tc.in)
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.offset, se.Offset)
			assert.Contains(t, se.Msg, tc.msg)
		})
	}
}

func TestNoteHTMLIsInert(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"markup", "a *b* **c** `d<e>` [f](https://g.h/?a=1&b=2)",
			`a <em>b</em> <strong>c</strong> <code>d&lt;e&gt;</code> <a href="https://g.h/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">f</a>`},
		{"HTML is escaped", `<script>alert("x")</script> & 'y'`, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;y&#39;`},
		{"attributes cannot be closed from a link text", `[" onclick="x](https://a.b/)`, `<a href="https://a.b/" target="_blank" rel="noopener noreferrer">&#34; onclick=&#34;x</a>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, CheckNote(tc.in))
			assert.Equal(t, tc.want, Note{Text: tc.in}.HTML())
		})
	}
}

func TestNotePlain(t *testing.T) {
	t.Parallel()
	n := Note{Text: "A *new* pod:\n`kubectl get pods`, see [docs](https://kubernetes.io/)."}
	assert.Equal(t, "A new pod: `kubectl get pods`, see docs (https://kubernetes.io/).", n.Plain())
}

func TestCheckNote(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, msg string }{
		{"empty", "  ", "must not be empty"},
		{"too long", strings.Repeat("é", MaxNoteLength+1), "at most 400"},
		{"control character", "a\x1bb", "control characters"},
		{"bidi line separator", "a\u2028b", "control characters"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := CheckNote(tc.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	assert.NoError(t, CheckNote(strings.Repeat("é", MaxNoteLength)), "the limit counts characters, not bytes")
}

func TestCheckFocus(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"rollout", "why", "pods", "loop", "events", "budget", "writers", "revisions", "selectors", "compare",
		"pod/web-5d9c7b8f4-x2kq9", "deployment/web", "deploy/web", "rs/web-1", "node/node-1"} {
		assert.NoError(t, CheckFocus(ok), ok)
	}
	for _, tc := range []struct{ in, msg string }{
		{"charts", `unknown focus "charts"`},
		{"widget/web", `unknown kind "widget"`},
		{"pod/Web", `invalid name "Web"`},
		{"pod/", `invalid name ""`},
	} {
		err := CheckFocus(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.msg)
	}
	kind := func(f string) [3]string {
		a, k, n := Note{Focus: f}.FocusTarget()
		return [3]string{a, k, n}
	}
	assert.Equal(t, [3]string{"pods", "", ""}, kind("pods"))
	assert.Equal(t, [3]string{"", "Deployment", "web"}, kind("deploy/web"))
}

const notesScenario = `name: notes
steps:
- at: 5s
  note: The loop *closes* the gap.
- at: 5s
  note: Second note of the second.
  focus: pods
- at: 10s
  kubectl: scale deployment/web --replicas=3
- at: 12s
  note: "Watch [this](https://kubernetes.io/)."
  pause: true
  focus: deployment/web
- at: 30s
  note: Later.
  pause: true
`

func TestParseNoteSteps(t *testing.T) {
	t.Parallel()
	s := mustParse(t, notesScenario)
	require.Len(t, s.Steps, 5)
	assert.Equal(t, &Note{Text: "The loop *closes* the gap."}, s.Steps[0].Note)
	assert.Equal(t, &Note{Text: "Second note of the second.", Focus: "pods"}, s.Steps[1].Note)
	assert.Equal(t, &Note{Text: "Watch [this](https://kubernetes.io/).", Pause: true, Focus: "deployment/web"}, s.Steps[3].Note)
	assert.Equal(t, "note", s.Steps[0].Action())
	assert.Equal(t, []int{0, 1, 3, 4}, s.NoteSteps())
}

func TestNotesAt(t *testing.T) {
	t.Parallel()
	s := mustParse(t, notesScenario)
	tests := []struct {
		t    time.Duration
		want []int
	}{
		{0, nil}, {4 * time.Second, nil},
		{5 * time.Second, []int{0, 1}}, {11 * time.Second, []int{0, 1}},
		{12 * time.Second, []int{3}}, {29 * time.Second, []int{3}},
		{30 * time.Second, []int{4}}, {90 * time.Second, []int{4}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, s.NotesAt(tc.t), "at %s", tc.t)
	}
}

func TestPauseIn(t *testing.T) {
	t.Parallel()
	s := mustParse(t, notesScenario)
	tests := []struct {
		name     string
		from, to time.Duration
		want     time.Duration
		stop     bool
	}{
		{"before the first pause", 0, 11 * time.Second, 0, false},
		{"a plain note does not stop", 4 * time.Second, 6 * time.Second, 0, false},
		{"arriving at a pause stops", 11 * time.Second, 12 * time.Second, 12 * time.Second, true},
		{"a jump stops at the first pause", 0, 60 * time.Second, 12 * time.Second, true},
		{"continuing from the pause plays on", 12 * time.Second, 29 * time.Second, 0, false},
		{"the next pause", 12 * time.Second, 31 * time.Second, 30 * time.Second, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			at, stop := s.PauseIn(tc.from, tc.to)
			assert.Equal(t, tc.stop, stop)
			assert.Equal(t, tc.want, at)
		})
	}
}

func TestNoteStepErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"a bad link, at its column", "name: a\nsteps:\n- at: 1s\n  note: see [x](javascript:alert(1))\n",
			"s.yaml:4:17: steps[0].note: invalid note: a link may only go to an http or https address"},
		{"an unclosed code span in a quoted note", "name: a\nsteps:\n- at: 1s\n  note: \"run `kubectl\"\n",
			"s.yaml:4:14: steps[0].note: invalid note: unclosed `"},
		{"pause on another step", "name: a\nsteps:\n- at: 1s\n  kubectl: get pods\n  pause: true\n",
			"s.yaml:5:3: steps[0].pause: only a note step may have pause"},
		{"focus on another step", "name: a\nsteps:\n- at: 1s\n  expect: deployment/web .spec.replicas == 1\n  focus: pods\n",
			"s.yaml:5:3: steps[0].focus: only a note step may have focus"},
		{"pause not a bool", "name: a\nsteps:\n- at: 1s\n  note: hi\n  pause: yes\n",
			"s.yaml:5:10: steps[0].pause: must be true or false"},
		{"unknown focus", "name: a\nsteps:\n- at: 1s\n  note: hi\n  focus: chart\n",
			`s.yaml:5:10: steps[0].focus: invalid focus: unknown focus "chart"`},
		{"note and an action", "name: a\nsteps:\n- at: 1s\n  note: hi\n  kubectl: get pods\n",
			"steps[0]: a step needs exactly one of kubectl, apply, fault, expect, commit, load, note; this one has kubectl and note"},
		{"an unknown key", "name: a\nsteps:\n- at: 1s\n  note: hi\n  caption: x\n", `unknown field "caption"`},
		{"an empty note", "name: a\nsteps:\n- at: 1s\n  note: ''\n", "steps[0].note: invalid note: must not be empty"},
		{"a note that is a number", "name: a\nsteps:\n- at: 1s\n  note: 12\n", "steps[0].note: must be a string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, probs := Parse([]byte(tc.in), "s.yaml")
			assert.Nil(t, s)
			require.True(t, probs.HasErrors())
			assert.Contains(t, probs.Error(), tc.want)
		})
	}
}

// A note survives Marshal, the share link and AppendStep as written.
func TestNotesRoundTrip(t *testing.T) {
	t.Parallel()
	s := mustParse(t, notesScenario)
	require.NoError(t, s.AppendStep(Step{At: 40 * time.Second, Note: &Note{Text: "Added *later*.", Pause: true, Focus: "pod/web-1"}}))
	out, err := s.Marshal()
	require.NoError(t, err)
	enc, err := EncodeShare(out)
	require.NoError(t, err)
	dec, err := DecodeShare(enc)
	require.NoError(t, err)
	back := mustParse(t, string(dec))
	var notes []Note
	for _, i := range back.NoteSteps() {
		notes = append(notes, *back.Steps[i].Note)
	}
	assert.Equal(t, []Note{
		{Text: "The loop *closes* the gap."},
		{Text: "Second note of the second.", Focus: "pods"},
		{Text: "Watch [this](https://kubernetes.io/).", Pause: true, Focus: "deployment/web"},
		{Text: "Later.", Pause: true},
		{Text: "Added *later*.", Pause: true, Focus: "pod/web-1"},
	}, notes)
	built := &Scenario{Name: "b", Cluster: DefaultCluster(), Duration: time.Minute,
		Steps: []Step{{At: time.Second, Note: &Note{Text: "x `y`", Pause: true, Focus: "why"}}}}
	out, err = built.Marshal()
	require.NoError(t, err)
	assert.Regexp(t, regexp.MustCompile("note: x `y`\n +pause: true\n +focus: why\n"), string(out))
	assert.Error(t, s.AppendStep(Step{At: time.Second, Note: &Note{Text: "[x](ftp://a.b/)"}}), "AppendStep checks a note as Parse does")
}

// FuzzNoteText: any text either is refused or renders to HTML whose only
// tags are the subset's, every link http or https, and no attribute but
// href, target and rel.
func FuzzNoteText(f *testing.F) {
	for _, s := range []string{"a *b* **c** `d` [e](https://f.g/h?i=j&k=l)", `<script>alert(1)</script>`,
		`[x](javascript:alert(1))`, "\\*x\\* _y_ __z__", `[" onclick="x](https://a.b/)`, "snake_case * 2",
		"[a](https://a.b/`)", "**", "*", "`", "[", "](", "[a](", "a_b_c", "_*x*_", "[*a*](https://b.c/)"} {
		f.Add(s)
	}
	tag := regexp.MustCompile(`<[^>]*>`)
	allowed := regexp.MustCompile(`^(<(em|strong|code)>|</(em|strong|code|a)>|<a href="https?://[^"<>]*" target="_blank" rel="noopener noreferrer">)$`)
	f.Fuzz(func(t *testing.T, text string) {
		if CheckNote(text) != nil {
			return
		}
		spans, err := ParseNoteText(text)
		if err != nil {
			t.Fatalf("CheckNote passed but ParseNoteText failed: %v", err)
		}
		for _, s := range spans {
			if s.Kind == SpanLink && !strings.HasPrefix(strings.ToLower(s.Href), "http://") && !strings.HasPrefix(strings.ToLower(s.Href), "https://") {
				t.Fatalf("link to %q", s.Href)
			}
		}
		out := Note{Text: text}.HTML()
		for _, m := range tag.FindAllString(out, -1) {
			if !allowed.MatchString(m) {
				t.Fatalf("tag %q in %q", m, out)
			}
		}
		if rest := tag.ReplaceAllString(out, ""); strings.ContainsAny(rest, `<>"'`) {
			t.Fatalf("unescaped character in %q", rest)
		}
	})
}

func TestCheckFocusLength(t *testing.T) {
	t.Parallel()
	err := CheckFocus("pod/" + strings.Repeat("a", MaxFocusLength))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is too long: at most 300 characters")
}
