package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// TestAutoscaleValidate ports kubectl 1.35's TestAutoscaleValidate rows
// (pkg/cmd/autoscale) and the --cpu/--memory checks of Validate.
func TestAutoscaleValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts autoscaleOpts
		err  string
	}{
		{"valid options", autoscaleOpts{max: 10, min: 1}, ""},
		{"max less than 1", autoscaleOpts{max: 0, min: 1}, "--max=MAXPODS is required and must be at least 1, max: 0"},
		{"min greater than max", autoscaleOpts{max: 1, min: 2}, "--max=MAXPODS must be larger or equal to --min=MINPODS, max: 1, min: 2"},
		{"zero min replicas", autoscaleOpts{max: 5, min: 0}, ""},
		{"negative min replicas", autoscaleOpts{max: 5, min: -2}, ""},
		{"cpu and cpu-percent", autoscaleOpts{max: 5, cpuPc: 50, cpu: "50%"}, "--cpu-percent and --cpu are mutually exclusive"},
		{"cpu-percent -1 with cpu", autoscaleOpts{max: 5, cpuPc: -1, cpu: "50%"}, ""},
		{"bad percentage", autoscaleOpts{max: 5, cpu: "x%"}, "invalid percentage value: x"},
		{"negative percentage", autoscaleOpts{max: 5, cpu: "-5%"}, "invalid percentage value: -5"},
		{"bad cpu quantity", autoscaleOpts{max: 5, cpu: "lots"}, "invalid resource cpu value: lots"},
		{"bad memory quantity", autoscaleOpts{max: 5, memory: "1Qi"}, "invalid resource memory value: 1Qi"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.opts.validate()
			if tc.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, "error: "+tc.err, err.Error())
		})
	}
}

// TestParseResourceTarget follows parseResourceInput: a percentage, a
// bare number in the resource's default unit, or a quantity.
func TestParseResourceTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, resource, typ, value string
		util                           int32
	}{
		{"percentage", "70%", api.ResourceCPU, api.UtilizationMetricType, "", 70},
		{"spaces around", " 70% ", api.ResourceCPU, api.UtilizationMetricType, "", 70},
		{"cpu quantity", "500m", api.ResourceCPU, api.AverageValueMetricType, "500m", 0},
		{"bare cpu number is millicores", "500", api.ResourceCPU, api.AverageValueMetricType, "500m", 0},
		{"bare memory number is mebibytes", "200", api.ResourceMemory, api.AverageValueMetricType, "200Mi", 0},
		{"memory quantity", "1Gi", api.ResourceMemory, api.AverageValueMetricType, "1Gi", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseResourceTarget(tc.in, tc.resource)
			require.NoError(t, err)
			assert.Equal(t, tc.typ, got.Type)
			if tc.value != "" {
				require.NotNil(t, got.AverageValue)
				assert.Equal(t, tc.value, got.AverageValue.String())
			} else {
				assert.Equal(t, tc.util, *got.AverageUtilization)
			}
		})
	}
	_, err := parseResourceTarget("", api.ResourceCPU)
	assert.EqualError(t, err, "empty input")
}

// TestCreateHorizontalPodAutoscalerV2 ports the rows of kubectl's test of
// the same name that apply to the simulated kinds.
func TestCreateHorizontalPodAutoscalerV2(t *testing.T) {
	t.Parallel()
	deploy, rs := api.ResourceFor(api.KindDeployment), api.ResourceFor(api.KindReplicaSet)
	cpu := func(n int32) api.MetricSpec {
		return resourceMetric(api.ResourceCPU, api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(n)})
	}
	tests := []struct {
		name    string
		opts    autoscaleOpts
		rt      *resourceType
		ref     string
		wantMin *int32
		metrics []api.MetricSpec
	}{
		{"create with all options", autoscaleOpts{name: "custom-name", max: 10, min: 2, cpuPc: 80}, deploy, "deployment-1", api.Int32(2), []api.MetricSpec{cpu(80)}},
		{"create without min replicas", autoscaleOpts{name: "custom-name-2", max: 10, min: -1, cpuPc: 80}, deploy, "deployment-2", nil, []api.MetricSpec{cpu(80)}},
		{"create without cpu utilization", autoscaleOpts{name: "custom-name-4", max: 10, min: 2, cpuPc: -1}, deploy, "deployment-4", api.Int32(2), nil},
		{"create with replicaset reference", autoscaleOpts{name: "replicaset-hpa", max: 5, min: 1, cpuPc: 70}, rs, "frontend", api.Int32(1), []api.MetricSpec{cpu(70)}},
		{"create with cpu and memory", autoscaleOpts{max: 10, min: 2, cpuPc: -1, cpu: "60%", memory: "70%"}, deploy, "web", api.Int32(2),
			[]api.MetricSpec{cpu(60), resourceMetric(api.ResourceMemory, api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(70)})}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := tc.opts.hpaV2(tc.rt, tc.ref)
			name := tc.opts.name
			if name == "" {
				name = tc.ref
			}
			assert.Equal(t, name, h.Name)
			assert.Equal(t, api.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: tc.rt.Kind, Name: tc.ref}, h.Spec.ScaleTargetRef)
			assert.Equal(t, tc.wantMin, h.Spec.MinReplicas)
			assert.Equal(t, tc.opts.max, h.Spec.MaxReplicas)
			assert.Equal(t, tc.metrics, h.Spec.Metrics)
		})
	}
}

