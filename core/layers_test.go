package core_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layoutRow finds a row of DEVELOPERS.md's Layout table and the paths of
// its first cell.
var (
	layoutRow  = regexp.MustCompile("^\\| (`[^|]+`) \\|")
	layoutPath = regexp.MustCompile("`([^`]+)`")
)

// layout reads DEVELOPERS.md's Layout table: each path's row.
func layout(t *testing.T) map[string]int {
	t.Helper()
	doc, err := os.ReadFile("../DEVELOPERS.md")
	require.NoError(t, err)
	rows := map[string]int{}
	for i, line := range strings.Split(string(doc), "\n") {
		m := layoutRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, p := range layoutPath.FindAllStringSubmatch(m[1], -1) {
			rows[p[1]] = i
		}
	}
	require.NotEmpty(t, rows)
	return rows
}

// modulePackages lists the module's packages, native and js/wasm, with
// their imports (not their tests').
func modulePackages(t *testing.T) []pkg {
	t.Helper()
	var pkgs []pkg
	seen := map[string]bool{}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-json", "converge/...")
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		require.NoError(t, err)
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for dec.More() {
			var p pkg
			require.NoError(t, dec.Decode(&p))
			if !seen[p.ImportPath] && len(p.GoFiles) > 0 {
				seen[p.ImportPath] = true
				pkgs = append(pkgs, p)
			}
		}
	}
	return pkgs
}

// DEVELOPERS.md's Layout table names every package of the module, and
// each package imports only packages listed above it (or itself listed
// with them in one row): the table is the layering, from the bottom up.
func TestLayoutTableIsTheLayering(t *testing.T) {
	t.Parallel()
	rows := layout(t)
	for _, p := range modulePackages(t) {
		path := strings.TrimPrefix(p.ImportPath, "converge/")
		if path == "core" || path == "converge" {
			continue // the architecture tests' own package
		}
		row, ok := rows[path]
		if !assert.True(t, ok, "DEVELOPERS.md's Layout table does not list %s", path) {
			continue
		}
		for _, imp := range p.Imports {
			dep, ok := strings.CutPrefix(imp, "converge/")
			if !ok {
				continue
			}
			if depRow, listed := rows[dep]; listed && depRow > row {
				assert.Fail(t, "import up the layering", "%s imports %s, listed below it in DEVELOPERS.md's Layout table", path, dep)
			}
		}
	}
}
