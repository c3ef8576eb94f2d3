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

// wasmMayImport are the packages of this module that package wasm (the
// page compiled to WebAssembly) may import (wasm/doc.go): the page's
// native layer, the view models it draws, the library it keeps in browser
// storage, the learning path and the reader's progress (decided in
// core/lesson), the texts' plural and seconds formatter, the version and
// the built-in scenarios it embeds; and, only for some of their names
// (wasmMayName), the engine and the scenario format. Everything else
// (core/kubectl, core/compare, core/manifest, ...) it reaches through
// core/session, where the decisions are natively tested.
var wasmMayImport = map[string]bool{
	"converge/core/session":  true,
	"converge/core/view":     true,
	"converge/core/library":  true,
	"converge/core/lesson":   true,
	"converge/core/humanize": true,
	"converge/core/version":  true,
	"converge/core/sim":      true,
	"converge/core/scenario": true,
	"converge/scenarios":     true,
}

// wasmMayName are the only names that package wasm may use of the
// packages it imports for their types: of core/sim, the simulation
// renderers read and a command's result they draw (it calls no function
// of the engine); of core/scenario, the spans of a note that
// render_notes.go draws (it parses nothing).
var wasmMayName = map[string]map[string]bool{
	"converge/core/sim":      {"Sim": true, "StepResult": true},
	"converge/core/scenario": {"Span": true, "SpanEm": true, "SpanStrong": true, "SpanCode": true, "SpanLink": true, "SpanText": true},
}

// simChange is a call that changes a simulation: only core/session makes
// them.
var simChange = regexp.MustCompile(`\b[sS]im(\(\))?\.(Step|SeekTo|Run|RemoveStep|Restore)\(`)

// TestWasmHoldsNoDecisions checks the rule of wasm/doc.go: wasm/ binds the
// DOM and browser storage, and draws what core/session and core/view
// decide.
func TestWasmHoldsNoDecisions(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("go", "list", "-json", "converge/wasm/...")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	require.NoError(t, err)
	dec := json.NewDecoder(strings.NewReader(string(out)))
	files := 0
	for dec.More() {
		var p pkg
		require.NoError(t, dec.Decode(&p))
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "converge/") && !wasmMayImport[imp] {
				assert.Fail(t, "decision in wasm", "%s imports %s: reach it through core/session, which decides natively", p.ImportPath, imp)
			}
		}
		for _, f := range p.GoFiles {
			files++
			checkWasmFile(t, filepath.Join(p.Dir, f))
		}
	}
	require.Positive(t, files)
}

func checkWasmFile(t *testing.T, path string) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	require.NoError(t, err)
	limited := map[string]string{} // the file's name of a package of wasmMayName → its path
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if wasmMayName[path] == nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		limited[name] = path
	}
	ast.Inspect(file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && limited[x.Name] != "" && !wasmMayName[limited[x.Name]][sel.Sel.Name] {
			assert.Fail(t, "decision in wasm", "%s: uses %s.%s: wasm names only some types of %s (wasmMayName); ask core/session",
				fset.Position(sel.Pos()), x.Name, sel.Sel.Name, limited[x.Name])
		}
		return true
	})
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	for i, line := range strings.Split(string(src), "\n") {
		code, _, _ := strings.Cut(line, "//")
		if m := simChange.FindString(code); m != "" {
			assert.Fail(t, "decision in wasm", "%s:%d: %s changes the simulation: only core/session does (Session.Step, SeekTo, Run, RemoveStep)",
				path, i+1, m)
		}
	}
}
