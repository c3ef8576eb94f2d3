package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/web"
)

// TestServerHasLimits: the server that serve starts bounds how long a
// connection may take to send its headers, its request and to receive the
// answer, how long it may idle, and how large its headers may be.
func TestServerHasLimits(t *testing.T) {
	t.Parallel()
	srv := newServer(http.NotFoundHandler(), &env{stderr: io.Discard}, defaultLimits)
	assert.Equal(t, 10*time.Second, srv.ReadHeaderTimeout)
	assert.Equal(t, 30*time.Second, srv.ReadTimeout)
	assert.Equal(t, 2*time.Minute, srv.WriteTimeout, "time for the 5.5 MB wasm at about 50 KB/s")
	assert.Equal(t, 30*time.Second, srv.IdleTimeout)
	assert.Equal(t, 12<<10, srv.MaxHeaderBytes, "16 KiB less net/http's 4 KiB of slack")
}

// TestServerRefusesHeadersBeyond16KiB: headers of 16 KiB or less are read,
// more are refused with 431, as docs/limits.md says (net/http reads 4 KiB
// beyond MaxHeaderBytes: set to 16 KiB, it let 20 KiB in).
func TestServerRefusesHeadersBeyond16KiB(t *testing.T) {
	t.Parallel()
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	ts.Config = newServer(ts.Config.Handler, &env{stderr: io.Discard}, defaultLimits)
	ts.Start()
	defer ts.Close()
	addr := strings.TrimPrefix(ts.URL, "http://")
	status := func(size int) int {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer c.Close()
		head := "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: "
		tail := "\r\n\r\n"
		_, err = io.WriteString(c, head+strings.Repeat("x", size-len(head)-len(tail))+tail)
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusOK, status(16<<10-64), "just under 16 KiB")
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, status(16<<10+64), "just over 16 KiB")
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, status(20<<10-64), "under the 20 KiB that got in before")
}

// TestServerClosesIdleConnections: with short limits, a connection that
// sends nothing, and one that idles after a request, are closed; headers
// beyond the limit are refused (431).
func TestServerClosesIdleConnections(t *testing.T) {
	t.Parallel()
	limits := serverLimits{readHeader: 200 * time.Millisecond, read: time.Second, write: time.Second, idle: 200 * time.Millisecond, maxHeader: 5 << 10}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	ts.Config = newServer(ts.Config.Handler, &env{stderr: io.Discard}, limits)
	ts.Start()
	defer ts.Close()
	addr := strings.TrimPrefix(ts.URL, "http://")

	closed := func(c net.Conn) bool {
		require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
		_, err := io.ReadAll(c)
		return err == nil // EOF: the server closed it, well before the deadline
	}
	silent, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer silent.Close()
	assert.True(t, closed(silent), "a connection that sends nothing is closed")

	idle, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer idle.Close()
	_, err = io.WriteString(idle, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.True(t, closed(idle), "a kept-alive connection that idles is closed")

	req, err := http.NewRequest(http.MethodGet, ts.URL, nil)
	require.NoError(t, err)
	req.Header.Set("X-Big", strings.Repeat("x", 8<<10))
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
}

// TestServeWarnsWhenOtherMachinesCanConnect: listening beyond loopback
// (0.0.0.0, every interface) prints a warning on stderr; loopback does not.
func TestServeWarnsWhenOtherMachinesCanConnect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr, want string
	}{
		{"127.0.0.1:0", ""},
		{"0.0.0.0:0", "converge serve: warning: listening on 0.0.0.0:"},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			outR, outW := io.Pipe()
			stderr := &lockedBuffer{}
			done := make(chan error, 1)
			go func() {
				done <- serve(ctx, &env{stdout: outW, stderr: stderr}, tc.addr)
				outW.Close()
			}()
			lines := bufio.NewScanner(outR)
			require.True(t, lines.Scan(), "serve printed nothing; stderr: %s", stderr)
			cancel()
			go func() { _, _ = io.Copy(io.Discard, outR) }()
			require.NoError(t, <-done)
			got := stderr.String()
			if !web.Built() {
				got = strings.Replace(got, "converge serve: warning: this binary has no WebAssembly build; run make build (the page says so too)\n", "", 1)
			}
			if tc.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Contains(t, got, tc.want)
			assert.Contains(t, got, "other machines can open the page")
		})
	}
}

var metaCSP = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)

// TestServeSendsTheCSPAsAHeader: each HTML page's Content-Security-Policy
// is also a response header, the same as its meta tag; framing stays
// allowed (?embed=1 is for iframes).
func TestServeSendsTheCSPAsAHeader(t *testing.T) {
	t.Parallel()
	s, err := newSite(web.FS, "index.html")
	require.NoError(t, err)
	for _, tc := range []struct{ path, file string }{{"/", "index.html"}, {"/embed-demo.html", "embed-demo.html"}, {"/placeholder.html", "placeholder.html"}} {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			data, err := web.FS.ReadFile(tc.file)
			require.NoError(t, err)
			m := metaCSP.FindStringSubmatch(string(data))
			require.NotNil(t, m, "the page has a CSP meta tag")
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
			require.Equal(t, http.StatusOK, rec.Code)
			assert.Equal(t, m[1], rec.Header().Get("Content-Security-Policy"))
			assert.NotContains(t, rec.Header().Get("Content-Security-Policy"), "frame-ancestors")
			assert.Empty(t, rec.Header().Get("X-Frame-Options"))
		})
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/style.css", nil))
	assert.Empty(t, rec.Header().Get("Content-Security-Policy"), "a stylesheet has no policy of its own")
}
