package view

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/kubectl"
	"converge/core/sim"
)

func TestConsoleSubmit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		line    string
		wantCmd string
		wantRun bool
	}{
		{name: "a command", line: "get pods", wantCmd: "get pods", wantRun: true},
		{name: "blanks around it are dropped", line: "  get pods -o wide \t", wantCmd: "get pods -o wide", wantRun: true},
		{name: "a leading kubectl is dropped", line: "kubectl scale deployment/web --replicas=6", wantCmd: "scale deployment/web --replicas=6", wantRun: true},
		{name: "kubectl with a tab after it", line: "kubectl\tget rs", wantCmd: "get rs", wantRun: true},
		{name: "a word that starts with kubectl is kept", line: "kubectlget pods", wantCmd: "kubectlget pods", wantRun: true},
		{name: "a blank line runs nothing", line: "   ", wantRun: false},
		{name: "kubectl alone asks for its help", line: "kubectl ", wantCmd: "", wantRun: true},
		{name: "clear runs nothing", line: "clear", wantRun: false},
		{name: "kubectl clear is clear", line: "kubectl clear", wantRun: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var c Console
			cmd, run := c.Submit(tc.line)
			assert.Equal(t, tc.wantCmd, cmd)
			assert.Equal(t, tc.wantRun, run)
		})
	}
}

// record submits line and records a result for it, as the page does.
func record(t *testing.T, c *Console, line string, r sim.StepResult) After {
	t.Helper()
	cmd, run := c.Submit(line)
	require.True(t, run, line)
	return c.Record(cmd, r, FromConsole)
}

func TestConsoleRecordEchoesTheCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		from      CommandSource
		cmd       string
		result    sim.StepResult
		wantEcho  string
		wantStep  bool
		wantAfter After
	}{
		{name: "a read-only command", from: FromConsole, cmd: "get deployments",
			result:   sim.StepResult{At: "10s", OK: true, Output: "NAME   READY\nweb    3/3", Index: -1},
			wantEcho: "$ kubectl get deployments", wantAfter: After{Tab: "console"}},
		{name: "a command that joined the scenario", from: FromConsole, cmd: "get deployments",
			result:   sim.StepResult{At: "11s", OK: true, Output: "deployment.apps/web scaled", Index: 4},
			wantEcho: "$ kubectl get deployments    # a step at 11s", wantStep: true, wantAfter: After{Share: true, Tab: "console"}},
		{name: "a command kubectl rejects", from: FromConsole, cmd: "get deployments",
			result:   sim.StepResult{At: "10s", Error: `error: unknown command "scael" for "kubectl"`, Index: -1},
			wantEcho: "$ kubectl get deployments", wantAfter: After{Tab: "console"}},
		{name: "kubectl alone", from: FromConsole, cmd: "",
			result:   sim.StepResult{At: "10s", OK: true, Output: "kubectl controls the Kubernetes cluster manager.", Index: -1},
			wantEcho: "$ kubectl", wantAfter: After{Tab: "console"}},
		{name: "a button's step stays on its tab", from: FromButton, cmd: "get deployments",
			result:   sim.StepResult{At: "71s", OK: true, Output: "deployment.apps/web rolled back", Index: 2},
			wantEcho: "$ kubectl get deployments    # a step at 71s", wantStep: true, wantAfter: After{Share: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var c Console
			after := c.Record(tc.cmd, tc.result, tc.from)
			assert.Equal(t, tc.wantAfter, after)
			require.Len(t, c.Entries(), 1)
			e := c.Entries()[0]
			assert.Equal(t, tc.wantEcho, e.Echo)
			assert.Equal(t, tc.cmd, e.Command)
			assert.Equal(t, tc.result.Output, e.Output)
			assert.Equal(t, tc.result.Error, e.Error)
			assert.Equal(t, tc.result.OK, e.OK)
			assert.Equal(t, tc.wantStep, e.Step)
			assert.Equal(t, tc.result.At, e.At)
		})
	}
}

