package web

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/scenarios"
)

// Every file a page refers to is embedded (except the build outputs, which a
// fresh clone does not have yet).
func TestPagesReferToEmbeddedFiles(t *testing.T) {
	t.Parallel()
	ref := regexp.MustCompile(`(?:src|href)="([^"]+)"`)
	pages, err := fs.Glob(FS, "*.html")
	require.NoError(t, err)
	require.Subset(t, pages, []string{"index.html", PlaceholderPath, EmbedDemoPath})
	for _, page := range pages {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			data, err := FS.ReadFile(page)
			require.NoError(t, err)
			refs := ref.FindAllStringSubmatch(string(data), -1)
			require.NotEmpty(t, refs)
			for _, m := range refs {
				target := m[1]
				switch {
				case target == "./" || target == "." || target == "/":
					target = "index.html" // the server's root
				case strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:"):
					continue
				}
				target, _, _ = strings.Cut(strings.TrimPrefix(target, "./"), "?")
				_, err := fs.Stat(FS, target)
				assert.NoError(t, err, "%s refers to %s", page, m[1])
			}
		})
	}
}

// Every module a module imports is embedded, and every module is checked by
// TypeScript's JSDoc mode.
func TestModulesImportEmbeddedFiles(t *testing.T) {
	t.Parallel()
	imp := regexp.MustCompile(`(?m)^import .* from "\./([^"]+)";`)
	modules, err := fs.Glob(FS, "*.js")
	require.NoError(t, err)
	require.Contains(t, modules, "converge-sim.js")
	for _, mod := range modules {
		t.Run(mod, func(t *testing.T) {
			t.Parallel()
			data, err := FS.ReadFile(mod)
			require.NoError(t, err)
			assert.Regexp(t, `^// @ts-check\n`, string(data))
			for _, m := range imp.FindAllStringSubmatch(string(data), -1) {
				_, err := fs.Stat(FS, m[1])
				assert.NoError(t, err, "%s imports %s", mod, m[1])
			}
		})
	}
	boot, err := FS.ReadFile("converge.js")
	require.NoError(t, err)
	assert.Contains(t, string(boot), `import { defineElement } from "./converge-sim.js";`, "converge.js defines <converge-sim>")
}

// converge.js asks for the build outputs at the paths this package names,
// relative to its own URL.
func TestBootModuleLoadsTheBuildOutputs(t *testing.T) {
	t.Parallel()
	data, err := FS.ReadFile("converge.js")
	require.NoError(t, err)
	js := string(data)
	assert.Contains(t, js, `new URL("`+WasmPath+`", import.meta.url)`)
	assert.Contains(t, js, `new URL("`+WasmExecPath+`", import.meta.url)`)
}

// The demo's elements name scenarios that exist, and its share attribute
// carries a valid scenario.
func TestEmbedDemoScenarios(t *testing.T) {
	t.Parallel()
	data, err := FS.ReadFile(EmbedDemoPath)
	require.NoError(t, err)
	elems := regexp.MustCompile(`<converge-sim [^>]*>`).FindAllString(string(data), -1)
	require.GreaterOrEqual(t, len(elems), 2)
	attr := func(elem, name string) string {
		m := regexp.MustCompile(` ` + name + `="([^"]*)"`).FindStringSubmatch(elem)
		if m == nil {
			return ""
		}
		return m[1]
	}
	for _, elem := range elems {
		if share := attr(elem, "share"); share != "" {
			src, err := scenario.DecodeShare(share)
			require.NoError(t, err, elem)
			_, probs := scenario.Parse(src, "shared.yaml")
			assert.False(t, probs.HasErrors(), "%s: %v", elem, probs)
			continue
		}
		name := attr(elem, "scenario")
		_, err := fs.Stat(scenarios.FS, name+".yaml")
		assert.NoError(t, err, "%s names a built-in scenario", elem)
	}
}

// Built agrees with what FS holds.
func TestBuilt(t *testing.T) {
	t.Parallel()
	_, wasmErr := fs.Stat(FS, WasmPath)
	_, execErr := fs.Stat(FS, WasmExecPath)
	assert.Equal(t, wasmErr == nil && execErr == nil, Built())
}
