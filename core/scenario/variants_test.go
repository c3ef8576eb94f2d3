package scenario

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// variantsSummary is what two equal scenarios' variants share: each
// variant's name, its patches (target and JSON) and its objects.
func variantsSummary(s *Scenario) []string {
	var out []string
	for _, v := range s.Variants {
		b, _ := json.Marshal(struct {
			Name    string
			Patches []string
			Objects []string
		}{v.Name, patchesSummary(v.Patches), objectsJSON(v.Objects)})
		out = append(out, string(b))
	}
	return out
}

func patchesSummary(ps []Patch) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Target+" "+string(p.JSON))
	}
	return out
}

func loadOK(t *testing.T, name string) *Scenario {
	t.Helper()
	data, err := os.ReadFile("testdata/ok/" + name)
	require.NoError(t, err)
	s, probs := Parse(data, name)
	require.False(t, probs.HasErrors(), "%v", probs)
	return s
}

func deploymentOf(t *testing.T, s *Scenario) *api.Deployment {
	t.Helper()
	for _, d := range s.Objects {
		if dep, ok := d.Object.(*api.Deployment); ok {
			return dep
		}
	}
	t.Fatal("no Deployment")
	return nil
}

func TestVariantsAreParsedAndTheFirstIsSelected(t *testing.T) {
	t.Parallel()
	s := loadOK(t, "variants.yaml")
	assert.Equal(t, []string{"surge-one", "no-surge", "recreate"}, s.VariantNames())
	assert.Equal(t, "surge-one", s.Selected())
	require.Len(t, s.Variants, 3)
	assert.Empty(t, s.Variants[0].Patches, "a variant without patch is the scenario as written")
	assert.Equal(t, []string{`deploy/web {"spec":{"strategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":1}}}}`},
		patchesSummary(s.Variants[1].Patches))
	assert.Equal(t, []string{
		`deployments.apps/web {"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}`,
		`cm/settings {"data":{"mode":null,"slow":"true"}}`,
	}, patchesSummary(s.Variants[2].Patches))
	assert.Equal(t, "Deployment", s.Variants[2].Patches[0].Kind)
	assert.Equal(t, 33, s.Variants[2].Patches[0].Line)
	assert.Equal(t, 5, s.Variants[2].Patches[0].Col)

	ru := deploymentOf(t, s).Spec.Strategy.RollingUpdate
	require.NotNil(t, ru)
	assert.Equal(t, "1", ru.MaxSurge.String(), "Objects are the first variant's: as written")

	v, err := s.WithVariant("no-surge")
	require.NoError(t, err)
	assert.Equal(t, "no-surge", v.Selected())
	ru = deploymentOf(t, v).Spec.Strategy.RollingUpdate
	assert.Equal(t, "0", ru.MaxSurge.String())
	assert.Equal(t, "1", ru.MaxUnavailable.String())

	r, err := s.WithVariant("recreate")
	require.NoError(t, err)
	d := deploymentOf(t, r)
	assert.Equal(t, api.RecreateDeploymentStrategyType, d.Spec.Strategy.Type)
	assert.Nil(t, d.Spec.Strategy.RollingUpdate, "null deletes")
	cm := r.Objects[1].Object.(*api.ConfigMap)
	assert.Equal(t, map[string]string{"slow": "true"}, cm.Data)
	assert.Equal(t, "nginx:1.26", d.Spec.Template.Spec.Containers[0].Image, "what the patch does not name stays")

	assert.Equal(t, "1", deploymentOf(t, s).Spec.Strategy.RollingUpdate.MaxSurge.String(), "selecting copies: s is unchanged")
}

func TestWithVariantUnknownNameListsTheNames(t *testing.T) {
	t.Parallel()
	s := loadOK(t, "variants.yaml")
	_, err := s.WithVariant("blue")
	var uv *UnknownVariantError
	require.True(t, errors.As(err, &uv))
	assert.Equal(t, `unknown variant "blue": the scenario's variants are surge-one, no-surge, recreate`, err.Error())

	plain := mustParse(t, "name: plain\n")
	_, err = plain.WithVariant("x")
	assert.EqualError(t, err, `unknown variant "x": the scenario has no variants`)
	assert.Equal(t, "", plain.Selected())
}

func TestWithVariantIsIndependentOfItsScenario(t *testing.T) {
	t.Parallel()
	s := loadOK(t, "variants.yaml")
	v, err := s.WithVariant("recreate")
	require.NoError(t, err)
	require.NoError(t, v.AppendStep(Step{At: 20 * time.Second, Kubectl: "scale deployment/web --replicas=6"}))
	assert.Len(t, v.Steps, 2)
	assert.Len(t, s.Steps, 1, "the step went to the copy only")

	out, err := v.Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(out), "scale deployment/web --replicas=6")
	assert.Contains(t, string(out), "variants:", "the copy marshals the whole scenario, variants included")
	orig, err := s.Marshal()
	require.NoError(t, err)
	assert.NotContains(t, string(orig), "--replicas=6")

	back, probs := Parse(out, "v.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	assert.Equal(t, "surge-one", back.Selected(), "a marshalled scenario selects its first variant again")
	assert.Equal(t, variantsSummary(s), variantsSummary(back))
}

