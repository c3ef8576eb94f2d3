package deployment

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// Where an upstream fixture uses maxSurge 0 with maxUnavailable 0 (which
// validation forbids), these tests use "1%": on these sizes it rounds down
// to 0 and the both-zero rule makes it 1, exactly what the upstream 0/0
// resolves to.

func TestReconcileNewReplicaSet(t *testing.T) {
	t.Parallel()
	// TestDeploymentController_reconcileNewReplicaSet rows: maxUnavailable 0, allRSs = [newRS, oldRS].
	tests := []struct {
		deploymentReplicas int32
		maxSurge           string
		oldReplicas        int32
		newReplicas        int32
		scaleExpected      bool
		expectedNew        int32
	}{
		{10, "0", 10, 0, false, 0},
		{10, "2", 10, 0, true, 2},
		{10, "2", 5, 0, true, 7},
		{10, "2", 10, 2, false, 2},
		{10, "2", 2, 11, true, 10},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d replicas, surge %s, old %d, new %d", tc.deploymentReplicas, tc.maxSurge, tc.oldReplicas, tc.newReplicas), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			unavailable := "0"
			if tc.maxSurge == "0" {
				unavailable = "1%"
			}
			d := f.deployment(tc.deploymentReplicas, rolling(tc.maxSurge, unavailable))
			oldRS := f.rs(d, rsSpec{name: "foo-old", image: "foo:1", replicas: tc.oldReplicas})
			newRS := f.rs(d, rsSpec{name: "foo-new", replicas: tc.newReplicas})
			s := f.syncer("foo")
			scaled, err := s.reconcileNewReplicaSet([]*api.ReplicaSet{newRS, oldRS}, newRS)
			require.NoError(t, err)
			assert.Equal(t, tc.scaleExpected, scaled)
			assert.Equal(t, tc.expectedNew, specOf(f.getRS("foo-new")))
			assert.Equal(t, tc.oldReplicas, specOf(f.getRS("foo-old")), "the old RS is not touched")
		})
	}
}

func TestReconcileOldReplicaSets(t *testing.T) {
	t.Parallel()
	// TestDeploymentController_reconcileOldReplicaSets rows: maxSurge 0; ready pods as status.availableReplicas.
	tests := []struct {
		name               string
		deploymentReplicas int32
		maxUnavailable     string
		oldReplicas        int32
		newReplicas        int32
		readyOld, readyNew int32
		scaleExpected      bool
		expectedOld        int32
	}{
		{"maxUnavailable 0 resolves to 1", 10, "1%", 10, 0, 10, 0, true, 9},
		{"scale down by maxUnavailable", 10, "2", 10, 0, 10, 0, true, 8},
		{"2 unhealthy cleaned up", 10, "2", 10, 0, 8, 0, true, 8},
		{"1 cleaned up and 1 scaled down", 10, "2", 10, 0, 9, 0, true, 8},
		{"unavailable new pods block", 10, "2", 8, 2, 8, 0, false, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(tc.deploymentReplicas, rolling("0", tc.maxUnavailable))
			oldRS := f.rs(d, rsSpec{name: "foo-old", image: "foo:1", replicas: tc.oldReplicas, status: tc.oldReplicas, available: tc.readyOld})
			newRS := f.rs(d, rsSpec{name: "foo-new", replicas: tc.newReplicas, status: tc.newReplicas, available: tc.readyNew})
			s := f.syncer("foo")
			scaled, err := s.reconcileOldReplicaSets([]*api.ReplicaSet{oldRS, newRS}, []*api.ReplicaSet{oldRS}, newRS)
			require.NoError(t, err)
			assert.Equal(t, tc.scaleExpected, scaled)
			assert.Equal(t, tc.expectedOld, specOf(f.getRS("foo-old")))
		})
	}
}

func TestCleanupUnhealthyReplicas(t *testing.T) {
	t.Parallel()
	// TestDeploymentController_cleanupUnhealthyReplicas rows: deployment 10, maxSurge 2, maxUnavailable 2.
	tests := []struct {
		oldReplicas, readyPods, unhealthyPods int32
		maxCleanupCount                       int32
		cleanupCountExpected                  int32
	}{
		{10, 8, 2, 1, 1},
		{10, 8, 2, 3, 2},
		{10, 8, 2, 0, 0},
		{10, 10, 0, 3, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d ready of %d, max %d", tc.readyPods, tc.oldReplicas, tc.maxCleanupCount), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(10, rolling("2", "2"))
			oldRS := f.rs(d, rsSpec{name: "foo-old", image: "foo:1", replicas: tc.oldReplicas, status: tc.oldReplicas, available: tc.readyPods})
			s := f.syncer("foo")
			_, n, err := s.cleanupUnhealthyReplicas([]*api.ReplicaSet{oldRS}, tc.maxCleanupCount)
			require.NoError(t, err)
			assert.Equal(t, tc.cleanupCountExpected, n)
			assert.Equal(t, tc.oldReplicas-tc.cleanupCountExpected, specOf(f.getRS("foo-old")))
		})
	}
	t.Run("oldest first across several old RSs", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(10, rolling("2", "2"))
		f.rs(d, rsSpec{name: "b-newer", image: "foo:1", replicas: 3, status: 3, available: 1})
		f.advance(1)
		f.rs(d, rsSpec{name: "a-newest", image: "foo:0", replicas: 3, status: 3, available: 1})
		old := []*api.ReplicaSet{f.getRS("a-newest"), f.getRS("b-newer")}
		_, n, err := f.syncer("foo").cleanupUnhealthyReplicas(old, 3)
		require.NoError(t, err)
		assert.Equal(t, int32(3), n)
		assert.Equal(t, int32(1), specOf(f.getRS("b-newer")), "the older RS loses its 2 unhealthy replicas first")
		assert.Equal(t, int32(2), specOf(f.getRS("a-newest")))
	})
}

