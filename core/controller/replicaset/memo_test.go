package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// TestQuietSyncIsRepeated: a Sync that wrote nothing is repeated, records
// and all, until a pod or a ReplicaSet changes, a ready pod reaches
// minReadySeconds, or the store is another; what the controller records is
// always what a controller without the memo records.
func TestQuietSyncIsRepeated(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// change runs between the quiet Sync and the one checked; it
		// returns the store that Sync reads.
		change   func(t *testing.T, s *store.Store) *store.Store
		repeated bool
		observed string
	}{
		{name: "nothing changed", change: func(_ *testing.T, s *store.Store) *store.Store { return s },
			repeated: true, observed: "2 pods (2 ready, 0 available)"},
		{name: "a second passes, no pod reaches minReadySeconds", change: func(_ *testing.T, s *store.Store) *store.Store {
			simtest.Advance(s, 29*time.Second)
			return s
		}, repeated: true, observed: "2 pods (2 ready, 0 available)"},
		{name: "the pods reach minReadySeconds", change: func(_ *testing.T, s *store.Store) *store.Store {
			simtest.Advance(s, 30*time.Second)
			return s
		}, observed: "2 pods (2 ready, 2 available)"},
		{name: "a pod's status changed", change: func(t *testing.T, s *store.Store) *store.Store {
			x := *simtest.GetPod(t, s, "a")
			x.ResourceVersion = ""
			x.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
			_, err := s.UpdateStatus(&x)
			require.NoError(t, err)
			return s
		}, observed: "2 pods (1 ready, 0 available)"},
		{name: "the ReplicaSet scaled", change: func(t *testing.T, s *store.Store) *store.Store {
			x := simtest.GetReplicaSet(t, s, "web").DeepCopy()
			x.Spec.Replicas = api.Int32(1)
			_, err := s.Update(x)
			require.NoError(t, err)
			return s
		}, observed: "2 pods (2 ready, 0 available)"},
		{name: "a clone of the store", change: func(_ *testing.T, s *store.Store) *store.Store {
			return s.Clone(clock.New(s.Clock().Now()))
		}, observed: "2 pods (2 ready, 0 available)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("web", 2, "nginx:1.25", simtest.WithRSMinReadySeconds(30)))
			for _, name := range []string{"a", "b"} {
				simtest.MustCreate(t, s, simtest.NewPod(name, simtest.WithPodLabels(map[string]string{"app": "web"}),
					simtest.WithPodOwner(rs), simtest.WithPodNode("n1"), simtest.WithPodReady(s.Clock().Now())))
			}
			c := New()
			simtest.Sync(s, c) // writes the status
			quiet := simtest.Sync(s, c)
			require.Zero(t, quiet.Writes)
			require.NotNil(t, c.quiet, "a Sync that wrote nothing is remembered")

			s = tt.change(t, s)
			probe := &controller.Context{Store: s, Log: &controller.SyncLog{}}
			assert.Equal(t, tt.repeated, c.quiet.replay(probe, s.Clock().Now()))
			want := simtest.Sync(s.Clone(clock.New(s.Clock().Now())), New())
			got := simtest.Sync(s, c)
			assert.Equal(t, want.Log.Records, got.Log.Records, "the same records as a full pass")
			assert.Equal(t, tt.observed, got.RecordFor(t, "replicaset/web").Observed)
			if tt.repeated {
				assert.Equal(t, quiet.Log.Records, got.Log.Records)
			}
		})
	}
}
