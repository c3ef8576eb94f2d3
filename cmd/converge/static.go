package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// site serves a read-only tree of files held in memory: the page assets
// embedded in the binary. It differs from http.FileServerFS in what a page
// of a few megabytes of wasm, embedded in other sites, needs:
//   - every file has a strong ETag (a hash of its bytes) and
//     `Cache-Control: no-cache`, so a reload revalidates and gets 304 unless
//     the binary changed; embedded files have no modification time to go by;
//   - `converge serve` (addHashedNames) also serves the modules and the
//     wasm under content-hashed names, v/HASH/..., with `Cache-Control:
//     public, max-age=31536000, immutable` (hashed.go);
//   - a file with a NAME.br or NAME.gz sibling (make build precompresses
//     the wasm; net/http never compresses on its own) is sent brotli- or
//     gzip-encoded, brotli first, to clients that accept it and are not on
//     loopback, with `Vary: Accept-Encoding`. On loopback the transfer
//     costs nothing and decoding does: docs/performance.md has the
//     measurements;
//   - every file may be used by a page of any origin: `Access-Control-
//     Allow-Origin: *` (module scripts and the wasm's fetch are CORS
//     requests), `Cross-Origin-Resource-Policy: cross-origin` (for pages
//     that isolate themselves with COEP) and `Timing-Allow-Origin: *` (so
//     that such a page can measure the download). The page has no cookies
//     or credentials, so there is nothing a wildcard could leak;
//   - a precompressed file says its own size in X-Converge-Size (exposed
//     to other origins), so that converge.js can show its progress in
//     bytes whatever the encoding on the wire;
//   - `/` is index.html, or the fallback page when the app is not built;
//     NAME.br is NAME, negotiated as above (converge.js asks for
//     dist/converge.wasm.br first, for static hosts; see export.go);
//   - no directory listings, and only GET and HEAD (and OPTIONS, for a
//     CORS preflight a page might send).
type site struct {
	files map[string]*asset
	// root is the file served at "/".
	root string
	// hash is the content hash of the copies under v/HASH/ (hashed.go);
	// "" when there are none.
	hash string
}

// asset is one file of a site, in each encoding it has.
type asset struct {
	name        string
	contentType string
	// identity is the file itself; br and gzip its precompressed
	// variants, or nil.
	identity, br, gzip *variant
	// csp is an HTML page's Content-Security-Policy, from its own meta
	// tag, sent as a header too (with no frame-ancestors: ?embed=1 is for
	// iframes); "" for other files.
	csp string
}

// metaCSPTag finds the policy of a page's CSP meta tag.
var metaCSPTag = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)

// variant is one encoding of an asset: the bytes sent and their tag.
type variant struct {
	encoding string // "" for the file itself, else the Content-Encoding
	data     []byte
	etag     string
}

// precompressed are the sibling suffixes of a precompressed file, and
// their Content-Encoding.
var precompressed = []struct{ suffix, encoding string }{{".br", "br"}, {".gz", "gzip"}}

// contentTypes pins the types the page depends on; other extensions go by
// the mime package. instantiateStreaming refuses wasm served as anything
// other than application/wasm.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".wasm": "application/wasm",
	".yaml": "text/yaml; charset=utf-8",
}

// newSite reads every file of fsys (skipping names that start with a dot) and
// serves root at "/".
func newSite(fsys fs.FS, root string) (*site, error) {
	s := &site{files: map[string]*asset{}, root: root}
	var compressed []string
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && name != "." {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		for _, p := range precompressed {
			if strings.HasSuffix(name, p.suffix) {
				compressed = append(compressed, name)
				return nil
			}
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		a := &asset{name: name, contentType: contentType(name), identity: &variant{data: data, etag: etag(data, "")}}
		if m := metaCSPTag.FindSubmatch(data); m != nil && path.Ext(name) == ".html" {
			a.csp = string(m[1])
		}
		s.files[name] = a
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the page assets: %w", err)
	}
	for _, name := range compressed {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("reading the page assets: %w", err)
		}
		ext := path.Ext(name)
		a, ok := s.files[strings.TrimSuffix(name, ext)]
		if !ok {
			// A lone NAME.gz is served as the file it is.
			s.files[name] = &asset{name: name, contentType: contentType(name), identity: &variant{data: data, etag: etag(data, "")}}
			continue
		}
		// The tag of a variant is the file's, so that it changes with the
		// file, told apart by the encoding.
		switch ext {
		case ".br":
			a.br = &variant{encoding: "br", data: data, etag: etag(a.identity.data, "-br")}
		case ".gz":
			a.gzip = &variant{encoding: "gzip", data: data, etag: etag(a.identity.data, "-gzip")}
		}
	}
	if _, ok := s.files[root]; !ok {
		return nil, fmt.Errorf("reading the page assets: no %s", root)
	}
	return s, nil
}