// TestAutoscale runs the command against the fixture's Deployment web:
// the Kubernetes HPA walkthrough's `kubectl autoscale ... --cpu=50%`.
func TestAutoscale(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		steps   []step
		hpa     string // the HPA that must exist afterwards, "" for none
		min     int32
		max     int32
		metrics []api.MetricSpec
	}{
		{name: "the walkthrough", steps: []step{{"autoscale deployment web --min=2 --max=5 --cpu=50%",
			"horizontalpodautoscaler.autoscaling/web autoscaled", ""}}, hpa: "web", min: 2, max: 5,
			metrics: []api.MetricSpec{resourceMetric(api.ResourceCPU, api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(50)})}},
		{name: "defaults: min 1, cpu at 80%", steps: []step{{"autoscale deploy/web --max=3",
			"horizontalpodautoscaler.autoscaling/web autoscaled", ""}}, hpa: "web", min: 1, max: 3,
			metrics: []api.MetricSpec{resourceMetric(api.ResourceCPU, api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(80)})}},
		{name: "deprecated --cpu-percent warns", steps: []step{{"autoscale deployment web --max=4 --cpu-percent=60 --name=front",
			"horizontalpodautoscaler.autoscaling/front autoscaled", strings.TrimSuffix(msgCPUPercentDeprecated, "\n")}}, hpa: "front", min: 1, max: 4,
			metrics: []api.MetricSpec{resourceMetric(api.ResourceCPU, api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(60)})}},
		{name: "average value", steps: []step{{"autoscale deployment web --max=4 --cpu=200 --memory=100Mi",
			"horizontalpodautoscaler.autoscaling/web autoscaled", ""}}, hpa: "web", min: 1, max: 4,
			metrics: []api.MetricSpec{resourceMetric(api.ResourceCPU, api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: quantityPtr("200m")}),
				resourceMetric(api.ResourceMemory, api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: quantityPtr("100Mi")})}},
		{name: "max is required", steps: []step{{"autoscale deployment web --min=2", "", `error: required flag(s) "max" not set`}}},
		{name: "max below min", steps: []step{{"autoscale deployment web --min=6 --max=5", "",
			"error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: 5, min: 6"}}},
		{name: "not found", steps: []step{{"autoscale deployment nope --max=5", "", `Error from server (NotFound): deployments.apps "nope" not found`}}},
		{name: "no scale subresource", steps: []step{{"autoscale pod web-66b6c48dd5-4jw2m --max=5", "",
			"error: cannot autoscale a Pod: could not find scale subresource for /v1, Resource=pods in discovery information"}}},
		{name: "type without name", steps: []step{{"autoscale deployment --max=5", "", "error: resource(s) were provided, but no name was specified"}}},
		{name: "client dry run", steps: []step{{"autoscale deployment web --max=5 --dry-run=client",
			"horizontalpodautoscaler.autoscaling/web created (dry run)", ""}}},
		{name: "server dry run", steps: []step{{"autoscale deployment web --max=5 --dry-run=server",
			"horizontalpodautoscaler.autoscaling/web autoscaled (server dry run)", ""}}},
		// A second autoscale: the v2 create fails (AlreadyExists), and 1.35
		// falls back to v1 only when its canCreateHPAV1 allows it.
		{name: "exists, with a utilization target: the v1 fallback's error", hpa: "web", min: 2, max: 5,
			metrics: []api.MetricSpec{resourceMetric(api.ResourceCPU, api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(50)})},
			steps: []step{{"autoscale deployment web --min=2 --max=5 --cpu=50%", "horizontalpodautoscaler.autoscaling/web autoscaled", ""},
				{"autoscale deployment web --max=6 --cpu=40%", "", `Error from server (AlreadyExists): horizontalpodautoscalers.autoscaling "web" already exists`}}},
		{name: "exists, without --cpu: canCreateHPAV1's empty input", hpa: "web", min: 2, max: 5,
			metrics: []api.MetricSpec{resourceMetric(api.ResourceCPU, api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(50)})},
			steps: []step{{"autoscale deployment web --min=2 --max=5 --cpu=50%", "horizontalpodautoscaler.autoscaling/web autoscaled", ""},
				{"autoscale deployment web --max=6", "",
					"error: failed to create autoscaling/v2 HPA and the configuration is incompatible with autoscaling/v1: empty input"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			runSteps(t, f, tc.steps)
			h, err := f.st.GetHorizontalPodAutoscaler("default", tc.hpa)
			if tc.hpa == "" {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, api.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}, h.Spec.ScaleTargetRef)
			assert.Equal(t, tc.min, *h.Spec.MinReplicas)
			assert.Equal(t, tc.max, h.Spec.MaxReplicas)
			assert.Equal(t, tc.metrics, h.Spec.Metrics)
		})
	}
}

func quantityPtr(s string) *api.Quantity {
	q := api.MustQuantity(s)
	return &q
}
