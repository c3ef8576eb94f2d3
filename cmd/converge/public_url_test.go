package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/web"
)

func TestWithPublicURL(t *testing.T) {
	t.Parallel()
	assets := fstest.MapFS{
		"index.html": {Data: []byte("<!doctype html>\n<meta charset=\"utf-8\">\n<title>x</title>")},
		"style.css":  {Data: []byte("body{}")},
	}
	tests := []struct {
		name, url, want, wantErr string
	}{
		{name: "none", url: "", want: "<!doctype html>\n<meta charset=\"utf-8\">\n<title>x</title>"},
		{name: "a folder", url: "https://docs.example.org/sim",
			want: "<!doctype html>\n<meta charset=\"utf-8\">\n<meta name=\"converge-public-url\" content=\"https://docs.example.org/sim/\">\n<title>x</title>"},
		{name: "escaped", url: `https://example.org/a"b/`,
			want: "<!doctype html>\n<meta charset=\"utf-8\">\n<meta name=\"converge-public-url\" content=\"https://example.org/a%22b/\">\n<title>x</title>"},
		{name: "not http", url: "example.org", wantErr: `--public-url "example.org": want an http:// or https:// address`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys, err := withPublicURL(assets, "--public-url", tc.url)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			page, err := fs.ReadFile(fsys, "index.html")
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(page))
			css, err := fs.ReadFile(fsys, "style.css")
			require.NoError(t, err)
			assert.Equal(t, "body{}", string(css), "the other files are as they were")
		})
	}
}

func TestExportSiteBaseURL(t *testing.T) {
	t.Parallel()
	if !web.Built() {
		t.Skip("the wasm is not built (make build)")
	}
	dir := filepath.Join(t.TempDir(), "site")
	code, _, errOut := runCLI(t, "export-site", "--brotli-quality", "0", "--base-url", "https://docs.example.org/sim", dir)
	require.Equal(t, exitOK, code, errOut)
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), `<meta name="converge-public-url" content="https://docs.example.org/sim/">`)
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(readme), `src="https://docs.example.org/sim/converge.js"`)
	assert.False(t, strings.Contains(string(readme), "YOUR.HOST"))

	code, _, errOut = runCLI(t, "export-site", "--base-url", "ftp://x/", filepath.Join(t.TempDir(), "other"))
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, `--base-url "ftp://x/": want an http:// or https:// address`)
}
