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

// TestKwokPinsAreKcsVersions: kwokpin builds kwok from exactly kc's
// modules, so that a cold build compiles them once (kwokpin's go.mod says
// how). When kc's modules move, kwokpin's must: each module kc has at the
// version kc's build selects, kc's replaces, and a directory replace
// (./mods/PATH, or ./src for kwok) only for a module kc does not have, at
// tools/realcluster/kwok's version (its go.sum has it).
func TestKwokPinsAreKcsVersions(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Version}}", "all")
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

	own := readGoMod(t, "kwok")
	kwokOwn := map[string]string{}
	for _, r := range own.Require {
		kwokOwn[r.Path] = r.Version
	}
	pin := readGoMod(t, "kwokpin")
	required := map[string]string{}
	for _, r := range pin.Require {
		required[r.Path] = r.Version
		if v, ok := kc[r.Path]; ok {
			assert.Equal(t, v, r.Version, "%s: kwokpin requires %s, kc's build selects %s", r.Path, r.Version, v)
		}
	}
	kcMod := readGoMod(t, ".")
	kcReplace := map[string]string{}
	for _, r := range kcMod.Replace {
		kcReplace[r.Old.Path] = r.New.Path + " " + r.New.Version
	}
	dirs := 0
	for _, r := range pin.Replace {
		if strings.HasPrefix(r.New.Path, "./") {
			dirs++
			_, kcHas := kc[r.Old.Path]
			assert.False(t, kcHas, "%s is kc's too: require it at kc's version, do not copy it", r.Old.Path)
			want := "./mods/" + r.Old.Path
			if r.Old.Path == "sigs.k8s.io/kwok" {
				want = "./src"
			}
			assert.Equal(t, want, r.New.Path)
			assert.Equal(t, kwokOwn[r.Old.Path], required[r.Old.Path], "%s: at tools/realcluster/kwok's version", r.Old.Path)
			continue
		}
		assert.Equal(t, kcReplace[r.Old.Path], r.New.Path+" "+r.New.Version, "%s: kc's replace", r.Old.Path)
	}
	for old, repl := range kcReplace {
		if old == "converge" {
			continue
		}
		found := false
		for _, r := range pin.Replace {
			found = found || r.Old.Path == old && r.New.Path+" "+r.New.Version == repl
		}
		assert.True(t, found, "kc replaces %s by %s: so must kwokpin", old, repl)
	}
	assert.NotEmpty(t, kwokOwn["sigs.k8s.io/kwok"])
	assert.Equal(t, kwokOwn["sigs.k8s.io/kwok"], required["sigs.k8s.io/kwok"], "kwokpin builds the kwok that tools/realcluster/kwok builds")
	assert.Greater(t, dirs, 1, "kwok and the modules only kwok uses are copied")
}
