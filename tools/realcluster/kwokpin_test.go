package realcluster

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type goMod struct {
	Require []struct{ Path, Version string }
	Replace []struct {
		Old struct{ Path string }
		New struct{ Path, Version string }
	}
}

func readGoMod(t *testing.T, dir string) goMod {
	t.Helper()
	cmd := exec.Command("go", "mod", "edit", "-json")
	cmd.Dir = dir
	out, err := cmd.Output()
	require.NoError(t, err)
	var m goMod
	require.NoError(t, json.Unmarshal(out, &m))
	return m
}

// TestKwokPinsAreKcsVersions: kwokpin builds kwok with every module it
// shares with kc at kc's version, so that a cold build compiles those
// packages once (cmd/realcluster/kwokpin.go). A module kc moves to another
// version, or one kwok needs that kc also has, must move here too.
func TestKwokPinsAreKcsVersions(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{with .Replace}}{{.Version}}{{else}}{{.Version}}{{end}}", "all")
	cmd.Env = append(cmd.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	require.NoError(t, err, "go list -m all in tools/realcluster")
	kc := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			kc[f[0]] = f[1]
		}
	}
	require.Equal(t, "v1.35.4", kc["k8s.io/kubernetes"])

	pin := readGoMod(t, "kwokpin")
	pinned := map[string]string{}
	for _, r := range pin.Replace {
		if r.Old.Path == "sigs.k8s.io/kwok" {
			assert.Equal(t, "./src", r.New.Path, "kwok's ported module")
			continue
		}
		assert.Equal(t, r.Old.Path, r.New.Path, "a pin replaces a module by itself at another version")
		v, ok := kc[r.Old.Path]
		if assert.True(t, ok, "%s is pinned but kc does not use it", r.Old.Path) {
			assert.Equal(t, v, r.New.Version, "%s: pinned at %s, kc's is %s", r.Old.Path, r.New.Version, v)
		}
		pinned[r.Old.Path] = r.New.Version
	}
	own := readGoMod(t, "kwok")
	var kwokVersion string
	for _, r := range own.Require {
		if r.Path == "sigs.k8s.io/kwok" {
			kwokVersion = r.Version
		}
	}
	for _, r := range pin.Require {
		if r.Path == "sigs.k8s.io/kwok" {
			assert.Equal(t, kwokVersion, r.Version, "kwokpin builds the kwok that tools/realcluster/kwok builds")
			continue
		}
		if v, ok := kc[r.Path]; ok && v != r.Version {
			assert.Equal(t, v, pinned[r.Path], "%s: kwok needs %s, kc has %s: pin it (kwokpin's go.mod)", r.Path, r.Version, v)
		}
	}
	assert.NotEmpty(t, kwokVersion)
	assert.Greater(t, len(pinned), 50, "kwok shares dozens of modules with kc")
}
