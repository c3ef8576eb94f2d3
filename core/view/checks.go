package view

import (
	"strconv"
	"time"

	"converge/core/scenario"
	"converge/core/sim"
)

// Check is one expect step of the scenario, as the checks list shows it.
type Check struct {
	// Key is the step's index in the scenario.
	Key string
	At  string
	// T is the second the check runs at (the scrubber seeks there).
	T    int64
	Text string
	// State is "pending" (its second has not come), "passed" or "failed".
	State string
	// Got is what the check found ("got 3") once it ran.
	Got string
	// After names the step added at run time (a console command) that
	// came last before a failed check, which the scenario's author did not
	// plan for: "after your step at 11s: kubectl scale deployment/web
	// --replicas=6". "" when no such step ran before it.
	After string
}

// Checks lists the scenario's expect steps in order with their outcome at
// the current second.
func Checks(s *sim.Sim) []Check {
	done := map[int]sim.StepResult{}
	for _, r := range s.Expectations() {
		done[r.Index] = r
	}
	var out []Check
	for i, st := range s.Scenario().Steps {
		if st.Expect == nil {
			continue
		}
		t := int64(st.At / time.Second)
		c := Check{Key: strconv.Itoa(i), At: secondsText(t), T: t, Text: st.Expect.String(), State: "pending"}
		if r, ok := done[i]; ok && t <= s.T() {
			c.State, c.Got = "failed", r.Output
			if r.OK {
				c.State = "passed"
			}
			if r.Error != "" && !r.OK {
				c.Got = r.Error
			}
			if !r.OK {
				c.After = addedBefore(s.Scenario().Steps[:i])
			}
		}
		out = append(out, c)
	}
	return out
}

// addedBefore names the last step added at run time among steps.
func addedBefore(steps []scenario.Step) string {
	for i := len(steps) - 1; i >= 0; i-- {
		if st := steps[i]; st.Added() {
			return "after your step at " + strconv.FormatInt(int64(st.At/time.Second), 10) + "s: " + st.Action()
		}
	}
	return ""
}
