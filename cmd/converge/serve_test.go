package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/web"
)

// serve in process: it prints the real address for port 0, answers, and
// stops cleanly when its context ends (as on SIGINT).
func TestServeAnswersOnThePrintedURLAndStops(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	stderr := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, &env{stdout: outW, stderr: stderr}, "127.0.0.1:0")
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	require.True(t, lines.Scan(), "serve printed nothing; stderr: %s", stderr)
	url, ok := strings.CutPrefix(lines.Text(), "Converge is serving on ")
	require.True(t, ok, "first line %q", lines.Text())
	assert.Regexp(t, `^http://127\.0\.0\.1:[1-9][0-9]*$`, url)
	require.True(t, lines.Scan())
	assert.Equal(t, "Press Ctrl+C to stop.", lines.Text())

	resp, err := http.Get(url + "/")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	if web.Built() {
		assert.Contains(t, string(body), `<script type="module" src="app.js"></script>`)
		assert.Empty(t, stderr.String())
	} else {
		assert.Contains(t, string(body), "make build")
		assert.Contains(t, stderr.String(), "warning: this binary has no WebAssembly build")
	}

	cancel()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	require.NoError(t, <-done)
}

func TestSiteURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		addr net.Addr
		want string
	}{
		{name: "loopback v4", addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, want: "http://127.0.0.1:8080"},
		{name: "every interface", addr: &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, want: "http://localhost:8080"},
		{name: "every interface v6", addr: &net.TCPAddr{IP: net.IPv6unspecified, Port: 9}, want: "http://localhost:9"},
		{name: "loopback v6", addr: &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, want: "http://[::1]:8080"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, siteURL(tc.addr))
		})
	}
}

// The page's own files: what index.html promises (no inline script, the CSP
// that allows Go's wasm) holds in the embedded copy.
func TestEmbeddedPageHasAStrictCSPAndNoInlineScript(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"index.html", web.PlaceholderPath} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := web.FS.ReadFile(name)
			require.NoError(t, err)
			html := string(data)
			assert.Contains(t, html, `<meta http-equiv="Content-Security-Policy" content="default-src 'none';`)
			assert.NotContains(t, html, "unsafe-inline")
			assert.NotRegexp(t, `<script(\s[^>]*)?>\s*[^<\s]`, html, "a script element with inline code")
			assert.NotRegexp(t, `\son[a-z]+\s*=`, html, "an inline event handler")
		})
	}
	index, err := web.FS.ReadFile("index.html")
	require.NoError(t, err)
	assert.Contains(t, string(index), "script-src 'self' 'wasm-unsafe-eval'")
}

// serve serves the embedded page on addr until ctx is done, then shuts down
// gracefully.
func serve(ctx context.Context, e *env, addr string) error {
	return serveFS(ctx, e, web.FS, addr)
}
