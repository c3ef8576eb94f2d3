package resourcequota

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/quota"
	"converge/core/simtest"
	"converge/core/store"
)

func used(t *testing.T, s *store.Store) (string, string) {
	t.Helper()
	o, err := s.Get(api.KindResourceQuota, "default", "compute")
	require.NoError(t, err)
	q := o.(*api.ResourceQuota)
	return quota.PrettyPrint(q.Status.Hard), quota.PrettyPrint(q.Status.Used)
}

// TestSyncResourceQuota follows pkg/controller/resourcequota
// resource_quota_controller_test.go TestSyncResourceQuota's rows: status.hard
// copies spec.hard, status.used counts the namespace's pods (not the
// terminal ones, not those of another namespace), a zero for what nothing
// uses, and a settled quota is not written again.
func TestSyncResourceQuota(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewQuota("compute", "pods", "5", "requests.cpu", "2", "requests.memory", "1Gi", "count/deployments.apps", "3"))
	simtest.MustCreate(t, s, simtest.NewPod("a", simtest.WithPodRequests("500m", "128Mi")))
	simtest.MustCreate(t, s, simtest.NewPod("b", simtest.WithPodRequests("250m", "")))
	simtest.MustCreate(t, s, simtest.NewPod("done", simtest.WithPodRequests("1", "1Gi"), simtest.WithPodPhase(api.PodSucceeded)))
	other := simtest.NewPod("elsewhere", simtest.WithPodRequests("1", ""))
	other.Namespace = "other"
	simtest.MustCreate(t, s, other)

	ctx := simtest.Sync(s, New())
	hard, use := used(t, s)
	assert.Equal(t, "count/deployments.apps=3,pods=5,requests.cpu=2,requests.memory=1Gi", hard)
	assert.Equal(t, "count/deployments.apps=0,pods=2,requests.cpu=750m,requests.memory=128Mi", use)
	assert.Equal(t, "update status: used count/deployments.apps=0,pods=2,requests.cpu=750m,requests.memory=128Mi", ctx.RecordFor(t, "resourcequota/compute").Action)

	second := simtest.Sync(s, New())
	assert.Zero(t, second.Writes, "a settled quota is not written again")
	assert.True(t, second.RecordFor(t, "resourcequota/compute").InSync)

	require.NoError(t, s.Delete(api.KindPod, "default", "a", store.DeleteOptions{}))
	o, _ := s.Get(api.KindResourceQuota, "default", "compute")
	next := o.(*api.ResourceQuota).DeepCopy()
	next.Spec.Hard["requests.cpu"] = api.MustQuantity("3")
	delete(next.Spec.Hard, "count/deployments.apps")
	_, err := s.Update(next)
	require.NoError(t, err)
	simtest.Sync(s, New())
	hard, use = used(t, s)
	assert.Equal(t, "pods=5,requests.cpu=3,requests.memory=1Gi", hard, "a spec change reaches the status")
	assert.Equal(t, "pods=1,requests.cpu=250m,requests.memory=0", use, "the deleted (unbound) pod frees its share")
}

// TestQuotaAdmissionInTheStore: a create over the quota is Forbidden with
// the plugin's text and changes nothing; one within it raises status.used
// at once, before the controller's next sync.
func TestQuotaAdmissionInTheStore(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewQuota("compute", "requests.cpu", "1"))
	simtest.Sync(s, New())
	simtest.MustCreate(t, s, simtest.NewPod("a", simtest.WithPodRequests("600m", "")))
	_, use := used(t, s)
	assert.Equal(t, "requests.cpu=600m", use)

	rv := s.ResourceVersion()
	_, err := s.Create(simtest.NewPod("b", simtest.WithPodRequests("500m", "")))
	require.Error(t, err)
	assert.Equal(t, `pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1`, err.Error())
	assert.Equal(t, store.ReasonForbidden, store.ReasonOf(err))
	assert.Equal(t, rv, s.ResourceVersion(), "a refused create changes nothing")

	_, err = s.Create(simtest.NewPod("c"))
	require.Error(t, err)
	assert.Equal(t, `pods "c" is forbidden: failed quota: compute: must specify requests.cpu for: app`, err.Error())
}
