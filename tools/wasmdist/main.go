// Command wasmdist turns the Go linker's wasm into what `converge serve`
// embeds and serves: the wasm with its data segments packed
// (wasmfile.Pack) and without the file and line numbers of its code
// (wasmfile.StripLines; -lines keeps them), and beside it NAME.gz and NAME.br, precompressed
// (package precompress). Both optimisations are optional
// (wasmfile.Optimise): one that does not recognise the wasm is skipped with
// one warning naming it, and the plain wasm, which works, is written.
// `make build` runs it after go build:
//
//	go run ./tools/wasmdist [-brotli 6] [-lines] IN.wasm OUT.wasm
//
// OUT.wasm is rewritten only when its bytes change, and the compressed
// files only then or when one is missing, so that an unchanged build stays
// fast. After changing -brotli, remove OUT.wasm.br (make clean) to
// recompress.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
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
	lines := fs.Bool("lines", false, "keep the file and line numbers of the code (wasmfile.StripLines removes them)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return errors.New("usage: wasmdist [-brotli Q] [-lines] IN.wasm OUT.wasm")
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
	if changed || missing(out+".br") {
		br, err := precompress.Brotli(packed, *quality)
		if err != nil {
			return err
		}
		if err := writeFile(out+".br", br); err != nil {
			return err
		}
	}
	return nil
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
