package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
)

const immutableText = `The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"frontend"}}: field is immutable`

func TestRejectionsShowTheRefusalAtItsSecond(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, scenario string
		t              int64
		object, msg    string
		selector       string
	}{
		{"an immutable selector", "selector-immutable", 20, "deployment/web", immutableText, "app=web,tier=frontend"},
		{"a template that does not match its selector", "selector-mismatch", 5, "deployment/api",
			"The Deployment \"api\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api-v2\"}: `selector` does not match template `labels`", "app=api"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simrun.New(t, simrun.Builtin(t, tc.scenario))
			s.SeekTo(tc.t - 1)
			assert.Empty(t, Rejections(s, nil), "nothing refused yet")
			s.SeekTo(tc.t)
			rs := Rejections(s, nil)
			require.Len(t, rs, 1)
			r := rs[0]
			assert.Equal(t, tc.msg, r.Message)
			assert.Equal(t, tc.object, r.Object)
			assert.True(t, r.Expected)
			assert.Equal(t, tc.selector, r.Selector)

			// Events: a Warning row with the text.
			var warn *EventRow
			for _, row := range Events(s, EventFilter{Type: "Warning"}).Rows {
				if row.Reason == ReasonRejected {
					warn = &row
					break
				}
			}
			require.NotNil(t, warn)
			assert.Equal(t, tc.object, warn.Object)
			assert.Contains(t, warn.Message, tc.msg)
			assert.Equal(t, "kube-apiserver", warn.Source)

			// Selectors: the refused selector is marked, on the row of an
			// object that exists, alone for one whose create was refused.
			o := OwnershipOf(s)
			o.MarkRejected(rs)
			require.Len(t, o.Rejected, 1)
			for _, row := range o.Selectors {
				if row.Key == tc.object {
					assert.Equal(t, tc.msg, row.Rejected)
				}
			}

			s.SeekTo(tc.t + 1)
			assert.Empty(t, Rejections(s, nil), "the next second has moved on")
			assert.Len(t, StepRejections(s), 1, "the log keeps it")
		})
	}
}

func TestConsoleRefusalsAreRejections(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "basic-loop"))
	s.SeekTo(5)
	var c Console
	r := s.Run("scale deployment/nope --replicas=2")
	require.True(t, r.Refused)
	c.Record("scale deployment/nope --replicas=2", r, FromConsole)
	e := c.Entries()[0]
	assert.Contains(t, e.Echo, "# refused at 5s: no step, the clock stays")
	rs := Rejections(s, c.Refusals())
	require.Len(t, rs, 1)
	assert.Equal(t, `Error from server (NotFound): deployments.apps "nope" not found`, rs[0].Message)
	assert.Equal(t, "deployment/nope", rs[0].Object)
	assert.True(t, rs[0].Console)
	rows := EventsWith(s, EventFilter{Text: "nope"}, c.Refusals()).Rows
	require.Len(t, rows, 1)
	assert.Equal(t, "Warning", rows[0].Type)
	s.SeekTo(6)
	assert.Empty(t, Rejections(s, c.Refusals()))
}

func TestStepLogListsEveryStepAsConvergeRunPrintsIt(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "selector-immutable"))
	s.SeekTo(10)
	log := StepLog(s)
	require.Len(t, log, len(s.Scenario().Steps))
	for _, row := range log {
		assert.Equal(t, "pending", row.State)
		assert.Equal(t, "·", row.Mark)
	}
	s.SeekTo(21)
	log = StepLog(s)
	assert.Equal(t, "rejected", log[0].State, "refused as expectError said")
	assert.Equal(t, "$", log[0].Mark)
	assert.Equal(t, immutableText, log[0].Error)
	assert.Equal(t, "passed", log[1].State)
	assert.Equal(t, "✓", log[1].Mark)
	assert.True(t, log[1].Now)

	// A console step is listed as added; a refused command is not listed.
	before := len(log)
	r := s.Run("scale deployment/web --replicas=-1")
	require.True(t, r.Refused)
	assert.Len(t, StepLog(s), before)
	r = s.Run("scale deployment/web --replicas=4")
	require.True(t, r.OK, r.Error)
	log = StepLog(s)
	require.Len(t, log, before+1)
	added := log[r.Index]
	assert.True(t, added.Added)
	assert.Equal(t, "ok", added.State)
	assert.Equal(t, "deployment.apps/web scaled", added.Output)
}

func TestConsoleFollowsTheScenariosSteps(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "selector-mismatch"))
	var c Console
	s.SeekTo(4)
	c.Follow(s)
	assert.Empty(t, c.Entries())
	s.SeekTo(6)
	assert.True(t, c.Follow(s))
	es := c.Entries()
	require.Len(t, es, 2)
	assert.Equal(t, "# apply deployment/api    # the scenario's step at 5s", es[0].Echo)
	assert.Contains(t, es[0].Error, "`selector` does not match template `labels`")
	assert.Equal(t, "$ kubectl get deployments    # the scenario's step at 6s", es[1].Echo)
	assert.Contains(t, es[1].Error+es[1].Output, "No resources found")
	s.SeekTo(3)
	s.SeekTo(6)
	c.Follow(s)
	assert.Len(t, c.Entries(), 2, "each step is logged once")
}

func TestConsoleLogsScenarioStepsInTimeOrder(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "selector-mismatch"))
	var c Console
	s.SeekTo(8)
	c.Record("get pods", s.Run("get pods"), FromConsole)
	c.Follow(s) // the console comes on screen after the steps at 5s and 6s ran
	es := c.Entries()
	require.Len(t, es, 3)
	assert.Contains(t, es[0].Echo, "step at 5s")
	assert.Contains(t, es[1].Echo, "step at 6s")
	assert.Equal(t, "$ kubectl get pods", es[2].Echo)
}
