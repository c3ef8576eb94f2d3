package main

// Browser tests of the exported site on the static hosts docs are served
// from (docs/embedding.md, "Hosting"): converge.js checks the first bytes
// of what it fetched and falls back to the next file when they are not a
// wasm module, or when the module does not instantiate; when nothing
// loads, an element shows its own content and one line saying why.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exportedSite is a site written by bin/converge export-site (at brotli
// quality 1) into a temporary folder. The tests share one export (it
// compresses the wasm twice): they read the folder, never write it.
func exportedSite(t testing.TB) string {
	t.Helper()
	bin, err := filepath.Abs(binaryPath)
	require.NoError(t, err)
	if _, err := os.Stat(bin); err != nil {
		unavailable(t, "%s is missing: run make build", bin)
	}
	sharedSite.once.Do(func() {
		sharedSite.tmp, sharedSite.err = os.MkdirTemp("", "converge-site-")
		if sharedSite.err != nil {
			return
		}
		dir := filepath.Join(sharedSite.tmp, "site")
		sharedSite.out, sharedSite.err = exec.Command(bin, "export-site", "--brotli-quality", "1", dir).CombinedOutput()
		sharedSite.dir = dir
	})
	require.NoError(t, sharedSite.err, "%s", sharedSite.out)
	return sharedSite.dir
}

// siteExport is exportedSite's one export, removed when the test binary
// ends (TestMain).
type siteExport struct {
	once     sync.Once
	tmp, dir string
	out      []byte
	err      error
}

var sharedSite = &siteExport{}

func (s *siteExport) remove() {
	if s.tmp != "" {
		_ = os.RemoveAll(s.tmp)
	}
}

// pythonHost serves dir with `python3 -m http.server` on a free loopback
// port, as a docs writer previews a folder, and stops it when the test
// ends. Python sends dist/converge.wasm.br as application/wasm without
// Content-Encoding: the bytes are brotli, not a module.
func pythonHost(t *testing.T, dir string) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		unavailable(t, "no python3 on PATH")
	}
	cmd := exec.Command(python, "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir, "0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan struct{})
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	lines := make(chan string, 1)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		for sc.Scan() { // keep the pipe drained
		}
		_ = cmd.Wait()
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(serveStartTimeout):
		t.Fatal("python3 -m http.server printed no address")
	}
	// "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
	i, j := strings.Index(line, "(http://"), strings.Index(line, "/) ")
	require.True(t, i >= 0 && j > i, "python3 -m http.server said %q", line)
	return line[i+1 : j]
}

// corruptBrHost serves dir with _headers applied, but its .br is a module's
// first bytes followed by garbage: the fetch passes the check, and
// instantiating it fails.
func corruptBrHost(dir string, rules []headerRule) http.Handler {
	files := staticHost(dir, rules)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm.br") {
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Set("Access-Control-Allow-Origin", "*")
			_, _ = w.Write(append([]byte("\x00asm\x01\x00\x00\x00"), []byte(strings.Repeat("not a module ", 100))...))
			return
		}
		files.ServeHTTP(w, r)
	})
}

