package view

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"converge/core/api"
	"converge/core/sim"
)

// Console is the view model of the page's kubectl console: the log of the
// commands run so far with kubectl's output, the history that the arrow
// keys walk, and what a line typed on the command line means. It runs
// nothing itself: the bridge runs a command (sim.Run, which makes a command
// that changes the cluster a step of the scenario one second from now) and
// hands the result to Record. The zero value is an empty console.
type Console struct {
	entries []ConsoleEntry
	// next is the key of the next entry.
	next int
	// history holds the commands submitted, oldest first, without
	// repeats in a row.
	history []string
	// pos is the history position while browsing with the arrows
	// (len(history) when not browsing); draft is the line typed before
	// browsing started.
	pos   int
	draft string
	// sim is the simulation whose scenario steps the log shows (Follow),
	// shown the steps already in the log, by second and action.
	sim   *sim.Sim
	shown map[string]bool
}

// MaxConsoleEntries bounds the log: an older entry goes when a newer one
// would make more.
const MaxConsoleEntries = 200

// ConsoleEntry is one command of the log.
type ConsoleEntry struct {
	// Key is stable while the entry is in the log.
	Key string
	// Command is the command line without "kubectl".
	Command string
	// Echo is the command as the log shows it: "$ kubectl get pods", and
	// for a step, "$ kubectl scale deployment/web --replicas=6    # a step
	// at 11s".
	Echo          string
	Output, Error string
	OK            bool
	// Step is set when the command changed the cluster: it joined the
	// scenario as a step at At.
	Step bool
	At   string
	// Waiting is set while the command goes on (rollout status, wait,
	// drain): Follow adds its lines as the simulation advances.
	Waiting bool
	// Refused is set when the API server or kubectl refused a command
	// that would have changed the cluster: it is no step.
	Refused bool
	// Scripted is set for a step of the scenario itself, which Follow
	// logs as the simulation runs it.
	Scripted bool
	// T is the second the command ran (or was refused) at.
	T int64
	// ref is the result Follow asks the simulation about.
	ref sim.StepResult
}

// CommandSource says where a command the console records came from.
type CommandSource int

const (
	// FromConsole is a command typed on the console's command line.
	FromConsole CommandSource = iota
	// FromButton is a command run by a button elsewhere on the page (the
	// revisions' roll back, the selectors' apply), logged as if typed.
	FromButton
)

// After is what the page does once a command has run.
type After struct {
	// Share is set when the command joined the scenario: the address's
	// share link must carry it.
	Share bool
	// Tab is the tab to show, "" to stay on the one shown.
	Tab string
}

// Submit takes a line entered on the command line. It returns the command
// to run (without a leading "kubectl") and true, or false when there is
// nothing to run: a blank line, or "clear", which empties the log. Any
// other line joins the history, unless it repeats the newest one, and
// browsing ends.
//
//	Submit("  kubectl get pods ") → "get pods", true
//	Submit("get pods")            → "get pods", true (history unchanged: a repeat)
//	Submit("kubectl")             → "", true (kubectl's help)
//	Submit("clear")               → "", false (the log is empty)
//	Submit("   ")                 → "", false
func (c *Console) Submit(line string) (cmd string, run bool) {
	typed := strings.TrimSpace(line)
	if typed == "" {
		return "", false
	}
	cmd = typed
	if rest, ok := strings.CutPrefix(typed, "kubectl"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
		cmd = strings.TrimSpace(rest)
	}
	h := cmd
	if h == "" {
		h = "kubectl"
	}
	if n := len(c.history); n == 0 || c.history[n-1] != h {
		c.history = append(c.history, h)
	}
	c.pos, c.draft = len(c.history), ""
	if cmd == "clear" {
		c.entries = nil
		return "", false
	}
	return cmd, true
}

// Record adds a command's result to the log and says what the page does
// next: a command typed in the console shows the console; one that joined
// the scenario rewrites the share link.
func (c *Console) Record(cmd string, r sim.StepResult, from CommandSource) After {
	e := ConsoleEntry{Key: strconv.Itoa(c.next), Command: cmd, Echo: strings.TrimSpace("$ kubectl " + cmd), Output: r.Output,
		Error: r.Error, OK: r.OK, Step: r.Index >= 0, At: r.At, Waiting: r.Waiting, Refused: r.Refused, T: atSeconds(r.At), ref: r}
	switch {
	case e.Step:
		e.Echo += "    # a step at " + r.At
	case r.Refused:
		e.Echo += "    # refused at " + r.At + ": no step, the clock stays"
	}
	if e.Step {
		c.markShown(r)
	}
	c.add(e)
	after := After{Share: e.Step}
	if from == FromConsole {
		after.Tab = "console"
	}
	return after
}

