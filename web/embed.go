// Package web holds the page that `converge serve` serves and that docs pages
// embed: the static assets written by hand (index.html, embed-demo.html,
// style.css, the ES modules converge.js, converge-sim.js and app.js) and,
// under dist/, what `make build` writes: the simulator compiled to
// WebAssembly (converge.wasm, and converge.wasm.gz for clients that accept
// gzip) and the wasm_exec.js of the Go toolchain that compiled it.
//
// dist/ is a build output and is not committed, except for dist/.gitkeep, so
// that a fresh clone compiles without `make build`. Such a binary has no wasm:
// Built reports false and the server shows placeholder.html instead of the app.
package web

import (
	"embed"
	"io/fs"
)

// FS holds the page assets (every HTML, CSS, JS and SVG file of this
// folder), with the build outputs under dist/.
//
//go:embed *.html *.css *.js *.svg all:dist
var FS embed.FS

// Paths of the build outputs in FS, as converge.js requests them.
const (
	WasmPath     = "dist/converge.wasm"
	WasmExecPath = "dist/wasm_exec.js"
	// WasmBrotliQualityPath holds the brotli quality of dist/converge.wasm.br,
	// which make build writes (tools/wasmdist), so that export-site reuses
	// the file at that quality instead of compressing again.
	WasmBrotliQualityPath = "dist/.brotli-quality"
	// PlaceholderPath is the page served at / when the wasm is not built.
	PlaceholderPath = "placeholder.html"
	// EmbedDemoPath is the docs page showing several <converge-sim>.
	EmbedDemoPath = "embed-demo.html"
)

// Built reports whether FS holds the build outputs (the wasm and its
// wasm_exec.js), that is whether `make build` ran before this binary was
// compiled.
func Built() bool {
	for _, name := range []string{WasmPath, WasmExecPath} {
		if _, err := fs.Stat(FS, name); err != nil {
			return false
		}
	}
	return true
}
