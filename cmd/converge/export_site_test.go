package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/web"
)

// headerRule is one rule of a _headers file: a path (exact, or ending in
// a splat "*") and the headers sent for it.
type headerRule struct {
	path    string
	headers http.Header
}

// parseHeaders reads the _headers format of Netlify and Cloudflare Pages:
// "#" comments, a path line, then its headers as indented "Name: value"
// lines. It fails the test on anything else.
func parseHeaders(t testing.TB, data []byte) []headerRule {
	t.Helper()
	var rules []headerRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		case line[0] != ' ' && line[0] != '\t':
			require.True(t, strings.HasPrefix(line, "/"), "_headers:%d: a path starts with /: %q", n, line)
			rules = append(rules, headerRule{path: line, headers: http.Header{}})
		default:
			require.NotEmpty(t, rules, "_headers:%d: a header before any path", n)
			name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
			require.True(t, ok, "_headers:%d: want Name: value, got %q", n, line)
			rules[len(rules)-1].headers.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
	}
	return rules
}

// headersFor is what the rules send for urlPath, as the hosts apply them:
// every matching rule's headers, later rules winning.
func headersFor(rules []headerRule, urlPath string) http.Header {
	out := http.Header{}
	for _, r := range rules {
		prefix, splat := strings.CutSuffix(r.path, "*")
		if urlPath == r.path || splat && strings.HasPrefix(urlPath, prefix) {
			for k, v := range r.headers {
				out[k] = v
			}
		}
	}
	return out
}

// staticHost serves dir as a static host does: files by name, and when
// rules is not nil, the _headers rules applied (Netlify, Cloudflare
// Pages); without, only what GitHub Pages sends on its own
// (Access-Control-Allow-Origin: *, a type by extension).
func staticHost(dir string, rules []headerRule) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if rules == nil {
			h.Set("Access-Control-Allow-Origin", "*")
			if path.Ext(r.URL.Path) == ".br" {
				h.Set("Content-Type", "application/octet-stream")
			}
		}
		for k, v := range headersFor(rules, r.URL.Path) {
			h[k] = v
		}
		files.ServeHTTP(w, r)
	})
}

func testAssets() fstest.MapFS {
	return fstest.MapFS{
		"index.html":            {Data: []byte(`<!doctype html><link rel="stylesheet" href="style.css"><script type="module" src="app.js"></script>`)},
		"placeholder.html":      {Data: []byte("run make build")},
		"style.css":             {Data: []byte("body{}")},
		"app.js":                {Data: []byte(`import "./converge.js";`)},
		"converge.js":           {Data: []byte(`new URL("dist/converge.wasm", import.meta.url)`)},
		"dist/converge.wasm":    {Data: bytes.Repeat([]byte("\x00asm wasm "), 1000)},
		"dist/converge.wasm.gz": {Data: []byte("the build's own, not exported")},
		"dist/converge.wasm.br": {Data: []byte("the build's own, not exported")},
		"dist/wasm_exec.js":     {Data: []byte("globalThis.Go = class {};")},
		"dist/.gitkeep":         {Data: nil},
	}
}

