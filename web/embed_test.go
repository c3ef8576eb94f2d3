package web

import (
	"io/fs"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every file a page refers to is embedded (except the build outputs, which a
// fresh clone does not have yet).
func TestPagesReferToEmbeddedFiles(t *testing.T) {
	t.Parallel()
	ref := regexp.MustCompile(`(?:src|href)="([^"]+)"`)
	for _, page := range []string{"index.html", PlaceholderPath} {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			data, err := FS.ReadFile(page)
			require.NoError(t, err)
			refs := ref.FindAllStringSubmatch(string(data), -1)
			require.NotEmpty(t, refs)
			for _, m := range refs {
				_, err := fs.Stat(FS, m[1])
				assert.NoError(t, err, "%s refers to %s", page, m[1])
			}
		})
	}
}

// converge.js asks for the build outputs at the paths this package names.
func TestBootModuleLoadsTheBuildOutputs(t *testing.T) {
	t.Parallel()
	data, err := FS.ReadFile("converge.js")
	require.NoError(t, err)
	js := string(data)
	assert.Contains(t, js, `new URL("`+WasmPath+`", import.meta.url)`)
	assert.Contains(t, js, `new URL("`+WasmExecPath+`", import.meta.url)`)
	assert.Contains(t, js, "// @ts-check")
}

// Built agrees with what FS holds.
func TestBuilt(t *testing.T) {
	t.Parallel()
	_, wasmErr := fs.Stat(FS, WasmPath)
	_, execErr := fs.Stat(FS, WasmExecPath)
	assert.Equal(t, wasmErr == nil && execErr == nil, Built())
}
