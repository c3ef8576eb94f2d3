// Command realcluster replays Converge's scenarios on a real Kubernetes
// v1.35.4 control plane (etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler; kwok for the nodes and pod lifecycles), built from Go
// modules, and compares each replay with Converge's trace
// (docs/fidelity.md, "Replays on a real control plane").
//
//	realcluster build -bin DIR
//	realcluster run -bin DIR -converge PATH -out DIR [-parallel N] [-json FILE] SCENARIO.yaml...
//	realcluster compare -out DIR [-json FILE] [-markdown FILE] SCENARIO.yaml...
//	realcluster up -bin DIR [-nodes N]       (a cluster until interrupted)
//
// run starts a fresh cluster for each scenario (at most -parallel at once),
// runs the script `converge export-kubectl` writes against a namespace of
// its own, records the namespace every second, stops the cluster, compares,
// and prints one line a scenario: agrees, differs (the first difference,
// both sides) or not replayable (why). With -expect FILE (the expected
// verdicts, one "SCENARIO VERDICT" a line) it exits 1 when a scenario
// expected to agree does not, or a replay failed for an error (a harness
// error); with -strict when any scenario differs or failed.
//
// compare compares again the replays a run kept in -out (each scenario's
// directory), with no cluster: for working on the comparison.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"converge/core/scenario"
	"converge/tools/realcluster"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: realcluster build|run|up ...")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "build":
		err = build(ctx, os.Args[2:])
	case "run":
		err = run(ctx, os.Args[2:])
	case "compare":
		err = compare(os.Args[2:])
	case "up":
		err = up(ctx, os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: build, run, compare or up", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realcluster:", err)
		os.Exit(1)
	}
}

// moduleDir is tools/realcluster, from this command's source directory
// when run with go run, else the working directory.
func moduleDir() string {
	if _, err := os.Stat("go.mod"); err == nil {
		if wd, err := os.Getwd(); err == nil {
			return wd
		}
	}
	return "."
}

// version stamps what Kubernetes' own build stamps (hack/lib/version.sh);
// without them every component says v0.0.0-master.
func ldflags() string {
	ld := "-s -w"
	for _, p := range []string{"k8s.io/component-base/version", "k8s.io/client-go/pkg/version"} {
		ld += " -X " + p + ".gitVersion=v1.35.4 -X " + p + ".gitMajor=1 -X " + p + ".gitMinor=35 -X " + p +
			".gitTreeState=clean -X " + p + ".buildDate=2026-01-01T00:00:00Z"
	}
	return ld
}

func build(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("build", flag.ExitOnError)
	bin := fs.String("bin", "", "`DIR` for kc, kwok and the kubectl symlink")
	cacheRoot := fs.String("cache", defaultCache(), "keep the built binaries in `DIR`, by a key of what they are built from, and take them from there when the key matches (\"\": no cache)")
	deadlineUnix := fs.Int64("deadline", 0, "stop the build at this time, in `SECONDS` since 1970 (what it compiled stays in the Go build cache)")
	_ = fs.Parse(args)
	if *bin == "" {
		return fmt.Errorf("build needs -bin DIR")
	}
	out, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	mod := moduleDir()
	began := time.Now()
	if *deadlineUnix > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Unix(*deadlineUnix, 0))
		defer cancel()
	}
	key, err := buildKey(ctx, mod)
	if err != nil {
		return err
	}
	cached := ""
	if *cacheRoot != "" {
		// Made first thing: its presence tells .ci/run that this machine
		// keeps its caches, so the next run's build can start early.
		_ = os.MkdirAll(*cacheRoot, 0o755)
		cached = filepath.Join(*cacheRoot, key)
		if copyBinaries(cached, out) == nil {
			fmt.Printf("realcluster: kc and kwok from the cache %s (%.0fs)\n", cached, time.Since(began).Seconds())
			return linkKubectl(out)
		}
	}
	for _, f := range []string{"kc", "kwok"} {
		// A hard link into the cache: never written through.
		_ = os.Remove(filepath.Join(out, f))
	}
	cut := func(what string) error {
		return fmt.Errorf("THE TIME BUDGET CUT THE BUILD SHORT after %.0fs, in go build %s (what was compiled stays in the Go build cache for the next run)", time.Since(began).Seconds(), what)
	}
	t0 := time.Now()
	if err := goBuild(ctx, mod, ldflags(), filepath.Join(out, "kc"), "./cmd/kc"); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return cut("./cmd/kc")
		}
		return err
	}
	fmt.Printf("built kc in %.0fs\n", time.Since(t0).Seconds())
	// kwok at kc's versions first (kwokpin: its shared packages are kc's,
	// already compiled), then at its own if that fails.
	t0 = time.Now()
	kwokOut := filepath.Join(out, "kwok")
	if err := buildKwokPinned(ctx, mod, filepath.Join(out, "kwokpin"), kwokOut); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return cut("sigs.k8s.io/kwok/cmd/kwok")
		}
		fmt.Printf("realcluster: kwok does not build at kc's versions (%v); building it at its own (tools/realcluster/kwok)\n", err)
		if err := goBuild(ctx, filepath.Join(mod, "kwok"), "-s -w", kwokOut, "sigs.k8s.io/kwok/cmd/kwok"); err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return cut("sigs.k8s.io/kwok/cmd/kwok")
			}
			return err
		}
		fmt.Printf("built kwok at its own versions in %.0fs\n", time.Since(t0).Seconds())
	} else {
		fmt.Printf("built kwok at kc's versions in %.0fs\n", time.Since(t0).Seconds())
	}
	if cached != "" {
		// Only the newest key is kept: each is some 200 MB.
		old, _ := filepath.Glob(filepath.Join(*cacheRoot, "*"))
		for _, o := range old {
			_ = os.RemoveAll(o)
		}
		if err := copyBinaries(out, cached); err != nil {
			fmt.Fprintln(os.Stderr, "realcluster: not cached:", err)
			_ = os.RemoveAll(cached)
		}
	}
	return linkKubectl(out)
}

