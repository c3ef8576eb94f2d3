package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPackageOf(t *testing.T) {
	t.Parallel()
	of := newPackageOf([]string{"runtime", "internal/runtime/maps", "internal/runtime", "converge/core/kubectl",
		"converge/core/kubectl/yamlprint", "honnef.co/go/js/dom/v2", "go.yaml.in/yaml/v3", "github.com/go-json-experiment/json"})
	tests := []struct{ name, want string }{
		{"runtime.mallocgc", "runtime"},
		{"internal_runtime_maps.__Map_.getWithKey", "internal/runtime/maps"},
		{"converge_core_kubectl.__Env_.Run", "converge/core/kubectl"},
		{"converge_core_kubectl_yamlprint.yamlEscape", "converge/core/kubectl/yamlprint"},
		{"honnef.co_go_js_dom_v2.__BasicNode_.AppendChild", "honnef.co/go/js/dom/v2"},
		{"go.yaml.in_yaml_v3.yaml_parser_parse_node", "go.yaml.in/yaml/v3"},
		{"github.com_go_json_experiment_json.Marshal", "github.com/go-json-experiment/json"},
		{"type_.eq.converge_core_kubectl.flagSpec", "converge/core/kubectl"},
		{"type_.eq._2_converge_core_kubectl.flagSpec", "converge/core/kubectl"},
		{"wasm_export_run", "(linker)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, of.of(tc.name))
		})
	}
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"": 0, "1.5MiB": 1572864, "900KiB": 921600, "2MB": 2000000, "12345": 12345} {
		got, err := parseSize(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"MiB", "-1MiB", "1.5 potatoes"} {
		_, err := parseSize(bad)
		assert.Error(t, err, bad)
	}
}

// make size says whether the wasm was built with wasmmod's patched
// go.yaml.in/yaml/v3: whether the go.mod it was built with replaces it.
func TestYAMLPatchSaysWhetherItApplied(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	patched := filepath.Join(dir, "patched.mod")
	plain := filepath.Join(dir, "plain.mod")
	require.NoError(t, os.WriteFile(patched, []byte("module converge\n\n// Written by tools/wasmmod for the wasm build only.\nreplace go.yaml.in/yaml/v3 => /x/yaml\n"), 0o644))
	require.NoError(t, os.WriteFile(plain, []byte("module converge\n"), 0o644))
	tests := []struct{ name, modfile, want string }{
		{"patched", patched, "go.yaml.in/yaml/v3 without regexp (tools/wasmmod): applied"},
		{"plain", plain, "go.yaml.in/yaml/v3 without regexp (tools/wasmmod): skipped (" + plain + " does not replace it: wasmmod printed why)"},
		{"no modfile", "", "go.yaml.in/yaml/v3 without regexp (tools/wasmmod): skipped (no -modfile)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, yamlPatch(tc.modfile))
		})
	}
}
