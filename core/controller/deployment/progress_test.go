package deployment

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

func TestSetDeploymentCondition(t *testing.T) {
	t.Parallel()
	t0, t1 := api.Epoch, api.Epoch.Add(time.Minute)
	cond := func(typ, status, reason string, at time.Time) api.DeploymentCondition {
		return NewDeploymentCondition(typ, status, reason, reason+" message", at)
	}
	tests := []struct {
		name   string
		before []api.DeploymentCondition
		set    api.DeploymentCondition
		want   []api.DeploymentCondition
	}{
		{"added to an empty list", nil, cond("Available", "True", "A", t1), []api.DeploymentCondition{cond("Available", "True", "A", t1)}},
		{"same status and reason: untouched, times kept",
			[]api.DeploymentCondition{cond("Available", "True", "A", t0)}, cond("Available", "True", "A", t1),
			[]api.DeploymentCondition{cond("Available", "True", "A", t0)}},
		{"same status, new reason: lastTransitionTime kept",
			[]api.DeploymentCondition{cond("Progressing", "True", "A", t0)}, cond("Progressing", "True", "B", t1),
			[]api.DeploymentCondition{{Type: "Progressing", Status: "True", Reason: "B", Message: "B message",
				LastUpdateTime: api.NewTime(t1), LastTransitionTime: api.NewTime(t0)}}},
		{"new status: both times new",
			[]api.DeploymentCondition{cond("Available", "True", "A", t0)}, cond("Available", "False", "B", t1),
			[]api.DeploymentCondition{cond("Available", "False", "B", t1)}},
		{"a replaced condition moves to the end",
			[]api.DeploymentCondition{cond("Progressing", "True", "A", t0), cond("Available", "True", "A", t0)},
			cond("Progressing", "True", "B", t1),
			[]api.DeploymentCondition{cond("Available", "True", "A", t0), {Type: "Progressing", Status: "True", Reason: "B",
				Message: "B message", LastUpdateTime: api.NewTime(t1), LastTransitionTime: api.NewTime(t0)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := api.DeploymentStatus{Conditions: tc.before}
			SetDeploymentCondition(&st, tc.set)
			assert.Equal(t, tc.want, st.Conditions)
		})
	}
	t.Run("remove", func(t *testing.T) {
		t.Parallel()
		st := api.DeploymentStatus{Conditions: []api.DeploymentCondition{cond("Available", "True", "A", t0), cond("Progressing", "True", "A", t0)}}
		RemoveDeploymentCondition(&st, "Available")
		require.Len(t, st.Conditions, 1)
		assert.Equal(t, "Progressing", st.Conditions[0].Type)
		assert.Nil(t, GetDeploymentCondition(&st, "Available"))
	})
}

// TestProgressingConditionTransitions follows the Progressing condition
// through a rollout: NewReplicaSetCreated, then ReplicaSetUpdated with
// lastUpdateTime refreshed on progress and lastTransitionTime kept, then
// NewReplicaSetAvailable, which later passes leave alone.
func TestProgressingConditionTransitions(t *testing.T) {
	t.Parallel()
	c := settled(t, 3, 1)
	created := c.f.now()
	c.setImage("web", "web:2")
	c.run()
	p := GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing)
	assert.Equal(t, NewReplicaSetReason, p.Reason)
	transition := p.LastTransitionTime
	for i := 0; i < 3; i++ {
		c.run()
		p = GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing)
		assert.Equal(t, ReplicaSetUpdatedReason, p.Reason)
		assert.Equal(t, api.ConditionTrue, p.Status)
		assert.True(t, p.LastUpdateTime.Equal(api.NewTime(c.f.now())), "progress refreshes lastUpdateTime")
		assert.True(t, p.LastTransitionTime.Equal(transition), "status stayed True: transition time kept")
	}
	assert.False(t, created.Equal(c.f.now()))
	c.runUntil(10, func() bool {
		return GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing).Reason == NewRSAvailableReason
	})
	done := *GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing)
	c.run()
	c.run()
	assert.Equal(t, done, *GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing), "a settled rollout is not re-estimated")
}

func TestNoProgressDeadlineRemovesProgressing(t *testing.T) {
	t.Parallel()
	c := settled(t, 2, 1)
	require.NotNil(t, GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing))
	c.f.update("web", func(d *api.Deployment) { d.Spec.ProgressDeadlineSeconds = api.Int32(api.NoProgressDeadline) })
	c.run()
	d := c.f.getD("web")
	assert.Nil(t, GetDeploymentCondition(&d.Status, api.DeploymentProgressing))
	assert.NotNil(t, GetDeploymentCondition(&d.Status, api.DeploymentAvailable))
	assert.Equal(t, int64(-1), c.record("web").Rollout.ProgressDeadlineIn)
}

