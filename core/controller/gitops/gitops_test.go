package gitops

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// TestAutoSyncRule follows Argo CD's autoSync (controller/appcontroller.go):
// a sync at a commit not synced yet syncs the whole application; at a
// commit already synced, nothing without selfHeal (the drift is only
// reported, a deleted object stays deleted) and the out-of-sync objects
// with it.
func TestAutoSyncRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		selfHeal bool
		commit   bool // a commit that changes only the ConfigMap, before the second sync
		replicas int32
		gone     bool // Deployment other stays deleted
		records  []string
	}{
		{name: "selfHeal off, no commit: the drift stays", replicas: 8, gone: true, records: []string{
			"deployment/web: out of sync: spec.replicas 8 in the cluster, 3 in Git; selfHeal is off, so only a new commit syncs it; next sync in 30s",
			"deployment/other: out of sync: deployment/other is missing from the cluster; selfHeal is off, so only a new commit syncs it; next sync in 30s",
			"configmap/cfg: "}},
		{name: "selfHeal off, a commit elsewhere: the whole application is synced", commit: true, replicas: 3, records: []string{
			"deployment/web: sync deployment/web to commit 2: spec.replicas 8 → 3",
			"deployment/other: sync deployment/other to commit 2: created",
			"configmap/cfg: sync configmap/cfg to commit 2: data.color blue → green"}},
		{name: "selfHeal on: the drift is undone without a commit", selfHeal: true, replicas: 3, records: []string{
			"deployment/web: sync deployment/web to commit 1: spec.replicas 8 → 3",
			"deployment/other: sync deployment/other to commit 1: created",
			"configmap/cfg: "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			cm := func(color string) *api.ConfigMap {
				return &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: api.KindConfigMap},
					ObjectMeta: api.ObjectMeta{Name: "cfg"}, Data: map[string]string{"color": color}}
			}
			dep := func(name string) *api.Deployment {
				d := simtest.NewDeployment(name, 3, "nginx:1.27")
				d.APIVersion, d.Kind = "apps/v1", api.KindDeployment
				return d
			}
			c := New(Options{Interval: 30 * time.Second, SelfHeal: tc.selfHeal, Repo: []api.Object{dep("web"), dep("other"), cm("blue")}, Start: s.Now().Time})
			first := simtest.Sync(s, c)
			require.Len(t, first.Events(ReasonSynced), 3, "the first sync creates everything")
			d, err := s.GetDeployment("default", "web")
			require.NoError(t, err)
			next := d.DeepCopy()
			next.Spec.Replicas = api.Int32(8)
			_, err = s.Update(next)
			require.NoError(t, err)
			require.NoError(t, s.Delete(api.KindDeployment, "default", "other", store.DeleteOptions{}))
			if tc.commit {
				c.Commit([]Change{{Object: cm("green")}})
			}
			simtest.Advance(s, 30*time.Second)
			second := simtest.Sync(s, c)
			var got []string
			for _, r := range second.Log.Records {
				got = append(got, r.Object+": "+r.Action+r.Waiting)
			}
			assert.Equal(t, tc.records, got)
			d, err = s.GetDeployment("default", "web")
			require.NoError(t, err)
			assert.Equal(t, tc.replicas, *d.Spec.Replicas)
			_, err = s.GetDeployment("default", "other")
			assert.Equal(t, tc.gone, err != nil)
		})
	}
}
