package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"

	"converge/core/version"
	"converge/internal/precompress"
	"converge/web"
)

// npmName is the embed's package name on npm ("converge" is taken).
const npmName = "converge-sim"

var exportNPMCommand = &command{
	name:    "export-npm",
	args:    "[--brotli-quality Q] DIR",
	summary: "write the embed as an npm package folder, for npm pack (docs/embedding.md)",
	help: `Writes the embed (converge.js and its modules, style.css, the wasm, as it
is and brotli-compressed, and its wasm_exec.js) into DIR as the npm package ` + npmName + `, with a package.json
whose version is this binary's, for ` + "`npm pack`" + ` or ` + "`npm publish`" + `. Every path
in it is relative: a CDN that serves npm packages (/npm/` + npmName + `@VERSION/)
serves a working embed. make npm runs it and npm pack.`,
	flags: func(fs *flag.FlagSet) runFunc {
		quality := fs.Int("brotli-quality", precompress.BestBrotli, "brotli quality `Q` of the .br, 0 (fast) to 11 (smallest)")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("export-npm takes one argument, the directory to write")
			}
			if *quality < 0 || *quality > 11 {
				return usageErrorf("--brotli-quality %d: want 0 to 11", *quality)
			}
			if !web.Built() {
				return badInput(errors.New("this binary has no WebAssembly build to export; run make build"))
			}
			files, err := npmBundle(web.FS, *quality)
			if err != nil {
				return err
			}
			if err := writeSite(e, args[0], files); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Wrote the npm package %s@%s to %s: npm pack %s makes its tarball.\n",
				npmName, version.Version, args[0], filepath.Clean(args[0]))
			return nil
		}
	},
}

// npmFiles are the files of the npm package, as fsys names them.
var npmFiles = []string{"converge.js", "converge-sim.js", "crash.js", "style.css", web.WasmPath, web.WasmExecPath}

// npmPackage is the package.json of the npm package.
type npmPackage struct {
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Description string            `json:"description"`
	Type        string            `json:"type"`
	Main        string            `json:"main"`
	Exports     map[string]string `json:"exports"`
	Files       []string          `json:"files"`
	Keywords    []string          `json:"keywords"`
}

// npmBundle is the npm package: npmFiles, the wasm at brotli quality
// (converge.js asks for it first; a CDN that sends it as it is makes it fall
// back to the plain one), package.json and README.md.
func npmBundle(fsys fs.FS, quality int) ([]bundleFile, error) {
	files := make([]bundleFile, 0, len(npmFiles)+2)
	for _, name := range npmFiles {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("reading the page assets: %w", err)
		}
		files = append(files, bundleFile{name: name, data: data})
	}
	wasm, err := fs.ReadFile(fsys, web.WasmPath)
	if err != nil {
		return nil, fmt.Errorf("reading the page assets: %w", err)
	}
	br, err := siteBrotli(fsys, wasm, quality)
	if err != nil {
		return nil, err
	}
	files = append(files, bundleFile{name: web.WasmPath + ".br", data: br})
	// The built-in scenarios' posters at 0s, which an element shows while
	// the simulator loads (docs/embedding.md, "Posters").
	posters, err := posterFiles()
	if err != nil {
		return nil, err
	}
	files = append(files, posters...)
	listed := append(append([]string{}, npmFiles...), web.WasmPath+".br", "README.md")
	for _, f := range posters {
		listed = append(listed, f.name)
	}
	pkg := npmPackage{
		Name:        npmName,
		Version:     version.Version,
		Description: "Converge, a Kubernetes Deployment simulator, as an element for docs pages: <converge-sim scenario=\"rolling-update\">",
		Type:        "module",
		Main:        "converge.js",
		Exports: map[string]string{
			".":                 "./converge.js",
			"./converge.js":     "./converge.js",
			"./converge-sim.js": "./converge-sim.js",
			"./style.css":       "./style.css",
			"./dist/*":          "./dist/*",
			"./posters/*":       "./posters/*",
			"./package.json":    "./package.json",
		},
		Files:    listed,
		Keywords: []string{"kubernetes", "deployment", "simulator", "webassembly", "web-component"},
	}
	data, err := json.MarshalIndent(pkg, "", "  ")
	if err != nil {
		return nil, err
	}
	files = append(files,
		bundleFile{name: "package.json", data: append(data, '\n')},
		bundleFile{name: "README.md", data: []byte(npmReadme)},
	)
	return files, nil
}

// npmReadme is the npm package's README.md.
const npmReadme = `# converge-sim

Converge, a Kubernetes Deployment simulator, as one element for docs pages.
From a CDN that serves npm packages:

    <script type="module" src="https://CDN/npm/converge-sim@VERSION/converge.js"></script>
    <converge-sim scenario="rolling-update"></converge-sim>

converge.js finds the wasm next to itself (dist/), so the package works from
any folder; the simulator loads when a demo comes into view. The attributes
(scenario, share, t, view, controls, autoplay, speed, height, theme, loading)
are described in Converge's docs/embedding.md.
`
