package deployment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
)

func TestFencepostMath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                 string
		maxSurge, maxUnavail *api.IntOrString
		replicas             int32
		surge, unavail       string
	}{
		{"defaults on 10", strPtr("25%"), strPtr("25%"), 10,
			"maxSurge 25% of 10 = 2.5, rounded up to 3", "maxUnavailable 25% of 10 = 2.5, rounded down to 2"},
		{"defaults on 3", strPtr("25%"), strPtr("25%"), 3,
			"maxSurge 25% of 3 = 0.75, rounded up to 1", "maxUnavailable 25% of 3 = 0.75, rounded down to 0"},
		{"absolute numbers", ios("1"), ios("0"), 10, "maxSurge 1 (an absolute number)", "maxUnavailable 0 (an absolute number)"},
		{"an exact percentage", strPtr("20%"), strPtr("50%"), 10, "maxSurge 20% of 10 = 2", "maxUnavailable 50% of 10 = 5"},
		{"both zero", ios("0"), strPtr("10%"), 3, "maxSurge 0 (an absolute number)",
			"maxUnavailable 10% of 3 = 0.3, rounded down to 0; maxSurge 0 and maxUnavailable 0: maxUnavailable becomes 1"},
		{"capped at replicas", ios("1"), ios("5"), 3, "maxSurge 1 (an absolute number)",
			"maxUnavailable 5 (an absolute number), capped at 3 replicas"},
		{"zero replicas", strPtr("25%"), strPtr("25%"), 0, "maxSurge 25% of 0 = 0",
			"maxUnavailable 25% of 0 = 0; maxSurge 0 and maxUnavailable 0: maxUnavailable becomes 1; with 0 replicas it is 0"},
		{"hundredths", strPtr("1%"), strPtr("30%"), 7, "maxSurge 1% of 7 = 0.07, rounded up to 1", "maxUnavailable 30% of 7 = 2.1, rounded down to 2"},
		{"invalid", strPtr("oops"), strPtr("25%"), 10, `maxSurge "oops" is not a number or a percentage`,
			"maxUnavailable 25% of 10 = 2.5, rounded down to 2; an invalid value makes both 0"},
		{"unset", nil, nil, 4, "maxSurge not set: 0",
			"maxUnavailable not set: 0; maxSurge 0 and maxUnavailable 0: maxUnavailable becomes 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, u := FencepostMath(tc.maxSurge, tc.maxUnavail, tc.replicas)
			assert.Equal(t, tc.surge, s)
			assert.Equal(t, tc.unavail, u)
		})
	}
}

func TestHundredths(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{250: "2.5", 75: "0.75", 300: "3", 7: "0.07", 210: "2.1", 0: "0"} {
		assert.Equal(t, want, hundredths(n), "%d", n)
	}
}

func TestRecordOfARollingStep(t *testing.T) {
	t.Parallel()
	c := settled(t, 10, 1)
	c.setImage("web", "web:2")
	c.run()
	r := c.record("web")
	b := c.expand("{B}")
	assert.Equal(t, "create replica set "+b+" with 3 replicas; scale down replica set "+c.expand("{A}")+" from 10 to 8", r.Action)
	assert.Equal(t, "10 replicas of revision 2", r.Desired)
	assert.Equal(t, "10 replicas: 0 updated, 10 available", r.Observed, "what the pass saw")
	assert.Empty(t, r.Waiting)
	assert.False(t, r.InSync)
	require.NotNil(t, r.Rollout)
	assert.Equal(t, controller.RolloutRecord{
		Strategy: api.RollingUpdateDeploymentStrategyType, Replicas: 10,
		MaxSurge: "25%", Surge: 3, SurgeMath: "maxSurge 25% of 10 = 2.5, rounded up to 3",
		MaxUnavailable: "25%", Unavailable: 2, UnavailableMath: "maxUnavailable 25% of 10 = 2.5, rounded down to 2",
		SurgeUsed: 1, UnavailableUsed: 0, NewReplicaSet: b, ProgressDeadlineIn: 601,
	}, *r.Rollout)

	// A pass milliseconds later sees A at 8: 8 + 3 < 13, so B grows to 5.
	ctx := c.f.context()
	c.ctrl.Sync(ctx)
	r = ctx.Log.Records[0]
	assert.Equal(t, "scale up replica set "+b+" from 3 to 5", r.Action)
	assert.Equal(t, "11 replicas: 3 updated, 8 available", r.Observed)
	// Then it is at the cap, waiting for B's pods.
	ctx = c.f.context()
	c.ctrl.Sync(ctx)
	r = ctx.Log.Records[0]
	assert.Equal(t, "at surge cap 13/13: waiting for new pods to become available", r.Waiting)
	assert.Equal(t, BlockingSurge, r.Rollout.Blocking)
	assert.Equal(t, int32(3), r.Rollout.SurgeUsed)
	assert.Equal(t, int32(2), r.Rollout.UnavailableUsed)
}

