package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/internal/precompress"
	"converge/web"
)

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	require.NoError(t, err)
	_, err = zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func brotlied(t *testing.T, s string) []byte {
	t.Helper()
	b, err := precompress.Brotli([]byte(s), precompress.FastBrotli)
	require.NoError(t, err)
	return b
}

// decoded is body decoded from encoding ("" for none).
func decoded(t *testing.T, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		require.NoError(t, err)
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	default:
		t.Fatalf("unexpected encoding %q", encoding)
	}
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	return out
}

func testSite(t *testing.T) *site {
	t.Helper()
	fsys := fstest.MapFS{
		"index.html":            {Data: []byte("<!doctype html><title>app</title>")},
		"placeholder.html":      {Data: []byte("<!doctype html><title>run make build</title>")},
		"converge.js":           {Data: []byte("// @ts-check\n")},
		"dist/converge.wasm":    {Data: []byte("\x00asm wasm bytes")},
		"dist/converge.wasm.gz": {Data: gzipped(t, "\x00asm wasm bytes")},
		"dist/converge.wasm.br": {Data: brotlied(t, "\x00asm wasm bytes")},
		"dist/wasm_exec.js.gz":  {Data: gzipped(t, "globalThis.Go = class {};")},
		"dist/wasm_exec.js":     {Data: []byte("globalThis.Go = class {};")},
		"dist/.gitkeep":         {Data: nil},
		"scenario.yaml":         {Data: []byte("name: x\n")},
	}
	s, err := newSite(fsys, "index.html")
	require.NoError(t, err)
	return s
}