// addHashedNames serves every asset that hashedName keeps a second time
// under v/HASH/, with immutable caching, and converge.js as the module
// that re-exports the hashed one (hashed.go). A site without converge.js
// or without the wasm (not built) stays as it is.
func (s *site) addHashedNames(wasmPath string) {
	if s.files["converge.js"] == nil || s.files[wasmPath] == nil {
		return
	}
	names := make([]string, 0, len(s.files))
	for name := range s.files {
		names = append(names, name)
	}
	s.hash = bundleHash(names, func(name string) []byte { return s.files[name].identity.data })
	dir := hashedDir(s.hash)
	for _, name := range names {
		if hashedName(name) {
			s.files[dir+name] = s.files[name]
		}
	}
	entry := entryModule(s.hash)
	s.files["converge.js"] = &asset{name: "converge.js", contentType: contentType("converge.js"),
		identity: &variant{data: entry, etag: etag(entry, "")}}
}

// etag is a strong entity tag for data; suffix tells encodings apart.
func etag(data []byte, suffix string) string {
	sum := sha256.Sum256(data)
	return `"` + hex.EncodeToString(sum[:12]) + suffix + `"`
}

func contentType(name string) string {
	ext := path.Ext(name)
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// corsHeaders are sent with every response (see site).
var corsHeaders = [][2]string{
	{"Access-Control-Allow-Origin", "*"},
	{"Cross-Origin-Resource-Policy", "cross-origin"},
	{"Timing-Allow-Origin", "*"},
	{"Access-Control-Expose-Headers", "X-Converge-Size"},
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for _, kv := range corsHeaders {
		h.Set(kv[0], kv[1])
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		h.Set("Access-Control-Allow-Methods", "GET, HEAD")
		h.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		h.Set("Allow", "GET, HEAD, OPTIONS")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = s.root
	}
	a, ok := s.files[name]
	if base, isBr := strings.CutSuffix(name, ".br"); !ok && isBr {
		// converge.js asks for NAME.br first (a static host with the
		// export's _headers sends it as NAME in brotli): here it is NAME,
		// in the encoding chosen below.
		a, ok = s.files[base]
		ok = ok && a.br != nil
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	h.Set("Content-Type", a.contentType)
	if s.hash != "" && strings.HasPrefix(name, hashedDir(s.hash)) {
		h.Set("Cache-Control", immutableCaching)
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	if a.csp != "" {
		h.Set("Content-Security-Policy", a.csp)
	}
	v := a.identity
	if a.br != nil || a.gzip != nil {
		h.Add("Vary", "Accept-Encoding")
		h.Set("X-Converge-Size", strconv.Itoa(len(a.identity.data)))
		if !fromLoopback(r) {
			v = a.choose(r)
		}
	}
	if v.encoding != "" {
		h.Set("Content-Encoding", v.encoding)
	}
	h.Set("ETag", v.etag)
	http.ServeContent(w, r, a.name, time.Time{}, bytes.NewReader(v.data))
}

// choose is the variant to send for r's Accept-Encoding: brotli, then
// gzip, then the file itself.
func (a *asset) choose(r *http.Request) *variant {
	if a.br != nil && accepts(r, "br") {
		return a.br
	}
	if a.gzip != nil && accepts(r, "gzip") {
		return a.gzip
	}
	return a.identity
}

// fromLoopback reports whether the request comes from this machine.
func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// accepts reports whether the request's Accept-Encoding allows coding (a
// `br;q=0` refuses it; "*" allows what is not named).
func accepts(r *http.Request, coding string) bool {
	star := false
	for _, field := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(field, ",") {
			c, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			c = strings.TrimSpace(c)
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			refused := q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000"
			switch {
			case strings.EqualFold(c, coding):
				return !refused
			case c == "*":
				star = !refused
			}
		}
	}
	return star
}
