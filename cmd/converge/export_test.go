package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/export"
	"converge/core/scenario"
	"converge/core/version"
)

func TestExportKubectlPrintsTheReplayScript(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", goodScenario)
	code, stdout, stderr := runCLI(t, "export-kubectl", f)
	require.Equal(t, exitOK, code, stderr)
	scn, probs := scenario.Parse([]byte(goodScenario), f)
	require.False(t, probs.HasErrors())
	want, err := export.Kubectl(scn, export.KubectlOptions{File: "small.yaml", Version: version.Version})
	require.NoError(t, err)
	assert.Equal(t, string(want), stdout)
	assert.Contains(t, stdout, "scenario_file=small.yaml\n")
	assert.Contains(t, stdout, "\nat 10\nstep 'scale deployment/web --replicas=3' scale deployment/web --replicas=3\n")
	if bash, err := exec.LookPath("bash"); err == nil {
		script := writeFile(t, "replay.sh", stdout)
		out, err := exec.Command(bash, "-n", script).CombinedOutput()
		assert.NoError(t, err, "%s", out)
	}
}

// --image-map chooses the real images over the default map; none keeps
// the simulation's.
func TestExportKubectlImageMap(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", strings.ReplaceAll(goodScenario, "nginx:1.27", "myrepo/web:1.0"))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"default", nil, "image: registry.k8s.io/pause:3.10\n"},
		{"chosen", []string{"--image-map", "myrepo/web:1.0=nginx:1.28"}, "image: nginx:1.28\n"},
		{"none", []string{"--image-map=none"}, "image: myrepo/web:1.0\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCLI(t, append(append([]string{"export-kubectl"}, tc.args...), f)...)
			require.Equal(t, exitOK, code, stderr)
			assert.Contains(t, stdout, tc.want)
		})
	}
}

func TestExportKubectlRefusesBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"no file", []string{"export-kubectl"}, exitBadInput, "export-kubectl needs exactly one FILE"},
		{"two files", []string{"export-kubectl", "a", "b"}, exitBadInput, "export-kubectl needs exactly one FILE"},
		{"missing file", []string{"export-kubectl", filepath.Join(t.TempDir(), "nope.yaml")}, exitBadInput, "nope.yaml"},
		{"bad image map", []string{"export-kubectl", "--image-map", "myrepo/web:1.0", "f.yaml"}, exitBadInput,
			`image map: "myrepo/web:1.0" is not SIM=REAL`},
		{"bad scenario", []string{"export-kubectl", writeFile(t, "bad.yaml", "name: x\nduraton: 5s\n")}, exitBadInput,
			`bad.yaml:2:1: unknown field "duraton"; did you mean "duration"?`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCLI(t, tc.args...)
			assert.Equal(t, tc.wantCode, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.wantStderr)
		})
	}
}

// The page's trace download (export.Trace, which the wasm runs) is the very
// bytes of converge run --output jsonl, for shipped scenarios and for a
// scenario with a console step marshalled back.
func TestRunJSONLEqualsTheTraceExport(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"basic-loop", "node-lost", "rolling-update", "stuck-bad-image"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := fsReadScenario(name)
			require.NoError(t, err)
			f := writeFile(t, name+".yaml", src)
			code, stdout, stderr := runCLI(t, "run", f, "--output", "jsonl")
			require.Equal(t, exitOK, code, stderr)
			scn, probs := scenario.Parse([]byte(src), f)
			require.False(t, probs.HasErrors())
			var b bytes.Buffer
			require.NoError(t, export.Trace(&b, scn, scn.Duration))
			assert.True(t, b.String() == stdout, "export.Trace differs from converge run --output jsonl for %s", name)
			assert.Equal(t, strings.Count(stdout, "\n"), int(scn.Duration.Seconds())+1)
		})
	}
}