func linkKubectl(dir string) error {
	link := filepath.Join(dir, "kubectl")
	_ = os.Remove(link)
	return os.Symlink("kc", link)
}

// defaultCache is where built binaries are kept: converge-realcluster in
// the user's cache directory (beside go-build, Go's build cache, on a
// machine that keeps it).
func defaultCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "converge-realcluster")
}

// buildKey names what kc and kwok are built from: the Go toolchain and
// platform, the modules' go.mod and go.sum, kc's source and the link flags.
func buildKey(ctx context.Context, mod string) (string, error) {
	h := sha256.New()
	v, err := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	h.Write(v)
	h.Write([]byte(ldflags()))
	for _, f := range []string{"go.mod", "go.sum", "cmd/kc/main.go", "kwok/go.mod", "kwok/go.sum", "kwokpin/go.mod", "kwokpin/go.sum", "cmd/realcluster/kwokpin.go"} {
		b, err := os.ReadFile(filepath.Join(mod, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// copyBinaries copies kc and kwok from one directory to another (a hard
// link where it can), each through a temporary name, so that a copy cut
// short is never taken for a binary.
func copyBinaries(from, to string) error {
	for _, f := range []string{"kc", "kwok"} {
		if _, err := os.Stat(filepath.Join(from, f)); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, f := range []string{"kc", "kwok"} {
		src, dst := filepath.Join(from, f), filepath.Join(to, f)
		if a, err := os.Stat(src); err == nil {
			if b, err := os.Stat(dst); err == nil && os.SameFile(a, b) {
				continue
			}
		}
		tmp := dst + ".tmp"
		_ = os.Remove(tmp)
		if err := os.Link(src, tmp); err != nil {
			if err := copyFile(src, tmp); err != nil {
				_ = os.Remove(tmp)
				return err
			}
		}
		if err := os.Rename(tmp, dst); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// kwokSrc is the kwok module's directory in the module cache.
func kwokSrc(ctx context.Context) (string, error) {
	return downloadModule(ctx, "sigs.k8s.io/kwok")
}

// downloadModule is a module's directory in the module cache (path, or
// path@version), downloaded first when the cache does not have it (go
// list -m would print ""). It runs in tools/realcluster/kwok, whose go.sum
// has kwok and every module kwok uses.
func downloadModule(ctx context.Context, module string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", module)
	cmd.Dir = filepath.Join(moduleDir(), "kwok")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", module, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no directory in %q", module, out)
	}
	return m.Dir, nil
}

// goBuild builds target in dir to outFile, trimmed, with these link
// flags.
func goBuild(ctx context.Context, dir, ld, outFile, target string) error {
	args := []string{"build", "-trimpath", "-ldflags", ld, "-o", outFile, target}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	bin := fs.String("bin", "", "`DIR` of kc and kwok (realcluster build)")
	converge := fs.String("converge", "converge", "the converge `BINARY`")
	out := fs.String("out", "", "`DIR` for each scenario's script, trace, recording, events and logs")
	parallel := fs.Int("parallel", 2, "replay `N` scenarios at once, each on its own cluster")
	upParallel := fs.Int("up-parallel", 2, "start at most `N` clusters at once (the CPU-heavy part of a replay)")
	jsonOut := fs.String("json", "", "also write the results to `FILE`")
	markdown := fs.String("markdown", "", "also write the table as Markdown to `FILE` (docs/fidelity.md's)")
	strict := fs.Bool("strict", false, "exit 1 when a scenario differs or cannot be replayed for an error")
	expectFile := fs.String("expect", "", "the expected verdicts, `FILE`: exit 1 when a scenario expected to agree does not, or a replay fails for an error")
	deadlineUnix := fs.Int64("deadline", 0, "stop at this time, in `SECONDS` since 1970: a scenario is started only when its duration and -overhead end before it, a replay still running then is cut short; both are reported \"not run\"")
	overhead := fs.Duration("overhead", 45*time.Second, "what a replay takes beside its scenario's duration (converge, the cluster's start, the comparison), for -deadline")
	_ = fs.Parse(args)
	files := fs.Args()
	if *bin == "" || *out == "" || len(files) == 0 {
		return fmt.Errorf("run needs -bin DIR, -out DIR and scenario files")
	}
	binDir, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	conv, err := filepath.Abs(*converge)
	if err != nil {
		return err
	}
	src, err := kwokSrc(ctx)
	if err != nil {
		return err
	}
	var deadline time.Time
	runCtx := ctx
	if *deadlineUnix > 0 {
		deadline = time.Unix(*deadlineUnix, 0)
		var cancel context.CancelFunc
		runCtx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
		fmt.Printf("realcluster: %.0fs left for the replays (-deadline)\n", time.Until(deadline).Seconds())
	}
	var mu sync.Mutex
	cfg := realcluster.Config{Bin: realcluster.BinIn(binDir), Converge: conv, KwokSrc: src, Out: *out,
		Tolerance: realcluster.DefaultTolerance,
		UpSlots:   make(chan struct{}, max(1, *upParallel)),
		Log: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(os.Stderr, format+"\n", args...)
		}}
	results := make([]*realcluster.Result, len(files))
	// The longest scenarios start first: the replays wait on the clock,
	// so the run takes about its longest scenario when -parallel lets
	// them all run at once, and the fewest seconds otherwise.
	durations := make([]time.Duration, len(files))
	order := make([]int, len(files))
	for i, f := range files {
		order[i] = i
		durations[i] = scenarioDuration(f)
	}
	sort.SliceStable(order, func(a, b int) bool { return durations[order[a]] > durations[order[b]] })
	sem := make(chan struct{}, max(1, *parallel))
	var wg sync.WaitGroup
	began := time.Now()
	for _, i := range order {
		f := files[i]
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			switch {
			case ctx.Err() != nil:
				results[i] = &realcluster.Result{Scenario: name, Verdict: realcluster.NotReplayable, Why: "interrupted"}
				return
			case !deadline.IsZero() && time.Now().Add(durations[i]+*overhead).After(deadline):
				results[i] = &realcluster.Result{Scenario: name, Verdict: realcluster.NotRun,
					Why: fmt.Sprintf("the budget: %.0fs left, the replay needs about %.0fs", max(0, time.Until(deadline).Seconds()), (durations[i] + *overhead).Seconds())}
				cfg.Log("%s: not run (the budget)", name)
				return
			}
			r := realcluster.Replay(runCtx, cfg, f)
			if r.Error && runCtx.Err() != nil && ctx.Err() == nil {
				r = &realcluster.Result{Scenario: name, Verdict: realcluster.NotRun, Seconds: r.Seconds, Phases: r.Phases,
					Why: fmt.Sprintf("cut short by the budget after %.0fs", r.Seconds)}
			}
			results[i] = r
			cfg.Log("%s: %s (%.0fs: %s)", r.Scenario, r.Verdict, r.Seconds, phaseLine(r.Phases))
		}()
	}
	wg.Wait()
	table(os.Stdout, results, time.Since(began))
	if err := writeResults(results, *jsonOut, *markdown); err != nil {
		return err
	}
	var notRun []string
	for _, r := range results {
		if r.Verdict == realcluster.NotRun {
			notRun = append(notRun, r.Scenario)
		}
	}
	if len(notRun) > 0 {
		fmt.Printf("realcluster: THE TIME BUDGET CUT THE RUN SHORT: %d of %d scenarios did not run: %s\n", len(notRun), len(results), strings.Join(notRun, " "))
	}
	var failed []string
	for _, r := range results {
		if r.Error || (*strict && r.Verdict == realcluster.Differs) {
			failed = append(failed, r.Scenario+" "+string(r.Verdict))
		}
	}
	if *expectFile != "" {
		want, err := readExpected(*expectFile)
		if err != nil {
			return err
		}
		for _, r := range results {
			w, ok := want[r.Scenario]
			switch {
			case !ok:
				fmt.Printf("%s: %s (no expected verdict in %s)\n", r.Scenario, r.Verdict, *expectFile)
			case r.Verdict == realcluster.NotRun:
			case w == realcluster.Agrees && r.Verdict != realcluster.Agrees && !r.Error:
				failed = append(failed, fmt.Sprintf("%s %s, expected to agree", r.Scenario, r.Verdict))
			case w != r.Verdict && !r.Error:
				fmt.Printf("%s: %s, expected %s (not a failure: update %s when it stays so)\n", r.Scenario, r.Verdict, w, *expectFile)
			}
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s", strings.Join(failed, "; "))
	}
	return nil
}

// phaseLine is a replay's phases, "converge 3s, up 9s, replay 93s, compare 0s".
func phaseLine(p map[string]float64) string {
	var parts []string
	for _, k := range []string{"converge", "wait", "up", "replay", "compare"} {
		if v, ok := p[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %.0fs", k, v))
		}
	}
	return strings.Join(parts, ", ")
}

// scenarioDuration is a scenario file's duration (0 when it does not load:
// Replay reports why).
func scenarioDuration(file string) time.Duration {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	scn, _ := scenario.Parse(data, file)
	if scn == nil {
		return 0
	}
	return scn.Duration
}

// readExpected reads an expected-verdicts file: "SCENARIO VERDICT" a line
// (agrees, differs or not-replayable), # comments.
func readExpected(file string) (map[string]realcluster.Verdict, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]realcluster.Verdict{}
	for i, l := range strings.Split(string(data), "\n") {
		if j := strings.Index(l, "#"); j >= 0 {
			l = l[:j]
		}
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: want SCENARIO VERDICT", file, i+1)
		}
		switch v := realcluster.Verdict(strings.ReplaceAll(f[1], "-", " ")); v {
		case realcluster.Agrees, realcluster.Differs, realcluster.NotReplayable:
			out[f[0]] = v
		default:
			return nil, fmt.Errorf("%s:%d: %q is not agrees, differs or not-replayable", file, i+1, f[1])
		}
	}
	return out, nil
}

func table(w *os.File, results []*realcluster.Result, took time.Duration) {
	fmt.Fprintf(w, "%-28s %-15s %-22s %s\n", "SCENARIO", "VERDICT", "AGREED", "FIRST DIFFERENCE / WHY")
	counts := map[realcluster.Verdict]int{}
	for _, r := range results {
		counts[r.Verdict]++
		agreed, checked := 0, 0
		keys := make([]string, 0, len(r.Checked))
		for k := range r.Checked {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			agreed += r.Agreed[k]
			checked += r.Checked[k]
		}
		detail := r.Why
		if d := r.First(); d != nil {
			detail = d.String()
		}
		score := ""
		if checked > 0 {
			score = fmt.Sprintf("%d/%d", agreed, checked)
		}
		fmt.Fprintf(w, "%-28s %-15s %-22s %s\n", r.Scenario, r.Verdict, score, detail)
	}
	fmt.Fprintf(w, "%d agree, %d differ, %d not replayable", counts[realcluster.Agrees], counts[realcluster.Differs], counts[realcluster.NotReplayable])
	if counts[realcluster.NotRun] > 0 {
		fmt.Fprintf(w, ", %d not run (the budget)", counts[realcluster.NotRun])
	}
	fmt.Fprintf(w, "; %.0fs\n", took.Seconds())
}

func up(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("up", flag.ExitOnError)
	bin := fs.String("bin", "", "`DIR` of kc and kwok")
	nodes := fs.Int("nodes", 3, "how many nodes")
	_ = fs.Parse(args)
	binDir, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	src, err := kwokSrc(ctx)
	if err != nil {
		return err
	}
	stages, err := realcluster.DefaultStages(src)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "realcluster-up-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var ns []realcluster.Node
	for i := 1; i <= *nodes; i++ {
		name := "converge-worker"
		if i > 1 {
			name += fmt.Sprint(i)
		}
		ns = append(ns, realcluster.Node{Name: name, CPU: "4", Memory: "8Gi", Pods: 110})
	}
	began := time.Now()
	c, err := realcluster.Up(ctx, realcluster.BinIn(binDir), dir, ns, stages)
	if err != nil {
		return err
	}
	defer c.Down()
	fmt.Printf("cluster ready in %.1fs; pids %v\nexport KUBECONFIG=%s PATH=%s:$PATH\n(interrupt to stop)\n", time.Since(began).Seconds(), c.PIDs(), c.Kubeconfig, binDir)
	<-ctx.Done()
	return nil
}

// markdownTable is the table of docs/fidelity.md: each scenario, whether it
// was replayed, and whether it agrees (the first difference, or why not).
func markdownTable(results []*realcluster.Result) string {
	var b strings.Builder
	b.WriteString("| scenario | replayed | agrees | first difference, or why not replayed |\n|---|---|---|---|\n")
	for _, r := range results {
		replayed, agrees := "yes", "yes"
		detail := ""
		switch r.Verdict {
		case realcluster.NotReplayable:
			replayed, agrees, detail = "no", "-", r.Why
		case realcluster.NotRun:
			replayed, agrees, detail = "not run", "-", r.Why
		case realcluster.Differs:
			agrees = "no"
			if d := r.First(); d != nil {
				detail = d.String()
			}
		}
		detail = strings.ReplaceAll(strings.ReplaceAll(detail, "|", "\\|"), "\n", " ")
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.Scenario, replayed, agrees, detail)
	}
	return b.String()
}

func compare(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	out := fs.String("out", "", "the `DIR` a run kept its replays in")
	jsonOut := fs.String("json", "", "also write the results to `FILE`")
	markdown := fs.String("markdown", "", "also write the table as Markdown to `FILE`")
	verbose := fs.Bool("v", false, "print every difference and refinement")
	_ = fs.Parse(args)
	if *out == "" || fs.NArg() == 0 {
		return fmt.Errorf("compare needs -out DIR and scenario files")
	}
	var results []*realcluster.Result
	for _, f := range fs.Args() {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		scn, probs := scenario.Parse(data, f)
		if scn == nil || probs.HasErrors() {
			return fmt.Errorf("%s does not load: %v", f, probs)
		}
		r := &realcluster.Result{Scenario: name}
		if why := realcluster.Unreplayable(scn); why != "" {
			r.Verdict, r.Why = realcluster.NotReplayable, why
		} else if c, err := realcluster.CompareDir(name, filepath.Join(*out, name), "converge-"+name+"-r1", int64(scn.Duration/time.Second), realcluster.DefaultTolerance); err != nil {
			r.Verdict, r.Why = realcluster.NotReplayable, err.Error()
		} else {
			r = c
		}
		results = append(results, r)
		if *verbose {
			for _, d := range r.Differences {
				fmt.Printf("%s: %s\n", name, d)
			}
			for _, d := range r.Refined {
				fmt.Printf("%s: refined: %s\n", name, d)
			}
		}
	}
	table(os.Stdout, results, 0)
	return writeResults(results, *jsonOut, *markdown)
}

func writeResults(results []*realcluster.Result, jsonOut, markdown string) error {
	if jsonOut != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(jsonOut, b, 0o644); err != nil {
			return err
		}
	}
	if markdown != "" {
		if err := os.WriteFile(markdown, []byte(markdownTable(results)), 0o644); err != nil {
			return err
		}
	}
	return nil
}
