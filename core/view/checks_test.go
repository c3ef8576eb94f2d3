package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
)

func TestChecksTurnFromPendingToPassedOrFailed(t *testing.T) {
	t.Parallel()
	s := at(t, history, 75)
	cs := Checks(s)
	require.Len(t, cs, 3)
	assert.Equal(t, Check{Key: "4", At: "1m15s", T: 75, Text: "deployment/web .spec.replicas == 3", State: "passed", Got: "got 3"}, cs[0])
	assert.Equal(t, "pending", cs[1].State)
	assert.Equal(t, "pending", cs[2].State)
	s.SeekTo(100)
	cs = Checks(s)
	assert.Equal(t, "passed", cs[0].State)
	assert.Equal(t, "failed", cs[1].State)
	assert.Equal(t, "got 3", cs[1].Got)
	assert.Equal(t, "passed", cs[2].State)
	s.SeekTo(10)
	for _, c := range Checks(s) {
		assert.Equal(t, "pending", c.State, "a backward seek forgets outcomes")
	}
	assert.Empty(t, Checks(load(t, rolling)))
}

func TestIntroFallsBackToTheName(t *testing.T) {
	t.Parallel()
	assert.Equal(t, Intro{Name: "rolling", Title: "Rolling", Description: "Ten pods roll."}, IntroOf(load(t, rolling)))
	assert.Equal(t, Intro{Name: "history", Title: "history"}, IntroOf(load(t, history)))
}

func TestReflowJoinsTheLinesOfAParagraph(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"one paragraph", "A Deployment asks\nfor 3 replicas.\n", "A Deployment asks for 3 replicas."},
		{"two paragraphs", "One\ntwo.\n\n\nThree\nfour.", "One two.\n\nThree four."},
		{"a list", "Watch:\n- the surge\n- the budget\n1. first\n  indented", "Watch:\n- the surge\n- the budget\n1. first\n  indented"},
		{"trailing blanks", "a  \nb\t\n", "a b"},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Reflow(tc.in))
		})
	}
}

func TestAFailedCheckNamesTheConsoleStepBeforeIt(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "basic-loop"))
	s.SeekTo(10)
	r := s.Run("scale deployment/web --replicas=6")
	require.True(t, r.OK, r.Error)
	s.SeekTo(30)
	var failed []Check
	for _, c := range Checks(s) {
		if c.State == "failed" {
			failed = append(failed, c)
		}
		if c.State == "passed" {
			assert.Empty(t, c.After, "a check that holds needs no hint")
		}
	}
	require.NotEmpty(t, failed, "the scale breaks the scenario's checks")
	for _, c := range failed {
		if c.T > 11 {
			assert.Equal(t, "after your step at 11s: kubectl scale deployment/web --replicas=6", c.After, c.Text)
		}
	}
	// Without a step of the user's, a failed check names none.
	s = at(t, history, 100)
	for _, c := range Checks(s) {
		assert.Empty(t, c.After)
	}
}
