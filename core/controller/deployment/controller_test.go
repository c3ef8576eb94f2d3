package deployment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
)

func TestControllerContract(t *testing.T) {
	t.Parallel()
	c := New()
	assert.Equal(t, "deployment-controller", c.Name())
	clone, ok := c.Clone().(*Controller)
	require.True(t, ok)
	assert.NotSame(t, c, clone, "the clone has its own work queue")
	assert.NotSame(t, c.queue, clone.queue)
	var _ controller.Controller = c
}

// orphanRS is a ReplicaSet with no controller, labelled labels.
func orphanRS(name string, labels map[string]string, replicas int32) *api.ReplicaSet {
	return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: api.NamespaceDefault, Labels: labels},
		Spec: api.ReplicaSetSpec{Replicas: api.Int32(replicas), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "x", Image: "x:1"}}}}}}
}

func TestClaimReplicaSets(t *testing.T) {
	t.Parallel()
	t.Run("adopts a matching orphan", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(1)
		simtest.MustCreate(t, f.store, orphanRS("orphan", map[string]string{"foo": "bar", "x": "1"}, 0))
		ctx := f.sync()
		rs := f.getRS("orphan")
		assert.True(t, api.IsControlledBy(&rs.ObjectMeta, d.UID))
		assert.Contains(t, ctx.Log.Records[0].Action, "adopt replica set orphan")
	})
	t.Run("ignores an orphan that does not match", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.deployment(1)
		simtest.MustCreate(t, f.store, orphanRS("stranger", map[string]string{"foo": "baz"}, 0))
		f.sync()
		assert.Empty(t, f.getRS("stranger").OwnerReferences)
	})
	t.Run("never touches a ReplicaSet controlled by someone else", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.deployment(1)
		rs := orphanRS("taken", map[string]string{"foo": "bar"}, 2)
		rs.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "other", UID: "other-uid", Controller: api.Bool(true)}}
		simtest.MustCreate(t, f.store, rs)
		f.sync()
		got := f.getRS("taken")
		assert.Equal(t, "other-uid", got.OwnerReferences[0].UID)
		assert.Equal(t, int32(2), specOf(got))
	})
	t.Run("releases an owned ReplicaSet that no longer matches", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(1)
		old := f.rs(d, rsSpec{name: "relabelled", image: "foo:1", replicas: 1})
		f.updateRS(old.Name, func(rs *api.ReplicaSet) {
			rs.Labels = map[string]string{"foo": "other"}
			rs.OwnerReferences = append(rs.OwnerReferences, api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "keep", UID: "keep-uid"})
		})
		ctx := f.sync()
		got := f.getRS("relabelled")
		require.Len(t, got.OwnerReferences, 1, "only our reference is removed")
		assert.Equal(t, "keep-uid", got.OwnerReferences[0].UID)
		assert.Contains(t, ctx.Log.Records[0].Action, "release replica set relabelled (its labels no longer match the selector)")
		assert.Equal(t, int32(1), specOf(got), "a released RS keeps running")
	})
	t.Run("a Deployment being deleted neither adopts nor releases, and only updates status", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(3)
		simtest.MustCreate(t, f.store, orphanRS("orphan", map[string]string{"foo": "bar", "x": "1"}, 0))
		mine := f.rs(d, rsSpec{image: "foo:1", replicas: 3, status: 3, available: 3})
		f.updateRS(mine.Name, func(rs *api.ReplicaSet) { rs.Labels = map[string]string{"foo": "other"} })
		f.rs(d, rsSpec{name: "current", replicas: 1, status: 1, available: 1, revision: "2"})
		s := f.syncer("foo")
		s.d.DeletionTimestamp = api.NewTimePtr(f.now())
		require.NoError(t, s.syncDeployment())
		assert.Empty(t, f.getRS("orphan").OwnerReferences)
		assert.True(t, api.IsControlledBy(&f.getRS(mine.Name).ObjectMeta, d.UID))
		assert.Equal(t, int32(1), specOf(f.getRS("current")), "no scaling")
		assert.Equal(t, int32(1), f.getD("foo").Status.AvailableReplicas)
		assert.Empty(t, s.actions)
		assert.Equal(t, "set revision 2 on deployment foo", s.record(nil).Action)
		again := f.syncer("foo")
		again.d.DeletionTimestamp = api.NewTimePtr(f.now())
		require.NoError(t, again.syncDeployment())
		assert.Equal(t, "deployment is being deleted", again.record(nil).Waiting)
	})
}

