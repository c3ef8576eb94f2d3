package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRolloutPutsOldAndNewReplicaSetsSideBySide(t *testing.T) {
	t.Parallel()
	r := RolloutOf(at(t, rolling, 12), "web")
	require.NotNil(t, r)
	assert.Equal(t, "web", r.Deployment)
	assert.Equal(t, "RollingUpdate (maxSurge 25%, maxUnavailable 25%)", r.Strategy)
	assert.Equal(t, "2", r.Revision)
	assert.Equal(t, "10 desired · 13 pods · 5 updated · 8 ready · 8 available", r.Summary)
	require.Len(t, r.Columns, 2)
	old, cur := r.Columns[0], r.Columns[1]
	assert.Equal(t, "old", old.Role)
	assert.Equal(t, int64(1), old.Revision)
	assert.Equal(t, "web:1", old.Image)
	assert.Equal(t, "8 desired · 8 ready · 8 available", old.Counts)
	assert.Len(t, old.Tiles, 8)
	assert.Equal(t, "new", cur.Role)
	assert.Equal(t, int64(2), cur.Revision)
	assert.Equal(t, "web:2", cur.Image)
	assert.Len(t, cur.Tiles, 5)
	for _, tile := range cur.Tiles {
		assert.True(t, tile.New)
		assert.Equal(t, StateContainerCreating, tile.State)
		assert.NotEmpty(t, tile.Key)
		assert.NotEmpty(t, tile.Node)
	}
	for _, tile := range old.Tiles {
		assert.False(t, tile.New)
		assert.Equal(t, StateAvailable, tile.State)
	}
	assert.Nil(t, r.Strays)
	assert.Zero(t, r.Hidden)
}

func TestRolloutGaugesShowBudgetsWithTheirArithmetic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name               string
		src                string
		t                  int64
		surge, unavailable Gauge
	}{
		{"surge cap of 10 replicas", rolling, 12,
			Gauge{Key: "surge", Used: 3, Max: 3, Text: "surge 3 of 3", Math: "maxSurge 25% of 10 = 2.5, rounded up to 3",
				Meaning: "13 pods wanted by the ReplicaSets − 10 desired", Full: true, Blocking: true},
			Gauge{Key: "unavailable", Used: 2, Max: 2, Text: "unavailable 2 of 2", Math: "maxUnavailable 25% of 10 = 2.5, rounded down to 2",
				Meaning: "10 desired − 8 available", Full: true}},
		{"unavailable cap", rolling, 14,
			Gauge{Key: "surge", Used: 3, Max: 3, Text: "surge 3 of 3", Math: "maxSurge 25% of 10 = 2.5, rounded up to 3",
				Meaning: "13 pods wanted by the ReplicaSets − 10 desired", Full: true},
			Gauge{Key: "unavailable", Used: 2, Max: 2, Text: "unavailable 2 of 2", Math: "maxUnavailable 25% of 10 = 2.5, rounded down to 2",
				Meaning: "10 desired − 8 available", Full: true, Blocking: true}},
		{"absolute numbers", unavailScn, 12,
			Gauge{Key: "surge", Used: 0, Max: 0, Text: "surge 0 of 0", Math: "maxSurge 0 (an absolute number)",
				Meaning: "4 pods wanted by the ReplicaSets − 4 desired", Full: true, Blocking: true},
			Gauge{Key: "unavailable", Used: 1, Max: 1, Text: "unavailable 1 of 1", Math: "maxUnavailable 1 (an absolute number)",
				Meaning: "4 desired − 3 available", Full: true}},
		{"the first pods starting, no rollout", rolling, 1,
			Gauge{Key: "surge", Used: 0, Max: 3, Text: "surge 0 of 3", Math: "maxSurge 25% of 10 = 2.5, rounded up to 3",
				Meaning: "10 pods wanted by the ReplicaSets − 10 desired"},
			Gauge{Key: "unavailable", Used: 10, Max: 2, Text: "not available: 10 of 10, no rollout replacing pods", Math: "maxUnavailable 25% of 10 = 2.5, rounded down to 2",
				Meaning: "10 desired − 0 available; no rollout is replacing pods, so this budget is not in play", Idle: true}},
		{"rounding to zero on 3 replicas", stuckScn, 8,
			Gauge{Key: "surge", Used: 1, Max: 1, Text: "surge 1 of 1", Math: "maxSurge 25% of 3 = 0.75, rounded up to 1",
				Meaning: "4 pods wanted by the ReplicaSets − 3 desired", Full: true, Blocking: true, Stuck: true},
			Gauge{Key: "unavailable", Used: 0, Max: 0, Text: "unavailable 0 of 0", Math: "maxUnavailable 25% of 3 = 0.75, rounded down to 0",
				Meaning: "3 desired − 3 available", Full: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := RolloutOf(at(t, tc.src, tc.t), "")
			require.NotNil(t, r)
			require.NotNil(t, r.Surge)
			require.NotNil(t, r.Unavailable)
			assert.Equal(t, tc.surge, *r.Surge)
			assert.Equal(t, tc.unavailable, *r.Unavailable)
		})
	}
}