// The exported site works on every kind of static host, the app and two
// embeds on one page: each host's page uses the file it can (count of
// requests by path), and the console is clean.
func TestExportedSiteOnEveryStaticHost(t *testing.T) {
	t.Parallel()
	dir := exportedSite(t)
	data, err := os.ReadFile(filepath.Join(dir, "_headers"))
	require.NoError(t, err)
	rules := parseHeaders(t, data)
	tests := []struct {
		name string
		host func(t *testing.T) string
		// used is the wasm file the page instantiated; tried, one it
		// fetched and refused first.
		used, tried string
	}{
		{name: "converge serve", host: func(t *testing.T) string { return startServe(t).URL },
			used: "/dist/converge.wasm.br"},
		{name: "python http.server", host: func(t *testing.T) string { return pythonHost(t, dir) },
			used: "/dist/converge.wasm", tried: "/dist/converge.wasm.br"},
		{name: "br as application/octet-stream", host: func(t *testing.T) string {
			h := httptest.NewServer(staticHost(dir, nil))
			t.Cleanup(h.Close)
			return h.URL
		}, used: "/dist/converge.wasm", tried: "/dist/converge.wasm.br"},
		{name: "a host that reads _headers", host: func(t *testing.T) string {
			h := httptest.NewServer(staticHost(dir, rules))
			t.Cleanup(h.Close)
			return h.URL
		}, used: "/dist/converge.wasm.br"},
		{name: "nginx", host: func(t *testing.T) string { return nginxHost(t, dir) },
			used: "/dist/converge.wasm.br"},
		{name: "a br that does not instantiate", host: func(t *testing.T) string {
			h := httptest.NewServer(corruptBrHost(dir, rules))
			t.Cleanup(h.Close)
			return h.URL
		}, used: "/dist/converge.wasm", tried: "/dist/converge.wasm.br"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			origin, count := countingProxy(t, tc.host(t))
			app := openPage(t, origin+"/")
			app.waitReady(t)
			assert.NotEmpty(t, evalJS[string](t, app, "converge.version"))
			app.assertNoConsoleErrors(t)

			p := openPage(t, origin+"/embed-demo.html")
			p.waitFor(t, drawnJS)
			// Each opens at its t, far ones in slices after opened resolves.
			p.waitFor(t, `(() => { const els = [...document.querySelectorAll("converge-sim")];
				return els.map((e) => e.simulation.time()).join() === "0,30,20"; })()`)
			assert.Equal(t, 2, count.hashed(tc.used), "the app and the docs page each used %s, under its content-hashed name", tc.used)
			assert.Zero(t, count.get(tc.used), "the name without a hash is not used")
			if tc.tried != "" {
				assert.Equal(t, 2, count.hashed(tc.tried), "each page tried %s first", tc.tried)
			}
			if tc.used == "/dist/converge.wasm.br" {
				assert.Zero(t, count.hashed("/dist/converge.wasm"), "the brotli file served, the plain one is not fetched")
			}
			p.assertNoConsoleErrors(t)
		})
	}
}

// When the wasm cannot load at all, an element shows its own content (a
// poster) and one line that says why; where converge.js itself cannot load
// (a host without CORS, seen from another origin), the element is never
// defined and its content shows as it is.
func TestEmbedFallbackWhenNothingLoads(t *testing.T) {
	t.Parallel()
	dir := exportedSite(t)
	const body = `<converge-sim id="a" scenario="rolling-update" loading="eager"><p id="poster">A poster of rolling-update</p></converge-sim>`

	t.Run("no wasm on the host", func(t *testing.T) {
		files := staticHost(dir, nil)
		h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.Path, "converge.wasm") {
				w.Header().Set("Access-Control-Allow-Origin", "*")
				http.NotFound(w, r)
				return
			}
			files.ServeHTTP(w, r)
		}))
		t.Cleanup(h.Close)
		p := openPage(t, docsSite(t, h.URL, body))
		p.waitFor(t, `document.getElementById("a")?.shadowRoot?.querySelector(".cv-fallback-reason") != null`)
		got := evalJS[struct {
			Reason  string
			Slotted bool
			Visible bool
		}](t, p, `(() => { const el = document.getElementById("a");
			return {Reason: el.shadowRoot.querySelector(".cv-fallback-reason").textContent,
				Slotted: el.shadowRoot.querySelector(".cv-fallback slot").assignedElements().some((e) => e.id === "poster"),
				Visible: document.getElementById("poster").checkVisibility()}; })()`)
		assert.Regexp(t, `^The simulator failed to start: the wasm did not load \(/v/[0-9a-f]{12}/dist/converge\.wasm\.br: HTTP 404; /v/[0-9a-f]{12}/dist/converge\.wasm: HTTP 404\)$`, got.Reason)
		assert.True(t, got.Slotted, "the element's own content is in its fallback")
		assert.True(t, got.Visible, "the poster shows")
		assert.NotContains(t, got.Reason, "\n", "one line")
		p.shot(t, "fallback-no-wasm", true)
	})

	t.Run("a host without CORS, from another origin", func(t *testing.T) {
		h := httptest.NewServer(http.FileServer(http.Dir(dir)))
		t.Cleanup(h.Close)
		p := openPage(t, docsSite(t, h.URL, body))
		p.waitFor(t, `document.readyState === "complete"`)
		got := evalJS[struct {
			Defined, Visible bool
		}](t, p, `({Defined: customElements.get("converge-sim") !== undefined, Visible: document.getElementById("poster").checkVisibility()})`)
		assert.False(t, got.Defined, "converge.js is refused without CORS")
		assert.True(t, got.Visible, "the element's own content shows")
	})
}