func TestSelectingAll(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.deployment(1)
	f.update("foo", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(2) }) // generation 2
	s := f.syncer("foo")
	s.d.Spec.Selector = &api.LabelSelector{}
	require.NoError(t, s.syncDeployment())
	require.Len(t, s.ctx.Emitted, 1)
	e := s.ctx.Emitted[0]
	assert.Equal(t, []string{EventWarning, SelectingAllReason, "This deployment is selecting all pods. A non-empty selector is required."},
		[]string{e.Type, e.Reason, e.Message})
	assert.Equal(t, int64(2), f.getD("foo").Status.ObservedGeneration)
	assert.Empty(t, f.store.ReplicaSets(), "nothing else happens")
	r := s.record(nil)
	assert.Nil(t, r.Rollout)
	assert.Equal(t, "selector is empty: a non-empty selector is required", r.Waiting)

	again := f.syncer("foo")
	again.d.Spec.Selector = &api.LabelSelector{}
	before := f.store.Writes()
	require.NoError(t, again.syncDeployment())
	assert.Empty(t, again.ctx.Emitted, "warned once per generation")
	assert.Equal(t, before, f.store.Writes())
}

func TestUnexpectedStrategy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.deployment(1)
	s := f.syncer("foo")
	s.d.Spec.Strategy = api.DeploymentStrategy{Type: "Foo"}
	err := s.syncDeployment()
	require.EqualError(t, err, "unexpected deployment strategy type: Foo")
	assert.Equal(t, "retrying after error: unexpected deployment strategy type: Foo", s.record(err).Waiting)
}

func TestInvalidSelectorIsAnError(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.deployment(1)
	s := f.syncer("foo")
	s.d.Spec.Selector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}
	err := s.syncDeployment()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "deployment default/foo has invalid label selector")
}

func TestSyncIsIdempotent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		opts  []simtest.DeploymentOption
		setup func(c *cluster)
	}{
		{"settled rolling update", nil, func(c *cluster) {}},
		{"blocked at the surge cap", nil, func(c *cluster) {
			c.newPodsNeverReady = c.hashOf("web", "web:2")
			c.setImage("web", "web:2")
			c.run()
			c.run()
		}},
		{"settled Recreate", []simtest.DeploymentOption{simtest.WithRecreate()}, func(c *cluster) {}},
		{"paused with a pending template", nil, func(c *cluster) {
			c.f.update("web", func(d *api.Deployment) { d.Spec.Paused = true })
			c.setImage("web", "web:2")
			c.run()
		}},
		{"minReadySeconds wait", []simtest.DeploymentOption{simtest.WithMinReadySeconds(30)}, func(c *cluster) {
			c.setImage("web", "web:2")
			c.run()
			c.run()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := settled(t, 3, 1, tc.opts...)
			c.rounds = 8
			tc.setup(c)
			ctx := c.f.context()
			c.ctrl.Sync(ctx) // settle whatever the last step left
			before := c.f.store.Writes()
			ctx = c.f.context()
			c.ctrl.Sync(ctx)
			assert.Equal(t, before, c.f.store.Writes(), "a pass with nothing to change writes nothing")
			assert.Empty(t, ctx.Emitted)
			require.Len(t, ctx.Log.Records, 1)
			assert.Empty(t, ctx.Log.Records[0].Action)
		})
	}
}

func TestSyncOrderAndOneRecordPerDeployment(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, n := range []string{"zeta", "alpha", "mid"} {
		simtest.MustCreate(t, f.store, simtest.NewDeployment(n, 1, n+":1"))
	}
	ctx := f.sync()
	var objs []string
	for _, r := range ctx.Log.Records {
		objs = append(objs, r.Object)
		assert.Equal(t, Component, r.Controller)
	}
	assert.Equal(t, []string{"deployment/zeta", "deployment/alpha", "deployment/mid"}, objs, "creation order")
}

func TestTwoDeploymentsWithOverlappingSelectors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := &cluster{f: f, t: t, ctrl: New(), readyAfter: 1, rounds: 8, neverReady: map[string]bool{}}
	a := simtest.MustCreate(t, f.store, simtest.NewDeployment("a", 2, "img:1", simtest.WithDeploymentLabels(map[string]string{"app": "x"})))
	b := simtest.MustCreate(t, f.store, simtest.NewDeployment("b", 3, "img:1", simtest.WithDeploymentLabels(map[string]string{"app": "x"})))
	c.runUntil(10, func() bool { return c.complete("a") && c.complete("b") })
	for _, rs := range f.store.ReplicaSets() {
		ref := api.GetControllerOf(&rs.ObjectMeta)
		require.NotNil(t, ref)
		assert.Contains(t, []string{a.UID, b.UID}, ref.UID)
	}
	assert.Equal(t, int32(2), f.getD("a").Status.AvailableReplicas)
	assert.Equal(t, int32(3), f.getD("b").Status.AvailableReplicas)
}
