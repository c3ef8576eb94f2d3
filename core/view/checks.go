package view

import (
	"strconv"
	"time"

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
		}
		out = append(out, c)
	}
	return out
}
