package compare_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/compare"
	"converge/core/outcome"
	"converge/core/sim"
	"converge/core/simtest/simrun"
)

func strategies(t *testing.T) *compare.Run {
	t.Helper()
	r, err := compare.New(simrun.Builtin(t, "compare-strategies"), sim.Options{})
	require.NoError(t, err)
	return r
}

func TestEveryVariantRunsInItsOwnSimulation(t *testing.T) {
	t.Parallel()
	r := strategies(t)
	require.Len(t, r.Variants, 4)
	var names []string
	for _, v := range r.Variants {
		names = append(names, v.Name)
		assert.Equal(t, v.Name, v.Sim.Scenario().Selected())
	}
	assert.Equal(t, []string{"surge-25-unavailable-25", "surge-0-unavailable-1", "surge-1-unavailable-0", "recreate"}, names)
	assert.Same(t, r.Variants[0].Sim, r.Lead())
}

func TestOneClockMovesEveryVariant(t *testing.T) {
	t.Parallel()
	r := strategies(t)
	times := func() []int64 {
		var out []int64
		for _, v := range r.Variants {
			out = append(out, v.Sim.T())
		}
		return out
	}
	r.Step(25)
	assert.Equal(t, []int64{25, 25, 25, 25}, times())
	r.SeekTo(12)
	assert.Equal(t, []int64{12, 12, 12, 12}, times())
	r.Lead().SeekTo(40)
	r.Follow()
	assert.Equal(t, []int64{40, 40, 40, 40}, times(), "Follow brings the others to the lead's second")
	assert.Equal(t, int64(40), r.T())
}

func TestACommandRunsInEveryVariant(t *testing.T) {
	t.Parallel()
	r := strategies(t)
	r.SeekTo(30)
	steps := len(r.Lead().Scenario().Steps)
	res := r.Run("scale deployment/web --replicas=4")
	require.True(t, res.OK, res.Error)
	for _, v := range r.Variants {
		assert.Equal(t, int64(31), v.Sim.T())
		d, err := v.Sim.Store().GetDeployment("default", "web")
		require.NoError(t, err)
		assert.Equal(t, int32(4), *d.Spec.Replicas, v.Name)
		assert.Len(t, v.Sim.Scenario().Steps, steps+1, "%s: the command is a step of each variant's scenario", v.Name)
	}
}

func TestAScenarioWithoutVariantsIsOneVariant(t *testing.T) {
	t.Parallel()
	r, err := compare.New(simrun.Builtin(t, "rolling-update"), sim.Options{})
	require.NoError(t, err)
	require.Len(t, r.Variants, 1)
	assert.Equal(t, "rolling-update", r.Variants[0].Name)
	r.Step(5)
	r.Follow()
	assert.Equal(t, int64(5), r.T())
}