func TestCleanupUnhealthyReplicasStaleStatus(t *testing.T) {
	t.Parallel()
	// rolling.go cleanupUnhealthyReplicas: an old RS whose status says more
	// available pods than its spec gives newReplicasCount > spec, an error;
	// reconcileOldReplicaSets returns (false, nil) on it, so the pass scales
	// nothing more down and the sync does not fail.
	t.Run("one stale old RS", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(10, rolling("2", "2"))
		oldRS := f.rs(d, rsSpec{name: "foo-old", image: "foo:1", replicas: 6, status: 8, available: 8})
		newRS := f.rs(d, rsSpec{name: "foo-new", replicas: 6, status: 6, available: 6})
		s := f.syncer("foo")
		_, n, err := s.cleanupUnhealthyReplicas([]*api.ReplicaSet{oldRS}, 3)
		require.EqualError(t, err, "when cleaning up unhealthy replicas, got invalid request to scale down default/foo-old 6 -> 8")
		assert.Zero(t, n)

		scaled, err := s.reconcileOldReplicaSets([]*api.ReplicaSet{oldRS, newRS}, []*api.ReplicaSet{oldRS}, newRS)
		require.NoError(t, err)
		assert.False(t, scaled)
		assert.Equal(t, int32(6), specOf(f.getRS("foo-old")), "not scaled down, although 14 available > 8")
		assert.Equal(t, "no scale-down in this pass: when cleaning up unhealthy replicas, got invalid request to scale down default/foo-old 6 -> 8", s.waiting)
		assert.Empty(t, s.actions)
	})
	t.Run("an older unhealthy RS keeps its cleanup", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(10, rolling("2", "2"))
		older := f.rs(d, rsSpec{name: "foo-older", image: "foo:0", replicas: 4, status: 4, available: 2})
		f.advance(1)
		stale := f.rs(d, rsSpec{name: "foo-old", image: "foo:1", replicas: 4, status: 5, available: 5})
		newRS := f.rs(d, rsSpec{name: "foo-new", replicas: 4, status: 4, available: 4})
		s := f.syncer("foo")
		scaled, err := s.reconcileOldReplicaSets([]*api.ReplicaSet{older, stale, newRS}, []*api.ReplicaSet{older, stale}, newRS)
		require.NoError(t, err)
		assert.False(t, scaled, "the pass reports no scale-down")
		assert.Equal(t, int32(2), specOf(f.getRS("foo-older")), "its 2 unhealthy replicas went before the error")
		assert.Equal(t, int32(4), specOf(f.getRS("foo-old")))
		assert.Equal(t, []string{"scale down replica set foo-older from 4 to 2"}, s.actions)
	})
	t.Run("the sync goes on to the status", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(10, rolling("2", "2"))
		f.rs(d, rsSpec{name: "foo-old", image: "foo:1", replicas: 6, status: 8, available: 8})
		f.rs(d, rsSpec{name: "foo-new", replicas: 6, status: 6, available: 6})
		c := New()
		ctx := f.context()
		c.Sync(ctx)
		rec := ctx.Log.Records[0]
		assert.Nil(t, rec.Queue, "not a failed sync")
		assert.Equal(t, int32(6), specOf(f.getRS("foo-old")))
		assert.Equal(t, int32(14), f.getD("foo").Status.AvailableReplicas, "status synced")
	})
}