func TestVariantsRoundTrip(t *testing.T) {
	t.Parallel()
	s := loadOK(t, "variants.yaml")
	out := assertRoundTrip(t, s)
	assert.True(t, strings.HasPrefix(string(out), "# Variants: the same rollout under three strategies.\n"), "%s", out)
	assert.Contains(t, string(out), "- name: surge-one # no patch: the scenario as written\n", "comments are kept")
	assert.Contains(t, string(out), "    deploy/web: {spec: {strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}}}\n")
}

func TestVariantsOfAScenarioBuiltInCodeAreMarshalled(t *testing.T) {
	t.Parallel()
	parsed := loadOK(t, "variants.yaml")
	built := &Scenario{Name: "built", Seed: DefaultSeed, Duration: time.Minute, Cluster: DefaultCluster(),
		Objects: parsed.writtenObjects(), Steps: parsed.Steps}
	for _, v := range parsed.Variants {
		v.Line, v.Col = 0, 0
		for i := range v.Patches {
			v.Patches[i].node = nil // as a Scenario built in code has them
		}
		built.Variants = append(built.Variants, v)
	}
	out := assertRoundTrip(t, built)
	assert.Contains(t, string(out), `variants:
- name: surge-one
- name: no-surge
  patch:
    deploy/web: {spec: {strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}}}
- name: recreate
  patch:
    deployments.apps/web: {spec: {strategy: {type: Recreate, rollingUpdate: null}}}
    cm/settings: {data: {mode: null, slow: "true"}}
steps:`)
}

func TestApplyPatch(t *testing.T) {
	t.Parallel()
	base := func() api.Object {
		return &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: api.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web", "tier": "front"}},
			Spec: api.DeploymentSpec{Replicas: new(int32(3)), MinReadySeconds: 5,
				Template: api.PodTemplateSpec{Spec: api.PodSpec{Containers: []api.Container{{Name: "a", Image: "a:1"}, {Name: "b", Image: "b:1"}}}}}}
	}
	tests := []struct {
		name, patch string
		check       func(t *testing.T, d *api.Deployment)
		err         string
	}{
		{"a field is replaced", `{"spec":{"replicas":7}}`, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, int32(7), *d.Spec.Replicas)
			assert.Equal(t, int32(5), d.Spec.MinReadySeconds, "the fields beside it stay")
		}, ""},
		{"null deletes a field", `{"spec":{"minReadySeconds":null}}`, func(t *testing.T, d *api.Deployment) {
			assert.Zero(t, d.Spec.MinReadySeconds)
		}, ""},
		{"null deletes a map key, others stay", `{"metadata":{"labels":{"tier":null,"new":"x"}}}`, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, map[string]string{"app": "web", "new": "x"}, d.Labels)
		}, ""},
		{"a list is replaced whole (RFC 7386)", `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"c:2"}]}}}}`,
			func(t *testing.T, d *api.Deployment) {
				require.Len(t, d.Spec.Template.Spec.Containers, 1)
				assert.Equal(t, "c:2", d.Spec.Template.Spec.Containers[0].Image)
			}, ""},
		{"an IntOrString takes a number or a percentage", `{"spec":{"strategy":{"rollingUpdate":{"maxSurge":"50%","maxUnavailable":0}}}}`,
			func(t *testing.T, d *api.Deployment) {
				assert.Equal(t, "50%", d.Spec.Strategy.RollingUpdate.MaxSurge.String())
				assert.Equal(t, "0", d.Spec.Strategy.RollingUpdate.MaxUnavailable.String())
			}, ""},
		{"a big number keeps its digits", `{"metadata":{"generation":9007199254740993}}`, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, int64(9007199254740993), d.Generation)
		}, ""},
		{"an empty patch changes nothing", `{}`, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, base(), api.Object(d))
		}, ""},
		{"a patch that is not an object", `[1]`, nil, "a merge patch must be a mapping"},
		{"a patch that is not JSON", `{`, nil, "invalid merge patch: unexpected EOF"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			orig := base()
			got, err := ApplyPatch(orig, []byte(tc.patch))
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			tc.check(t, got.(*api.Deployment))
			assert.Equal(t, base(), orig, "the object is not changed")
		})
	}
}

func TestPatchString(t *testing.T) {
	t.Parallel()
	s := loadOK(t, "variants.yaml")
	var got []string
	for _, p := range s.Variants[2].Patches {
		got = append(got, p.String())
	}
	assert.Equal(t, []string{
		"deployments.apps/web: {spec: {strategy: {type: Recreate, rollingUpdate: null}}}",
		`cm/settings: {data: {mode: null, slow: "true"}}`,
	}, got)
}
