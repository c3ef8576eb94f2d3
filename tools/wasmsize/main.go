// Command wasmsize reports what the page's WebAssembly is made of: the code
// of each Go package (raw, gzip -9 and brotli, each package's function
// bodies compressed on their own), the data (the pclntab's tables, the type
// descriptors, the variables and the rest of the read-only data), and the
// totals of the file as served (without its custom sections, without its
// file and line numbers and with its data segments packed, as `make build`
// serves it). `make size` runs it
// (docs/performance.md).
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/converge.wasm ./wasm
//	go run ./tools/wasmsize [-n 25] [-quality 11] [-budget 1.5MiB] /tmp/converge.wasm
//
// Build the wasm WITHOUT -ldflags='-s -w': the function names come from
// its name section, which -s strips. The totals are those of the file
// without its custom sections, which is what -s -w leaves (the build that
// is served). With -budget, it exits 1 when the served file's brotli size
// is over the budget.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"converge/internal/precompress"
	"converge/internal/wasmfile"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("wasmsize", flag.ContinueOnError)
	rows := fs.Int("n", 25, "how many packages to list (the rest are summed)")
	quality := fs.Int("quality", precompress.BestBrotli, "brotli quality (0-11)")
	pkg := fs.String("pkg", "./wasm", "the main package the wasm was built from (for go list -deps)")
	modfile := fs.String("modfile", "", "the go.mod the wasm was built with, if not the module's (go list -modfile)")
	budget := fs.String("budget", "", "fail when the served file's brotli size is over this (e.g. 1.5MiB)")
	lines := fs.Bool("lines", false, "measure the wasm with its file and line numbers (as tools/wasmdist -lines serves it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: wasmsize [flags] FILE.wasm (built without -ldflags='-s -w')")
	}
	limit, err := parseSize(*budget)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	// The optimisations the build applies, each optional: which applied.
	applied := []string{"no inlining in the packages listed in WASM_NOINLINE (the Makefile's -gcflags): applied"}
	applied = append(applied, yamlPatch(*modfile))
	if !*lines {
		stripped, _, err := wasmfile.StripLines(data)
		applied = append(applied, wasmfile.Step{Name: wasmfile.StepStripLines, Err: err}.String())
		if err == nil {
			data = stripped
		}
	}
	m, err := wasmfile.Parse(data)
	if err != nil {
		return err
	}
	if len(m.Names) == 0 {
		return errors.New("the wasm has no function names: build it without -ldflags='-s -w'")
	}
	paths, err := goListDeps(*pkg, *modfile)
	if err != nil {
		return err
	}
	r, err := measure(m, data, paths, *quality)
	if err != nil {
		return err
	}
	r.applied = append(applied, wasmfile.Step{Name: wasmfile.StepPack, Err: r.packErr}.String())
	r.print(out, *rows)
	if limit > 0 && r.served.br > limit {
		return fmt.Errorf("the served wasm is %s brotli, over the budget of %s", mib(r.served.br), mib(limit))
	}
	return nil
}

// yamlPatch says whether the wasm was built with tools/wasmmod's patched
// go.yaml.in/yaml/v3 (without regexp): whether modfile replaces it.
func yamlPatch(modfile string) string {
	const name = "go.yaml.in/yaml/v3 without regexp (tools/wasmmod)"
	if modfile == "" {
		return name + ": skipped (no -modfile)"
	}
	b, err := os.ReadFile(modfile)
	if err != nil {
		return fmt.Sprintf("%s: unknown (%v)", name, err)
	}
	if !bytes.Contains(b, []byte("\nreplace go.yaml.in/yaml/v3 => ")) {
		return name + ": skipped (" + modfile + " does not replace it: wasmmod printed why)"
	}
	return name + ": applied"
}

// goListDeps lists the packages linked into pkg when built for js/wasm.
func goListDeps(pkg, modfile string) ([]string, error) {
	args := []string{"list", "-deps", "-f", "{{.ImportPath}}"}
	if modfile != "" {
		args = append(args, "-modfile="+modfile)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stderr = os.Stderr
	listed, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %w", pkg, err)
	}
	return strings.Fields(string(listed)), nil
}

// sizes are a part's bytes raw, gzipped (-9) and brotli-compressed.
type sizes struct{ raw, gz, br int }

// row is a line of the report: a package (with its function count) or a
// region of the data (with its addresses).
type row struct {
	name   string
	funcs  int
	lo, hi uint64
	sizes
}

type report struct {
	quality  int
	packages []row // by brotli size, largest first
	data     []row // the data's regions, in address order
	served   sizes
	code     sizes
	dataAll  sizes
	packErr  error    // why Pack did not apply
	applied  []string // the size optimisations, each applied or skipped
}

