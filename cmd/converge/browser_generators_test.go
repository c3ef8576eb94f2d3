package main

// Browser tests of the docs generators' integrations (docs/embedding.md,
// "Hugo" and "MkDocs"): a small site built with the real generator, two
// demos on one page from `converge serve` on another origin, each drawn and
// running on its own.

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// integrations is the repository's integrations folder.
var integrations = filepath.Join("..", "..", "integrations")

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// copyFile copies src to dst, creating dst's folder.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	require.NoError(t, os.WriteFile(dst, data, 0o644))
}

// generator finds a docs generator's command: missing, the test skips, or
// fails when CI is set.
func generator(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		unavailable(t, "no %s on PATH (apt-get install %s)", name, name)
	}
	return p
}

// checkTwoDemos opens url (a built page with the demos a, at 0s, and b, at
// 30s), waits for both to draw, steps a and checks that b did not move.
func checkTwoDemos(t *testing.T, url string) {
	t.Helper()
	p := openPage(t, url)
	p.waitFor(t, `(() => { const a = document.getElementById("a"), b = document.getElementById("b");
		return a?.shadowRoot?.querySelector(".cv-rollout-title")?.textContent && b?.shadowRoot?.querySelector(".cv-rollout-title")?.textContent
			&& a.simulation?.time() === 0 && b.simulation?.time() === 30; })()`)
	got := evalJS[struct {
		A, B      int64
		NameA     string
		NameB     string
		DifferSim bool
	}](t, p, `(() => { const a = document.getElementById("a").simulation, b = document.getElementById("b").simulation;
		a.step(5);
		return {A: a.time(), B: b.time(), NameA: a.name(), NameB: b.name(), DifferSim: a.id !== b.id}; })()`)
	assert.Equal(t, int64(5), got.A, "a stepped")
	assert.Equal(t, int64(30), got.B, "b did not move with a")
	assert.Equal(t, "rolling-update", got.NameA)
	assert.Equal(t, "basic-loop", got.NameB)
	assert.True(t, got.DifferSim, "one simulation each")
	p.shot(t, "two-demos", true)
}

// A Hugo site with the shortcode of integrations/hugo, built by hugo.
func TestHugoShortcode(t *testing.T) {
	t.Parallel()
	hugo := generator(t, "hugo")
	srv := startServe(t)
	dir := t.TempDir()
	copyFile(t, filepath.Join(integrations, "hugo", "layouts", "shortcodes", "converge.html"),
		filepath.Join(dir, "layouts", "shortcodes", "converge.html"))
	writeFiles(t, dir, map[string]string{
		"config.toml": "baseURL = \"http://example.org/\"\ntitle = \"Docs\"\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\", \"sitemap\"]\n" +
			"[params]\nconvergeURL = \"" + srv.URL + "/converge.js\"\n",
		"layouts/_default/baseof.html": "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{{ .Title }}</title>" +
			"<link rel=\"icon\" href=\"data:,\"></head><body>{{ block \"main\" . }}{{ end }}</body></html>\n",
		"layouts/_default/single.html": "{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}\n",
		"layouts/index.html":           "{{ define \"main\" }}{{ .Content }}{{ end }}\n",
		"content/rollouts.md": "---\ntitle: Rollouts\n---\n\nA rolling update:\n\n" +
			"{{< converge id=\"a\" scenario=\"rolling-update\" loading=\"eager\" >}}\n\nThe basic loop, 30 seconds in:\n\n" +
			"{{< converge id=\"b\" scenario=\"basic-loop\" t=\"30\" view=\"rollout\" loading=\"eager\" >}}\n",
	})
	out, err := exec.Command(hugo, "--source", dir, "--destination", filepath.Join(dir, "public"), "--quiet").CombinedOutput()
	require.NoError(t, err, "hugo: %s", out)
	page, err := os.ReadFile(filepath.Join(dir, "public", "rollouts", "index.html"))
	require.NoError(t, err)
	assert.Equal(t, 1, countOf(string(page), `<script type="module"`), "the script once per page: %s", page)
	site := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(dir, "public"))))
	t.Cleanup(site.Close)
	checkTwoDemos(t, site.URL+"/rollouts/")
}

// An MkDocs site with the override of integrations/mkdocs, built by mkdocs.
func TestMkDocsSnippet(t *testing.T) {
	t.Parallel()
	mkdocs := generator(t, "mkdocs")
	srv := startServe(t)
	dir := t.TempDir()
	copyFile(t, filepath.Join(integrations, "mkdocs", "overrides", "main.html"), filepath.Join(dir, "overrides", "main.html"))
	writeFiles(t, dir, map[string]string{
		"mkdocs.yml": "site_name: Docs\ntheme:\n  name: mkdocs\n  custom_dir: overrides\nextra:\n  converge_url: " + srv.URL + "/converge.js\n",
		"docs/index.md": "# Rollouts\n\nA rolling update:\n\n" +
			"<converge-sim id=\"a\" scenario=\"rolling-update\" loading=\"eager\"></converge-sim>\n\nThe basic loop, 30 seconds in:\n\n" +
			"<converge-sim id=\"b\" scenario=\"basic-loop\" t=\"30\" view=\"rollout\" loading=\"eager\"></converge-sim>\n",
	})
	cmd := exec.Command(mkdocs, "build", "--quiet", "--site-dir", filepath.Join(dir, "site"))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "mkdocs: %s", out)
	page, err := os.ReadFile(filepath.Join(dir, "site", "index.html"))
	require.NoError(t, err)
	assert.Equal(t, 1, countOf(string(page), `src="`+srv.URL+`/converge.js"`), "the script once: %s", page)
	site := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(dir, "site"))))
	t.Cleanup(site.Close)
	checkTwoDemos(t, site.URL+"/")
}

// countOf counts the occurrences of sub in s.
func countOf(s, sub string) int { return strings.Count(s, sub) }
