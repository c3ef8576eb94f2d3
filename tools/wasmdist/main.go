// Command wasmdist turns the Go linker's wasm into what `converge serve`
// embeds and serves: the wasm with its data segments packed
// (wasmfile.Pack) and without the file and line numbers of its code
// (wasmfile.StripLines; -lines keeps them), and beside it NAME.gz and NAME.br, precompressed
// (package precompress). Both optimisations are optional
// (wasmfile.Optimise): one that does not recognise the wasm is skipped with
// one warning naming it, and the plain wasm, which works, is written.
// `make build` runs it after go build:
//
//	go run ./tools/wasmdist [-brotli 11] [-cache DIR] [-lines] IN.wasm OUT.wasm
//
// OUT.wasm is rewritten only when its bytes change, and the compressed
// files only then or when one is missing or of another quality, so that an
// unchanged build stays fast. Brotli at quality 11 takes about half a
// minute, so with -cache each distinct wasm is compressed once: DIR keeps
// the .br by the wasm's SHA-256 and the quality, and a build that comes
// back to the same bytes (a branch switched back, a change undone) copies
// it. Beside OUT.wasm, .brotli-quality says the quality of OUT.wasm.br, for
// export-site, which reuses the file at the quality it wants.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"converge/internal/precompress"
	"converge/internal/wasmfile"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "wasmdist:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("wasmdist", flag.ContinueOnError)
	quality := fs.Int("brotli", precompress.FastBrotli, "brotli quality of OUT.wasm.br (0-11)")
	cache := fs.String("cache", "", "a `DIR` keeping each distinct wasm's .br (by its hash and quality)")
	lines := fs.Bool("lines", false, "keep the file and line numbers of the code (wasmfile.StripLines removes them)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return errors.New("usage: wasmdist [-brotli Q] [-cache DIR] [-lines] IN.wasm OUT.wasm")
	}
	in, out := fs.Arg(0), fs.Arg(1)
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	packed, steps := wasmfile.Optimise(raw, *lines)
	var skipped []string
	for _, st := range steps {
		if !st.Applied() {
			skipped = append(skipped, st.String())
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(os.Stderr, "wasmdist: warning: %s: %s; writing the wasm without it (it works, and is bigger)\n", in, strings.Join(skipped, "; "))
	}
	old, _ := os.ReadFile(out)
	changed := !bytes.Equal(old, packed)
	if changed {
		if err := writeFile(out, packed); err != nil {
			return err
		}
	}
	if changed || missing(out+".gz") {
		if err := writeFile(out+".gz", precompress.Gzip(packed)); err != nil {
			return err
		}
	}
	qualityFile := filepath.Join(filepath.Dir(out), ".brotli-quality")
	q := strconv.Itoa(*quality)
	if old, _ := os.ReadFile(qualityFile); changed || missing(out+".br") || strings.TrimSpace(string(old)) != q {
		br, err := brotli(packed, *quality, *cache)
		if err != nil {
			return err
		}
		if err := writeFile(out+".br", br); err != nil {
			return err
		}
		if err := writeFile(qualityFile, []byte(q+"\n")); err != nil {
			return err
		}
	}
	return nil
}

// brotli is data at quality, from the cache dir when it has it ("" for
// none), else compressed and put there.
func brotli(data []byte, quality int, dir string) ([]byte, error) {
	if dir == "" {
		return precompress.Brotli(data, quality)
	}
	sum := sha256.Sum256(data)
	name := filepath.Join(dir, fmt.Sprintf("%s-q%d.br", hex.EncodeToString(sum[:]), quality))
	if br, err := os.ReadFile(name); err == nil {
		return br, nil
	}
	if quality >= 10 {
		fmt.Fprintf(os.Stderr, "wasmdist: compressing the wasm with brotli at quality %d (about half a minute, once per distinct wasm; -cache %s)\n", quality, dir)
	}
	br, err := precompress.Brotli(data, quality)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := writeFile(name, br); err != nil {
		return nil, err
	}
	prune(dir, cacheEntries)
	return br, nil
}

// cacheEntries is how many .br files the cache keeps (about 2 MB each).
const cacheEntries = 8

// prune removes the oldest .br files of dir beyond keep.
func prune(dir string, keep int) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		mod  int64
	}
	var files []file
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".br") {
			files = append(files, file{e.Name(), info.ModTime().UnixNano()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod > files[j].mod })
	for _, f := range files[min(keep, len(files)):] {
		_ = os.Remove(filepath.Join(dir, f.name))
	}
}

func missing(name string) bool {
	_, err := os.Stat(name)
	return err != nil
}

// writeFile writes through a temporary file, so that an interrupted build
// leaves no half-written output.
func writeFile(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
