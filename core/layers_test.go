package core_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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

// engineComponents are the import paths of the components the engine
// registers: the packages core/sim/order.go (where sim.TickOrder is)
// imports that declare a Component constant. The architecture checks and
// the conformance check below read them from there, so that a component
// added to the engine is checked without a list to update.
func engineComponents(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	order, err := parser.ParseFile(fset, "sim/order.go", nil, parser.ImportsOnly)
	require.NoError(t, err)
	var out []string
	for _, spec := range order.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		require.NoError(t, err)
		dir, ok := strings.CutPrefix(path, "converge/core/")
		if ok && declaresComponent(t, dir) {
			out = append(out, path)
		}
	}
	require.GreaterOrEqual(t, len(out), 10, "the engine's components, from core/sim/order.go: %v", out)
	return out
}

// declaresComponent reports whether the package in dir (under core/)
// declares a top-level constant named Component.
func declaresComponent(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		require.NoError(t, err)
		for _, d := range src.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if n.Name == "Component" {
						return true
					}
				}
			}
		}
	}
	return false
}

// withoutConformance are the engine's components that do not run the
// conformance suite (core/simtest/controllertest), and why.
var withoutConformance = map[string]string{
	"converge/core/controller/gitops": "made from the scenario's cluster.gitops (its repository and timings), which the suite's New cannot take",
}

// Every component the engine registers runs the conformance suite (level
// based, independent clones, its name on its records) from its tests.
func TestEveryComponentRunsTheConformanceSuite(t *testing.T) {
	t.Parallel()
	for _, path := range engineComponents(t) {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			if _, exempt := withoutConformance[path]; exempt {
				return
			}
			dir := strings.TrimPrefix(path, "converge/core/")
			tests, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
			require.NoError(t, err)
			name := filepath.Base(dir) + ".Component"
			found := false
			for _, f := range tests {
				src, err := os.ReadFile(f)
				require.NoError(t, err)
				if strings.Contains(string(src), "controllertest.Run(") && regexp.MustCompile(`Name:\s+`+regexp.QuoteMeta(name)+`\b`).Match(src) {
					found = true
				}
			}
			assert.True(t, found, "%s: no test runs controllertest.Run with Name: %s (or say why in withoutConformance)", dir, name)
		})
	}
	for path := range withoutConformance {
		assert.Contains(t, engineComponents(t), path, "withoutConformance names a component the engine does not register")
	}
}