func (c *Console) add(e ConsoleEntry) {
	c.next++
	c.entries = append(c.entries, e)
	if len(c.entries) > MaxConsoleEntries {
		c.entries = c.entries[len(c.entries)-MaxConsoleEntries:]
	}
}

// insert adds a scenario's step to the log in time order: after the
// entries of its second and earlier, before those of later seconds (the
// console was not on screen while the simulation passed it).
func (c *Console) insert(e ConsoleEntry) {
	i := len(c.entries)
	for i > 0 && c.entries[i-1].T > e.T {
		i--
	}
	c.next++
	c.entries = slices.Insert(c.entries, i, e)
	if len(c.entries) > MaxConsoleEntries {
		c.entries = c.entries[len(c.entries)-MaxConsoleEntries:]
	}
}

// atSeconds reads "12s" back as 12 (0 for anything else).
func atSeconds(at string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSuffix(at, "s"), 10, 64)
	return n
}

func stepKey(r sim.StepResult) string { return r.At + " " + r.Action }

func (c *Console) markShown(r sim.StepResult) {
	if c.shown == nil {
		c.shown = map[string]bool{}
	}
	c.shown[stepKey(r)] = true
}

// Refusals are the commands of the log that kubectl or the API server
// refused, oldest first, for the why panel, Events and Selectors
// (Rejections).
func (c *Console) Refusals() []Rejection {
	var out []Rejection
	for _, e := range c.entries {
		if e.OK || e.Error == "" || e.Step || e.Scripted || e.Waiting {
			continue
		}
		out = append(out, Rejection{Key: "console/" + e.Key, T: e.T, At: e.At, Action: "kubectl " + e.Command, Message: e.Error,
			Object: objectOf(e.Error), Console: true})
	}
	return out
}

// Entries is the log, oldest first. The caller must not modify it.
func (c *Console) Entries() []ConsoleEntry { return c.entries }

// Follow brings the entries of commands that wait up to date with s: what
// they have printed by the current second (sim.Progress), and their
// outcome once they ended. A step's entry follows the simulation back and
// forth in time; a console command that only reads stops when the
// simulation goes back. It reports whether an entry changed.
//
// It also logs the scenario's own kubectl, apply and fault steps once each,
// with what they printed, as the simulation runs them ("# the scenario's
// step at 25s"); a new simulation starts over.
func (c *Console) Follow(s *sim.Sim) bool {
	if s == nil {
		return false
	}
	changed := c.followSteps(s)
	for i := range c.entries {
		e := &c.entries[i]
		if !e.ref.Waiting {
			continue
		}
		p := s.Progress(e.ref)
		if p.Output != e.Output || p.Error != e.Error || p.Waiting != e.Waiting || p.OK != e.OK {
			e.Output, e.Error, e.Waiting, e.OK = p.Output, p.Error, p.Waiting, p.OK
			changed = true
		}
	}
	return changed
}

// Browse walks the history from the command line's text, current: dir < 0
// goes to an older command, dir > 0 to a newer one, and past the newest it
// gives back the line typed before browsing began. It reports false when
// there is no history (the line stays as it is).
func (c *Console) Browse(dir int, current string) (line string, ok bool) {
	n := len(c.history)
	if n == 0 {
		return current, false
	}
	if c.pos >= n {
		c.pos, c.draft = n, current
	}
	switch {
	case dir < 0:
		c.pos = max(c.pos-1, 0)
	case dir > 0:
		c.pos = min(c.pos+1, n)
	}
	if c.pos == n {
		return c.draft, true
	}
	return c.history[c.pos], true
}

// MaxCompletionsShown bounds the candidates a completion hint lists.
const MaxCompletionsShown = 30

// Completion is what Tab does to the command line.
type Completion struct {
	// Line is the command line after completion (unchanged when there is
	// nothing to add).
	Line string
	// Hint is shown below the command line: the candidates when there are
	// several, "no completion" when there is none; "" hides it.
	Hint string
}