// measure attributes every function body to its package and compresses
// each package's bodies, each data region and the served file.
func measure(m *wasmfile.Module, file []byte, paths []string, quality int) (*report, error) {
	of := newPackageOf(paths)
	// The main package's symbols are "main.X".
	of.path["main"] = "main (" + paths[len(paths)-1] + ")"
	of.mangled = append(of.mangled, "main")
	code := map[string]*bytes.Buffer{}
	funcs := map[string]int{}
	var allCode bytes.Buffer
	for k, body := range m.Bodies {
		p := of.of(m.Names[m.Imports+k])
		if code[p] == nil {
			code[p] = &bytes.Buffer{}
		}
		code[p].Write(body)
		funcs[p]++
		allCode.Write(body)
	}
	mem := newMemory(m.Segments)
	regions, err := goRegions(mem)
	if err != nil {
		return nil, err
	}
	var lo, hi uint64
	if n := len(mem.segments); n > 0 {
		lo = mem.segments[0].Addr
		last := mem.segments[n-1]
		hi = last.Addr + uint64(len(last.Data))
	}
	r := &report{quality: quality}
	var jobs []func() error
	compress := func(dst *sizes, raw int, b []byte) {
		dst.raw = raw
		jobs = append(jobs, func() error {
			dst.gz = len(precompress.Gzip(b))
			br, err := precompress.Brotli(b, quality)
			dst.br = len(br)
			return err
		})
	}
	names := make([]string, 0, len(code))
	for p := range code {
		names = append(names, p)
	}
	sort.Strings(names)
	r.packages = make([]row, len(names))
	for i, p := range names {
		r.packages[i] = row{name: p, funcs: funcs[p]}
		compress(&r.packages[i].sizes, code[p].Len(), code[p].Bytes())
	}
	r.data = dataRows(mem, regions, lo, hi)
	for i := range r.data {
		reg := r.data[i]
		compress(&r.data[i].sizes, reg.raw, mem.image(reg.lo, reg.hi))
	}
	stripped, err := wasmfile.Strip(file)
	if err != nil {
		return nil, err
	}
	served, err := wasmfile.Pack(stripped, wasmfile.PackGap)
	if err != nil {
		served, r.packErr = stripped, err
	}
	compress(&r.served, len(served), served)
	compress(&r.code, allCode.Len(), allCode.Bytes())
	compress(&r.dataAll, mem.fileBytes(lo, hi), mem.image(lo, hi))
	if err := parallel(jobs); err != nil {
		return nil, err
	}
	sort.SliceStable(r.packages, func(i, j int) bool { return r.packages[i].br > r.packages[j].br })
	return r, nil
}

// dataRows splits lo..hi into the regions and what lies between them
// (the rest of the read-only data), each with its file bytes.
func dataRows(mem *memory, regions []region, lo, hi uint64) []row {
	var out []row
	at := lo
	add := func(name string, from, to uint64) {
		if to > from {
			out = append(out, row{name: name, lo: from, hi: to, sizes: sizes{raw: mem.fileBytes(from, to)}})
		}
	}
	const other = "read-only data: tables, stack maps, embedded files"
	for _, reg := range regions {
		add(other, at, reg.lo)
		add(reg.name, reg.lo, reg.hi)
		at = reg.hi
	}
	add(other, at, hi)
	return out
}

// parallel runs the jobs on every core.
func parallel(jobs []func() error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan func() error)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range next {
				if err := job(); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, job := range jobs {
		next <- job
	}
	close(next)
	wg.Wait()
	return first
}

func (r *report) print(w io.Writer, n int) {
	fmt.Fprintln(w, "Size optimisations:")
	for _, a := range r.applied {
		fmt.Fprintln(w, "- "+a)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "The wasm as served: %s raw, %s gzip -9, %s brotli -q %d.\n\n",
		mib(r.served.raw), mib(r.served.gz), mib(r.served.br), r.quality)
	fmt.Fprintln(w, "| package | functions | code raw | gzip | brotli |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|")
	var rest row
	for i, p := range r.packages {
		if i < n {
			fmt.Fprintf(w, "| %s | %d | %s | %s | %s |\n", p.name, p.funcs, kb(p.raw), kb(p.gz), kb(p.br))
			continue
		}
		rest.funcs++
		rest.raw += p.raw
		rest.gz += p.gz
		rest.br += p.br
	}
	if rest.funcs > 0 {
		fmt.Fprintf(w, "| %d other packages | | %s | %s | %s |\n", rest.funcs, kb(rest.raw), kb(rest.gz), kb(rest.br))
	}
	fmt.Fprintf(w, "| **all code** (compressed together) | %d | %s | %s | %s |\n\n", sumFuncs(r.packages), kb(r.code.raw), kb(r.code.gz), kb(r.code.br))
	fmt.Fprintln(w, "| data | raw | gzip | brotli |")
	fmt.Fprintln(w, "|---|--:|--:|--:|")
	for _, d := range r.data {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", d.name, kb(d.raw), kb(d.gz), kb(d.br))
	}
	fmt.Fprintf(w, "| **all data** (compressed together) | %s | %s | %s |\n", kb(r.dataAll.raw), kb(r.dataAll.gz), kb(r.dataAll.br))
}

func sumFuncs(rows []row) int {
	n := 0
	for _, r := range rows {
		n += r.funcs
	}
	return n
}

// kb formats bytes as KB (1,000 bytes) with one decimal.
func kb(n int) string { return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + " KB" }

// mib formats bytes as MiB with two decimals, and the exact count.
func mib(n int) string {
	return fmt.Sprintf("%.2f MiB (%d bytes)", float64(n)/(1<<20), n)
}

// parseSize reads "1.5MiB", "1572864", "900KiB"; "" is no budget.
func parseSize(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	units := []struct {
		suffix string
		mult   float64
	}{{"MiB", 1 << 20}, {"KiB", 1 << 10}, {"MB", 1e6}, {"KB", 1e3}, {"", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil || v <= 0 {
				return 0, fmt.Errorf("budget %q: want a size such as 1.5MiB", s)
			}
			return int(v * u.mult), nil
		}
	}
	return 0, fmt.Errorf("budget %q: want a size such as 1.5MiB", s)
}
