package quota_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/quota"
)

func rl(kv ...string) api.ResourceList {
	out := api.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = api.MustQuantity(kv[i+1])
	}
	return out
}

// validPod is the admission tests' validPod: n containers with these
// requests and limits.
func validPod(name string, n int, requests, limits api.ResourceList) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "test"}}
	for i := 0; i < n; i++ {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "foo-" + string(rune('0'+i)), Image: "foo:V" + string(rune('0'+i)),
			Resources: api.ResourceRequirements{Requests: requests.DeepCopy(), Limits: limits.DeepCopy()}})
	}
	api.SetDefaultsPod(p)
	p.Namespace = "test"
	return p
}

func withStatus(hard, used api.ResourceList, scopes ...string) *api.ResourceQuota {
	return &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "quota", Namespace: "test", ResourceVersion: "124"},
		Spec: api.ResourceQuotaSpec{Hard: hard, Scopes: scopes}, Status: api.ResourceQuotaStatus{Hard: hard, Used: used}}
}

var now = api.Epoch.Add(time.Hour)

// TestAdmit ports plugin/pkg/admission/resourcequota admission_test.go:
// TestAdmitBelowQuotaLimit, TestAdmitExceedQuotaLimit,
// TestAdmitEnforceQuotaConstraints, TestAdmitPodInNamespaceWithoutQuota,
// TestAdmitBelowTerminatingQuotaLimit, TestAdmitBelowBestEffortQuotaLimit,
// TestAdmitBestEffortQuotaLimitIgnoresBurstable and
// TestAdmitWhenUnrelatedResourceExceedsQuota, with the texts of checkRequest.
func TestAdmit(t *testing.T) {
	t.Parallel()
	base := func() *api.ResourceQuota {
		return withStatus(rl("cpu", "3", "memory", "100Gi", "pods", "5"), rl("cpu", "1", "memory", "50Gi", "pods", "3"))
	}
	tests := []struct {
		name   string
		quotas []*api.ResourceQuota
		pod    *api.Pod
		err    string
		used   []api.ResourceList // each changed quota's status.used
	}{
		{"below the quota limit", []*api.ResourceQuota{base()}, validPod("allowed-pod", 1, rl("cpu", "100m", "memory", "2Gi"), nil), "",
			[]api.ResourceList{rl("cpu", "1100m", "memory", "52Gi", "pods", "4")}},
		{"exceeds the quota limit", []*api.ResourceQuota{base()}, validPod("not-allowed-pod", 1, rl("cpu", "3", "memory", "2Gi"), nil),
			"exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3", nil},
		{"enforces quota constraints", []*api.ResourceQuota{withStatus(rl("cpu", "3", "memory", "100Gi", "limits.cpu", "3", "limits.memory", "100Gi", "pods", "5"),
			rl("cpu", "1", "memory", "50Gi", "limits.cpu", "2", "limits.memory", "50Gi", "pods", "3"))},
			validPod("not-allowed-pod", 1, rl("cpu", "100m", "memory", "2Gi"), nil),
			"failed quota: quota: must specify limits.cpu for: foo-0; limits.memory for: foo-0", nil},
		{"no quota in the namespace", []*api.ResourceQuota{func() *api.ResourceQuota { q := base(); q.Namespace = "other"; return q }()},
			validPod("allowed-pod", 1, rl("cpu", "100m", "memory", "2Gi"), nil), "", nil},
		{"terminating scope: counted by both quotas", []*api.ResourceQuota{
			withStatus(rl("cpu", "3", "memory", "100Gi", "pods", "4"), rl("cpu", "1", "memory", "50Gi", "pods", "3")),
			func() *api.ResourceQuota {
				q := withStatus(rl("cpu", "3", "memory", "100Gi", "pods", "5"), rl("cpu", "1", "memory", "50Gi", "pods", "3"), "Terminating")
				q.Name = "quota-terminating"
				return q
			}()},
			func() *api.Pod {
				p := validPod("allowed-pod", 1, rl("cpu", "100m", "memory", "2Gi"), nil)
				p.Spec.ActiveDeadlineSeconds = api.Int64(60)
				return p
			}(), "", []api.ResourceList{rl("cpu", "1100m", "memory", "52Gi", "pods", "4"), rl("cpu", "1100m", "memory", "52Gi", "pods", "4")}},
		{"best effort scope: a best-effort pod", []*api.ResourceQuota{withStatus(rl("pods", "5"), rl("pods", "3"), "BestEffort"),
			withStatus(rl("cpu", "3", "pods", "4"), rl("cpu", "1", "pods", "3"), "NotBestEffort")},
			validPod("allowed-pod", 1, nil, nil), "", []api.ResourceList{rl("pods", "4")}},
		{"best effort quota ignores a burstable pod", []*api.ResourceQuota{withStatus(rl("pods", "5"), rl("pods", "3"), "BestEffort")},
			validPod("allowed-pod", 1, rl("cpu", "100m", "memory", "1Gi"), nil), "", nil},
		{"an unrelated resource over the quota does not block", []*api.ResourceQuota{withStatus(rl("services", "3", "pods", "4"), rl("services", "4", "pods", "1"))},
			validPod("allowed-pod", 1, rl("cpu", "100m", "memory", "2Gi"), nil), "", []api.ResourceList{rl("services", "4", "pods", "2")}},
		// Converge's rows: the brief's worked example, and memory in binary units.
		{"requests.cpu over the limit", []*api.ResourceQuota{withStatus(rl("requests.cpu", "2", "pods", "10"), rl("requests.cpu", "1500m", "pods", "3"))},
			validPod("web-5d9c7b8f4-x2kq9", 1, rl("cpu", "500m"), nil), "", []api.ResourceList{rl("requests.cpu", "2", "pods", "4")}},
		{"requests.cpu one pod too many", []*api.ResourceQuota{withStatus(rl("requests.cpu", "2"), rl("requests.cpu", "1600m"))},
			validPod("web-5d9c7b8f4-x2kq9", 1, rl("cpu", "500m"), nil),
			"exceeded quota: quota, requested: requests.cpu=500m, used: requests.cpu=1600m, limited: requests.cpu=2", nil},
		{"a request from a limit", []*api.ResourceQuota{withStatus(rl("requests.memory", "1Gi"), rl("requests.memory", "768Mi"))},
			validPod("p", 1, nil, rl("memory", "512Mi")),
			"exceeded quota: quota, requested: requests.memory=512Mi, used: requests.memory=768Mi, limited: requests.memory=1Gi", nil},
		{"a quota not synced yet limits nothing", []*api.ResourceQuota{{ObjectMeta: api.ObjectMeta{Name: "new", Namespace: "test"},
			Spec: api.ResourceQuotaSpec{Hard: rl("pods", "0")}}}, validPod("p", 1, nil, nil), "", nil},
		{"status unknown", []*api.ResourceQuota{withStatus(rl("pods", "5"), nil)}, validPod("p", 1, nil, nil), "status unknown for quota: quota, resources: pods", nil},
		// Found by make k8sdiff (TestDiffQuota): a zero request is not
		// charged (RemoveZeros), so a quota already over its limit there
		// does not refuse it.
		{"a zero request is not charged", []*api.ResourceQuota{withStatus(rl("requests.memory", "0", "pods", "5"), rl("requests.memory", "128Mi", "pods", "1"))},
			validPod("p", 1, rl("cpu", "100m", "memory", "0"), rl("memory", "64Mi")), "", []api.ResourceList{rl("requests.memory", "128Mi", "pods", "2")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			changed, err := quota.Admit(tc.quotas, tc.pod, now)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			require.Len(t, changed, len(tc.used))
			for i, q := range changed {
				assert.Equal(t, quota.PrettyPrint(tc.used[i]), quota.PrettyPrint(q.Status.Used), q.Name)
			}
			for _, q := range tc.quotas {
				if q.Status.Used != nil {
					assert.NotEqual(t, "", q.ResourceVersion, "the quotas given are not changed")
				}
			}
		})
	}
}

