// Command wasmmod writes the go.mod that `make build` compiles the page's
// wasm with (go build -modfile): the repository's own, plus a replace of
// go.yaml.in/yaml/v3 by a copy in which its two regular expressions
// (resolve.go's float syntax, encode.go's base-60 floats) are the
// hand-written matchers of core/kubectl/yamlprint/syntax.go, the same
// expressions yamlprint uses and tests against regexp. With it the wasm
// links no regexp package and no Unicode tables: about 85 KB less brotli
// (docs/performance.md). Native builds, go vet and every test use the
// module as it is. (An -overlay cannot do this: go build refuses to
// overlay files in the module cache.)
//
//	go run ./tools/wasmmod DIR     # writes DIR/go.mod, DIR/go.sum, DIR/yaml/
//	GOOS=js GOARCH=wasm go build -modfile=DIR/go.mod ./wasm
//
// It downloads the module itself when the module cache does not have it
// (go mod download), so that a fresh clone builds with an empty cache.
//
// The patch is an optimisation, and optional: each replacement must match
// the pinned version's text exactly once, and when one does not (another
// version of the module), wasmmod prints one warning naming what it
// skipped and writes DIR/go.mod without the replace. The wasm then links
// regexp, is bigger and works the same.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// module is the module the overlay patches.
const module = "go.yaml.in/yaml/v3"

// syntaxFile is the self-contained file added to the module's package.
const syntaxFile = "core/kubectl/yamlprint/syntax.go"

// patch replaces old by new in one file of the module.
type patch struct {
	file     string
	old, new string
}

var patches = []patch{
	{file: "resolve.go", old: "\t\"regexp\"\n", new: ""},
	{file: "resolve.go",
		old: "var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)",
		new: "var yamlStyleFloat = stringMatcher(isYAMLStyleFloat)"},
	{file: "encode.go", old: "\t\"regexp\"\n", new: ""},
	{file: "encode.go",
		old: "var base60float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?$`)",
		new: "var base60float = stringMatcher(isYAMLBase60Float)"},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmmod DIR")
		os.Exit(2)
	}
	if err := run(".", os.Args[1], moduleDir, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "wasmmod:", err)
		os.Exit(1)
	}
}

// run writes out/go.mod and out/go.sum from the repository's at root,
// with the patched module in out/yaml when the patch applies; dir says
// where the module's files are. When the patch does not apply, it writes
// one warning to warn and the go.mod without the replace.
func run(root, out string, dir func() (string, error), warn io.Writer) error {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return fmt.Errorf("%w (run it from the repository's root)", err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	yamlDir := filepath.Join(outAbs, "yaml")
	if err := os.RemoveAll(yamlDir); err != nil {
		return err
	}
	modDir, err := dir()
	if err != nil {
		return err
	}
	if err := writeModule(modDir, filepath.Join(root, syntaxFile), yamlDir); err != nil {
		var skip skipped
		if !errors.As(err, &skip) {
			return err
		}
		fmt.Fprintf(warn, "wasmmod: warning: skipped the %s patch (%v): the wasm links regexp, about 85 KB more brotli, and works the same\n", module, err)
		if err := os.RemoveAll(yamlDir); err != nil {
			return err
		}
	} else {
		mod = fmt.Appendf(mod, "\n%s\nreplace %s => %s\n", replaceComment, module, replacePath(root, yamlDir))
	}
	if err := writeIfChanged(filepath.Join(outAbs, "go.mod"), mod); err != nil {
		return err
	}
	return writeIfChanged(filepath.Join(outAbs, "go.sum"), sum)
}

// replaceComment precedes the replace in the go.mod wasmmod writes;
// tools/wasmsize looks for it to say whether the patch applied.
const replaceComment = "// Written by tools/wasmmod for the wasm build only."

// skipped is an error that leaves the patch out rather than failing the
// build: the module's text is not what the patches expect.
type skipped struct{ error }

func (s skipped) Unwrap() error { return s.error }

// writeModule writes the patched module from dir, with the file syntax,
// into yamlDir.
func writeModule(dir, syntax, yamlDir string) error {
	files, err := patched(dir, os.ReadFile)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(syntax)
	if err != nil {
		return err
	}
	files["zz_converge_syntax.go"], err = asYAMLPackage(src)
	if err != nil {
		return err
	}
	// The rest of the module as it is: its go.mod, licence and sources.
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		keep := name == "go.mod" || name == "LICENSE" || name == "NOTICE" || strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
		if _, done := files[name]; done || !keep || e.IsDir() {
			continue
		}
		if files[name], err = os.ReadFile(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	for name, data := range files {
		if err := writeIfChanged(filepath.Join(yamlDir, name), data); err != nil {
			return err
		}
	}
	return nil
}

// moduleDir is where the build reads the module from, at the version
// go.mod selects: go mod download fetches it when the module cache does
// not have it yet (a fresh clone), and says where it is.
func moduleDir() (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	var got struct{ Dir, Error string }
	if jerr := json.Unmarshal(b, &got); jerr == nil && got.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", module, got.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w: %s", module, err, bytes.TrimSpace(stderr.Bytes()))
	}
	if got.Dir == "" {
		return "", fmt.Errorf("go mod download %s did not say where the module is", module)
	}
	return got.Dir, nil
}

// patched applies the patches to the module's files in dir.
func patched(dir string, read func(string) ([]byte, error)) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, p := range patches {
		data, ok := files[p.file]
		if !ok {
			var err error
			if data, err = read(filepath.Join(dir, p.file)); err != nil {
				return nil, skipped{err}
			}
		}
		if n := bytes.Count(data, []byte(p.old)); n != 1 {
			return nil, skipped{fmt.Errorf("%s: %q occurs %d times, want once: the module changed; update tools/wasmmod", p.file, p.old, n)}
		}
		files[p.file] = bytes.Replace(data, []byte(p.old), []byte(p.new), 1)
	}
	return files, nil
}

// asYAMLPackage is syntax.go as a file of package yaml: it must import
// nothing, so that it compiles in any package.
func asYAMLPackage(src []byte) ([]byte, error) {
	if bytes.Contains(src, []byte("\nimport")) {
		return nil, errors.New(syntaxFile + " imports something: it must stay self-contained")
	}
	out, ok := bytes.CutPrefix(src, []byte("package yamlprint\n"))
	if !ok {
		return nil, errors.New(syntaxFile + " does not start with package yamlprint")
	}
	header := "// Code generated by tools/wasmmod from " + syntaxFile + ". DO NOT EDIT.\n\npackage yaml\n"
	return append([]byte(header), out...), nil
}

func writeIfChanged(name string, data []byte) error {
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// replacePath is how the go.mod names dir: relative to the repository's
// root when it is inside it ("./bin/wasm/yaml"; go resolves a relative
// replace against the main module's root, also with -modfile), so that the
// module information linked into the wasm, which records the path, is the
// same wherever the repository is cloned (a path of another length moved
// the wasm's brotli size by hundreds of bytes); absolute otherwise.
func replacePath(root, dir string) string {
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return dir
	}
	rel, err := filepath.Rel(rootAbs, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return dir
	}
	return "./" + filepath.ToSlash(rel)
}
