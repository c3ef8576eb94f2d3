package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/version"
)

// The npm package's package.json names converge-sim at the binary's
// version; files lists exactly the files of the bundle (but itself), and
// every export points at one of them.
func TestNPMBundle(t *testing.T) {
	t.Parallel()
	assets := testAssets()
	assets["converge-sim.js"] = assets["converge.js"]
	assets["crash.js"] = assets["converge.js"]
	files, err := npmBundle(assets, 0)
	require.NoError(t, err)
	have := map[string]bool{}
	var pkg npmPackage
	for _, f := range files {
		have[f.name] = true
		if f.name == "package.json" {
			require.NoError(t, json.Unmarshal(f.data, &pkg))
		}
	}
	assert.Equal(t, "converge-sim", pkg.Name)
	assert.Equal(t, version.Version, pkg.Version)
	assert.Equal(t, "module", pkg.Type)
	listed := map[string]bool{"package.json": true}
	for _, name := range pkg.Files {
		assert.True(t, have[name], "files lists %s, which the bundle has", name)
		listed[name] = true
	}
	for name := range have {
		assert.True(t, listed[name], "the bundle's %s is in files", name)
	}
	for key, target := range pkg.Exports {
		if key == "./dist/*" || key == "./posters/*" {
			continue
		}
		assert.True(t, have[target[2:]], "export %s points at %s, which the bundle has", key, target)
	}
	_, err = npmBundle(testAssets(), 0)
	assert.ErrorContains(t, err, "reading the page assets", "a missing module is an error")
}
