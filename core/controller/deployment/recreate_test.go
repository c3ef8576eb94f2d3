package deployment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/simtest"
	"converge/core/store"
)

// podFor creates a pod controlled by rs in the given phase.
func (f *fixture) podFor(rs *api.ReplicaSet, name, phase string) *api.Pod {
	f.t.Helper()
	return simtest.MustCreate(f.t, f.store, simtest.NewPod(name, simtest.WithPodLabels(rs.Spec.Template.Labels),
		simtest.WithPodOwner(rs), simtest.WithPodNode("node-1"), simtest.WithPodPhase(phase)))
}

func TestOldPodsRunning(t *testing.T) {
	t.Parallel()
	// TestOldPodsRunning rows (recreate_test.go).
	tests := []struct {
		name       string
		oldSpec    int32
		oldStatus  int32
		oldPods    []string // phases of old pods
		newPods    []string // phases of new pods (never counted)
		noOld      bool
		terminated bool // delete the old pods gracefully first
		want       int32
	}{
		{name: "no old RSs", noOld: true, newPods: []string{api.PodRunning}, want: 0},
		{name: "old RSs with running pods", oldSpec: 1, oldStatus: 1, oldPods: []string{api.PodRunning}, want: 1},
		{name: "old RS at 0 that still reports a replica", oldSpec: 0, oldStatus: 1, want: 1},
		{name: "only Failed and Succeeded old pods", oldPods: []string{api.PodFailed, api.PodSucceeded}, want: 0},
		{name: "an Unknown pod counts", oldPods: []string{api.PodFailed, api.PodUnknown}, want: 1},
		{name: "a Pending pod counts", oldPods: []string{api.PodPending}, want: 1},
		{name: "Running pods count", oldPods: []string{api.PodRunning, api.PodRunning}, want: 2},
		{name: "Terminating pods count", oldPods: []string{api.PodRunning, api.PodRunning, api.PodRunning}, terminated: true, want: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			d := f.deployment(1, simtest.WithRecreate())
			newRS := f.rs(d, rsSpec{name: "new", replicas: 1})
			for i, ph := range tc.newPods {
				f.podFor(newRS, "new-"+string(rune('a'+i)), ph)
			}
			var old []*api.ReplicaSet
			if !tc.noOld {
				rs := f.rs(d, rsSpec{name: "old", image: "foo:1", replicas: tc.oldSpec, status: tc.oldStatus})
				old = append(old, rs)
				for i, ph := range tc.oldPods {
					p := f.podFor(rs, "old-"+string(rune('a'+i)), ph)
					if tc.terminated {
						require.NoError(t, f.store.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{}))
						require.NotNil(t, f.getPod(p.Name).DeletionTimestamp)
					}
				}
			}
			sel := labels.MustFromLabelSelector(d.Spec.Selector)
			got := f.syncer("foo").oldPodsRunning(newRS, old, append(old, newRS), sel)
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("pods of ReplicaSets that are not the Deployment's are not counted", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		d := f.deployment(1, simtest.WithRecreate())
		other := f.rs(d, rsSpec{name: "other", image: "foo:1", replicas: 1})
		f.podFor(other, "stray", api.PodRunning)
		sel := labels.MustFromLabelSelector(d.Spec.Selector)
		assert.Equal(t, int32(0), f.syncer("foo").oldPodsRunning(nil, nil, nil, sel))
	})
}

func (f *fixture) getPod(name string) *api.Pod {
	f.t.Helper()
	p, err := f.store.GetPod(api.NamespaceDefault, name)
	require.NoError(f.t, err)
	return p
}

func TestRecreateScalesUpAnExistingNewRS(t *testing.T) {
	t.Parallel()
	// Switching back to an old template under Recreate: the old RS is the new
	// one again and is scaled up once the others are gone.
	c := settled(t, 2, 1, simtest.WithRecreate())
	c.rounds = 8
	c.setImage("web", "web:2")
	c.runUntil(10, func() bool { return c.complete("web") })
	c.setImage("web", "web:1")
	c.run()
	assert.Equal(t, []string{c.expand("Scaled down replica set {B} from 2 to 0"), c.expand("Scaled up replica set {A} from 0 to 2")}, c.events)
	c.runUntil(10, func() bool { return c.complete("web") })
	assert.Equal(t, "3", c.rsByImage("web:1").Annotations[api.RevisionAnnotation])
	assert.True(t, c.record("web").InSync)
}

func TestRecreateWaitsForNewPods(t *testing.T) {
	t.Parallel()
	c := settled(t, 2, 3, simtest.WithRecreate())
	c.rounds = 8
	c.setImage("web", "web:2")
	c.run()
	c.run()
	assert.Equal(t, "waiting for new pods to become available: 0 of 2 available", c.record("web").Waiting)
	r := c.record("web").Rollout
	assert.Equal(t, api.RecreateDeploymentStrategyType, r.Strategy)
	assert.Empty(t, r.SurgeMath)
	assert.Equal(t, int32(0), r.Surge)
	assert.Equal(t, int32(2), r.UnavailableUsed)
}
