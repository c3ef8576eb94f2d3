package validation_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/api"
	"converge/core/validation"
)

func pdb(tweaks ...func(*api.PodDisruptionBudget)) *api.PodDisruptionBudget {
	p := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web"},
		Spec: api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	api.SetDefaultsPodDisruptionBudget(p)
	for _, tw := range tweaks {
		tw(p)
	}
	return p
}

// TestValidatePodDisruptionBudgetSpec ports kubernetes' pkg/apis/policy/
// validation validation_test.go TestValidatePodDisruptionBudgetSpec,
// TestValidateMinAvailablePodDisruptionBudgetSpec and
// TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec (their
// success and failure values, for both fields), with the texts.
func TestValidatePodDisruptionBudgetSpec(t *testing.T) {
	t.Parallel()
	good := []*api.IntOrString{percent("0%"), percent("1%"), percent("100%"), intstr(0), intstr(1), intstr(100)}
	bad := []struct {
		v    *api.IntOrString
		want string
	}{
		{percent("1.1%"), `: Invalid value: "1.1%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{percent("nope"), `: Invalid value: "nope": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{percent("-1%"), `: Invalid value: "-1%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{percent("101%"), `: Invalid value: "101%": must not be greater than 100%`},
		{intstr(-1), `: Invalid value: -1: must be greater than or equal to 0`},
	}
	for _, field := range []string{"minAvailable", "maxUnavailable"} {
		set := func(p *api.PodDisruptionBudget, v *api.IntOrString) {
			if field == "minAvailable" {
				p.Spec.MinAvailable = v
			} else {
				p.Spec.MaxUnavailable = v
			}
		}
		for _, v := range good {
			t.Run(field+" "+v.String(), func(t *testing.T) {
				t.Parallel()
				assert.Empty(t, validation.ValidatePodDisruptionBudget(pdb(func(p *api.PodDisruptionBudget) { set(p, v) }), nil))
			})
		}
		for _, tc := range bad {
			t.Run(field+" "+tc.v.String(), func(t *testing.T) {
				t.Parallel()
				got := validation.ValidatePodDisruptionBudget(pdb(func(p *api.PodDisruptionBudget) { set(p, tc.v) }), nil).Messages()
				assert.Equal(t, []string{"spec." + field + tc.want}, got)
			})
		}
	}
	tests := []struct {
		name  string
		tweak func(*api.PodDisruptionBudget)
		want  []string
	}{
		{"both set", func(p *api.PodDisruptionBudget) {
			p.Spec.MinAvailable, p.Spec.MaxUnavailable = percent("0%"), percent("10%")
		},
			[]string{`spec: Invalid value: {"minAvailable":"0%","selector":{"matchLabels":{"app":"web"}},"maxUnavailable":"10%"}: minAvailable and maxUnavailable cannot be both set`}},
		{"neither set is valid", func(*api.PodDisruptionBudget) {}, nil},
		{"no selector is valid (it selects no pod)", func(p *api.PodDisruptionBudget) { p.Spec.Selector = nil }, nil},
		{"bad selector value", func(p *api.PodDisruptionBudget) { p.Spec.Selector.MatchLabels["app"] = "-web" },
			[]string{`spec.selector.matchLabels: Invalid value: "-web": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{"unhealthy pod eviction policy", func(p *api.PodDisruptionBudget) { x := "Never"; p.Spec.UnhealthyPodEvictionPolicy = &x },
			[]string{`spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"`}},
		{"AlwaysAllow", func(p *api.PodDisruptionBudget) { x := api.AlwaysAllow; p.Spec.UnhealthyPodEvictionPolicy = &x }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidatePodDisruptionBudget(pdb(tc.tweak), nil).Messages())
		})
	}
}
