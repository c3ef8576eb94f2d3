package validation_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/api"
	"converge/core/validation"
)

func quota(tweaks ...func(*api.ResourceQuota)) *api.ResourceQuota {
	q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "compute"},
		Spec: api.ResourceQuotaSpec{Hard: api.ResourceList{"pods": api.MustQuantity("10"), "requests.cpu": api.MustQuantity("2")}}}
	api.SetDefaultsResourceQuota(q)
	for _, tw := range tweaks {
		tw(q)
	}
	return q
}

// TestValidateResourceQuota ports the rows of kubernetes' pkg/apis/core/
// validation validation_test.go TestValidateResourceQuota (its spec cases,
// with the texts ValidateResourceQuotaResourceName,
// ValidateResourceQuantityValue and validateResourceQuotaScopes give).
func TestValidateResourceQuota(t *testing.T) {
	t.Parallel()
	hard := func(k, v string) func(*api.ResourceQuota) {
		return func(q *api.ResourceQuota) { q.Spec.Hard = api.ResourceList{k: api.MustQuantity(v)} }
	}
	tests := []struct {
		name  string
		tweak func(*api.ResourceQuota)
		want  []string
	}{
		{"spec", func(*api.ResourceQuota) {}, nil},
		{"every standard compute resource", func(q *api.ResourceQuota) {
			q.Spec.Hard = api.ResourceList{"cpu": api.MustQuantity("100"), "memory": api.MustQuantity("10000"),
				"requests.cpu": api.MustQuantity("100"), "requests.memory": api.MustQuantity("10000"),
				"limits.cpu": api.MustQuantity("100"), "limits.memory": api.MustQuantity("10000"),
				"pods": api.MustQuantity("5"), "services": api.MustQuantity("10"), "configmaps": api.MustQuantity("10"),
				"count/deployments.apps": api.MustQuantity("3")}
		}, nil},
		{"terminating scope", func(q *api.ResourceQuota) { q.Spec.Scopes = []string{"Terminating"} }, nil},
		{"not best effort", func(q *api.ResourceQuota) { q.Spec.Scopes = []string{"NotBestEffort"} }, nil},
		{"best effort with pods only", func(q *api.ResourceQuota) {
			q.Spec.Hard = api.ResourceList{"pods": api.MustQuantity("5")}
			q.Spec.Scopes = []string{"BestEffort"}
		}, nil},
		{"zero-length name", func(q *api.ResourceQuota) { q.Name = "" }, []string{"metadata.name: Required value: name or generateName is required"}},
		{"invalid name", func(q *api.ResourceQuota) { q.Name = "^Invalid" },
			[]string{`metadata.name: Invalid value: "^Invalid": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{"negative limits", hard("cpu", "-100m"), []string{`spec.hard[cpu]: Invalid value: "-100m": must be greater than or equal to 0`}},
		{"fractional api resource", hard("pods", "0.5"), []string{`spec.hard[pods]: Invalid value: "500m": must be an integer`}},
		{"invalid quota resource", hard("disk", "10G"), []string{
			`spec.hard[disk]: Invalid value: "disk": must be a standard resource type or fully qualified`,
			`spec.hard[disk]: Invalid value: "disk": must be a standard resource for quota`}},
		{"fractional object count", hard("count/pods", "1.5"), []string{`spec.hard[count/pods]: Invalid value: "1500m": must be an integer`}},
		{"invalid terminating pair", func(q *api.ResourceQuota) { q.Spec.Scopes = []string{"Terminating", "NotTerminating"} },
			[]string{`spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes`}},
		{"invalid best effort pair", func(q *api.ResourceQuota) {
			q.Spec.Hard = api.ResourceList{"pods": api.MustQuantity("5")}
			q.Spec.Scopes = []string{"BestEffort", "NotBestEffort"}
		}, []string{`spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes`}},
		{"invalid scope name", func(q *api.ResourceQuota) { q.Spec.Scopes = []string{"foo"} },
			[]string{`spec.scopes: Invalid value: ["foo"]: unsupported scope`}},
		{"best effort with compute resources", func(q *api.ResourceQuota) { q.Spec.Scopes = []string{"BestEffort"} },
			[]string{`spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource`}},
		{"a scope with a non-pod resource", func(q *api.ResourceQuota) {
			q.Spec.Hard = api.ResourceList{"services": api.MustQuantity("5")}
			q.Spec.Scopes = []string{"Terminating"}
		}, []string{`spec.scopes: Invalid value: ["Terminating"]: unsupported scope applied to resource`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidateResourceQuota(quota(tc.tweak), nil).Messages())
		})
	}
}
