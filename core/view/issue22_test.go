package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/kubectl"
	"converge/core/simtest/simrun"
)

// The numbered problems of what a newcomer saw (docs/page.md, "The page
// tells the truth"), each at its second.

func TestCrashloopTilesAndHeadlineAtEachCrashSecond(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		t      int64
		status string
		state  State
		kind   string
	}{
		{"first crash: Error, not ContainerCreating, and not in sync", 11, "Error", StateError, "waiting"},
		{"second crash", 20, "Error", StateError, "waiting"},
		{"between restarts kubectl still says Error", 30, "Error", StateError, "progressing"},
		{"restarted and ready: Running while the controller has not looked", 31, "Running", StateAvailable, "progressing"},
		{"in back-off", 45, "CrashLoopBackOff", StateCrashLoop, "stuck"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simrun.New(t, simrun.Builtin(t, "crashloop"))
			s.SeekTo(tc.t)
			r := RolloutOf(s, "")
			require.Len(t, r.Columns, 1)
			require.Len(t, r.Columns[0].Tiles, 3)
			for _, tile := range r.Columns[0].Tiles {
				assert.Equal(t, tc.status, tile.Status, tile.Name)
				assert.Equal(t, tc.state, tile.State, tile.Name)
			}
			w := Why(s)[0]
			assert.Equal(t, tc.kind, w.Kind, w.Headline)
			assert.NotContains(t, w.Headline, "In sync")
			assert.NotContains(t, w.Headline, "nothing to do")
		})
	}
}

func TestPacingIsNotFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, scenario string
		t              int64
		kind           string
		stuck          bool
	}{
		{"rolling-update paced by maxSurge: progressing, the gauge neutral", "rolling-update", 22, "progressing", false},
		{"no capacity: stuck, the gauge red", "stuck-no-capacity", 25, "stuck", true},
		{"a bad image: stuck", "stuck-bad-image", 40, "stuck", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simrun.New(t, simrun.Builtin(t, tc.scenario))
			s.SeekTo(tc.t)
			assert.Equal(t, tc.kind, Why(s)[0].Kind)
			r := RolloutOf(s, "")
			require.NotNil(t, r.Surge)
			assert.True(t, r.Surge.Blocking || r.Unavailable.Blocking, "a budget holds the next step")
			assert.Equal(t, tc.stuck, r.Surge.Stuck || r.Unavailable.Stuck)
		})
	}
}

func TestPDBDrainShowsTheBudgetWhileTheDrainWaits(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "pdb-drain"))
	s.SeekTo(15)
	sc := OnScreen(s, nil)
	assert.Contains(t, sc.Waiting, "kubectl drain node-1 --ignore-daemonsets (since 15s) waits")
	assert.Contains(t, sc.Waiting, "poddisruptionbudget/web allows 0 disruptions")
	require.NotNil(t, sc.Budget)
	assert.True(t, sc.Budget.Refusing)
	assert.Equal(t, "poddisruptionbudget/web: minAvailable 3 · 3 healthy of 5 pods (3 must stay healthy) · disruptionsAllowed 0", sc.Budget.Text)
	for _, tile := range RolloutOf(s, "").Columns[0].Tiles {
		if tile.Node == "node-1" && tile.State != StateAvailable {
			assert.Equal(t, "Completed", tile.Status, "a drained pod that shut down: kubectl says Completed")
		}
	}
	for _, sec := range []int64{17, 18, 19, 20} {
		s.SeekTo(sec)
		w := Why(s)[0]
		assert.Equal(t, "waiting", w.Kind, "%ds: %s", sec, w.Headline)
		assert.Contains(t, w.Headline, "Waiting on a drain", "%ds", sec)
	}
	s.SeekTo(23)
	assert.Empty(t, OnScreen(s, nil).Waiting, "the drain is over")
}

