package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The patches apply, each once, to the module version go.mod pins, and
// leave no regexp in it.
func TestPatchesApplyToThePinnedModule(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	require.NoError(t, err)
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		t.Skipf("%s is not downloaded", module)
	}
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
