package sim

import (
	"fmt"
	"strings"

	"converge/core/kubectl"
	"converge/core/scenario"
)

// This file runs the commands that wait: kubectl's `rollout status`,
// `wait` and `drain` return a continuation (kubectl.Waiter) instead of
// blocking on a watch. A step that does is a waiting step: it prints what
// kubectl prints at once in its own second, and from then on the engine
// polls its Waiter once a second, after the control-plane round (so it
// sees what the controllers did in that second), until it is done. Later
// steps keep their own times: the waiting step runs alongside them. Each
// second in which it printed something, or ended, the trace's steps list
// has a result for it (its at and action, the output of that second,
// waiting: true until the last); its expectError is checked against the
// error it ends with. What a waiting step printed so far is kept by step
// index (Progress), and a checkpoint keeps the waiters with the state.

// waiting is a waiting step still running.
type waiting struct {
	index       int
	at, action  string
	expectError string
	w           kubectl.Waiter
}

// startWait makes step i, whose command returned w, a waiting step; r is
// its first result.
func (s *Sim) startWait(st *state, i int, step *scenario.Step, w kubectl.Waiter, r *StepResult) {
	r.OK, r.Waiting = true, true
	st.waits = append(st.waits, &waiting{index: i, at: r.At, action: r.Action, expectError: step.ExpectError, w: w})
	st.progress[i] = *r
}

// pollWaits polls the waiting steps and returns the results of those that
// printed something or ended. A step that started in this very second gets
// no second result: what it printed is added to the one in steps.
func (s *Sim) pollWaits(st *state, steps []StepResult) []StepResult {
	if len(st.waits) == 0 {
		return nil
	}
	env := s.env(st)
	var out []StepResult
	kept := st.waits[:0]
	for _, w := range st.waits {
		p := w.w.Poll(env)
		if p.Done {
			w.w = nil
		} else {
			kept = append(kept, w)
		}
		if p.Output == "" && !p.Done {
			continue
		}
		r := StepResult{At: w.at, Action: w.action, Output: p.Output, Index: w.index, Waiting: !p.Done, OK: true}
		if p.Done {
			r.Error = p.Error
			r.OK = checkExpectError(kubectl.Result{Error: p.Error}, w.expectError, &r)
		}
		st.progress[w.index] = accumulate(st.progress[w.index], r)
		if i := startedIn(steps, w.index); i >= 0 {
			steps[i] = st.progress[w.index]
			continue
		}
		out = append(out, r)
	}
	clear(st.waits[len(kept):])
	st.waits = kept
	return out
}

// startedIn returns the position in steps of step index's result, -1 when
// it did not run in this second.
func startedIn(steps []StepResult, index int) int {
	for i := range steps {
		if steps[i].Index == index {
			return i
		}
	}
	return -1
}

// accumulate adds a later result of a waiting command to what it printed
// before.
func accumulate(sofar, r StepResult) StepResult {
	out := r
	out.Output = joinLines(sofar.Output, r.Output)
	return out
}

func joinLines(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// Progress returns everything a waiting command has printed so far, with
// its outcome once it ended (Waiting false): for a step (r.Index ≥ 0) as of
// the current second, for a command run from the console that only reads
// (r.Follow) since it was run. Any other result is returned as it is.
func (s *Sim) Progress(r StepResult) StepResult {
	if r.Index >= 0 {
		if p, ok := s.state.progress[r.Index]; ok {
			return p
		}
		return r
	}
	for _, c := range s.console {
		if c.id == r.Follow && r.Follow != 0 {
			return c.result
		}
	}
	return r
}

// Unfinished returns, for each waiting step still running, the result it
// would have if the run stopped now: still waiting, and not holding when it
// expected an error (it never ended with one).
func (s *Sim) Unfinished() []StepResult {
	var out []StepResult
	for _, w := range s.state.waits {
		r := StepResult{At: w.at, Action: w.action, Index: w.index, Waiting: true, OK: w.expectError == ""}
		if !r.OK {
			r.Error = fmt.Sprintf("expected an error containing %q, but the command was still waiting at %ds", w.expectError, s.state.t)
		}
		out = append(out, r)
	}
	return out
}

// consoleWait is a waiting command run from the console that only reads.
type consoleWait struct {
	id     int
	w      kubectl.Waiter
	result StepResult
}

// MaxConsoleWaits bounds the console's waiting commands; the oldest one
// stops when another would make more.
const MaxConsoleWaits = 16

func (s *Sim) watchFromConsole(w kubectl.Waiter, r *StepResult) {
	s.nextConsole++
	r.Waiting, r.Follow = true, s.nextConsole
	s.console = append(s.console, &consoleWait{id: s.nextConsole, w: w, result: *r})
	if n := s.running(); n > MaxConsoleWaits {
		for _, c := range s.console {
			if c.w != nil {
				c.w, c.result.Waiting = nil, false
				break
			}
		}
	}
}

func (s *Sim) running() int {
	n := 0
	for _, c := range s.console {
		if c.w != nil {
			n++
		}
	}
	return n
}

// pollConsole polls the console's waiting commands; those that ended keep
// their result for Progress until there are too many.
func (s *Sim) pollConsole(st *state) {
	if len(s.console) == 0 {
		return
	}
	env := s.env(st)
	for _, c := range s.console {
		if c.w == nil {
			continue
		}
		p := c.w.Poll(env)
		c.result.Output = joinLines(c.result.Output, p.Output)
		if p.Done {
			c.w = nil
			c.result.Waiting = false
			c.result.Error = p.Error
			c.result.OK = p.Error == ""
		}
	}
	if len(s.console) > 4*MaxConsoleWaits {
		s.console = s.console[len(s.console)-2*MaxConsoleWaits:]
	}
}

// stopConsole stops the console's waiting commands (going back in time is
// kubectl interrupted): they keep what they printed.
func (s *Sim) stopConsole() {
	for _, c := range s.console {
		if c.w != nil {
			c.w, c.result.Waiting = nil, false
			c.result.Output = strings.TrimRight(c.result.Output, "\n")
		}
	}
}

// untilNextCommand is a console command that runs until the next one, as
// kubectl get -w runs until Ctrl+C.
type untilNextCommand interface{ UntilNextCommand() bool }

// endWatches ends the console's commands that run until the next command.
func (s *Sim) endWatches() {
	for _, c := range s.console {
		if u, ok := c.w.(untilNextCommand); ok && u.UntilNextCommand() {
			c.w, c.result.Waiting = nil, false
		}
	}
}
