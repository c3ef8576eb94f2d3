package validation_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/validation"
)

const (
	mismatch       = "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"
	percentDetail  = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
	subdomainError = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)

// The rows of docs/kubernetes-rules.md §3, in their Kubernetes 1.34+ rendering.
func TestValidateDeploymentReferenceTable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tweak func(*api.Deployment)
		want  []string
	}{
		{"1 selector missing", func(d *api.Deployment) { d.Spec.Selector = nil },
			[]string{"spec.selector: Required value", mismatch}},
		{"2 empty selector", func(d *api.Deployment) { d.Spec.Selector = &api.LabelSelector{} },
			[]string{"spec.selector: Invalid value: {}: empty selector is invalid for deployment"}},
		{"3 labels do not satisfy the selector", func(d *api.Deployment) {
			d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "api"}}
		}, []string{mismatch}},
		{"5 both zero", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intstr(0), MaxUnavailable: intstr(0)}
		}, []string{"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"}},
		{"5 both zero percent", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: percent("0%"), MaxUnavailable: percent("0%")}
		}, []string{"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0"}},
		{"6 maxUnavailable over 100%", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxUnavailable = percent("110%") },
			[]string{`spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%`}},
		{"7 percent without %", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = percent("25") },
			[]string{`spec.strategy.rollingUpdate.maxSurge: Invalid value: "25": ` + percentDetail}},
		{"7 not a number", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxUnavailable = percent("abc") },
			[]string{`spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "abc": ` + percentDetail}},
		{"8 negative maxSurge", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = intstr(-1) },
			[]string{"spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0"}},
		{"8 negative maxUnavailable", func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate.MaxUnavailable = intstr(-1) },
			[]string{"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"}},
		{"9 negative replicas", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(-1) },
			[]string{"spec.replicas: Invalid value: -1: must be greater than or equal to 0"}},
		{"10 negative minReadySeconds", func(d *api.Deployment) { d.Spec.MinReadySeconds = -1 },
			[]string{"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"}},
		{"10 negative revisionHistoryLimit", func(d *api.Deployment) { d.Spec.RevisionHistoryLimit = api.Int32(-1) },
			[]string{"spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"}},
		{"10 negative progressDeadlineSeconds", func(d *api.Deployment) { d.Spec.ProgressDeadlineSeconds = api.Int32(-1) },
			[]string{"spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
				"spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds"}},
		{"11 deadline not above minReadySeconds", func(d *api.Deployment) {
			d.Spec.ProgressDeadlineSeconds = api.Int32(10)
			d.Spec.MinReadySeconds = 10
		}, []string{"spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds"}},
		{"12 rollingUpdate with Recreate", func(d *api.Deployment) { d.Spec.Strategy.Type = api.RecreateDeploymentStrategyType },
			[]string{"spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"}},
		{"13 unknown strategy type", func(d *api.Deployment) { d.Spec.Strategy = api.DeploymentStrategy{Type: "Foo"} },
			[]string{`spec.strategy: Unsupported value: {"Type":"Foo","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`}},
		{"13 unknown strategy type with a rollingUpdate block", func(d *api.Deployment) { d.Spec.Strategy.Type = "Foo" },
			[]string{`spec.strategy: Unsupported value: {"Type":"Foo","RollingUpdate":{"MaxUnavailable":"25%","MaxSurge":"25%"}}: supported values: "Recreate", "RollingUpdate"`}},
		{"14 restartPolicy OnFailure", func(d *api.Deployment) { d.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure },
			[]string{`spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`}},
		{"15 activeDeadlineSeconds in the template", func(d *api.Deployment) { d.Spec.Template.Spec.ActiveDeadlineSeconds = api.Int64(30) },
			[]string{"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"}},
		{"16 invalid name", func(d *api.Deployment) { d.Name = "Web_1" },
			[]string{`metadata.name: Invalid value: "Web_1": ` + subdomainError}},
		{"17 missing name", func(d *api.Deployment) { d.Name = "" },
			[]string{"metadata.name: Required value: name or generateName is required"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			errs := validation.ValidateDeployment(deployment(tc.tweak), nil)
			assert.Equal(t, tc.want, errs.Messages())
		})
	}
}