func TestSiteServesAssets(t *testing.T) {
	t.Parallel()
	s := testSite(t)
	tests := []struct {
		name           string
		method         string
		path           string
		acceptEncoding string
		remoteAddr     string
		wantStatus     int
		wantType       string
		wantEncoding   string
		wantBody       string
	}{
		{name: "root is index.html", path: "/", wantStatus: 200, wantType: "text/html; charset=utf-8", wantBody: "<!doctype html><title>app</title>"},
		{name: "a module is JavaScript", path: "/converge.js", wantStatus: 200, wantType: "text/javascript; charset=utf-8", wantBody: "// @ts-check\n"},
		{name: "wasm is application/wasm", path: "/dist/converge.wasm", wantStatus: 200, wantType: "application/wasm", wantBody: "\x00asm wasm bytes"},
		{name: "wasm as brotli when accepted", path: "/dist/converge.wasm", acceptEncoding: "gzip, deflate, br, zstd",
			wantStatus: 200, wantType: "application/wasm", wantEncoding: "br", wantBody: "\x00asm wasm bytes"},
		{name: "wasm gzipped without br", path: "/dist/converge.wasm", acceptEncoding: "gzip, deflate",
			wantStatus: 200, wantType: "application/wasm", wantEncoding: "gzip", wantBody: "\x00asm wasm bytes"},
		{name: "br;q=0 refuses brotli", path: "/dist/converge.wasm", acceptEncoding: "gzip, br;q=0",
			wantStatus: 200, wantType: "application/wasm", wantEncoding: "gzip", wantBody: "\x00asm wasm bytes"},
		{name: "a star accepts what it does not name", path: "/dist/converge.wasm", acceptEncoding: "gzip;q=0, *",
			wantStatus: 200, wantType: "application/wasm", wantEncoding: "br", wantBody: "\x00asm wasm bytes"},
		{name: "gzip only where there is no .br", path: "/dist/wasm_exec.js", acceptEncoding: "br, gzip",
			wantStatus: 200, wantType: "text/javascript; charset=utf-8", wantEncoding: "gzip", wantBody: "globalThis.Go = class {};"},
		{name: "never compressed on loopback", path: "/dist/converge.wasm", acceptEncoding: "gzip, br", remoteAddr: "127.0.0.1:50000",
			wantStatus: 200, wantType: "application/wasm", wantBody: "\x00asm wasm bytes"},
		{name: "never compressed on v6 loopback", path: "/dist/converge.wasm", acceptEncoding: "gzip, br", remoteAddr: "[::1]:50000",
			wantStatus: 200, wantType: "application/wasm", wantBody: "\x00asm wasm bytes"},
		{name: "gzip;q=0 and no br", path: "/dist/converge.wasm", acceptEncoding: "gzip;q=0, deflate",
			wantStatus: 200, wantType: "application/wasm", wantBody: "\x00asm wasm bytes"},
		{name: "only deflate accepted", path: "/dist/converge.wasm", acceptEncoding: "deflate",
			wantStatus: 200, wantType: "application/wasm", wantBody: "\x00asm wasm bytes"},
		{name: "yaml is text", path: "/scenario.yaml", wantStatus: 200, wantType: "text/yaml; charset=utf-8", wantBody: "name: x\n"},
		{name: "HEAD has no body", method: http.MethodHead, path: "/converge.js", wantStatus: 200, wantType: "text/javascript; charset=utf-8"},
		{name: "unknown file", path: "/nope.js", wantStatus: 404},
		{name: "a directory is not listed", path: "/dist/", wantStatus: 404},
		{name: "hidden files are not served", path: "/dist/.gitkeep", wantStatus: 404},
		{name: "the .gz is not served under its own name", path: "/dist/converge.wasm.gz", wantStatus: 404},
		{name: "the .br is the wasm, as brotli to those who accept it", path: "/dist/converge.wasm.br", acceptEncoding: "br",
			wantStatus: 200, wantType: "application/wasm", wantEncoding: "br", wantBody: "\x00asm wasm bytes"},
		{name: "the .br is the wasm, gzipped to others", path: "/dist/converge.wasm.br", acceptEncoding: "gzip",
			wantStatus: 200, wantType: "application/wasm", wantEncoding: "gzip", wantBody: "\x00asm wasm bytes"},
		{name: "the .br is the plain wasm on loopback", path: "/dist/converge.wasm.br", acceptEncoding: "gzip, br", remoteAddr: "127.0.0.1:1",
			wantStatus: 200, wantType: "application/wasm", wantBody: "\x00asm wasm bytes"},
		{name: "no .br of a file without one", path: "/converge.js.br", wantStatus: 404},
		{name: "dot-dot stays inside", path: "/dist/../../../etc/passwd", wantStatus: 404},
		{name: "POST is refused", method: http.MethodPost, path: "/", wantStatus: 405},
		{name: "a CORS preflight is answered", method: http.MethodOptions, path: "/converge.js", wantStatus: 204},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			method := tc.method
			if method == "" {
				method = http.MethodGet
			}
			req := httptest.NewRequest(method, tc.path, nil)
			if tc.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tc.acceptEncoding)
			}
			if tc.remoteAddr != "" {
				req.RemoteAddr = tc.remoteAddr // httptest's default, 192.0.2.1, is remote
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)

			require.Equal(t, tc.wantStatus, rec.Code)
			// Every answer lets a page of another origin use it.
			assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
			assert.Equal(t, "cross-origin", rec.Header().Get("Cross-Origin-Resource-Policy"))
			assert.Equal(t, "*", rec.Header().Get("Timing-Allow-Origin"))
			if tc.wantStatus != 200 {
				return
			}
			assert.Equal(t, tc.wantType, rec.Header().Get("Content-Type"))
			assert.Equal(t, tc.wantEncoding, rec.Header().Get("Content-Encoding"))
			assert.Equal(t, "no-cache", rec.Header().Get("Cache-Control"))
			assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
			assert.NotEmpty(t, rec.Header().Get("ETag"))
			if strings.HasPrefix(tc.path, "/dist/converge.wasm") {
				assert.Equal(t, strconv.Itoa(len("\x00asm wasm bytes")), rec.Header().Get("X-Converge-Size"), "the decoded size, for the progress")
				assert.Equal(t, "X-Converge-Size", rec.Header().Get("Access-Control-Expose-Headers"))
			}
			assert.Equal(t, tc.wantBody, string(decoded(t, tc.wantEncoding, rec.Body.Bytes())))
		})
	}
}

