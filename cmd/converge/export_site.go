package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"converge/core/view"
	"converge/internal/precompress"
	"converge/web"
)

var exportSiteCommand = &command{
	name:    "export-site",
	args:    "[--brotli-quality Q] [--base-url URL] DIR",
	summary: "write the page as a static site, for any host (docs/embedding.md)",
	help: `Writes the page into DIR (created if needed; files of the same names are
replaced): the app (index.html), an example docs page (embed-demo.html), the
ES modules, and the wasm as it is, brotli-compressed (.br) and gzipped (.gz),
with a _headers file for hosts that read one (Netlify, Cloudflare Pages) and
a README.md on the others. Every path in it is relative, so it works from any
folder of a site. Brotli at quality 11 takes about half a minute.
--base-url is the address DIR will be served at, which the app's Embed
button then writes into its snippets (and README.md into its example).`,
	flags: func(fs *flag.FlagSet) runFunc {
		quality := fs.Int("brotli-quality", precompress.BestBrotli, "brotli quality `Q` of the .br, 0 (fast) to 11 (smallest)")
		base := fs.String("base-url", "", "the `URL` DIR will be served at, for the Embed button's snippets")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("export-site takes one argument, the directory to write")
			}
			if *quality < 0 || *quality > 11 {
				return usageErrorf("--brotli-quality %d: want 0 to 11", *quality)
			}
			return exportSite(e, args[0], *quality, *base)
		}
	},
}

// bundleFile is one file of an exported site.
type bundleFile struct {
	name string // slash-separated, relative to the site's root
	data []byte
}

// exportSite writes the bundle into dir and lists what it wrote.
func exportSite(e *env, dir string, quality int, baseURL string) error {
	fsys, err := withPublicURL(web.FS, "--base-url", baseURL)
	if err != nil {
		return err
	}
	if !web.Built() {
		return badInput(errors.New("this binary has no WebAssembly build to export; run make build"))
	}
	if quality >= 10 {
		fmt.Fprintf(e.stderr, "Compressing the wasm with brotli at quality %d (about half a minute)…\n", quality)
	}
	files, err := siteBundle(fsys, quality)
	if err != nil {
		return err
	}
	posters, err := posterFiles()
	if err != nil {
		return err
	}
	files = append(files, posters...)
	if baseURL != "" {
		u, _ := view.ParsePublicURL(baseURL) // withPublicURL checked it
		for i, f := range files {
			if f.name == "README.md" {
				files[i].data = bytes.ReplaceAll(f.data, []byte("https://YOUR.HOST/PATH/"), []byte(u))
			}
		}
	}
	if err := writeSite(e, dir, files); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Wrote %d files to %s: serve it with any static host (see %s).\n",
		len(files), dir, filepath.Join(dir, "README.md"))
	return nil
}

// writeSite writes files into dir, listing each on stdout. It first checks
// that no path of them inside dir is a symbolic link (dir itself may be
// one: the user named it), so that a link left in the folder cannot make
// it overwrite a file elsewhere; a refusal writes nothing. Each file is
// written to a temporary file next to it, then renamed over it: a reader
// (a host serving the folder) sees the old file or the new one, never half
// of one, and an interrupted export leaves no truncated file.
func writeSite(e *env, dir string, files []bundleFile) error {
	for _, f := range files {
		if err := refuseLinks(dir, f.name); err != nil {
			return badInput(err)
		}
	}
	for _, f := range files {
		name := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return badInput(err)
		}
		// Again, just before the write: the folder may have changed since.
		if err := refuseLinks(dir, f.name); err != nil {
			return badInput(err)
		}
		if err := writeAtomic(name, f.data); err != nil {
			return badInput(err)
		}
		fmt.Fprintf(e.stdout, "%10d  %s\n", len(f.data), f.name)
	}
	return nil
}

// refuseLinks is an error when a path inside dir on the way to name
// (slash-separated, relative to dir), name included, is a symbolic link.
// Paths that do not exist yet are fine.
func refuseLinks(dir, name string) error {
	p := dir
	for _, part := range strings.Split(name, "/") {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: export-site does not write through links inside its folder "+
				"(it could overwrite a file elsewhere); remove it, or export into another folder", p)
		}
	}
	return nil
}

