package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestCompareJSONGolden: `converge compare --output json` of the library's
// compare-strategies against testdata/compare-strategies.json (go test
// -update rewrites it).
func TestCompareJSONGolden(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "compare", filepath.Join("..", "..", "scenarios", "compare-strategies.yaml"), "--output", "json")
	require.Equal(t, exitOK, code, errOut)
	golden := filepath.Join("testdata", "compare-strategies.json")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(out), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), out)
	_, again, _ := runCLI(t, "compare", "--output=json", filepath.Join("..", "..", "scenarios", "compare-strategies.yaml"))
	assert.Equal(t, out, again, "byte-identical run to run")
}

func TestCompareText(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "compare", filepath.Join("..", "..", "scenarios", "compare-strategies.yaml"))
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "Scenario compare-strategies: What does each rollout strategy cost?")
	assert.Contains(t, out, "4 variants (surge-25-unavailable-25, surge-0-unavailable-1, surge-1-unavailable-0, recreate), 120s simulated")
	assert.Contains(t, out, "VARIANT                  ROLLOUT  MIN AVAILABLE  MAX REPLICAS  MAX PODS  PODS CREATED  DEADLINE\n")
	assert.Contains(t, out, "surge-0-unavailable-1    49s      9 (90%)        10            11        10            -\n")
}

func TestCompareWithoutVariantsIsOneVariant(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", goodScenario)
	code, out, errOut := runCLI(t, "compare", f, "--output", "json")
	require.Equal(t, exitOK, code, errOut)
	assert.JSONEq(t, `{"variants": [{"name": "small", "deployments": [{"name": "web", "rolloutStart": null, "rolloutSeconds": null,
		"minAvailable": null, "minAvailablePercent": null, "maxReplicas": null, "maxPods": null, "podsCreated": null,
		"progressDeadlineExceeded": false}]}]}`, out)
}

func TestCompareExitStatus(t *testing.T) {
	t.Parallel()
	bad := writeFile(t, "bad.yaml", "name: bad\nvariants:\n- name: only\n")
	failing := writeFile(t, "failing.yaml", goodScenario+`- at: 19s
  expect: deployment/web .status.availableReplicas == 7
variants:
- name: a
- name: b
  patch:
    deployment/web: {spec: {replicas: 7}}
`)
	tests := []struct {
		name       string
		args       []string
		code       int
		wantStderr string
	}{
		{"a bad file", []string{"compare", bad}, exitBadInput, "bad.yaml:2:1: variants: a scenario has 2 to 6 variants, not 1"},
		{"no file", []string{"compare"}, exitBadInput, "compare needs exactly one FILE"},
		{"a bad output", []string{"compare", bad, "--output", "yaml"}, exitBadInput, `--output must be text or json, not "yaml"`},
		{"an expect that fails in one variant", []string{"compare", failing}, exitFailed,
			"failing.yaml: variant a: at 19s: expect deployment/web .status.availableReplicas == 7: got 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, _, errOut := runCLI(t, tc.args...)
			assert.Equal(t, tc.code, code, errOut)
			assert.Contains(t, errOut, tc.wantStderr)
		})
	}
}

func TestRunVariant(t *testing.T) {
	t.Parallel()
	f := filepath.Join("..", "..", "scenarios", "compare-strategies.yaml")
	code, out, errOut := runCLI(t, "run", f, "--until", "25s")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "Variant surge-25-unavailable-25, of surge-25-unavailable-25, surge-0-unavailable-1, surge-1-unavailable-0, recreate\n")
	assert.Contains(t, out, "Scaled up replica set web-754b8f75d6 from 0 to 3", "the first variant: a surge of 3")

	code, out, errOut = runCLI(t, "run", f, "--variant", "recreate", "--until", "25s")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "Variant recreate, of ")
	assert.Contains(t, out, "Scaled down replica set web-")
	assert.NotContains(t, out, "Scaled up replica set web-754b8f75d6 from 0 to 3")

	code, _, errOut = runCLI(t, "run", f, "--variant", "blue")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, `unknown variant "blue": the scenario's variants are surge-25-unavailable-25, surge-0-unavailable-1, surge-1-unavailable-0, recreate`)
}