// nginxRecipe is the nginx block of docs/embedding.md ("Hosting recipes"),
// which nginxHost runs as it is written, but for its listen and root.
func nginxRecipe(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "embedding.md"))
	require.NoError(t, err)
	text := string(doc)
	i := strings.Index(text, "```nginx\n")
	require.GreaterOrEqual(t, i, 0, "docs/embedding.md has an nginx block")
	text = text[i+len("```nginx\n"):]
	j := strings.Index(text, "```")
	require.GreaterOrEqual(t, j, 0, "docs/embedding.md's nginx block ends")
	var b strings.Builder
	for _, line := range strings.Split(text[:j], "\n") {
		b.WriteString(strings.TrimPrefix(line, "  ") + "\n")
	}
	recipe := b.String()
	for _, want := range []string{"listen 8080;", "root /srv/converge;"} {
		require.Contains(t, recipe, want, "docs/embedding.md's nginx block")
	}
	return recipe
}

// nginxHost serves dir with nginx, configured by docs/embedding.md's recipe,
// on a free loopback port, and stops it when the test ends.
func nginxHost(t *testing.T, dir string) string {
	t.Helper()
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			unavailable(t, "no nginx on PATH (apt-get install nginx)")
		}
		nginx = "/usr/sbin/nginx"
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	tmp := t.TempDir()
	recipe := strings.Replace(nginxRecipe(t), "listen 8080;", "listen "+addr+";", 1)
	recipe = strings.Replace(recipe, "root /srv/converge;", "root "+dir+";", 1)
	// nginx in the foreground, one process (so it runs as the test's user
	// and reads the test's folders), everything it writes in tmp.
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
%[2]s}
`, tmp, recipe)
	confFile := filepath.Join(tmp, "nginx.conf")
	require.NoError(t, os.WriteFile(confFile, []byte(conf), 0o644))
	cmd := exec.Command(nginx, "-e", filepath.Join(tmp, "error.log"), "-c", confFile)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	// Ready when it accepts a connection; an exit first is a failure.
	deadline := time.Now().Add(serveStartTimeout)
	for {
		select {
		case err := <-done:
			log, _ := os.ReadFile(filepath.Join(tmp, "error.log"))
			t.Fatalf("nginx exited (%v) before serving: %s%s", err, out.String(), log)
		default:
		}
		if c, err := net.Dial("tcp", addr); err == nil {
			_ = c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not listen on %s within %v", addr, serveStartTimeout)
		}
		time.Sleep(10 * time.Millisecond) // polls for the port, a signal

	}
}

// The recipe's headers, read directly: the brotli wasm decodes as a module,
// every file may be read from another origin, content-hashed names are
// cached for good and the others are not.
func TestNginxRecipeSendsTheHeadersOfHeaders(t *testing.T) {
	t.Parallel()
	dir := exportedSite(t)
	base := nginxHost(t, dir)
	matches, err := filepath.Glob(filepath.Join(dir, "v", "*", "dist", "converge.wasm.br"))
	require.NoError(t, err)
	require.Len(t, matches, 1)
	br, err := filepath.Rel(dir, matches[0])
	require.NoError(t, err)
	get := func(path string) *http.Response {
		req, err := http.NewRequest(http.MethodGet, base+"/"+filepath.ToSlash(path), nil)
		require.NoError(t, err)
		req.Header.Set("Accept-Encoding", "br, gzip") // set: the client does not decode
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		return resp
	}
	for _, tc := range []struct {
		path, typ, encoding, cache string
	}{
		{br, "application/wasm", "br", "public, max-age=31536000, immutable"},
		{strings.TrimSuffix(br, ".br") + ".gz", "application/wasm", "gzip", "public, max-age=31536000, immutable"},
		{strings.TrimSuffix(br, ".br"), "application/wasm", "", "public, max-age=31536000, immutable"},
		{"converge.js", "application/javascript", "", ""},
		{"index.html", "text/html", "", ""},
	} {
		resp := get(tc.path)
		assert.Equal(t, tc.typ, strings.TrimSuffix(resp.Header.Get("Content-Type"), "; charset=utf-8"), "%s: Content-Type", tc.path)
		assert.Equal(t, tc.encoding, resp.Header.Get("Content-Encoding"), "%s: Content-Encoding", tc.path)
		assert.Equal(t, tc.cache, resp.Header.Get("Cache-Control"), "%s: Cache-Control", tc.path)
		assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"), "%s", tc.path)
		assert.Equal(t, "cross-origin", resp.Header.Get("Cross-Origin-Resource-Policy"), "%s", tc.path)
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), "%s", tc.path)
	}
}