// CompleteLine completes the last word of line (the empty word after a
// blank) with complete, which returns the candidates for a kubectl command
// line (kubectl.Complete, given "kubectl " + line). One candidate replaces
// the word, followed by a blank; several extend it to their longest common
// prefix and are listed in the hint, at most MaxCompletionsShown of them
// ("… 4 more" counts the rest); none leaves the line and says so.
//
//	"rollout und" → "rollout undo "
//	"get po"      → "get po", hint "pod  pods"
func CompleteLine(line string, complete func(line string) []string) Completion {
	words := complete("kubectl " + line)
	if len(words) == 0 {
		return Completion{Line: line, Hint: "no completion"}
	}
	start := strings.LastIndexAny(line, " \t") + 1
	if len(words) == 1 {
		return Completion{Line: line[:start] + words[0] + " "}
	}
	out := Completion{Line: line}
	if prefix := commonPrefix(words); len(prefix) > len(line)-start {
		out.Line = line[:start] + prefix
	}
	shown := words[:min(len(words), MaxCompletionsShown)]
	out.Hint = strings.Join(shown, "  ")
	if more := len(words) - len(shown); more > 0 {
		out.Hint += "  … " + strconv.Itoa(more) + " more"
	}
	return out
}

// commonPrefix is the longest prefix of every word, in whole characters.
func commonPrefix(words []string) string {
	prefix := words[0]
	for _, w := range words[1:] {
		for !strings.HasPrefix(w, prefix) {
			_, size := utf8.DecodeLastRuneInString(prefix)
			prefix = prefix[:len(prefix)-size]
		}
	}
	return prefix
}

// ConsoleSuggestions are the commands the console offers a new user, about
// the Deployment in focus (Focus), or, without one, how to create one.
func ConsoleSuggestions(s *sim.Sim, focus string) []string {
	out := []string{"get pods -o wide", "get rs"}
	d := Focus(s, focus)
	if d == nil {
		return append(out, "create deployment web --image=nginx:1.27 --replicas=3")
	}
	ref := "deployment/" + d.Name
	n := api.Deref(d.Spec.Replicas, 1)
	return append(out, "rollout status "+ref, "rollout history "+ref, "scale "+ref+" --replicas="+strconv.Itoa(int(n)+2),
		"set env "+ref+" DEMO=1", "rollout undo "+ref, "describe "+ref)
}

// followSteps adds the scenario's steps that ran and are not in the log yet.
func (c *Console) followSteps(s *sim.Sim) bool {
	if c.sim != s {
		c.sim, c.shown = s, nil
	}
	steps := s.Scenario().Steps
	changed := false
	for _, r := range s.StepResults() {
		if r.Expect || r.Index < 0 || r.Index >= len(steps) || steps[r.Index].Added() || c.shown[stepKey(r)] {
			continue
		}
		c.markShown(r)
		cmd := strings.TrimPrefix(r.Action, "kubectl ")
		echo := "$ kubectl " + cmd
		if !strings.HasPrefix(r.Action, "kubectl ") {
			cmd, echo = r.Action, "# "+r.Action
		}
		c.insert(ConsoleEntry{Key: strconv.Itoa(c.next), Command: cmd, Echo: echo + "    # the scenario's step at " + r.At, Output: r.Output,
			Error: r.Error, OK: r.OK, Step: true, Scripted: true, At: r.At, T: atSeconds(r.At), Waiting: r.Waiting, ref: r})
		changed = true
	}
	return changed
}

// Removed logs that the user took a step of theirs out of the scenario
// (the steps log's Remove, Sim.RemoveStep, which returned err), and says
// what the page does next: the share link must drop it.
func (c *Console) Removed(row StepRow, err error) After {
	e := ConsoleEntry{Key: strconv.Itoa(c.next), Command: row.Action, Echo: "# removed your step at " + row.At + ": " + row.Action,
		Output: "The timeline is computed again without it.", OK: true, At: row.At, T: row.T}
	if err != nil {
		e.Echo, e.Output, e.Error, e.OK = "# remove the step at "+row.At+": "+row.Action, "", err.Error(), false
	}
	c.add(e)
	return After{Share: err == nil}
}
