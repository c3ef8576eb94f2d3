package main

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/version"
)

// cdnHost serves the files of an npm tarball under /npm/NAME@VERSION/, as
// the CDNs that serve npm packages do: a type by extension, any origin.
func cdnHost(t *testing.T, tgz, prefix string) string {
	t.Helper()
	f, err := os.Open(tgz)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	files := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		data, err := io.ReadAll(tr)
		require.NoError(t, err)
		name, ok := strings.CutPrefix(h.Name, "package/")
		require.True(t, ok, "npm pack puts every file under package/: %s", h.Name)
		files[name] = data
	}
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, prefix)
		data, found := files[name]
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if !ok || !found {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
		_, _ = w.Write(data)
	}))
	t.Cleanup(h.Close)
	return h.URL + prefix
}

// The npm package (converge export-npm, packed by the real npm pack), served
// under /npm/converge-sim@VERSION/ as a CDN serves it, embeds two demos on
// a page of another origin; its version is the binary's.
func TestEmbedFromTheNPMPackage(t *testing.T) {
	t.Parallel()
	bin, err := filepath.Abs(binaryPath)
	require.NoError(t, err)
	if _, err := os.Stat(bin); err != nil {
		unavailable(t, "%s is missing: run make build", bin)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		unavailable(t, "no npm on PATH")
	}
	dir := filepath.Join(t.TempDir(), "pkg")
	out, err := exec.Command(bin, "export-npm", "--brotli-quality", "1", dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	packed := t.TempDir()
	cmd := exec.Command(npm, "pack", "--pack-destination", packed, dir)
	cmd.Env = append(os.Environ(), "npm_config_cache="+t.TempDir(), "npm_config_update_notifier=false")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "npm pack: %s", out)
	tgz := filepath.Join(packed, "converge-sim-"+version.Version+".tgz")
	require.FileExists(t, tgz, "npm pack: %s", out)

	assets := cdnHost(t, tgz, "/npm/converge-sim@"+version.Version+"/")
	p := openPage(t, docsSite(t, assets, `<h1>From the npm package</h1>
<converge-sim id="a" scenario="rolling-update" view="rollout" loading="eager"></converge-sim>
<converge-sim id="b" scenario="basic-loop" loading="eager"></converge-sim>`))
	p.waitFor(t, drawnJS)
	got := evalJS[struct {
		Version string
		Names   []string
	}](t, p, `({Version: converge.version, Names: [...document.querySelectorAll("converge-sim")].map((e) => e.simulation.name())})`)
	assert.Equal(t, version.Version, got.Version, "the package's version is the binary's")
	assert.Equal(t, []string{"rolling-update", "basic-loop"}, got.Names)
	p.assertNoConsoleErrors(t)
}