func TestPausedConditions(t *testing.T) {
	t.Parallel()
	t.Run("pause and resume", func(t *testing.T) {
		t.Parallel()
		c := settled(t, 2, 1)
		c.f.update("web", func(d *api.Deployment) { d.Spec.Paused = true })
		c.run()
		p := GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing)
		assert.Equal(t, []string{api.ConditionUnknown, PausedDeployReason, "Deployment is paused"}, []string{p.Status, p.Reason, p.Message})
		assert.Equal(t, int64(-1), c.record("web").Rollout.ProgressDeadlineIn, "no deadline while paused")
		c.f.update("web", func(d *api.Deployment) { d.Spec.Paused = false })
		s := c.f.syncer("web")
		require.NoError(t, s.checkPausedConditions())
		p = GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing)
		assert.Equal(t, []string{api.ConditionUnknown, ResumedDeployReason, "Deployment is resumed"}, []string{p.Status, p.Reason, p.Message})
		c.run()
		p = GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing)
		assert.Equal(t, NewRSAvailableReason, p.Reason, "the complete rollout is re-estimated")
		assert.True(t, p.LastTransitionTime.Equal(api.NewTime(c.f.now())), "Unknown → True is a transition")
	})
	t.Run("ProgressDeadlineExceeded is not overwritten", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.deployment(1)
		s := f.syncer("foo")
		SetDeploymentCondition(&s.d.Status, NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, TimedOutReason, "x", f.now()))
		s.d.Spec.Paused = true
		require.NoError(t, s.checkPausedConditions())
		assert.Equal(t, TimedOutReason, GetDeploymentCondition(&s.d.Status, api.DeploymentProgressing).Reason)
	})
	t.Run("no deadline, no paused condition", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.deployment(1, simtest.WithProgressDeadlineSeconds(api.NoProgressDeadline), simtest.WithPaused())
		s := f.syncer("foo")
		require.NoError(t, s.checkPausedConditions())
		assert.Nil(t, GetDeploymentCondition(&s.d.Status, api.DeploymentProgressing))
	})
}

func TestReplicaFailureCondition(t *testing.T) {
	t.Parallel()
	failure := func(msg string) []api.ReplicaSetCondition {
		return []api.ReplicaSetCondition{{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue, Reason: "FailedCreate",
			Message: msg, LastTransitionTime: api.NewTime(api.Epoch)}}
	}
	tests := []struct {
		name       string
		oldFailure []api.ReplicaSetCondition
		newFailure []api.ReplicaSetCondition
		want       string // "" means no ReplicaFailure condition
	}{
		{"none", nil, nil, ""},
		{"from the old RS", failure("old quota"), nil, "old quota"},
		{"the new RS wins", failure("old quota"), failure("new quota"), "new quota"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(2, rolling("1", "0"))
			old := f.rs(d, rsSpec{name: "old", image: "foo:1", replicas: 1, status: 1, available: 1})
			newRS := f.rs(d, rsSpec{name: "new", replicas: 2, status: 1, available: 1})
			for name, conds := range map[string][]api.ReplicaSetCondition{"old": tc.oldFailure, "new": tc.newFailure} {
				rs := f.getRS(name).DeepCopy()
				rs.Status.Conditions = conds
				_, err := f.store.UpdateStatus(rs)
				require.NoError(t, err)
			}
			s := f.syncer("foo")
			require.NoError(t, s.syncRolloutStatus([]*api.ReplicaSet{f.getRS(old.Name), f.getRS(newRS.Name)}, f.getRS(newRS.Name)))
			c := GetDeploymentCondition(&f.getD("foo").Status, api.DeploymentReplicaFailure)
			if tc.want == "" {
				assert.Nil(t, c)
				return
			}
			require.NotNil(t, c)
			assert.Equal(t, []string{api.ConditionTrue, "FailedCreate", tc.want}, []string{c.Status, c.Reason, c.Message})
			assert.True(t, c.LastUpdateTime.Equal(api.NewTime(api.Epoch)), "both times from the RS condition")
		})
	}
}

func TestProgressDeadlineIn(t *testing.T) {
	t.Parallel()
	d := rollingDeployment(3, "1", "0")
	d.Spec.ProgressDeadlineSeconds = api.Int32(10)
	at := api.Epoch.Add(time.Second)
	st := &api.DeploymentStatus{Conditions: []api.DeploymentCondition{NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason, "", at)}}
	tests := []struct {
		name string
		now  time.Time
		want int64
	}{
		{"just progressed", at, 11},
		{"at the deadline instant", at.Add(10 * time.Second), 1},
		{"past it, before the controller saw it", at.Add(12 * time.Second), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, progressDeadlineIn(d, st, tc.now))
		})
	}
	t.Run("no deadline applies", func(t *testing.T) {
		t.Parallel()
		assert.Equal(t, int64(-1), progressDeadlineIn(d, nil, at))
		assert.Equal(t, int64(-1), progressDeadlineIn(d, &api.DeploymentStatus{}, at))
		timedOut := &api.DeploymentStatus{Conditions: []api.DeploymentCondition{NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, TimedOutReason, "", at)}}
		assert.Equal(t, int64(-1), progressDeadlineIn(d, timedOut, at))
	})
}