func TestSiteBundle(t *testing.T) {
	t.Parallel()
	fsys := testAssets()
	files, err := siteBundle(fsys, 1)
	require.NoError(t, err)
	byName := map[string][]byte{}
	var names []string
	for _, f := range files {
		byName[f.name] = f.data
		names = append(names, f.name)
	}
	var names2 []string
	for n := range fsys {
		names2 = append(names2, n)
	}
	dir := hashedDir(bundleHash(names2, func(n string) []byte { return fsys[n].Data }))
	assert.Equal(t, []string{"README.md", "_headers", "app.js", "converge.js", "index.html", "style.css",
		dir + "app.js", dir + "converge.js", dir + "dist/converge.wasm", dir + "dist/converge.wasm.br",
		dir + "dist/converge.wasm.gz", dir + "dist/wasm_exec.js", dir + "style.css"}, names,
		"the page, its modules also under content-hashed names, the wasm in three encodings only there, not the fallback page, no hidden files")
	assert.Equal(t, fsys["converge.js"].Data, byName[dir+"converge.js"], "the hashed module is the module")
	assert.Contains(t, string(byName["converge.js"]), `export * from "./`+dir+`converge.js";`, "the entry loads the hashed module")
	wasm := fsys["dist/converge.wasm"].Data
	assert.Equal(t, wasm, byName[dir+"dist/converge.wasm"])
	unbr, err := io.ReadAll(brotli.NewReader(bytes.NewReader(byName[dir+"dist/converge.wasm.br"])))
	require.NoError(t, err)
	assert.Equal(t, wasm, unbr, "the .br is the wasm")
	zr, err := gzip.NewReader(bytes.NewReader(byName[dir+"dist/converge.wasm.gz"]))
	require.NoError(t, err)
	ungz, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, wasm, ungz, "the .gz is the wasm")

	rules := parseHeaders(t, byName["_headers"])
	for _, p := range []string{"/index.html", "/converge.js", "/" + dir + "dist/wasm_exec.js", "/" + dir + "dist/converge.wasm", "/" + dir + "dist/converge.wasm.br"} {
		h := headersFor(rules, p)
		assert.Equal(t, "*", h.Get("Access-Control-Allow-Origin"), p)
		assert.Equal(t, "cross-origin", h.Get("Cross-Origin-Resource-Policy"), p)
	}
	for p, enc := range map[string]string{"/" + dir + "dist/converge.wasm": "", "/" + dir + "dist/converge.wasm.br": "br", "/" + dir + "dist/converge.wasm.gz": "gzip"} {
		h := headersFor(rules, p)
		assert.Equal(t, "application/wasm", h.Get("Content-Type"), p)
		assert.Equal(t, enc, h.Get("Content-Encoding"), p)
		assert.Equal(t, strconv.Itoa(len(wasm)), h.Get("X-Converge-Size"), p)
		assert.Equal(t, immutableCaching, h.Get("Cache-Control"), p)
	}
	for _, p := range []string{"/index.html", "/converge.js"} {
		assert.Empty(t, headersFor(rules, p).Get("Cache-Control"), "%s names the current build: revalidated", p)
	}
	assert.Empty(t, headersFor(rules, "/converge.js").Get("Content-Encoding"))
	readme := string(byName["README.md"])
	for _, want := range []string{"GitHub Pages", "_headers", "Access-Control-Allow-Origin", "<converge-sim"} {
		assert.Contains(t, readme, want)
	}
	_, err = siteBundle(fstest.MapFS{"index.html": {Data: nil}}, 1)
	assert.Error(t, err, "no wasm to export")
}

// The exported pages, styles and modules refer to everything by relative
// paths, so the site works from any folder of a host.
func TestExportedSiteUsesRelativePaths(t *testing.T) {
	t.Parallel()
	if !web.Built() {
		t.Skip("the wasm is not built (make build)")
	}
	files, err := siteBundle(web.FS, 0)
	require.NoError(t, err)
	refs := regexp.MustCompile(`(?:src|href)="([^"]*)"|url\(([^)]*)\)|from "([^"]*)"|import\("([^"]*)"\)|new URL\("([^"]*)"`)
	checked := 0
	for _, f := range files {
		switch path.Ext(f.name) {
		case ".html", ".css", ".js":
		default:
			continue
		}
		if strings.Contains(f.name, "dist/") {
			continue // wasm_exec.js is the Go toolchain's
		}
		for _, m := range refs.FindAllStringSubmatch(string(f.data), -1) {
			ref := strings.Join(m[1:], "")
			if strings.HasPrefix(ref, "data:") || strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, "https://") || strings.HasPrefix(ref, "http://www.w3.org/") {
				continue
			}
			checked++
			assert.False(t, strings.HasPrefix(ref, "/"), "%s refers to %q: not relative", f.name, ref)
		}
	}
	assert.Greater(t, checked, 5)
}

func TestExportSiteCommand(t *testing.T) {
	t.Parallel()
	if !web.Built() {
		t.Skip("the wasm is not built (make build)")
	}
	dir := filepath.Join(t.TempDir(), "site")
	code, out, errOut := runCLI(t, "export-site", "--brotli-quality", "0", dir)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "dist/converge.wasm.br")
	assert.Contains(t, out, "Wrote ")
	hashed, err := filepath.Glob(filepath.Join(dir, "v", "*"))
	require.NoError(t, err)
	require.Len(t, hashed, 1, "one content-hashed folder")
	v := "v/" + filepath.Base(hashed[0]) + "/"
	for _, name := range []string{"index.html", "embed-demo.html", "converge.js", "converge-sim.js", "style.css",
		v + "converge.js", v + "converge-sim.js", v + "style.css",
		v + "dist/converge.wasm", v + "dist/converge.wasm.br", v + "dist/converge.wasm.gz", v + "dist/wasm_exec.js", "_headers", "README.md"} {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		assert.NoError(t, err, name)
	}
	_, err = os.Stat(filepath.Join(dir, web.PlaceholderPath))
	assert.True(t, os.IsNotExist(err), "the fallback page is not exported")

	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no directory", args: []string{"export-site"}, want: "export-site takes one argument"},
		{name: "two directories", args: []string{"export-site", "a", "b"}, want: "export-site takes one argument"},
		{name: "quality out of range", args: []string{"export-site", "--brotli-quality", "12", dir}, want: "--brotli-quality 12: want 0 to 11"},
		// Quality 0: the default, 11, compresses for half a minute before
		// the write is refused.
		{name: "a file where the directory goes", args: []string{"export-site", "--brotli-quality", "0", filepath.Join(dir, "index.html")}, want: "not a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, _, errOut := runCLI(t, tc.args...)
			assert.Equal(t, exitBadInput, code)
			assert.Contains(t, errOut, tc.want)
		})
	}
}

