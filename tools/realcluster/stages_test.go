package realcluster

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kwokDir is the kwok module in the module cache (realcluster build
// downloads it).
func kwokDir(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "env", "GOMODCACHE")
	out, err := cmd.Output()
	require.NoError(t, err)
	dir := filepath.Join(strings.TrimSpace(string(out)), "sigs.k8s.io", "kwok@v0.8.0")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the kwok module is not downloaded (cd tools/realcluster/kwok && go mod download): %v", err)
	}
	return dir
}

func TestStages(t *testing.T) {
	t.Parallel()
	dir := kwokDir(t)
	tests := []struct {
		scenario string
		want     []string
		not      []string
	}{
		{"rolling-update", []string{"name: node-initialize", "name: pod-ready",
			`expressionFrom: 'if .spec.containers[0].image == "myrepo/web:2.0" then "5s" else "3s" end'`, "name: pod-delete"},
			[]string{"pod-never-ready", "pod-pull-fail"}},
		{"stuck-bad-image", []string{"name: pod-pull-fail", "      - 'myrepo/web:2.0-typo'", "operator: 'NotIn'"}, []string{"pod-never-ready"}},
		{"stuck-never-ready", []string{"name: pod-never-ready"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			t.Parallel()
			out, err := Stages(loadScenario(t, tt.scenario), dir, nil)
			require.NoError(t, err)
			for _, w := range tt.want {
				assert.Contains(t, string(out), w)
			}
			for _, w := range tt.not {
				assert.NotContains(t, string(out), w)
			}
		})
	}
}

func TestUnreplayable(t *testing.T) {
	t.Parallel()
	tests := []struct{ scenario, want string }{
		{"rolling-update", ""},
		{"recreate", ""},
		{"crashloop", "crashes"},
		{"node-lost", "fault node-down"},
		{"hpa-scale-on-load", "metrics"},
		{"graceful-shutdown", "expects on a stopped container"},
		{"startup-probe", "a startup probe"},
		{"startup-probe", "a liveness probe that fails while image myrepo/legacy:1.0 starts"},
		{"pod-deleted", ""},
		{"readiness-gating", ""},
		{"stuck-no-capacity", ""},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			t.Parallel()
			got := Unreplayable(loadScenario(t, tt.scenario))
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Contains(t, got, tt.want)
		})
	}
}

// Converge's kubelet makes rolling-update's myrepo/web:1.0 pods ready 3
// seconds after their creation and myrepo/web:2.0's after 5 (pull, start);
// readiness-gating's pods wait for their readiness probe's first pass.
func TestReadyDelays(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scenario string
		want     map[string]int64
	}{
		{"rolling-update", map[string]int64{"myrepo/web:1.0": 3, "myrepo/web:2.0": 5}},
		{"readiness-gating", map[string]int64{"myrepo/api:1.0": 8, "myrepo/api:1.1": 11}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			t.Parallel()
			got, err := ReadyDelays(bytes.NewReader(traceOf(t, loadScenario(t, tt.scenario))))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// An image reference the kubelet cannot parse waits in InvalidImageName on
// kwok too (kwok takes any image), with the kubelet's message.
func TestStagesInvalidImage(t *testing.T) {
	t.Parallel()
	scn := loadScenario(t, "invalid-image-name")
	st, err := Stages(scn, kwokDir(t), nil)
	require.NoError(t, err)
	assert.Contains(t, string(st), "name: pod-invalid-image")
	assert.Contains(t, string(st), "reason: InvalidImageName")
	assert.Contains(t, string(st), `Failed to apply default image tag \"Nginx:1.27\"`)
}
