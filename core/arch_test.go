// Package core_test holds the architecture checks of the core packages.
package core_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forbidden are the imports no core package may have: the core runs the
// same natively and in the browser, reads files only through io/fs, and
// never reads the wall clock or global randomness.
var forbidden = map[string]string{
	// Spelled in two parts so that a plain grep for the import finds none in core.
	"syscall" + "/js":        "core must build natively; the bridge lives in wasm/",
	"os":                     "core reads files only through io/fs.FS",
	"os/exec":                "no processes in core",
	"net":                    "no network in core",
	"net/http":               "no network in core",
	"math/rand":              "randomness comes from the store's seeded math/rand/v2 generator",
	"honnef.co/go/js/dom/v2": "DOM work belongs to wasm/",
	// What the page's wasm need not carry (docs/performance.md).
	"regexp":        "the page's wasm links no regexp: write the expression out as a function and check it against the expression with internal/matchtest",
	"math/big":      "the page's wasm links no math/big: exact arithmetic is in core/api (checked against math/big in its tests)",
	"crypto/sha256": "the page's wasm links no crypto: core/kubelet has its own SHA-256",
	"encoding/xml":  "the page's wasm links no encoding/xml",
}

type pkg struct {
	ImportPath  string
	Imports     []string
	GoFiles     []string
	TestGoFiles []string
	Dir         string
}

func listCore(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "converge/core/...").Output()
	require.NoError(t, err)
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []pkg
	for dec.More() {
		var p pkg
		require.NoError(t, dec.Decode(&p))
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}

func TestCoreImportsNothingForbidden(t *testing.T) {
	t.Parallel()
	for _, p := range listCore(t) {
		for _, imp := range p.Imports {
			if why, bad := forbidden[imp]; bad {
				assert.Fail(t, "forbidden import", "%s imports %s: %s", p.ImportPath, imp, why)
			}
		}
	}
}

var wallClock = regexp.MustCompile(`\btime\.(Now|Since|Until|Sleep|After|Tick|NewTimer|NewTicker|AfterFunc)\(|\btime\.Local\b`)

func TestCoreNeverReadsTheWallClockNorStartsGoroutines(t *testing.T) {
	t.Parallel()
	for _, p := range listCore(t) {
		for _, f := range p.GoFiles {
			src, err := os.ReadFile(filepath.Join(p.Dir, f))
			require.NoError(t, err)
			for i, line := range strings.Split(string(src), "\n") {
				code, _, _ := strings.Cut(line, "//")
				if wallClock.MatchString(code) {
					assert.Fail(t, "wall clock", "%s/%s:%d: %s", p.ImportPath, f, i+1, strings.TrimSpace(line))
				}
				if strings.HasPrefix(strings.TrimSpace(code), "go ") || strings.Contains(code, " go func") {
					assert.Fail(t, "goroutine", "%s/%s:%d: %s", p.ImportPath, f, i+1, strings.TrimSpace(line))
				}
			}
		}
	}
}

// TestControllersDoNotImportOneAnother: they talk only through the store.
// The components are those the engine registers (engineComponents).
func TestControllersDoNotImportOneAnother(t *testing.T) {
	t.Parallel()
	is := map[string]bool{}
	for _, c := range engineComponents(t) {
		is[c] = true
	}
	for _, p := range listCore(t) {
		if !is[p.ImportPath] {
			continue
		}
		for _, imp := range p.Imports {
			assert.False(t, is[imp], "%s imports %s", p.ImportPath, imp)
		}
	}
}

// outsideRefs are references to what is outside the repository: files
// beside it, the issue tracker's numbers and work branches' names. The
// repository stands alone, so comments and texts cite its own docs/, and
// say what a change was, not which issue or branch asked for it.
var outsideRefs = regexp.MustCompile(`\.\./shared|contracts? §|k8s-semantics\.md|(?i:\bissues? #?[0-9]+\b)|\bbranch h[a-z0-9]+\b`)

// TestSourcesCiteOnlyTheRepository walks the repository's Go, JS and CSS
// files (and its Markdown) and fails on a reference outside it.
func TestSourcesCiteOnlyTheRepository(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	checked := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "dist", "bin", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".js", ".css", ".md":
		default:
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(src), "\n") {
			// This file spells the patterns out, in the regexp above.
			if rel == filepath.Join("core", "arch_test.go") && strings.Contains(line, "MustCompile") {
				continue
			}
			if m := outsideRefs.FindString(line); m != "" {
				assert.Fail(t, "reference outside the repository", "%s:%d: %q: cite docs/ instead: %s", rel, i+1, m, strings.TrimSpace(line))
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, checked, 100, "the walk found the repository's files")
}

// The page never calls dom/v2's wrappers that pick a Go type per element
// or event (Event.Target, WrapElement, WrapNode, WrapEvent, ...): each one
// links every element type of the package with its methods into the wasm,
// about 900 KB raw (docs/performance.md). Read the JS value instead, as
// wasm/render_dom.go's targetAttr does.
func TestPageUsesNoDOMTypeWrappers(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../wasm/*.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	wrappers := regexp.MustCompile(`\.Target\(\)|\.CurrentTarget\(\)|\.RelatedTarget\(\)|dom\.Wrap[A-Z]\w*\(|\.(ActiveElement|ParentElement|FirstElementChild|QuerySelector|GetElementByID|Body)\(`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if m := wrappers.FindString(line); m != "" {
				assert.Fail(t, "a dom/v2 type wrapper", "%s:%d: %s links every element type into the wasm: %s", f, i+1, m, strings.TrimSpace(line))
			}
		}
	}
}

// TestMarkdownTablesEndWithABlankLine: in GitHub's Markdown a table goes on
// until a blank line, so a paragraph written right under one renders as
// one more row of it.
func TestMarkdownTablesEndWithABlankLine(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	require.NoError(t, err)
	files = append(files, filepath.Join("..", "README.md"))
	require.Greater(t, len(files), 5)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		lines := strings.Split(string(src), "\n")
		fence := false
		for i := 1; i < len(lines); i++ {
			if strings.HasPrefix(strings.TrimSpace(lines[i-1]), "```") {
				fence = !fence
			}
			if fence {
				continue
			}
			prev, line := lines[i-1], lines[i]
			if strings.HasPrefix(prev, "|") && strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "|") {
				assert.Fail(t, "a table runs into the text after it", "%s:%d: put a blank line before %q", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
