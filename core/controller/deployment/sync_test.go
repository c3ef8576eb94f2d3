package deployment

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// scaleRS is one ReplicaSet of a TestScale row: its name (v1 is oldest),
// size, and whether it has the Deployment's current template.
type scaleRS struct {
	name      string
	replicas  int32
	isNew     bool
	available int32
}

func TestScale(t *testing.T) {
	t.Parallel()
	// TestScale rows (pkg/controller/deployment/sync_test.go). The upstream
	// fixture uses maxSurge 0 and maxUnavailable 0; maxUnavailable does not
	// enter scale(), so "1" stands in for the 0 that validation forbids.
	tests := []struct {
		name            string
		oldReplicas     int32
		oldSurge        int32
		replicas        int32
		surge           string
		rss             []scaleRS // oldest first
		desiredOverride map[string]int32
		want            map[string]int32
	}{
		{"normal scaling event: 10 -> 12", 10, 0, 12, "0", []scaleRS{{"v1", 10, true, 0}}, nil, map[string]int32{"v1": 12}},
		{"normal scaling event: 10 -> 5", 10, 0, 5, "0", []scaleRS{{"v1", 10, true, 0}}, nil, map[string]int32{"v1": 5}},
		{"proportional scaling: 5 -> 10", 5, 0, 10, "0", []scaleRS{{"v1", 3, false, 0}, {"v2", 2, true, 0}}, nil,
			map[string]int32{"v2": 4, "v1": 6}},
		{"proportional scaling: 5 -> 3", 5, 0, 3, "0", []scaleRS{{"v1", 3, false, 0}, {"v2", 2, true, 0}}, nil,
			map[string]int32{"v2": 1, "v1": 2}},
		{"proportional scaling: 9 -> 4", 9, 0, 4, "0", []scaleRS{{"v1", 1, false, 0}, {"v2", 8, true, 0}}, nil,
			map[string]int32{"v2": 4, "v1": 0}},
		{"proportional scaling: 7 -> 10", 7, 0, 10, "0", []scaleRS{{"v1", 2, false, 0}, {"v2", 3, false, 0}, {"v3", 2, true, 0}}, nil,
			map[string]int32{"v3": 3, "v2": 4, "v1": 3}},
		{"proportional scaling: 13 -> 8", 13, 0, 8, "0", []scaleRS{{"v1", 3, false, 0}, {"v2", 8, false, 0}, {"v3", 2, true, 0}}, nil,
			map[string]int32{"v3": 1, "v2": 5, "v1": 2}},
		{"leftover distribution: 3 -> 4", 3, 0, 4, "0", []scaleRS{{"v1", 1, false, 0}, {"v2", 1, false, 0}, {"v3", 1, true, 0}}, nil,
			map[string]int32{"v3": 2, "v2": 1, "v1": 1}},
		{"leftover distribution: 3 -> 2", 3, 0, 2, "0", []scaleRS{{"v1", 1, false, 0}, {"v2", 1, false, 0}, {"v3", 1, true, 0}}, nil,
			map[string]int32{"v3": 1, "v2": 1, "v1": 0}},
		{"proportional scaling (no new rs): 4 -> 5", 4, 0, 5, "0", []scaleRS{{"v1", 2, false, 0}, {"v2", 2, false, 0}}, nil,
			map[string]int32{"v2": 3, "v1": 2}},
		{"proportional scaling: 6 -> 0", 6, 0, 0, "0", []scaleRS{{"v1", 1, false, 0}, {"v2", 2, false, 0}, {"v3", 3, true, 0}}, nil,
			map[string]int32{"v3": 0, "v2": 0, "v1": 0}},
		{"proportional scaling: 0 -> 6", 6, 0, 6, "0", []scaleRS{{"v1", 0, false, 0}, {"v2", 0, false, 0}, {"v3", 0, true, 0}}, nil,
			map[string]int32{"v3": 6, "v2": 0, "v1": 0}},
		{"failed rs update", 5, 0, 5, "0", []scaleRS{{"v1", 1, false, 0}, {"v2", 1, false, 0}, {"v3", 2, true, 0}},
			map[string]int32{"v2": 3}, map[string]int32{"v3": 2, "v2": 2, "v1": 1}},
		{"deployment with surge pods", 10, 2, 20, "2", []scaleRS{{"v1", 6, false, 0}, {"v2", 6, true, 0}}, nil,
			map[string]int32{"v2": 11, "v1": 11}},
		{"change both surge and size", 10, 3, 50, "6", []scaleRS{{"v1", 8, false, 0}, {"v2", 5, true, 0}}, nil,
			map[string]int32{"v2": 22, "v1": 34}},
		{"change both size and template", 10, 0, 14, "0", []scaleRS{{"v1", 3, false, 0}, {"v2", 7, false, 0}}, nil,
			map[string]int32{"v2": 10, "v1": 4}},
		{"saturated but broken new replica set does not affect old pods", 2, 1, 2, "1", []scaleRS{{"v1", 1, false, 0}, {"v2", 2, true, 0}}, nil,
			map[string]int32{"v2": 2, "v1": 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(tc.replicas, rolling(tc.surge, "1"))
			var newRS *api.ReplicaSet
			var oldRSs []*api.ReplicaSet
			for i, sp := range tc.rss {
				desired := tc.oldReplicas
				if v, ok := tc.desiredOverride[sp.name]; ok {
					desired = v
				}
				image := ""
				if !sp.isNew {
					image = fmt.Sprintf("foo:old-%d", i)
				}
				rs := f.rs(d, rsSpec{name: sp.name, image: image, replicas: sp.replicas, available: sp.available,
					annotations: replicasAnnotations(desired, desired+tc.oldSurge)})
				if sp.isNew {
					newRS = rs
				} else {
					oldRSs = append(oldRSs, rs)
				}
				f.advance(1)
			}
			s := f.syncer("foo")
			require.NoError(t, s.scale(newRS, oldRSs))
			for name, want := range tc.want {
				assert.Equal(t, want, specOf(f.getRS(name)), name)
			}
		})
	}
}

