package view

import (
	"strconv"
	"time"

	"converge/core/sim"
)

// StepRow is one step of the scenario in the Steps log: when it runs, what
// it does and, once it ran, what it printed, as `converge run` prints it
// (docs/cli.md): "$" a command, "!" one that failed, "✓" and "✗" a check
// that held or not.
type StepRow struct {
	// Key is "INDEX AT ACTION": stable while the step is in the scenario.
	Key string `json:"-"`
	// Index is the step's position in the scenario (RemoveStep's argument).
	Index int `json:"index"`
	// T is the second it runs at, At the same as "20s".
	T  int64  `json:"t"`
	At string `json:"at"`
	// Mark is converge run's mark: "$", "!", "✓", "✗", "…" while it waits;
	// "·" for a step whose second has not come.
	Mark   string `json:"mark"`
	Action string `json:"action"`
	// State is "pending", "ok", "failed", "rejected" (refused, as the
	// scenario's expectError said), "waiting", "passed" or "failed-check".
	State  string `json:"state"`
	Output string `json:"output"`
	Error  string `json:"error"`
	// Added is set for a step added at run time (the console), which the
	// log offers to remove; Now for the steps of the current second.
	Added bool `json:"added"`
	Now   bool `json:"now"`
}

// StepLog lists every step of the scenario in order, with the outcome of
// those that ran by the current second.
func StepLog(s *sim.Sim) []StepRow {
	ran := map[int]sim.StepResult{}
	for _, r := range s.StepResults() {
		ran[r.Index] = r
	}
	steps := s.Scenario().Steps
	out := make([]StepRow, 0, len(steps))
	for i, st := range steps {
		t := int64(st.At / time.Second)
		row := StepRow{Key: strconv.Itoa(i) + " " + st.At.String() + " " + st.Action(), Index: i, T: t,
			At: strconv.FormatInt(t, 10) + "s", Mark: "·", Action: st.Action(), State: "pending", Added: st.Added(), Now: t == s.T()}
		if r, ok := ran[i]; ok {
			row.Output, row.Error = r.Output, r.Error
			switch {
			case r.Expect && r.OK:
				row.Mark, row.State, row.Output = "✓", "passed", ""
			case r.Expect:
				row.Mark, row.State, row.Output = "✗", "failed-check", ""
			case r.Waiting:
				row.Mark, row.State = "…", "waiting"
			case !r.OK:
				row.Mark, row.State = "!", "failed"
			case r.Error != "":
				row.Mark, row.State = "$", "rejected"
			default:
				row.Mark, row.State = "$", "ok"
			}
		}
		out = append(out, row)
	}
	return out
}