// Row 4 of docs/kubernetes-rules.md §3, and the strategy's immutability on update.
func TestValidateDeploymentUpdate(t *testing.T) {
	t.Parallel()
	old := stored(deployment())
	tests := []struct {
		name  string
		tweak func(*api.Deployment)
		want  []string
	}{
		{"scale", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(5) }, nil},
		{"new image", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28" }, nil},
		{"4 selector changed with the labels", func(d *api.Deployment) {
			d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web2"}}
			d.Spec.Template.Labels = map[string]string{"app": "web2"}
		}, []string{`spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable`}},
		{"4 selector changed, labels no longer match", func(d *api.Deployment) {
			d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web2"}}
		}, []string{mismatch, `spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable`}},
		{"selector removed", func(d *api.Deployment) { d.Spec.Selector = nil },
			[]string{"spec.selector: Required value", mismatch, `spec.selector: Invalid value: "null": field is immutable`}},
		{"same selector, empty expression list", func(d *api.Deployment) {
			d.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{}
		}, nil},
		{"12 type changed to Recreate, stale rollingUpdate kept", func(d *api.Deployment) {
			d.Spec.Strategy.Type = api.RecreateDeploymentStrategyType
		}, []string{"spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"}},
		{"type changed to Recreate with the block dropped", func(d *api.Deployment) {
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
		}, nil},
		{"rename", func(d *api.Deployment) { d.Name = "web2" }, []string{`metadata.name: Invalid value: "web2": field is immutable`}},
		{"generation decremented", func(d *api.Deployment) { d.Generation = 0 },
			[]string{"metadata.generation: Invalid value: 0: must not be decremented"}},
		{"uid changed", func(d *api.Deployment) { d.UID = "other" }, []string{`metadata.uid: Invalid value: "other": field is immutable`}},
		{"name not revalidated on update", func(d *api.Deployment) { d.Labels = map[string]string{"tier": "web"} }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := old.DeepCopy()
			tc.tweak(d)
			assert.Equal(t, tc.want, validation.ValidateDeployment(d, old).Messages())
		})
	}
}

// Rows of kube's TestValidateDeployment (pkg/apis/apps/validation): the first
// error contains the key.
func TestValidateDeploymentKubeRows(t *testing.T) {
	t.Parallel()
	kube := func(tweaks ...func(*api.Deployment)) *api.Deployment {
		d := deployment(func(d *api.Deployment) {
			d.Name = "abc"
			d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"name": "abc"}}
			d.Spec.Template.Labels = map[string]string{"name": "abc"}
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intstr(1), MaxUnavailable: intstr(1)}
		})
		for _, tw := range tweaks {
			tw(d)
		}
		return d
	}
	require.Empty(t, validation.ValidateDeployment(kube(), nil))
	require.Empty(t, validation.ValidateDeployment(kube(func(d *api.Deployment) {
		d.Spec.Template.Spec.HostNetwork = true
		d.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 12345, Protocol: "TCP"}}
	}), nil), "hostNetwork with a container port and no hostPort")

	tests := map[string]func(*api.Deployment){
		"metadata.name: Required value":                 func(d *api.Deployment) { d.Name = "" },
		"`selector` does not match template `labels`":   func(d *api.Deployment) { d.Spec.Selector.MatchLabels = map[string]string{"name": "def"} },
		"Unsupported value: \"Never\"":                  func(d *api.Deployment) { d.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever },
		`supported values: "Recreate", "RollingUpdate"`: func(d *api.Deployment) { d.Spec.Strategy.Type = "randomType" },
		"may not be specified when strategy `type` is 'Recreate'": func(d *api.Deployment) {
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType, RollingUpdate: &api.RollingUpdateDeployment{}}
		},
		"a valid percent string must be": func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: percent("20Percent")}
		},
		"may not be 0 when `maxSurge` is 0": func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: percent("0%"), MaxUnavailable: intstr(0)}
		},
		"must not be greater than 100%": func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxUnavailable: percent("110%")}
		},
		"must be greater than minReadySeconds": func(d *api.Deployment) {
			d.Spec.ProgressDeadlineSeconds = api.Int32(600)
			d.Spec.MinReadySeconds = 600
		},
	}
	for want, tweak := range tests {
		t.Run(want, func(t *testing.T) {
			t.Parallel()
			errs := validation.ValidateDeployment(kube(tweak), nil)
			require.NotEmpty(t, errs)
			assert.Contains(t, errs[0].Error(), want)
		})
	}
}

func TestValidateRollingUpdateValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                     string
		maxSurge, maxUnavailable *api.IntOrString
		want                     []string
	}{
		{"defaults", percent("25%"), percent("25%"), nil},
		{"surge above 100% is allowed", percent("150%"), percent("25%"), nil},
		{"unavailable 100%", percent("0%"), percent("100%"), nil},
		{"unavailable above replicas is allowed", intstr(1), intstr(50), nil},
		{"only surge 0", intstr(0), percent("25%"), nil},
		{"only unavailable 0", intstr(1), intstr(0), nil},
		{"rounds to 0 is allowed", intstr(0), percent("10%"), nil},
		{"1%", percent("0%"), percent("1%"), nil},
		{"unset values count as 0", nil, nil, []string{"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"}},
		{"string zero is zero", percent("0"), intstr(0), []string{
			`spec.strategy.rollingUpdate.maxSurge: Invalid value: "0": ` + percentDetail,
			"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
		}},
		{"empty percent", percent("%"), percent("25%"), []string{`spec.strategy.rollingUpdate.maxSurge: Invalid value: "%": ` + percentDetail}},
		{"negative percent", percent("-5%"), percent("25%"), []string{`spec.strategy.rollingUpdate.maxSurge: Invalid value: "-5%": ` + percentDetail}},
		{"both bad", intstr(-1), percent("x"), []string{
			`spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "x": ` + percentDetail,
			"spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := deployment(func(d *api.Deployment) {
				d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: tc.maxSurge, MaxUnavailable: tc.maxUnavailable}
			})
			assert.Equal(t, tc.want, validation.ValidateDeployment(d, nil).Messages())
		})
	}
}

func TestValidateDeploymentMissingRollingUpdateBlock(t *testing.T) {
	t.Parallel()
	d := deployment(func(d *api.Deployment) { d.Spec.Strategy.RollingUpdate = nil })
	assert.Equal(t, []string{"spec.strategy.rollingUpdate: Required value: this should be defaulted and never be nil"},
		validation.ValidateDeployment(d, nil).Messages())
}

func TestValidateDeploymentSelector(t *testing.T) {
	t.Parallel()
	qualified := "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	tests := []struct {
		name string
		sel  *api.LabelSelector
		want []string
	}{
		{"expressions that match", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"web", "api"}},
			{Key: "canary", Operator: api.LabelSelectorOpDoesNotExist},
		}}, nil},
		{"expressions that do not match", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "app", Operator: api.LabelSelectorOpNotIn, Values: []string{"web"}},
		}}, []string{mismatch}},
		{"in without values", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn}}},
			[]string{"spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
				`spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}: invalid label selector`}},
		{"exists with values", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpExists, Values: []string{"web"}}}},
			[]string{"spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
				`spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Exists","values":["web"]}]}: invalid label selector`}},
		{"unknown operator", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Gt", Values: []string{"1"}}}},
			[]string{`spec.selector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator`,
				`spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Gt","values":["1"]}]}: invalid label selector`}},
		{"bad key and value", &api.LabelSelector{MatchLabels: map[string]string{"-app": "web!"}},
			[]string{`spec.selector.matchLabels: Invalid value: "-app": ` + qualified,
				`spec.selector.matchLabels: Invalid value: "web!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
				`spec.selector: Invalid value: {"matchLabels":{"-app":"web!"}}: invalid label selector`}},
		{"bad expression value", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"a b"}}}},
			[]string{`spec.selector.matchExpressions[0].values[0]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
				`spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In","values":["a b"]}]}: invalid label selector`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := deployment(func(d *api.Deployment) { d.Spec.Selector = tc.sel })
			assert.Equal(t, tc.want, validation.ValidateDeployment(d, nil).Messages())
		})
	}
}