func TestScaleEventsAndAnnotations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.deployment(20, rolling("25%", "25%"))
	a := f.rs(d, rsSpec{name: "a", image: "foo:1", replicas: 8, status: 8, available: 8, annotations: replicasAnnotations(10, 13)})
	f.advance(1)
	b := f.rs(d, rsSpec{name: "b", replicas: 5, status: 5, available: 3, annotations: replicasAnnotations(10, 13)})
	s := f.syncer("foo")
	require.NoError(t, s.scale(b, []*api.ReplicaSet{a}))
	assert.Equal(t, []string{"Scaled up replica set a from 8 to 15", "Scaled up replica set b from 5 to 10"}, eventTexts(s.ctx))
	for _, name := range []string{"a", "b"} {
		rs := f.getRS(name)
		assert.Equal(t, "20", rs.Annotations[api.DesiredReplicasAnnotation], name)
		assert.Equal(t, "25", rs.Annotations[api.MaxReplicasAnnotation], name)
	}
	assert.Equal(t, []string{"scale up replica set a from 8 to 15", "scale up replica set b from 5 to 10"}, s.actions)
}

func TestScaleEventSaysEachReplicaSetsOwnDirection(t *testing.T) {
	t.Parallel()
	// Kubernetes 1.35's scaleReplicaSet says "up" or "down" by each
	// ReplicaSet's own change. Growing 10 -> 12 (maxSurge 3: allowed 15,
	// toAdd 3), sorted b (newer), a: b round(6*15/13)=7 -> +1; a was sized
	// for a larger Deployment (max-replicas 20): round(6*15/20)=5 -> -1;
	// the leftover 3 goes to b. So a shrinks while the Deployment grows.
	f := newFixture(t)
	d := f.deployment(12, rolling("3", "0"))
	a := f.rs(d, rsSpec{name: "a", image: "foo:1", replicas: 6, status: 6, available: 6, annotations: replicasAnnotations(10, 20)})
	f.advance(1)
	b := f.rs(d, rsSpec{name: "b", replicas: 6, status: 6, available: 6, annotations: replicasAnnotations(10, 13)})
	s := f.syncer("foo")
	require.NoError(t, s.scale(b, []*api.ReplicaSet{a}))
	assert.Equal(t, []string{"Scaled up replica set b from 6 to 10", "Scaled down replica set a from 6 to 5"}, eventTexts(s.ctx))
	assert.Equal(t, int32(10), specOf(f.getRS("b")))
	assert.Equal(t, int32(5), specOf(f.getRS("a")))
}

func TestScaleSaturatedScalesOldToZero(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.deployment(3, rolling("1", "0"))
	old1 := f.rs(d, rsSpec{name: "old1", image: "foo:0", replicas: 1, annotations: replicasAnnotations(3, 4)})
	f.advance(1)
	old2 := f.rs(d, rsSpec{name: "old2", image: "foo:1", replicas: 1, annotations: replicasAnnotations(3, 4)})
	f.advance(1)
	newRS := f.rs(d, rsSpec{name: "new", replicas: 3, status: 3, available: 3, annotations: replicasAnnotations(3, 4)})
	s := f.syncer("foo")
	require.NoError(t, s.scale(newRS, []*api.ReplicaSet{old1, old2}))
	assert.Equal(t, int32(0), specOf(f.getRS("old1")))
	assert.Equal(t, int32(0), specOf(f.getRS("old2")))
	assert.Equal(t, []string{"Scaled down replica set old2 from 1 to 0", "Scaled down replica set old1 from 1 to 0"},
		eventTexts(s.ctx), "newest first, as FindActiveOrLatest leaves the old ones sorted")
}