func TestOutcomesTable(t *testing.T) {
	t.Parallel()
	r := strategies(t)
	r.SeekTo(120)
	table := r.Outcomes(120)
	require.Len(t, table.Variants, 4)
	want := map[string][2]int32{ // min available, max replicas
		"surge-25-unavailable-25": {8, 13}, "surge-0-unavailable-1": {9, 10}, "surge-1-unavailable-0": {10, 11}, "recreate": {0, 10},
	}
	for _, v := range table.Variants {
		d := v.Lookup("web")
		require.NotNil(t, d, v.Name)
		assert.Equal(t, want[v.Name], [2]int32{*d.MinAvailable, *d.MaxReplicas}, v.Name)
		assert.NotNil(t, d.RolloutSeconds, v.Name)
	}
	assert.Nil(t, table.Variants[0].Lookup("nope"))
	assert.Equal(t, []string{"web"}, table.Deployments())

	so := r.Outcomes(10)
	for _, v := range so.Variants {
		assert.Equal(t, []outcome.Deployment{{Name: "web"}}, v.Deployments, "no rollout before 20s")
	}

	b, err := json.Marshal(compare.Table{Variants: []compare.VariantOutcome{{Name: "a", Deployments: []outcome.Deployment{{Name: "web"}}}}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"variants":[{"name":"a","deployments":[{"name":"web","rolloutStart":null,"rolloutSeconds":null,
		"minAvailable":null,"minAvailablePercent":null,"maxReplicas":null,"maxPods":null,"podsCreated":null,
		"progressDeadlineExceeded":false}]}]}`, string(b), "every key is there, null when not measured")
}

func TestWriteText(t *testing.T) {
	t.Parallel()
	r := strategies(t)
	r.SeekTo(120)
	var b bytes.Buffer
	require.NoError(t, r.Outcomes(120).WriteText(&b))
	assert.Equal(t, `deployment/web
VARIANT                  ROLLOUT  MIN AVAILABLE  MAX REPLICAS  MAX PODS  PODS CREATED  DEADLINE
surge-25-unavailable-25  11s      8 (80%)        13            18        10            -
surge-0-unavailable-1    49s      9 (90%)        10            11        10            -
surge-1-unavailable-0    49s      10 (100%)      11            12        10            -
recreate                 11s      0 (0%)         10            10        10            -
`, b.String())

	b.Reset()
	require.NoError(t, compare.Table{}.WriteText(&b))
	assert.Equal(t, "No Deployment to compare.\n", b.String())
}

func TestTexts(t *testing.T) {
	t.Parallel()
	n := func(v int32) *int32 { return &v }
	s := func(v int64) *int64 { return &v }
	tests := []struct {
		name string
		d    outcome.Deployment
		want compare.Cells
	}{
		{"no rollout", outcome.Deployment{Name: "web"}, compare.Cells{Rollout: "no rollout", MinAvailable: "-", MaxReplicas: "-", MaxPods: "-", PodsCreated: "-", Deadline: "-"}},
		{"not complete, deadline exceeded", outcome.Deployment{Name: "web", RolloutStart: s(10), MinAvailable: n(3), MinAvailablePercent: n(75),
			MaxReplicas: n(5), MaxPods: n(6), PodsCreated: n(2), ProgressDeadlineExceeded: true},
			compare.Cells{Rollout: "not complete", MinAvailable: "3 (75%)", MaxReplicas: "5", MaxPods: "6", PodsCreated: "2", Deadline: "exceeded"}},
		{"no replicas: no percentage", outcome.Deployment{Name: "web", RolloutStart: s(10), RolloutSeconds: s(125), MinAvailable: n(0),
			MaxReplicas: n(0), MaxPods: n(0), PodsCreated: n(0)},
			compare.Cells{Rollout: "2m5s", MinAvailable: "0", MaxReplicas: "0", MaxPods: "0", PodsCreated: "0", Deadline: "-"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, compare.Texts(tc.d))
		})
	}
}

func TestAroundARunningSimulation(t *testing.T) {
	t.Parallel()
	lead := simrun.New(t, simrun.Builtin(t, "compare-strategies"))
	lead.SeekTo(33)
	r, err := compare.Around(lead, sim.Options{})
	require.NoError(t, err)
	require.Len(t, r.Variants, 4)
	assert.Same(t, lead, r.Lead(), "the running simulation leads")
	for _, v := range r.Variants {
		assert.Equal(t, int64(33), v.Sim.T(), "%s is at the lead's second", v.Name)
		assert.Equal(t, v.Name, v.Sim.Scenario().Selected())
	}
	fresh := strategies(t)
	fresh.SeekTo(33)
	assert.Equal(t, fresh.Outcomes(33), r.Outcomes(33), "the same outcomes as a Run made from the file")
}

func TestAroundASimulationWithoutVariants(t *testing.T) {
	t.Parallel()
	lead := simrun.Load(t, "name: plain\n")
	r, err := compare.Around(lead, sim.Options{})
	require.NoError(t, err)
	require.Len(t, r.Variants, 1)
	assert.Equal(t, "plain", r.Variants[0].Name)
	assert.Same(t, lead, r.Lead())
}