func TestConsoleLogKeysClearAndBound(t *testing.T) {
	t.Parallel()
	var c Console
	ok := sim.StepResult{OK: true, Index: -1}
	record(t, &c, "get pods", ok)
	record(t, &c, "get rs", ok)
	assert.Equal(t, []string{"0", "1"}, keysOf(c.Entries()))

	_, run := c.Submit("clear")
	assert.False(t, run)
	assert.Empty(t, c.Entries())
	record(t, &c, "get pods", ok)
	assert.Equal(t, []string{"2"}, keysOf(c.Entries()), "a key is never used twice, so no element is reused for another entry")

	for i := range MaxConsoleEntries + 5 {
		c.Record("get pods "+strconv.Itoa(i), ok, FromButton)
	}
	require.Len(t, c.Entries(), MaxConsoleEntries)
	last := c.Entries()[MaxConsoleEntries-1]
	assert.Equal(t, "get pods "+strconv.Itoa(MaxConsoleEntries+4), last.Command, "the newest stays")
	assert.Equal(t, "get pods 5", c.Entries()[0].Command, "the oldest go")
}

func keysOf(es []ConsoleEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Key
	}
	return out
}

func TestConsoleHistory(t *testing.T) {
	t.Parallel()
	type move struct {
		dir     int
		current string // the command line's text before the key
		want    string
		wantOK  bool
	}
	tests := []struct {
		name      string
		submitted []string
		moves     []move
	}{
		{name: "no history leaves the line", moves: []move{{-1, "get po", "get po", false}, {1, "get po", "get po", false}}},
		{name: "up walks back and stops at the oldest", submitted: []string{"get pods", "get rs", "describe deployment/web"},
			moves: []move{{-1, "", "describe deployment/web", true}, {-1, "describe deployment/web", "get rs", true},
				{-1, "get rs", "get pods", true}, {-1, "get pods", "get pods", true}}},
		{name: "down past the newest gives back the draft", submitted: []string{"get pods", "get rs"},
			moves: []move{{-1, "scale dep", "get rs", true}, {-1, "get rs", "get pods", true}, {1, "get pods", "get rs", true},
				{1, "get rs", "scale dep", true}, {1, "scale dep", "scale dep", true}}},
		{name: "a repeat in a row is kept once", submitted: []string{"get pods", "kubectl get pods", "get pods ", "get rs", "get pods"},
			moves: []move{{-1, "", "get pods", true}, {-1, "", "get rs", true}, {-1, "", "get pods", true}, {-1, "", "get pods", true}}},
		{name: "clear joins the history", submitted: []string{"get pods", "clear"},
			moves: []move{{-1, "", "clear", true}, {-1, "", "get pods", true}}},
		{name: "blank lines do not", submitted: []string{"get pods", "  ", ""},
			moves: []move{{-1, "", "get pods", true}, {1, "", "", true}}},
		{name: "kubectl alone is kept as kubectl", submitted: []string{"get pods", "kubectl"},
			moves: []move{{-1, "", "kubectl", true}, {-1, "", "get pods", true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var c Console
			for _, l := range tc.submitted {
				c.Submit(l)
			}
			for i, m := range tc.moves {
				got, ok := c.Browse(m.dir, m.current)
				assert.Equal(t, m.want, got, "move %d", i)
				assert.Equal(t, m.wantOK, ok, "move %d", i)
			}
		})
	}
}

func TestConsoleSubmitEndsBrowsing(t *testing.T) {
	t.Parallel()
	var c Console
	c.Submit("get pods")
	c.Submit("get rs")
	got, _ := c.Browse(-1, "")
	require.Equal(t, "get rs", got)
	got, _ = c.Browse(-1, got)
	require.Equal(t, "get pods", got)
	c.Submit(got)
	got, _ = c.Browse(-1, "")
	assert.Equal(t, "get pods", got, "the newest command again, not the one before the last browsed")
	got, _ = c.Browse(1, got)
	assert.Empty(t, got, "and down gives back the empty line typed after the submit")
}

func TestCompleteLine(t *testing.T) {
	t.Parallel()
	many := make([]string, MaxCompletionsShown+4)
	for i := range many {
		many[i] = "web-" + strconv.Itoa(100+i)
	}
	tests := []struct {
		name  string
		line  string
		words []string
		want  Completion
	}{
		{name: "one candidate replaces the word", line: "rollout und", words: []string{"undo"},
			want: Completion{Line: "rollout undo "}},
		{name: "one candidate for a new word", line: "rollout ", words: []string{"undo"},
			want: Completion{Line: "rollout undo "}},
		{name: "none says so", line: "frob", want: Completion{Line: "frob", Hint: "no completion"}},
		{name: "several extend to their common prefix", line: "rollout s", words: []string{"status", "start"},
			want: Completion{Line: "rollout sta", Hint: "status  start"}},
		{name: "several with nothing in common to add", line: "get po", words: []string{"pod", "pods", "podsecurity"},
			want: Completion{Line: "get pod", Hint: "pod  pods  podsecurity"}},
		{name: "several that add nothing keep the line", line: "get pod", words: []string{"pod", "pods"},
			want: Completion{Line: "get pod", Hint: "pod  pods"}},
		{name: "the prefix ends on a whole character", line: "x ", words: []string{"a\u00e9", "a\u00e8"},
			want: Completion{Line: "x a", Hint: "a\u00e9  a\u00e8"}},
		{name: "a long list is cut", line: "delete pod ", words: many,
			want: Completion{Line: "delete pod web-1", Hint: strings.Join(many[:MaxCompletionsShown], "  ") + "  … 4 more"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var asked string
			got := CompleteLine(tc.line, func(line string) []string {
				asked = line
				return tc.words
			})
			assert.Equal(t, "kubectl "+tc.line, asked, "the completer gets a kubectl command line")
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCompleteLineWithKubectl(t *testing.T) {
	t.Parallel()
	s := load(t, rolling)
	complete := func(line string) []string { return kubectl.Complete(s.Env(), line) }
	assert.Equal(t, "rollout undo ", CompleteLine("rollout und", complete).Line)
	assert.Equal(t, "scale deployment/web ", CompleteLine("scale deployment/w", complete).Line)
}

func TestConsoleSuggestions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		scn   string
		focus string
		want  []string
	}{
		{name: "about the focus Deployment", scn: rolling, focus: "web", want: []string{"get pods -o wide", "get rs",
			"rollout status deployment/web", "rollout history deployment/web", "scale deployment/web --replicas=12",
			"set env deployment/web DEMO=1", "rollout undo deployment/web", "describe deployment/web"}},
		{name: "the first Deployment when the focus is gone", scn: rolling, focus: "gone", want: []string{"get pods -o wide", "get rs",
			"rollout status deployment/web", "rollout history deployment/web", "scale deployment/web --replicas=12",
			"set env deployment/web DEMO=1", "rollout undo deployment/web", "describe deployment/web"}},
		{name: "how to create one without a Deployment", scn: "name: empty\n", want: []string{"get pods -o wide", "get rs",
			"create deployment web --image=nginx:1.27 --replicas=3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, ConsoleSuggestions(load(t, tc.scn), tc.focus))
		})
	}
}

func TestConsoleFollowsACommandThatWaits(t *testing.T) {
	t.Parallel()
	s := load(t, "name: f\nobjects:\n"+deploymentDoc("3", "nginx:1.27"))
	s.SeekTo(1)
	var c Console
	r := s.Run("rollout status deployment/web")
	require.True(t, r.Waiting)
	c.Record("rollout status deployment/web", r, FromConsole)
	e := c.Entries()[0]
	assert.True(t, e.Waiting)
	first := e.Output
	assert.False(t, c.Follow(s), "nothing new yet")
	s.Step(20)
	assert.True(t, c.Follow(s))
	e = c.Entries()[0]
	assert.False(t, e.Waiting)
	assert.True(t, e.OK)
	assert.True(t, strings.HasPrefix(e.Output, first), e.Output)
	assert.True(t, strings.HasSuffix(e.Output, `deployment "web" successfully rolled out`), e.Output)
	assert.False(t, c.Follow(nil))
}