// writeSite refuses a symbolic link inside its folder (a file or a folder
// of the site), says which and writes nothing; it replaces files through a
// rename, so that a hard link to the old file keeps the old bytes, and
// leaves no temporary file.
func TestWriteSite(t *testing.T) {
	t.Parallel()
	files := []bundleFile{
		{name: "index.html", data: []byte("new index")},
		{name: "dist/converge.wasm", data: []byte("\x00asm new")},
	}
	tests := []struct {
		name string
		// setup prepares root/site (and root/outside) and returns what
		// must stay as it is: path → content.
		setup   func(t *testing.T, root string) map[string]string
		wantErr string // "" for success
	}{
		{
			name: "a file that links outside",
			setup: func(t *testing.T, root string) map[string]string {
				outside := filepath.Join(root, "outside.txt")
				require.NoError(t, os.WriteFile(outside, []byte("precious"), 0o600))
				require.NoError(t, os.MkdirAll(filepath.Join(root, "site"), 0o755))
				require.NoError(t, os.Symlink(outside, filepath.Join(root, "site", "index.html")))
				return map[string]string{outside: "precious"}
			},
			wantErr: filepath.Join("site", "index.html") + " is a symbolic link: export-site does not write through links inside its folder",
		},
		{
			name: "a folder that links outside",
			setup: func(t *testing.T, root string) map[string]string {
				outside := filepath.Join(root, "outside")
				require.NoError(t, os.MkdirAll(outside, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(outside, "converge.wasm"), []byte("precious"), 0o600))
				require.NoError(t, os.MkdirAll(filepath.Join(root, "site"), 0o755))
				require.NoError(t, os.Symlink(outside, filepath.Join(root, "site", "dist")))
				return map[string]string{filepath.Join(outside, "converge.wasm"): "precious"}
			},
			wantErr: filepath.Join("site", "dist") + " is a symbolic link",
		},
		{
			name: "a dangling link",
			setup: func(t *testing.T, root string) map[string]string {
				require.NoError(t, os.MkdirAll(filepath.Join(root, "site"), 0o755))
				require.NoError(t, os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(root, "site", "index.html")))
				return nil
			},
			wantErr: "is a symbolic link",
		},
		{
			name: "an old file with a hard link",
			setup: func(t *testing.T, root string) map[string]string {
				require.NoError(t, os.MkdirAll(filepath.Join(root, "site"), 0o755))
				old := filepath.Join(root, "site", "index.html")
				require.NoError(t, os.WriteFile(old, []byte("old index"), 0o644))
				require.NoError(t, os.Link(old, filepath.Join(root, "kept.html")))
				return map[string]string{filepath.Join(root, "kept.html"): "old index"}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			keep := tc.setup(t, root)
			dir := filepath.Join(root, "site")
			var out, errOut strings.Builder
			err := writeSite(&env{stdout: &out, stderr: &errOut}, dir, files)
			for name, want := range keep {
				got, rerr := os.ReadFile(name)
				require.NoError(t, rerr)
				assert.Equal(t, want, string(got), "%s is untouched", name)
			}
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				assert.Empty(t, out.String(), "nothing written")
				_, serr := os.Lstat(filepath.Join(dir, "dist", "converge.wasm"))
				assert.True(t, os.IsNotExist(serr) || strings.Contains(tc.name, "folder"), "nothing written")
				return
			}
			require.NoError(t, err)
			for _, f := range files {
				got, rerr := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.name)))
				require.NoError(t, rerr)
				assert.Equal(t, string(f.data), string(got))
			}
			var left []string
			require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && strings.Contains(d.Name(), ".tmp-") {
					left = append(left, p)
				}
				return err
			}))
			assert.Empty(t, left, "no temporary file is left")
		})
	}
}
