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
// Each replacement must match the pinned version's text exactly once:
// after an upgrade of the module, a changed file stops the build with an
// error rather than building something else.
package main

import (
	"bytes"
	"errors"
	"fmt"
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
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "wasmmod:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	dir, err := moduleDir()
	if err != nil {
		return err
	}
	files, err := patched(dir, os.ReadFile)
	if err != nil {
		return err
	}
	syntax, err := os.ReadFile(syntaxFile)
	if err != nil {
		return fmt.Errorf("%w (run it from the repository's root)", err)
	}
	files["zz_converge_syntax.go"], err = asYAMLPackage(syntax)
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
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	yamlDir := filepath.Join(outAbs, "yaml")
	if err := os.RemoveAll(yamlDir); err != nil {
		return err
	}
	for name, data := range files {
		if err := writeIfChanged(filepath.Join(yamlDir, name), data); err != nil {
			return err
		}
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		return err
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		return err
	}
	mod = fmt.Appendf(mod, "\n// Written by tools/wasmmod for the wasm build only.\nreplace %s => %s\n", module, yamlDir)
	if err := writeIfChanged(filepath.Join(outAbs, "go.mod"), mod); err != nil {
		return err
	}
	return writeIfChanged(filepath.Join(outAbs, "go.sum"), sum)
}

// moduleDir is where the build reads the module from.
func moduleDir() (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %w", module, err)
	}
	dir := strings.TrimSpace(string(b))
	if dir == "" {
		return "", fmt.Errorf("%s is not downloaded: run go mod download", module)
	}
	return dir, nil
}

// patched applies the patches to the module's files in dir.
func patched(dir string, read func(string) ([]byte, error)) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, p := range patches {
		data, ok := files[p.file]
		if !ok {
			var err error
			if data, err = read(filepath.Join(dir, p.file)); err != nil {
				return nil, err
			}
		}
		if n := bytes.Count(data, []byte(p.old)); n != 1 {
			return nil, fmt.Errorf("%s/%s: %q occurs %d times, want once: the module changed; update tools/wasmmod", module, p.file, p.old, n)
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