// TestPodUsage ports pkg/quota/v1/evaluator/core pods_test.go
// TestPodEvaluatorUsage (its init-container, requests-and-limits and
// terminal rows) and QuotaV1Pod's deletion rule.
func TestPodUsage(t *testing.T) {
	t.Parallel()
	deleted := func(ago, grace int64) func(*api.Pod) {
		return func(p *api.Pod) {
			at := api.NewTime(now.Add(-time.Duration(ago) * time.Second))
			p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &at, api.Int64(grace)
		}
	}
	tests := []struct {
		name  string
		pod   *api.Pod
		tweak func(*api.Pod)
		want  string
	}{
		{"init container cpu", &api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu", "1m"), Limits: rl("cpu", "2m")}}}}},
			nil, "count/pods=1,cpu=1m,limits.cpu=2m,pods=1,requests.cpu=1m"},
		{"container cpu and memory", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{
			Requests: rl("cpu", "1m", "memory", "1m"), Limits: rl("cpu", "2m", "memory", "100m")}}}}},
			nil, "count/pods=1,cpu=1m,limits.cpu=2m,limits.memory=100m,memory=1m,pods=1,requests.cpu=1m,requests.memory=1m"},
		{"init container larger than the sum", &api.Pod{Spec: api.PodSpec{
			InitContainers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu", "2")}}},
			Containers:     []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu", "500m")}}, {Resources: api.ResourceRequirements{Requests: rl("cpu", "500m")}}}}},
			nil, "count/pods=1,cpu=2,pods=1,requests.cpu=2"},
		{"terminal pod counts only as an object", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu", "1")}}}},
			Status: api.PodStatus{Phase: api.PodFailed}}, nil, "count/pods=1"},
		{"terminating within twice its grace period still counts", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu", "1")}}}}},
			deleted(20, 30), "count/pods=1,cpu=1,pods=1,requests.cpu=1"},
		{"stuck terminating past it no longer does", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu", "1")}}}}},
			deleted(61, 30), "count/pods=1"},
		// Found by make k8sdiff (TestDiffQuota): the sum keeps the first
		// container's notation (Quantity.Add), 128Mi + 1G + 1e9 = 2084197Ki.
		{"the sum in the first container's notation", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{
			{Resources: api.ResourceRequirements{Requests: rl("memory", "128Mi")}}, {Resources: api.ResourceRequirements{Requests: rl("memory", "1G")}},
			{Resources: api.ResourceRequirements{Requests: rl("memory", "1e9")}}}}},
			nil, "count/pods=1,memory=2084197Ki,pods=1,requests.memory=2084197Ki"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := tc.pod
			api.SetDefaultsPod(p)
			if tc.tweak != nil {
				tc.tweak(p)
				// the deletion timestamp is now + grace when deleted
				p.DeletionTimestamp.Time = p.DeletionTimestamp.Add(time.Duration(*p.DeletionGracePeriodSeconds) * time.Second)
			}
			assert.Equal(t, tc.want, quota.PrettyPrint(quota.Usage(p, now)))
		})
	}
}