func TestRolloutRecreateHasNoGauges(t *testing.T) {
	t.Parallel()
	src := `name: recreate
objects:
` + deploymentDoc("2", "web:1", "strategy: {type: Recreate}") + `steps:
- at: 10s
  kubectl: set image deployment/web web=web:2
`
	r := RolloutOf(at(t, src, 10), "")
	require.NotNil(t, r)
	assert.Equal(t, "Recreate", r.Strategy)
	assert.Nil(t, r.Surge)
	assert.Nil(t, r.Unavailable)
	require.Len(t, r.Columns, 1, "Recreate creates the new ReplicaSet once the old pods are gone")
	require.Len(t, r.Columns[0].Tiles, 2)
	for _, tile := range r.Columns[0].Tiles {
		// Shut down cleanly within the second: kubectl says Completed.
		assert.Equal(t, StateCompleted, tile.State, tile.Name)
		assert.Equal(t, "Completed", tile.Status, tile.Name)
	}
}

func TestRolloutHidesEmptyOldReplicaSetsAndShowsStrays(t *testing.T) {
	t.Parallel()
	src := `name: strays
objects:
` + deploymentDoc("2", "web:1") + `- apiVersion: v1
  kind: Pod
  metadata: {name: bare, labels: {app: web}}
  spec:
    containers: [{name: web, image: "web:1"}]
steps:
- at: 10s
  kubectl: set image deployment/web web=web:2
`
	r := RolloutOf(at(t, src, 40), "")
	require.NotNil(t, r)
	require.Len(t, r.Columns, 1, "the old ReplicaSet is at 0 with no pods")
	assert.Equal(t, 1, r.Hidden)
	assert.Equal(t, "new", r.Columns[0].Role)
	require.NotNil(t, r.Strays)
	assert.Equal(t, "strays", r.Strays.Key)
	require.Len(t, r.Strays.Tiles, 1)
	assert.Equal(t, "bare", r.Strays.Tiles[0].Name)
	assert.Equal(t, "1 pod matching the selector app=web", r.Strays.Counts)
}

func TestRolloutWithoutDeployment(t *testing.T) {
	t.Parallel()
	s := load(t, "name: empty\n")
	assert.Nil(t, RolloutOf(s, ""))
	assert.Nil(t, Focus(s, "web"))
}

func TestFocusPicksByNameOrTheFirst(t *testing.T) {
	t.Parallel()
	src := `name: two
objects:
` + deploymentDoc("1", "web:1") + `- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: api}
  spec:
    replicas: 1
    selector: {matchLabels: {app: api}}
    template:
      metadata: {labels: {app: api}}
      spec:
        containers: [{name: api, image: "api:1"}]
`
	s := load(t, src)
	assert.Equal(t, "web", Focus(s, "web").Name)
	assert.Equal(t, "api", Focus(s, "").Name)
	assert.Equal(t, "api", Focus(s, "nope").Name)
}

func TestSecondsText(t *testing.T) {
	t.Parallel()
	for in, want := range map[int64]string{0: "0s", 45: "45s", 60: "1m", 125: "2m5s", 3600: "1h", 3720: "1h2m", 86400: "24h"} {
		assert.Equal(t, want, secondsText(in), "%d", in)
	}
}