func TestScaleRecreateWithSeveralActiveDoesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.deployment(5, simtest.WithRecreate())
	a := f.rs(d, rsSpec{name: "a", image: "foo:1", replicas: 2, annotations: replicasAnnotations(3, 3)})
	b := f.rs(d, rsSpec{name: "b", replicas: 1, annotations: replicasAnnotations(3, 3)})
	s := f.syncer("foo")
	require.NoError(t, s.scale(b, []*api.ReplicaSet{a}))
	assert.Equal(t, int32(2), specOf(f.getRS("a")))
	assert.Equal(t, int32(1), specOf(f.getRS("b")))
	assert.Empty(t, s.actions)
}

func TestScaleAnnotationOnlyUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.deployment(3, rolling("1", "0"))
	a := f.rs(d, rsSpec{name: "a", image: "foo:1", replicas: 2, annotations: replicasAnnotations(2, 3)})
	b := f.rs(d, rsSpec{name: "b", replicas: 2, annotations: replicasAnnotations(2, 3)})
	s := f.syncer("foo")
	// allowed 4, total 4: nothing to add, but the annotations follow the new size.
	require.NoError(t, s.scale(b, []*api.ReplicaSet{a}))
	assert.Empty(t, eventTexts(s.ctx))
	assert.Equal(t, "3", f.getRS("a").Annotations[api.DesiredReplicasAnnotation])
	assert.Equal(t, "4", f.getRS("b").Annotations[api.MaxReplicasAnnotation])
	assert.Len(t, s.actions, 2)
}

func TestIsScalingEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		rss  []rsSpec
		want bool
	}{
		{"annotation equal", []rsSpec{{name: "a", replicas: 3, annotations: replicasAnnotations(3, 4)}}, false},
		{"annotation differs", []rsSpec{{name: "a", replicas: 3, annotations: replicasAnnotations(2, 3)}}, true},
		{"inactive RS with another annotation", []rsSpec{{name: "a", image: "foo:1", replicas: 0, annotations: replicasAnnotations(2, 3)},
			{name: "b", replicas: 3, annotations: replicasAnnotations(3, 4)}}, false},
		{"no annotation", []rsSpec{{name: "a", replicas: 2}}, false},
		{"old active RS differs", []rsSpec{{name: "a", image: "foo:1", replicas: 1, annotations: replicasAnnotations(5, 6)},
			{name: "b", replicas: 3, annotations: replicasAnnotations(3, 4)}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(3, rolling("1", "0"))
			var list []*api.ReplicaSet
			for _, sp := range tc.rss {
				list = append(list, f.rs(d, sp))
			}
			assert.Equal(t, tc.want, f.syncer("foo").isScalingEvent(list))
		})
	}
}

func TestCleanupDeployment(t *testing.T) {
	t.Parallel()
	type rsState struct {
		name         string
		spec, status int32
		deleting     bool
	}
	// TestDeploymentController_cleanupDeployment rows: old RSs (spec, status).
	tests := []struct {
		name          string
		oldRSs        []rsState
		limit         int32
		wantDeletions int
	}{
		{"3 empty, limit 1", []rsState{{"foo-1", 0, 0, false}, {"foo-2", 0, 0, false}, {"foo-3", 0, 0, false}}, 1, 2},
		{"only fully scaled down ones go", []rsState{{"foo-1", 0, 0, false}, {"foo-2", 0, 1, false}, {"foo-3", 1, 0, false}, {"foo-4", 1, 1, false}}, 0, 1},
		{"2 empty, limit 0", []rsState{{"foo-1", 0, 0, false}, {"foo-2", 0, 0, false}}, 0, 2},
		{"running ones stay", []rsState{{"foo-1", 1, 1, false}, {"foo-2", 1, 1, false}}, 0, 0},
		{"already deleting", []rsState{{"foo-1", 0, 0, true}}, 0, 0},
		{"no limit", []rsState{{"foo-1", 0, 0, false}, {"foo-2", 0, 0, false}, {"foo-3", 0, 0, false}}, math.MaxInt32, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(1, simtest.WithRevisionHistoryLimit(tc.limit))
			var old []*api.ReplicaSet
			for i, st := range tc.oldRSs {
				rs := f.rs(d, rsSpec{name: st.name, image: fmt.Sprintf("foo:old-%d", i), replicas: st.spec, status: st.status})
				if st.deleting {
					rs = rs.DeepCopy()
					rs.DeletionTimestamp = api.NewTimePtr(f.now())
				}
				old = append(old, rs)
			}
			before := f.store.Count(api.KindReplicaSet)
			s := f.syncer("foo")
			require.NoError(t, s.cleanupDeployment(old))
			assert.Equal(t, tc.wantDeletions, before-f.store.Count(api.KindReplicaSet))
		})
	}
	t.Run("an RS whose generation is not observed yet stays", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(1, simtest.WithRevisionHistoryLimit(0))
		rs := f.rs(d, rsSpec{name: "foo-1", image: "foo:old", replicas: 1})
		rs = f.updateRS(rs.Name, func(rs *api.ReplicaSet) { rs.Spec.Replicas = api.Int32(0) }) // generation 2, observed 1
		require.NoError(t, f.syncer("foo").cleanupDeployment([]*api.ReplicaSet{rs}))
		assert.Equal(t, 1, f.store.Count(api.KindReplicaSet))
	})
}