// TestResourceListArithmetic ports apiserver pkg/quota/v1 resources_test.go
// (TestEquals, TestLessThanOrEqual, TestAdd, TestSubtract, TestMask, TestRemoveZeros).
func TestResourceListArithmetic(t *testing.T) {
	t.Parallel()
	assert.True(t, quota.Equals(rl("cpu", "100m"), rl("cpu", "0.1")))
	assert.False(t, quota.Equals(rl("cpu", "100m"), rl("cpu", "100m", "memory", "1")))
	ok, exceeded := quota.LessThanOrEqual(rl("cpu", "100m", "memory", "2Gi"), rl("cpu", "200m", "memory", "1Gi"))
	assert.False(t, ok)
	assert.Equal(t, []string{"memory"}, exceeded)
	ok, _ = quota.LessThanOrEqual(rl("cpu", "100m", "pods", "9"), rl("cpu", "100m"))
	assert.True(t, ok, "what b does not limit does not count")
	assert.Equal(t, "cpu=200m,memory=1Gi", quota.PrettyPrint(quota.Add(rl("cpu", "100m"), rl("cpu", "100m", "memory", "1Gi"))))
	assert.Equal(t, "cpu=100m", quota.PrettyPrint(quota.Mask(rl("cpu", "100m", "memory", "1Gi"), []string{"cpu", "pods"})))
	assert.Empty(t, quota.RemoveZeros(rl("cpu", "0", "memory", "0")), "all-zeros")
	assert.Equal(t, "storage=100Gi", quota.PrettyPrint(quota.RemoveZeros(rl("cpu", "0", "memory", "0", "storage", "100Gi"))), "some-zeros")
	assert.Equal(t, "cpu=200m,memory=1Gi", quota.PrettyPrint(quota.RemoveZeros(rl("cpu", "200m", "memory", "1Gi"))), "non-zero")
	assert.Equal(t, "count/deployments.apps", quota.ObjectCountName(api.KindDeployment))
	assert.Equal(t, "count/pods", quota.ObjectCountName(api.KindPod))
}

// TestCalculate is the controller's CalculateUsage over a namespace: every
// hard resource gets a value (0 when unused), objects of other namespaces
// and out of scope are not counted.
func TestCalculate(t *testing.T) {
	t.Parallel()
	q := withStatus(rl("pods", "10", "requests.cpu", "4", "requests.memory", "8Gi", "count/deployments.apps", "2", "configmaps", "5"), nil)
	pods := []api.Object{validPod("a", 1, rl("cpu", "500m", "memory", "128Mi"), nil), validPod("b", 1, rl("cpu", "1"), nil)}
	other := validPod("c", 1, rl("cpu", "1"), nil)
	other.Namespace = "other"
	pods = append(pods, other)
	objects := func(kind string) []api.Object {
		if kind == api.KindPod {
			return pods
		}
		return nil
	}
	got := quota.Calculate(q, q.Spec.Hard, objects, now)
	assert.Equal(t, "configmaps=0,count/deployments.apps=0,pods=2,requests.cpu=1500m,requests.memory=128Mi", quota.PrettyPrint(got))
}