// syncQuiet syncs until a pass takes no step and returns that pass's record.
func (f *fixture) syncQuiet() controller.SyncRecord {
	f.t.Helper()
	for i := 0; i < 8; i++ {
		ctx := f.sync()
		if r := ctx.Log.Records[0]; r.Action == "" {
			return r
		}
	}
	f.t.Fatal("the controller never settled")
	return controller.SyncRecord{}
}

func TestRecordWaits(t *testing.T) {
	t.Parallel()
	t.Run("unavailable cap", func(t *testing.T) {
		t.Parallel()
		// T1 step 4: B is at 3 with 2 available, A at 1: 4 − 3 − 1 = 0 may go.
		f := newFixture(t)
		d := f.deployment(3, rolling("1", "0"))
		f.rs(d, rsSpec{name: "a", image: "foo:1", replicas: 1, status: 1, available: 1, revision: "1", annotations: replicasAnnotations(3, 4)})
		f.rs(d, rsSpec{name: "b", replicas: 3, status: 3, available: 2, revision: "2", annotations: replicasAnnotations(3, 4)})
		r := f.syncQuiet()
		assert.Equal(t, BlockingUnavailable, r.Rollout.Blocking, r.Waiting)
		assert.Equal(t, "at unavailable cap 0/0: waiting for new pods to become available", r.Waiting)
	})
	t.Run("minReadySeconds", func(t *testing.T) {
		t.Parallel()
		c := settled(t, 3, 1, simtest.WithMinReadySeconds(10))
		c.rounds = 8
		c.setImage("web", "web:2")
		c.run() // B created with 1
		c.run() // B's pod Ready
		c.run()
		r := c.record("web")
		var ready string
		for _, p := range c.pods() {
			if api.IsControlledBy(&p.ObjectMeta, c.rsByImage("web:2").UID) {
				ready = p.Name
			}
		}
		// Ready one second ago: available at lastTransitionTime + 10s, 9s from now.
		assert.Equal(t, "minReadySeconds 10s: 9s left for "+ready, r.Waiting)
	})
	t.Run("old pods to be removed", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(2, rolling("1", "0"))
		f.rs(d, rsSpec{name: "old", image: "foo:1", replicas: 0, status: 1})
		f.rs(d, rsSpec{name: "new", replicas: 2, status: 2, available: 2, annotations: replicasAnnotations(2, 3)})
		r := f.syncQuiet()
		assert.Equal(t, "waiting for 1 old pod to be removed", r.Waiting)
	})
	t.Run("pods not created yet", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(2, rolling("1", "0"))
		f.rs(d, rsSpec{name: "new", replicas: 2, status: 1, available: 1, annotations: replicasAnnotations(2, 3)})
		r := f.syncQuiet()
		assert.Equal(t, "waiting for the replica set controller: 1 of 2 new pods created", r.Waiting)
	})
	t.Run("new pods becoming available", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(2, rolling("1", "0"))
		f.rs(d, rsSpec{name: "new", replicas: 2, status: 2, available: 1, annotations: replicasAnnotations(2, 3)})
		r := f.syncQuiet()
		assert.Equal(t, "waiting for new pods to become available: 1 of 2 available", r.Waiting)
	})
	t.Run("in sync", func(t *testing.T) {
		t.Parallel()
		c := settled(t, 2, 1)
		c.run()
		r := c.record("web")
		assert.True(t, r.InSync)
		assert.Empty(t, r.Waiting)
		assert.Empty(t, r.Action)
		assert.Equal(t, "2 replicas: 2 updated, 2 available", r.Observed)
		assert.Equal(t, "2 replicas of revision 1", r.Desired)
		assert.Equal(t, int64(-1), r.Rollout.ProgressDeadlineIn)
	})
	t.Run("one replica reads in the singular", func(t *testing.T) {
		t.Parallel()
		c := settled(t, 1, 1)
		c.run()
		assert.Equal(t, "1 replica: 1 updated, 1 available", c.record("web").Observed)
	})
}
