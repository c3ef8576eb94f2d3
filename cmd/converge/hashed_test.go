package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The served site has content-hashed copies of its modules and wasm under
// v/HASH/, cached for good, and converge.js re-exports the hashed one; the
// names without a hash are revalidated (docs/embedding.md#caching).
func TestSiteServesContentHashedNames(t *testing.T) {
	t.Parallel()
	s := testSite(t)
	s.addHashedNames("dist/converge.wasm")
	require.Len(t, s.hash, 12)
	dir := "/" + hashedDir(s.hash)
	get := func(path, acceptEncoding string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", acceptEncoding)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}
	tests := []struct {
		name, path, acceptEncoding string
		wantStatus                 int
		wantCache, wantEncoding    string
		wantBody                   string
	}{
		{name: "the hashed module is the module", path: dir + "converge.js", wantStatus: 200, wantCache: immutableCaching, wantBody: "// @ts-check\n"},
		{name: "the hashed wasm in brotli", path: dir + "dist/converge.wasm.br", acceptEncoding: "br", wantStatus: 200,
			wantCache: immutableCaching, wantEncoding: "br", wantBody: "\x00asm wasm bytes"},
		{name: "the hashed loader", path: dir + "dist/wasm_exec.js", wantStatus: 200, wantCache: immutableCaching, wantBody: "globalThis.Go = class {};"},
		{name: "the entry re-exports the hashed module", path: "/converge.js", wantStatus: 200, wantCache: "no-cache",
			wantBody: `export * from "./` + hashedDir(s.hash) + `converge.js";`},
		{name: "the plain wasm stays, revalidated", path: "/dist/converge.wasm", wantStatus: 200, wantCache: "no-cache", wantBody: "\x00asm wasm bytes"},
		{name: "pages have no hashed copy", path: dir + "index.html", wantStatus: 404},
		{name: "another build's hash is not found", path: "/v/000000000000/converge.js", wantStatus: 404},
		{name: "hidden files stay hidden", path: dir + "dist/.gitkeep", wantStatus: 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := get(tc.path, tc.acceptEncoding)
			require.Equal(t, tc.wantStatus, rec.Code)
			if tc.wantStatus != 200 {
				return
			}
			assert.Equal(t, tc.wantCache, rec.Header().Get("Cache-Control"))
			assert.Equal(t, tc.wantEncoding, rec.Header().Get("Content-Encoding"))
			assert.Contains(t, string(decoded(t, tc.wantEncoding, rec.Body.Bytes())), tc.wantBody)
		})
	}
}

// The hash follows the content: any byte of any hashed file changes it,
// the pages do not.
func TestBundleHashFollowsTheContent(t *testing.T) {
	t.Parallel()
	hash := func(fsys fstest.MapFS) string {
		var names []string
		for n := range fsys {
			names = append(names, n)
		}
		return bundleHash(names, func(n string) []byte { return fsys[n].Data })
	}
	base := func() fstest.MapFS {
		return fstest.MapFS{
			"index.html":            {Data: []byte("page")},
			"converge.js":           {Data: []byte("module")},
			"dist/converge.wasm":    {Data: []byte("\x00asm 1")},
			"dist/converge.wasm.br": {Data: []byte("q6")},
		}
	}
	h := hash(base())
	tests := []struct {
		name   string
		change func(fstest.MapFS)
		same   bool
	}{
		{name: "the wasm", change: func(f fstest.MapFS) { f["dist/converge.wasm"] = &fstest.MapFile{Data: []byte("\x00asm 2")} }},
		{name: "a module", change: func(f fstest.MapFS) { f["converge.js"] = &fstest.MapFile{Data: []byte("module!")} }},
		{name: "a new file", change: func(f fstest.MapFS) { f["crash.js"] = &fstest.MapFile{Data: []byte("x")} }},
		{name: "a renamed file", change: func(f fstest.MapFS) { f["c.js"] = f["converge.js"]; delete(f, "converge.js") }},
		{name: "a page", change: func(f fstest.MapFS) { f["index.html"] = &fstest.MapFile{Data: []byte("new page")} }, same: true},
		{name: "another brotli quality", change: func(f fstest.MapFS) { f["dist/converge.wasm.br"] = &fstest.MapFile{Data: []byte("q11")} }, same: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := base()
			tc.change(f)
			assert.Equal(t, tc.same, hash(f) == h)
			assert.False(t, strings.ContainsAny(hash(f), "/."), "a folder name")
		})
	}
}

// export-site reuses the build's .br when make build wrote it at the
// quality asked for (dist/.brotli-quality), and compresses otherwise.
func TestSiteBrotliReusesTheBuilds(t *testing.T) {
	t.Parallel()
	wasm := []byte("\x00asm wasm bytes")
	fsys := fstest.MapFS{
		"dist/converge.wasm":    {Data: wasm},
		"dist/converge.wasm.br": {Data: []byte("the build's")},
		"dist/.brotli-quality":  {Data: []byte("11\n")},
	}
	tests := []struct {
		name    string
		quality int
		fsys    fstest.MapFS
		reused  bool
	}{
		{name: "the build's quality", quality: 11, fsys: fsys, reused: true},
		{name: "another quality", quality: 5, fsys: fsys},
		{name: "no quality file", quality: 11, fsys: fstest.MapFS{"dist/converge.wasm": {Data: wasm}, "dist/converge.wasm.br": {Data: []byte("the build's")}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			br, err := siteBrotli(tc.fsys, wasm, tc.quality)
			require.NoError(t, err)
			assert.Equal(t, tc.reused, string(br) == "the build's")
		})
	}
}