func TestSiteRevalidatesWithETags(t *testing.T) {
	t.Parallel()
	s := testSite(t)
	get := func(path, acceptEncoding, ifNoneMatch string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		if ifNoneMatch != "" {
			req.Header.Set("If-None-Match", ifNoneMatch)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}
	plain := get("/dist/converge.wasm", "", "")
	zipped := get("/dist/converge.wasm", "gzip", "")
	brotli := get("/dist/converge.wasm", "br", "")
	require.Equal(t, 200, plain.Code)
	require.Equal(t, 200, zipped.Code)
	require.Equal(t, 200, brotli.Code)
	assert.NotEqual(t, plain.Header().Get("ETag"), zipped.Header().Get("ETag"), "each encoding has its own tag")
	assert.NotEqual(t, zipped.Header().Get("ETag"), brotli.Header().Get("ETag"), "each encoding has its own tag")
	assert.Equal(t, http.StatusNotModified, get("/dist/converge.wasm", "br", brotli.Header().Get("ETag")).Code)
	assert.Equal(t, "Accept-Encoding", plain.Header().Get("Vary"))

	assert.Equal(t, http.StatusNotModified, get("/dist/converge.wasm", "", plain.Header().Get("ETag")).Code)
	assert.Equal(t, http.StatusNotModified, get("/dist/converge.wasm", "gzip", zipped.Header().Get("ETag")).Code)
	assert.Equal(t, http.StatusOK, get("/dist/converge.wasm", "gzip", plain.Header().Get("ETag")).Code,
		"the plain tag does not match the gzip representation")
	assert.Equal(t, http.StatusOK, get("/", "", `"stale"`).Code)
}

func TestNewSite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		fsys     fstest.MapFS
		root     string
		wantErr  string
		wantRoot string
	}{
		{name: "placeholder as root", root: "placeholder.html",
			fsys:     fstest.MapFS{"index.html": {Data: []byte("app")}, "placeholder.html": {Data: []byte("run make build")}},
			wantRoot: "run make build"},
		{name: "missing root", root: "index.html", fsys: fstest.MapFS{"style.css": {Data: []byte("")}},
			wantErr: "reading the page assets: no index.html"},
		{name: "a lone .gz is served as itself", root: "a.gz", fsys: fstest.MapFS{"a.gz": {Data: []byte("zz")}}, wantRoot: "zz"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := newSite(tc.fsys, tc.root)
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
			assert.Equal(t, 200, rec.Code)
			assert.Equal(t, tc.wantRoot, rec.Body.String())
		})
	}
}

// The embedded page as `converge serve` serves it: a docs page of any
// origin may load the boot module, its modules, wasm_exec.js and the wasm,
// and the wasm comes precompressed to remote clients.
func TestEmbeddedSiteServesOtherOrigins(t *testing.T) {
	t.Parallel()
	if !web.Built() {
		t.Skip("the wasm is not built (make build)")
	}
	s, err := newSite(web.FS, "index.html")
	require.NoError(t, err)
	raw, err := fs.ReadFile(web.FS, web.WasmPath)
	require.NoError(t, err)
	for _, path := range []string{"/converge.js", "/converge-sim.js", "/style.css", "/" + web.WasmExecPath, "/" + web.WasmPath} {
		for _, enc := range []string{"", "gzip", "br"} {
			t.Run(path+" "+enc, func(t *testing.T) {
				t.Parallel()
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.Header.Set("Origin", "https://docs.example.com")
				if enc != "" {
					req.Header.Set("Accept-Encoding", enc)
				}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				require.Equal(t, http.StatusOK, rec.Code)
				assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
				assert.Equal(t, "cross-origin", rec.Header().Get("Cross-Origin-Resource-Policy"))
				if path != "/"+web.WasmPath {
					return
				}
				assert.Equal(t, "application/wasm", rec.Header().Get("Content-Type"))
				assert.Equal(t, enc, rec.Header().Get("Content-Encoding"))
				assert.True(t, bytes.Equal(raw, decoded(t, enc, rec.Body.Bytes())), "the %q variant is the wasm", enc)
			})
		}
	}
}