// writeAtomic writes data to name through a temporary file in the same
// folder, renamed over name once complete and synced.
func writeAtomic(name string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// siteBundle is the static site: the page's files as fsys has them (but
// the fallback page and the build's own precompressed files), the wasm
// precompressed at brotli quality, _headers and README.md. Files are in
// name order.
func siteBundle(fsys fs.FS, quality int) ([]bundleFile, error) {
	var files []bundleFile
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case strings.HasPrefix(d.Name(), ".") && name != ".":
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case d.IsDir(), name == web.PlaceholderPath, path.Ext(name) == ".br", path.Ext(name) == ".gz":
			return nil
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		files = append(files, bundleFile{name: name, data: data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the page assets: %w", err)
	}
	wasm, err := fs.ReadFile(fsys, web.WasmPath)
	if err != nil {
		return nil, fmt.Errorf("reading the page assets: %w", err)
	}
	br, err := siteBrotli(fsys, wasm, quality)
	if err != nil {
		return nil, err
	}
	// The content-hashed copies (hashed.go): the modules, the stylesheet
	// and the wasm under v/HASH/; the wasm only there (it is the bulk of
	// the folder), and converge.js at the root re-exports the hashed one.
	names := make([]string, len(files))
	byName := map[string][]byte{}
	for i, f := range files {
		names[i] = f.name
		byName[f.name] = f.data
	}
	hash := bundleHash(names, func(name string) []byte { return byName[name] })
	dir := hashedDir(hash)
	var out []bundleFile
	for _, f := range files {
		if !hashedName(f.name) {
			out = append(out, f)
			continue
		}
		out = append(out, bundleFile{name: dir + f.name, data: f.data})
		switch {
		case f.name == "converge.js":
			out = append(out, bundleFile{name: f.name, data: entryModule(hash)})
		case !strings.HasPrefix(f.name, "dist/"):
			out = append(out, f)
		}
	}
	out = append(out,
		bundleFile{name: dir + web.WasmPath + ".br", data: br},
		bundleFile{name: dir + web.WasmPath + ".gz", data: precompress.Gzip(wasm)},
		bundleFile{name: "_headers", data: []byte(siteHeaders(dir, len(wasm)))},
		bundleFile{name: "README.md", data: []byte(siteReadme)},
	)
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// siteBrotli is the wasm compressed with brotli at quality: the build's own
// dist/converge.wasm.br when the build made it at that quality (make build
// writes dist/.brotli-quality; tools/wasmdist), else compressed here.
func siteBrotli(fsys fs.FS, wasm []byte, quality int) ([]byte, error) {
	if q, err := fs.ReadFile(fsys, web.WasmBrotliQualityPath); err == nil && strings.TrimSpace(string(q)) == strconv.Itoa(quality) {
		if br, err := fs.ReadFile(fsys, web.WasmPath+".br"); err == nil {
			return br, nil
		}
	}
	return precompress.Brotli(wasm, quality)
}

// siteHeaders is the exported site's _headers, in the format Netlify and
// Cloudflare Pages read: a path, then its headers indented. It gives what
// `converge serve` sends (see site in static.go): any origin may load the
// files, the content-hashed copies under v/ (dir is this build's folder,
// v/HASH/) are cached for good, and the precompressed wasm is the wasm in
// an encoding. converge.js asks for dist/converge.wasm.br first and uses
// it when its first bytes are a wasm module's, that is when these rules
// applied (the browser decoded it); otherwise it fetches dist/converge.wasm.
// size is the wasm's own size, for converge.js's progress (X-Converge-Size).
func siteHeaders(dir string, size int) string {
	return strings.NewReplacer("SIZE", strconv.Itoa(size), "DIR/", dir).Replace(`# Written by converge export-site, for hosts that read _headers (Netlify,
# Cloudflare Pages). The paths assume the site is at the root of its host.
/*
  Access-Control-Allow-Origin: *
  Access-Control-Expose-Headers: X-Converge-Size
  Cross-Origin-Resource-Policy: cross-origin
  Timing-Allow-Origin: *
  X-Content-Type-Options: nosniff

# Content-hashed names: their bytes never change, so browsers keep them.
/v/*
  Cache-Control: public, max-age=31536000, immutable

/DIR/dist/converge.wasm
  Content-Type: application/wasm
  X-Converge-Size: SIZE

/DIR/dist/converge.wasm.br
  Content-Type: application/wasm
  Content-Encoding: br
  X-Converge-Size: SIZE

/DIR/dist/converge.wasm.gz
  Content-Type: application/wasm
  Content-Encoding: gzip
  X-Converge-Size: SIZE
`)
}

// siteReadme is the exported site's README.md.
const siteReadme = `# Converge, as a static site

Written by ` + "`converge export-site`" + `. Put this folder on any static host, at
the root of a site or in a subfolder: every path in it is relative.

- ` + "`index.html`" + ` is the whole app; ` + "`embed-demo.html`" + ` is a docs page with
  several demos.
- A page of any site embeds a demo with one script tag pointing here:

      <script type="module" src="https://YOUR.HOST/PATH/converge.js"></script>
      <converge-sim scenario="rolling-update"></converge-sim>

  The browser loads ` + "`converge.js`" + `, its modules and the wasm from this
  host, so this host must allow other origins (` + "`Access-Control-Allow-Origin: *`" + `).

## Hosts that read ` + "`_headers`" + ` (Netlify, Cloudflare Pages)

Nothing to do: ` + "`_headers`" + ` allows every origin, and serves
` + "`v/HASH/dist/converge.wasm.br`" + ` as ` + "`application/wasm`" + ` with ` + "`Content-Encoding: br`" + `,
which ` + "`converge.js`" + ` fetches first: the smallest download. If the site is not
at the root of its host, put the folder's path in front of each path in
` + "`_headers`" + `.

## Hosts that cannot set headers (GitHub Pages and the like)

- GitHub Pages already sends ` + "`Access-Control-Allow-Origin: *`" + ` and serves
  ` + "`.wasm`" + ` as ` + "`application/wasm`" + `, so the app and embedding from other
  sites work.
- It ignores ` + "`_headers`" + ` and sends ` + "`.br`" + ` files as plain bytes:
  ` + "`converge.js`" + ` sees that (its first bytes are not a wasm module's), stops
  that download and fetches ` + "`v/HASH/dist/converge.wasm`" + ` instead, compressed or not as
  the host decides. It costs one extra request. The same happens with
  ` + "`python3 -m http.server`" + `, which sends the ` + "`.br`" + ` as ` + "`application/wasm`" + ` but
  without ` + "`Content-Encoding`" + `.
- A page that isolates itself with ` + "`Cross-Origin-Embedder-Policy: require-corp`" + `
  needs ` + "`Cross-Origin-Resource-Policy: cross-origin`" + `, which such hosts do not
  send: embed with an ` + "`<iframe>`" + ` there, or use a host that reads ` + "`_headers`" + `.

## Caching

The modules, the stylesheet and the wasm are in ` + "`v/HASH/`" + `, a folder named after
the hash of their content: a new export puts a new build in a new folder, so
these files never change and may be cached for good. ` + "`_headers`" + ` says so
(` + "`Cache-Control: public, max-age=31536000, immutable`" + ` on ` + "`/v/*`" + `); on your own
server, send that header for ` + "`v/`" + `. A repeat visit then loads nothing but the
pages and ` + "`converge.js`" + ` (a two-line module that loads the hashed one), and the
browser reuses the wasm's compiled code. Keep ` + "`converge.js`" + ` and the pages
revalidated (no long-lived caching): they name the current build. Older
` + "`v/`" + ` folders left by earlier exports are harmless; delete them when you like.

## Your own server

Serve ` + "`converge.wasm`" + ` as ` + "`application/wasm`" + ` and, for embedding from
other sites, every file with ` + "`Access-Control-Allow-Origin: *`" + `. A server that
picks precompressed siblings by ` + "`Accept-Encoding`" + ` (nginx ` + "`brotli_static`" + ` and
` + "`gzip_static`" + `, Caddy ` + "`precompressed`" + `) can use the ` + "`.br`" + ` and ` + "`.gz`" + ` as they are.
` + "`converge serve`" + ` does all of this itself.
`
