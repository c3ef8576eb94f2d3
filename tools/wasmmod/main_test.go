package main

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

// The patches apply, each once, to the module version go.mod pins, and
// leave no regexp in it.
func TestPatchesApplyToThePinnedModule(t *testing.T) {
	t.Parallel()
	dir, err := moduleDir()
	require.NoError(t, err)
	files, err := patched(dir, os.ReadFile)
	require.NoError(t, err)
	for name, data := range files {
		assert.NotContains(t, string(data), "regexp", name)
	}
	assert.Contains(t, string(files["resolve.go"]), "var yamlStyleFloat = stringMatcher(isYAMLStyleFloat)")
	assert.Contains(t, string(files["encode.go"]), "var base60float = stringMatcher(isYAMLBase60Float)")
}

func TestPatchRefusesAChangedModule(t *testing.T) {
	t.Parallel()
	_, err := patched("x", func(string) ([]byte, error) { return []byte("package yaml\n"), nil })
	assert.ErrorContains(t, err, "the module changed")
	var skip skipped
	assert.ErrorAs(t, err, &skip, "a changed module skips the patch, it does not fail the build")
}

func TestSyntaxFileBecomesPartOfPackageYAML(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../" + syntaxFile)
	require.NoError(t, err)
	out, err := asYAMLPackage(src)
	require.NoError(t, err)
	assert.Contains(t, string(out), "\npackage yaml\n")
	assert.Contains(t, string(out), "func isYAMLStyleFloat(")
	_, err = asYAMLPackage([]byte("package yamlprint\n\nimport \"regexp\"\n"))
	assert.ErrorContains(t, err, "self-contained")
}

// With the pinned module the wasm build's go.mod replaces it by the
// patched copy; with a module whose text the patches do not match (another
// version), wasmmod warns once and writes the repository's go.mod as it
// is. Either way a program that encodes YAML builds for wasm and runs,
// with the same output; only the patched one leaves regexp out.
func TestAnUnmatchedPatchBuildsThePlainModule(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds wasm programs")
	}
	const root = "../.."
	pinned, err := moduleDir()
	require.NoError(t, err)
	changed := t.TempDir()
	entries, err := os.ReadDir(pinned)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(pinned, e.Name()))
		require.NoError(t, err)
		if e.Name() == "resolve.go" {
			data = bytes.Replace(data, []byte("var yamlStyleFloat = "), []byte("var yamlStyleFloat  = "), 1)
		}
		require.NoError(t, os.WriteFile(filepath.Join(changed, e.Name()), data, 0o644))
	}
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)

	tests := []struct {
		name     string
		dir      string
		warning  string
		replaced bool
		// inside writes the output inside the repository (under bin/),
		// where the replace is relative to its root.
		inside bool
	}{
		{name: "pinned", dir: pinned, replaced: true},
		{name: "pinned, inside the repository", dir: pinned, replaced: true, inside: true},
		{name: "changed", dir: changed, warning: "wasmmod: warning: skipped the go.yaml.in/yaml/v3 patch (resolve.go: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			if tc.inside {
				require.NoError(t, os.MkdirAll(filepath.Join(root, "bin"), 0o755))
				dir, err := os.MkdirTemp(filepath.Join(root, "bin"), "wasmmod-test-")
				require.NoError(t, err)
				t.Cleanup(func() { os.RemoveAll(dir) })
				out, err = filepath.Abs(dir)
				require.NoError(t, err)
			}
			var warn bytes.Buffer
			require.NoError(t, run(root, out, func() (string, error) { return tc.dir, nil }, &warn))
			mod, err := os.ReadFile(filepath.Join(out, "go.mod"))
			require.NoError(t, err)
			switch {
			case tc.replaced && tc.inside:
				assert.Empty(t, warn.String())
				assert.Contains(t, string(mod), "replace go.yaml.in/yaml/v3 => ./bin/"+filepath.Base(out)+"/yaml\n",
					"relative to the repository's root, the same wherever it is cloned")
			case tc.replaced:
				assert.Empty(t, warn.String())
				assert.Contains(t, string(mod), "replace go.yaml.in/yaml/v3 => "+filepath.Join(out, "yaml"))
			default:
				assert.Equal(t, 1, strings.Count(warn.String(), "\n"), "one warning: %s", warn.String())
				assert.True(t, strings.HasPrefix(warn.String(), tc.warning), warn.String())
				assert.Equal(t, string(goMod), string(mod), "the repository's go.mod, without the replace")
				assert.NoDirExists(t, filepath.Join(out, "yaml"))
			}

			modfile := "-modfile=" + filepath.Join(out, "go.mod")
			deps := goCmd(t, root, "list", modfile, "-deps", "./tools/wasmmod/testdata/yamlprog")
			assert.Equal(t, !tc.replaced, strings.Contains(deps, "\nregexp\n"), "regexp linked")
			wasm := filepath.Join(t.TempDir(), "yamlprog.wasm")
			goCmd(t, root, "build", modfile, "-o", wasm, "./tools/wasmmod/testdata/yamlprog")
			if _, err := exec.LookPath("node"); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatal("node is not installed, and CI is set")
				}
				t.Skip("node is not installed")
			}
			goroot := strings.TrimSpace(goCmd(t, root, "env", "GOROOT"))
			got, err := exec.Command(filepath.Join(goroot, "lib", "wasm", "go_js_wasm_exec"), wasm).Output()
			require.NoError(t, err)
			assert.Equal(t, "base60: \"1:20\"\nfloat: \"1.5e3\"\nplain: web\n<nil>", string(got))
		})
	}
}

// goCmd runs go for js/wasm in dir and returns its output.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go %s: %s", strings.Join(args, " "), stderr.String())
	return string(out)
}