func TestCleanupDeploymentOrder(t *testing.T) {
	t.Parallel()
	type rsRev struct {
		replicas int32
		revision string
	}
	// TestDeploymentController_cleanupDeploymentOrder rows; creation order foo-1 < foo-2 < ...
	tests := []struct {
		name        string
		rss         []rsRev
		limit       int32
		wantDeleted []string
	}{
		{"lowest revision goes", []rsRev{{0, "1"}, {0, "2"}}, 1, []string{"foo-1"}},
		{"revision, not creation", []rsRev{{0, "2"}, {0, "1"}}, 1, []string{"foo-2"}},
		{"a missing revision counts as 0", []rsRev{{0, "1"}, {0, ""}}, 1, []string{"foo-2"}},
		{"a missing revision on the older RS", []rsRev{{0, ""}, {0, "2"}}, 1, []string{"foo-1"}},
		{"a running RS is skipped, not replaced", []rsRev{{1, "1"}, {0, "2"}, {0, "3"}}, 1, []string{"foo-2"}},
		{"two running RSs: nothing", []rsRev{{1, "1"}, {1, "2"}, {0, "3"}}, 1, nil},
		{"two lowest of four", []rsRev{{0, "3"}, {0, "1"}, {0, "4"}, {0, "2"}}, 2, []string{"foo-2", "foo-4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(1, simtest.WithRevisionHistoryLimit(tc.limit))
			var old []*api.ReplicaSet
			for i, r := range tc.rss {
				old = append(old, f.rs(d, rsSpec{name: fmt.Sprintf("foo-%d", i+1), image: fmt.Sprintf("foo:old-%d", i),
					replicas: r.replicas, status: r.replicas, revision: r.revision}))
				f.advance(1)
			}
			s := f.syncer("foo")
			require.NoError(t, s.cleanupDeployment(old))
			var deleted []string
			for _, rs := range old {
				if _, err := f.store.GetReplicaSet(api.NamespaceDefault, rs.Name); err != nil {
					deleted = append(deleted, rs.Name)
				}
			}
			assert.Equal(t, tc.wantDeleted, deleted)
		})
	}
}

func TestCalculateStatus(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.deployment(3, rolling("1", "0"))
	a := f.rs(d, rsSpec{name: "a", image: "foo:1", replicas: 1, status: 2, available: 2})
	b := f.rs(d, rsSpec{name: "b", replicas: 3, status: 2, available: 1})
	st := calculateStatus([]*api.ReplicaSet{a, b}, b, f.getD("foo"), f.now())
	assert.Equal(t, int32(4), st.Replicas)
	assert.Equal(t, int32(2), st.UpdatedReplicas)
	assert.Equal(t, int32(3), st.AvailableReplicas)
	assert.Equal(t, int32(3), st.ReadyReplicas)
	assert.Equal(t, int32(1), st.UnavailableReplicas, "Σ spec 4 − available 3")
	assert.Equal(t, int64(1), st.ObservedGeneration)
	require.Len(t, st.Conditions, 1)
	assert.Equal(t, MinimumReplicasAvailable, st.Conditions[0].Reason)
	assert.Equal(t, minAvailableMessage, st.Conditions[0].Message)

	t.Run("unavailable never negative; no new RS means 0 updated", func(t *testing.T) {
		t.Parallel()
		st := calculateStatus([]*api.ReplicaSet{a}, nil, f.getD("foo"), f.now())
		assert.Equal(t, int32(0), st.UnavailableReplicas)
		assert.Equal(t, int32(0), st.UpdatedReplicas)
		assert.Equal(t, MinimumReplicasUnavailable, st.Conditions[0].Reason)
		assert.Equal(t, api.ConditionFalse, st.Conditions[0].Status)
	})
}

// updateRS writes a changed copy of a stored ReplicaSet (metadata and spec).
func (f *fixture) updateRS(name string, change func(rs *api.ReplicaSet)) *api.ReplicaSet {
	f.t.Helper()
	rs := f.getRS(name).DeepCopy()
	change(rs)
	out, err := f.store.Update(rs)
	require.NoError(f.t, err)
	return out.(*api.ReplicaSet)
}
