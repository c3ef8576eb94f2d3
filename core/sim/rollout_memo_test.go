package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// TestSamplesWithoutThePodPassAreTheSame: a second whose pods, ReplicaSets
// and Deployments did not change reuses the last pass over the pods
// (tallies); its samples are the same as a fresh pass's, for every shipped
// scenario and every second, a minReadySeconds wait included
// (readiness-gating).
func TestSamplesWithoutThePodPassAreTheSame(t *testing.T) {
	t.Parallel()
	for name, scn := range shipped(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := New(scn, Options{CheckpointEvery: -1})
			require.NoError(t, err)
			reused := 0
			for s.T() < int64(scn.Duration.Seconds()) {
				s.Step(1)
				st := s.state
				prev := s.samples[st.t-1].Deployments
				if st.tallies.valid(st.store, st.clock.Now()) && !st.tallies.at.Equal(st.clock.Now()) {
					reused++
				}
				memo := st.tallies
				st.tallies = nil
				fresh := deploymentSamples(st, prev)
				st.tallies = memo
				require.Equal(t, fresh, s.samples[st.t].Deployments, "t=%d", st.t)
			}
			t.Logf("%d of %d seconds reused the pass", reused, s.T())
		})
	}
}

// TestSamplesCountPodsThatBecomeAvailable: a pass remembered while pods
// were Ready but not for minReadySeconds holds until the first of them
// becomes available, even when nothing is written in between.
func TestSamplesCountPodsThatBecomeAvailable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		after time.Duration
		ready int32 // Ready but not available yet
	}{
		{name: "before minReadySeconds", after: 29 * time.Second, ready: 3},
		{name: "at minReadySeconds", after: 30 * time.Second, ready: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := simtest.NewCluster(t, simtest.ClusterOptions{Nodes: 1, Pods: 3, Bound: true, Ready: true})
			rs := c.ReplicaSet.DeepCopy()
			rs.Spec.MinReadySeconds = 30
			_, err := c.Store.Update(rs)
			require.NoError(t, err)
			d := c.Deployment.DeepCopy() // the ReplicaSet's template, so that it is the new one
			d.Spec.Template = rs.Spec.Template.DeepCopy()
			delete(d.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey)
			_, err = c.Store.Update(d)
			require.NoError(t, err)
			st := &state{clock: c.Store.Clock(), store: c.Store}
			first := deploymentSamples(st, nil)
			require.NotNil(t, first[0].Rollout)
			require.Equal(t, int32(3), first[0].Rollout.Ready, "%+v", *first[0].Rollout)
			simtest.Advance(c.Store, tt.after)
			got := deploymentSamples(st, first)
			assert.Equal(t, tt.ready, got[0].Rollout.Ready)
			assert.Equal(t, int32(3), got[0].Pods)
		})
	}
}