func TestManualDriftStaysVisible(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "manual-drift"))
	s.SeekTo(20)
	r := RolloutOf(s, "")
	require.Len(t, r.Columns, 1)
	assert.Len(t, r.Columns[0].Gone, 3, "the pods created and deleted in the second are drawn")
	assert.Len(t, r.Columns[0].Tiles, 3)
	d := Drift(s)
	require.Len(t, d, 1)
	assert.Equal(t, "At 20s the ReplicaSet web-6598877c79 was scaled to 6 by hand (kubectl scale rs -l app=web --replicas=6); "+
		"the Deployment controller (deployment/web) scaled it back to 3 and its 3 extra pods created in that second were deleted in the same second.",
		d[0].Text)
	s.SeekTo(24)
	d = Drift(s)
	require.Len(t, d, 1, "told for a few seconds after")
	assert.Equal(t, "4s ago", d[0].Age)
	assert.Empty(t, RolloutOf(s, "").Columns[0].Gone, "drawn for its own second only")
	s.SeekTo(20 + DriftShowSeconds)
	assert.Empty(t, Drift(s))
}

func TestRefusalStaysOnScreenWithItsAge(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "selector-immutable"))
	for sec := int64(20); sec < 20+RefusalShowSeconds; sec++ {
		s.SeekTo(sec)
		rs := RefusalsOnScreen(s, nil)
		require.Len(t, rs, 1, "%ds", sec)
		assert.Equal(t, ageWords(sec-20), rs[0].Age)
		w := Why(s)[0]
		assert.Equal(t, "refused", w.Kind)
		assert.NotContains(t, w.Headline, "In sync")
	}
	s.SeekTo(20 + RefusalShowSeconds)
	assert.Empty(t, RefusalsOnScreen(s, nil))

	// A later change replaces it: a console refusal at 18s is gone once
	// the step of 20s changes the cluster, before its 5 seconds are over.
	b := simrun.New(t, simrun.Builtin(t, "rolling-update"))
	b.SeekTo(18)
	var c Console
	res := b.Run("scale deployment/nope --replicas=2")
	require.True(t, res.Refused)
	c.Record("scale deployment/nope --replicas=2", res, FromConsole)
	assert.Len(t, RefusalsOnScreen(b, c.Refusals()), 1)
	b.SeekTo(19)
	rs := RefusalsOnScreen(b, c.Refusals())
	require.Len(t, rs, 1)
	assert.Equal(t, "1s ago", rs[0].Age)
	b.SeekTo(20)
	assert.Empty(t, RefusalsOnScreen(b, c.Refusals()), "set image at 20s changed the cluster")
}

func TestTileNamesSayKubectlsWords(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "crashloop"))
	s.SeekTo(20)
	tile := RolloutOf(s, "").Columns[0].Tiles[0]
	p, err := s.Store().GetPod("default", tile.Name)
	require.NoError(t, err)
	assert.Equal(t, kubectl.PodStatus(p), tile.Status)
	assert.Equal(t, "pod "+tile.Name+", Error, 1 restart, on "+tile.Node, tile.AccessibleName())
}

func TestPodPanelDescribesThePodAtThatSecond(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "crashloop"))
	s.SeekTo(20)
	tile := RolloutOf(s, "").Columns[0].Tiles[0]
	p := PodDetails(s, "default", tile.Name)
	require.NotNil(t, p)
	assert.Contains(t, p.Describe, "Name:")
	assert.Contains(t, p.Describe, tile.Name)
	assert.Contains(t, p.Describe, "Restart Count:  1")
	assert.Contains(t, p.YAML, "kind: Pod")
	assert.Contains(t, p.YAML, "reason: Error")
	require.NotEmpty(t, p.Events)
	assert.Equal(t, "pod/"+tile.Name, p.Events[0].Object)
	for i := 1; i < len(p.Events); i++ {
		assert.GreaterOrEqual(t, p.Events[i-1].T, p.Events[i].T, "newest first")
	}
	assert.Equal(t, []string{"pod/" + tile.Name, "replicaset/flaky-67fc4dcc76", "deployment/flaky"}, p.Owners)
	assert.Contains(t, p.Title, ": Error")
	assert.Nil(t, PodDetails(s, "default", "nope"))
}
