package kubectl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// TestGetAndDescribeQuotaAndBudget follows kubectl's printers
// (printResourceQuota, printPodDisruptionBudget) and describers
// (describeQuota, describePodDisruptionBudgetV1).
func TestGetAndDescribeQuotaAndBudget(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	q := simtest.MustCreate(t, f.st, simtest.NewQuota("compute", "pods", "10", "requests.cpu", "2", "requests.memory", "1Gi", "limits.cpu", "4"))
	q.Spec.Scopes = nil
	next := q.DeepCopy()
	next.Status = api.ResourceQuotaStatus{Hard: q.Spec.Hard.DeepCopy(), Used: api.ResourceList{"pods": api.MustQuantity("3"),
		"requests.cpu": api.MustQuantity("1500m"), "requests.memory": api.MustQuantity("384Mi"), "limits.cpu": api.MustQuantity("3")}}
	_, err := f.st.UpdateStatus(next)
	require.NoError(t, err)
	budget(2, 3, 1)(t, f)
	tests := []struct{ line, out string }{
		{"get quota", "NAME      REQUEST                                                         LIMIT             AGE\n" +
			"compute   pods: 3/10, requests.cpu: 1500m/2, requests.memory: 384Mi/1Gi   limits.cpu: 3/4   0s"},
		{"describe resourcequota compute", "Name:            compute\nNamespace:       default\nResource         Used   Hard\n--------         ----   ----\n" +
			"limits.cpu       3      4\npods             3      10\nrequests.cpu     1500m  2\nrequests.memory  384Mi  1Gi"},
		{"get pdb", "NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\nweb    2               N/A               1                     0s"},
		{"describe pdb web", "Name:           web\nNamespace:      default\nMin available:  2\nSelector:       app=web\nStatus:\n" +
			"    Allowed disruptions:  1\n    Current:              3\n    Desired:              2\n    Total:                3\nEvents:                   <none>"},
		{"get poddisruptionbudgets.policy web -o name", "poddisruptionbudget.policy/web"},
		{"get quota,pdb -o name", "resourcequota/compute\npoddisruptionbudget.policy/web"},
	}
	for _, tc := range tests {
		r := f.run(tc.line)
		assert.Equal(t, "", r.Error, tc.line)
		assert.Equal(t, tc.out, r.Output, tc.line)
	}
}

// TestDescribeQuotaScopes: the scopes with kubectl's help text, and a used
// value in another notation than its hard one written in the hard one's.
func TestDescribeQuotaScopes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	q := simtest.NewQuota("besteffort", "pods", "5", "memory", "1Gi")
	q.Spec.Scopes = []string{"NotTerminating", "NotBestEffort"}
	q = simtest.MustCreate(t, f.st, q)
	next := q.DeepCopy()
	next.Status = api.ResourceQuotaStatus{Hard: q.Spec.Hard.DeepCopy(), Used: api.ResourceList{"pods": api.MustQuantity("0"), "memory": api.MustQuantity("500M")}}
	_, err := f.st.UpdateStatus(next)
	require.NoError(t, err)
	r := f.run("describe quota besteffort")
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, "Name:       besteffort\nNamespace:  default\nScopes:     NotBestEffort, NotTerminating\n"+
		" * Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.\n"+
		" * Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.\n"+
		"Resource  Used       Hard\n--------  ----       ----\nmemory    500000000  1Gi\npods      0          5", r.Output)
}