func TestCleanupUnhealthyReplicasStopsAtAStaleStatus(t *testing.T) {
	t.Parallel()
	// An old RS just scaled from 5 to 3 whose status still says 5 available
	// would be "cleaned up" to 5: upstream's cleanupUnhealthyReplicas returns
	// an error ("got invalid request to scale down ... 3 -> 5") and
	// reconcileOldReplicaSets scales nothing more in that pass, not even
	// what scaleDownOldReplicaSetsForRollingUpdate would allow.
	f := newFixture(t)
	d := f.deployment(1, rolling("30%", "1"))
	f.rs(d, rsSpec{name: "older", image: "foo:0", replicas: 3, status: 3, available: 1})
	f.advance(1)
	f.rs(d, rsSpec{name: "stale", image: "foo:1", replicas: 3, status: 5, available: 5})
	f.advance(1)
	newRS := f.rs(d, rsSpec{name: "foo-new", replicas: 0})
	old := []*api.ReplicaSet{f.getRS("older"), f.getRS("stale")}
	s := f.syncer("foo")

	_, n, err := s.cleanupUnhealthyReplicas(old, 10)
	require.EqualError(t, err, "when cleaning up unhealthy replicas, got invalid request to scale down default/stale 3 -> 5")
	assert.Zero(t, n, "as upstream, an error returns no count")
	assert.Equal(t, int32(1), specOf(f.getRS("older")))
	assert.Equal(t, int32(3), specOf(f.getRS("stale")))

	old = []*api.ReplicaSet{f.getRS("older"), f.getRS("stale")}
	scaled, err := s.reconcileOldReplicaSets(append(old, newRS), old, newRS)
	require.NoError(t, err, "the error ends the scale-down, not the pass")
	assert.False(t, scaled)
	assert.Equal(t, int32(1), specOf(f.getRS("older")), "nothing left to clean up in the older RS")
	assert.Equal(t, int32(3), specOf(f.getRS("stale")), "the available pods of the stale RS are not scaled down")
}

func TestScaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	t.Parallel()
	// TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate rows: maxSurge 0, allRSs = oldRSs = [oldRS].
	tests := []struct {
		deploymentReplicas int32
		maxUnavailable     string
		readyPods          int32
		oldReplicas        int32
		scaleExpected      bool
		expectedOld        int32
	}{
		{10, "1%", 10, 10, true, 9},
		{10, "2", 10, 10, true, 8},
		{10, "2", 8, 10, false, 10},
		{10, "2", 10, 0, false, 0},
		{10, "2", 1, 10, false, 10},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d ready, old %d, maxUnavailable %s", tc.readyPods, tc.oldReplicas, tc.maxUnavailable), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(tc.deploymentReplicas, rolling("0", tc.maxUnavailable))
			oldRS := f.rs(d, rsSpec{name: "foo-old", image: "foo:1", replicas: tc.oldReplicas, status: tc.oldReplicas, available: tc.readyPods})
			s := f.syncer("foo")
			n, err := s.scaleDownOldReplicaSetsForRollingUpdate([]*api.ReplicaSet{oldRS}, []*api.ReplicaSet{oldRS})
			require.NoError(t, err)
			assert.Equal(t, tc.scaleExpected, n > 0)
			assert.Equal(t, tc.expectedOld, specOf(f.getRS("foo-old")))
		})
	}
	t.Run("oldest creation first, whatever the revision", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(4, rolling("0", "2"))
		f.rs(d, rsSpec{name: "rolled-back", image: "foo:0", replicas: 2, status: 2, available: 2, revision: "5"})
		f.advance(1)
		f.rs(d, rsSpec{name: "younger", image: "foo:1", replicas: 2, status: 2, available: 2, revision: "4"})
		old := []*api.ReplicaSet{f.getRS("younger"), f.getRS("rolled-back")}
		n, err := f.syncer("foo").scaleDownOldReplicaSetsForRollingUpdate(old, old)
		require.NoError(t, err)
		assert.Equal(t, int32(2), n)
		assert.Equal(t, int32(0), specOf(f.getRS("rolled-back")))
		assert.Equal(t, int32(2), specOf(f.getRS("younger")))
	})
}

func TestStatusAfterScalingCountsTheSizesTheSyncRead(t *testing.T) {
	t.Parallel()
	// rolloutRolling and rolloutRecreate compute status from the ReplicaSets
	// they read at the start of the pass (syncRolloutStatus(allRSs, newRS)
	// with the copies from before the scale), so unavailableReplicas
	// (Σ spec − available) is the one from before the scale.
	tests := []struct {
		name                      string
		strategy                  simtest.DeploymentOption
		oldSpec, oldAvail, newSpc int32
		want                      int32 // unavailableReplicas
		wantNewSpec               int32
		wantOldSpec               int32
	}{
		{"rolling: new RS scaled up 0 -> 1 (after: 1)", rolling("25%", "25%"), 3, 3, 0, 0, 1, 3},
		{"rolling: old RS scaled down 4 -> 2 (after: 0)", rolling("0", "1"), 4, 3, 0, 1, 0, 2},
		{"recreate: old RS scaled down 3 -> 0 (after: 0)", simtest.WithRecreate(), 3, 1, 0, 2, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(3, tc.strategy)
			f.rs(d, rsSpec{name: "foo-old", image: "foo:1", replicas: tc.oldSpec, status: tc.oldSpec, available: tc.oldAvail, revision: "1"})
			f.advance(1)
			f.rs(d, rsSpec{name: "foo-new", replicas: tc.newSpc, revision: "2"})
			f.sync()
			assert.Equal(t, tc.wantNewSpec, specOf(f.getRS("foo-new")))
			assert.Equal(t, tc.wantOldSpec, specOf(f.getRS("foo-old")))
			assert.Equal(t, tc.want, f.getD("foo").Status.UnavailableReplicas)
		})
	}
}
