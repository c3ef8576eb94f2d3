package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEventsListEventsAndStepsNewestFirst(t *testing.T) {
	t.Parallel()
	s := at(t, rolling, 20)
	all := Events(s, EventFilter{})
	require.NotEmpty(t, all.Rows)
	assert.Equal(t, all.Total, all.Matched)
	for i := 1; i < len(all.Rows); i++ {
		assert.GreaterOrEqual(t, all.Rows[i-1].T, all.Rows[i].T, "newest first")
	}
	keys := map[string]bool{}
	for _, r := range all.Rows {
		assert.False(t, keys[r.Key], "duplicate key %s", r.Key)
		keys[r.Key] = true
		assert.LessOrEqual(t, r.T, int64(20))
		assert.GreaterOrEqual(t, r.Count, int32(1))
	}

	steps := Events(s, EventFilter{Type: RowStep})
	require.Len(t, steps.Rows, 3, "the set image and the two objects applied at t=0")
	assert.Equal(t, EventRow{Key: "step/10/0", T: 10, At: "10s", Ago: "10s ago", Type: RowStep, Reason: "kubectl",
		Object: "scenario", Message: "set image deployment/web web=web:2", Count: 1, Source: "scenario"}, steps.Rows[0])

	scaled := Events(s, EventFilter{Text: "scaled UP replica set"})
	require.NotEmpty(t, scaled.Rows)
	for _, r := range scaled.Rows {
		assert.Equal(t, "ScalingReplicaSet", r.Reason)
		assert.Equal(t, "deployment/web", r.Object)
		assert.Equal(t, "deployment-controller", r.Source)
		assert.Equal(t, "Normal", r.Type)
	}
	assert.Empty(t, Events(s, EventFilter{Type: "Warning"}).Rows)
	none := Events(s, EventFilter{Text: "no such text"})
	assert.Zero(t, none.Matched)
	assert.Equal(t, all.Total, none.Total)
}

func TestEventsWarningsAndTheRowCap(t *testing.T) {
	t.Parallel()
	s := at(t, stuckScn, 40)
	w := Events(s, EventFilter{Type: "Warning"})
	require.NotEmpty(t, w.Rows)
	var pull bool
	for _, r := range w.Rows {
		assert.Equal(t, "Warning", r.Type)
		if r.Reason == "Failed" || r.Reason == "BackOff" {
			pull = true
		}
	}
	assert.True(t, pull, "%v", w.Rows)

	big := at(t, `name: big
cluster:
  nodes: [{name: n, cpu: "64", memory: 64Gi, pods: 500}]
objects:
`+deploymentDoc("120", "web:1"), 10)
	l := Events(big, EventFilter{})
	assert.Len(t, l.Rows, MaxEventRows)
	assert.Greater(t, l.Matched, MaxEventRows)
}

func TestEventsFailedStepsFilterAsSteps(t *testing.T) {
	t.Parallel()
	s := at(t, `name: failing
objects:
`+deploymentDoc("1", "web:1")+`steps:
- at: 2s
  kubectl: scale deployment/nope --replicas=2
`, 3)
	l := Events(s, EventFilter{Type: RowStep, Text: "nope"})
	require.Len(t, l.Rows, 1)
	assert.Equal(t, RowFailedStep, l.Rows[0].Type)
	assert.Equal(t, "1s ago", l.Rows[0].Ago)
}