func TestValidateDeploymentCollectsEveryError(t *testing.T) {
	t.Parallel()
	d := deployment(func(d *api.Deployment) {
		d.Name = ""
		d.Spec.Replicas = api.Int32(-2)
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, api.Container{Name: "web", ImagePullPolicy: "IfNotPresent", TerminationMessagePolicy: "File"})
		d.Spec.Strategy.RollingUpdate.MaxUnavailable = percent("200%")
		d.Spec.MinReadySeconds = 700
	})
	errs := validation.ValidateDeployment(d, nil)
	assert.Equal(t, []string{
		"metadata.name: Required value: name or generateName is required",
		"spec.replicas: Invalid value: -2: must be greater than or equal to 0",
		"spec.template.spec.containers[1].image: Required value",
		`spec.template.spec.containers[1].name: Duplicate value: "web"`,
		`spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "200%": must not be greater than 100%`,
		"spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds",
	}, errs.Messages())
	assert.True(t, strings.HasPrefix(errs.Error(), "[metadata.name: Required value"))
}

func TestValidateReplicaSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tweak func(*api.ReplicaSet)
		want  []string
	}{
		{"valid", func(*api.ReplicaSet) {}, nil},
		{"zero replicas", func(rs *api.ReplicaSet) { rs.Spec.Replicas = api.Int32(0) }, nil},
		{"negative replicas", func(rs *api.ReplicaSet) { rs.Spec.Replicas = api.Int32(-1) },
			[]string{"spec.replicas: Invalid value: -1: must be greater than or equal to 0"}},
		{"negative minReadySeconds", func(rs *api.ReplicaSet) { rs.Spec.MinReadySeconds = -3 },
			[]string{"spec.minReadySeconds: Invalid value: -3: must be greater than or equal to 0"}},
		{"no selector", func(rs *api.ReplicaSet) { rs.Spec.Selector = nil }, []string{"spec.selector: Required value",
			"spec.template.metadata.labels: Invalid value: {\"app\":\"web\",\"pod-template-hash\":\"5d9c7b8f4\"}: `selector` does not match template `labels`"}},
		{"empty selector says deployment, as kube does", func(rs *api.ReplicaSet) { rs.Spec.Selector = &api.LabelSelector{} },
			[]string{"spec.selector: Invalid value: {}: empty selector is invalid for deployment"}},
		{"labels do not match", func(rs *api.ReplicaSet) { rs.Spec.Template.Labels = map[string]string{"app": "web"} },
			[]string{"spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"}},
		{"restart policy", func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever },
			[]string{`spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`}},
		{"unknown restart policy fails twice", func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.RestartPolicy = "Sometimes" },
			[]string{`spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
				`spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always"`}},
		{"activeDeadlineSeconds", func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.ActiveDeadlineSeconds = api.Int64(0) },
			[]string{"spec.template.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive",
				"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"}},
		{"no containers", func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.Containers = nil },
			[]string{"spec.template.spec.containers: Required value"}},
		{"bad template label is reported without metadata", func(rs *api.ReplicaSet) {
			rs.Spec.Template.Labels["bad key"] = "x"
		}, []string{`spec.template.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`}},
		{"invalid selector skips the template", func(rs *api.ReplicaSet) {
			rs.Spec.Selector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Bad"}}}
			rs.Spec.Template.Spec.Containers = nil
		}, []string{`spec.selector.matchExpressions[0].operator: Invalid value: "Bad": not a valid selector operator`,
			`spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Bad"}]}: invalid label selector`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidateReplicaSet(replicaSet(tc.tweak), nil).Messages())
		})
	}
}

func TestValidateReplicaSetUpdate(t *testing.T) {
	t.Parallel()
	old := replicaSet(func(rs *api.ReplicaSet) { rs.UID, rs.ResourceVersion, rs.Generation = "u", "3", 1 })
	scaled := old.DeepCopy()
	scaled.Spec.Replicas = api.Int32(7)
	assert.Empty(t, validation.ValidateReplicaSet(scaled, old))

	moved := old.DeepCopy()
	moved.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	assert.Equal(t, []string{`spec.selector: Invalid value: {"matchLabels":{"app":"web"}}: field is immutable`},
		validation.ValidateReplicaSet(moved, old).Messages())
}
