package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// kwokPort is what kwok v0.8.0 needs to build against kc's modules
// (tools/realcluster/kwokpin): its debugging server's logs and attach
// build k8s.io/cri-client v0.36's LogOptions from exported fields and call
// its ReadLogs without a logger; cri-client v0.35.4 (kc's) has the same
// options behind NewLogOptions, which turns a PodLogOptions into them the
// way kwok does field by field, and takes the logger. Each replacement
// must match its file exactly once, or the pinned build is not tried.
var kwokPort = []struct {
	file     string
	old, new string
}{
	{"pkg/kwok/server/debugging_logs.go", `	opts := &crilogs.LogOptions{
		TailLines:  logOptions.TailLines,
		LimitBytes: logOptions.LimitBytes,
		Follow:     logOptions.Follow,
		Timestamp:  logOptions.Timestamps,
	}
	if logOptions.SinceSeconds != nil {
		opts.Since = time.Now().Add(-time.Duration(*logOptions.SinceSeconds) * time.Second)
	}
	if logOptions.SinceTime != nil && logOptions.SinceTime.After(opts.Since) {
		opts.Since = logOptions.SinceTime.Time
	}
`, `	opts := crilogs.NewLogOptions(logOptions, time.Now())
`},
	{"pkg/kwok/server/debugging_logs.go", `	crilogs "k8s.io/cri-client/pkg/logs"
`, `	crilogs "k8s.io/cri-client/pkg/logs"
	"k8s.io/klog/v2"
`},
	{"pkg/kwok/server/debugging_logs.go", `	return crilogs.ReadLogs(ctx, logsFile, "", opts, runtimeServiceStub{}, stdout, stderr)`,
		`	logger := klog.FromContext(ctx)
	return crilogs.ReadLogs(ctx, &logger, logsFile, "", opts, runtimeServiceStub{}, stdout, stderr)`},
	{"pkg/kwok/server/debugging_attach.go", `	opts := &crilogs.LogOptions{
		TailLines: new(int64),
		Follow:    true,
	}
`, `	opts := crilogs.NewLogOptions(&corev1.PodLogOptions{TailLines: new(int64), Follow: true}, time.Now())
`},
	{"pkg/kwok/server/debugging_attach.go", `	"strings"
`, `	"strings"
	"time"
`},
	{"pkg/kwok/server/debugging_attach.go", `	crilogs "k8s.io/cri-client/pkg/logs"
`, `	corev1 "k8s.io/api/core/v1"
	crilogs "k8s.io/cri-client/pkg/logs"
`},
}

// copyModule copies a module's directory from the module cache to dst
// (writable), with its go.mod cut to its module and go lines: the
// requirements are kwokpin's go.mod's alone. A module from before modules
// gets a go.mod naming it.
func copyModule(src, dst, path string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		return err
	}
	goVersion := "1.17"
	if b, err := os.ReadFile(filepath.Join(src, "go.mod")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "go" {
				goVersion = f[1]
			}
		}
	}
	return os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module "+path+"\n\ngo "+goVersion+"\n"), 0o644)
}

// port applies kwokPort to kwok's copied module in dir.
func port(dir string) error {
	for _, r := range kwokPort {
		p := filepath.Join(dir, r.file)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if n := strings.Count(string(b), r.old); n != 1 {
			return fmt.Errorf("%s: the text to port is there %d times, not once: %q", r.file, n, firstLine(r.old))
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), r.old, r.new, 1)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// pinnedModFile is what realcluster build reads of kwokpin's go.mod.
type pinnedModFile struct {
	Require []struct{ Path, Version string }
	Replace []struct {
		Old struct{ Path string }
		New struct{ Path, Version string }
	}
}

// prepareKwokPinned lays out kwokpin in work: its go.mod and go.sum, and
// each module it replaces by a directory (kwok's, ported, and the modules
// only kwok uses), copied from the module cache at its required version.
func prepareKwokPinned(ctx context.Context, mod, work string) error {
	cmd := exec.CommandContext(ctx, "go", "mod", "edit", "-json")
	cmd.Dir = filepath.Join(mod, "kwokpin")
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go mod edit -json (kwokpin): %w", err)
	}
	var mf pinnedModFile
	if err := json.Unmarshal(out, &mf); err != nil {
		return err
	}
	required := map[string]string{}
	for _, r := range mf.Require {
		required[r.Path] = r.Version
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	for _, r := range mf.Replace {
		if !strings.HasPrefix(r.New.Path, "./") {
			continue
		}
		v, ok := required[r.Old.Path]
		if !ok {
			return fmt.Errorf("kwokpin replaces %s by a directory but does not require it", r.Old.Path)
		}
		src, err := downloadModule(ctx, r.Old.Path+"@"+v)
		if err != nil {
			return err
		}
		dst := filepath.Join(work, filepath.FromSlash(r.New.Path))
		if err := copyModule(src, dst, r.Old.Path); err != nil {
			return err
		}
		if r.Old.Path == "sigs.k8s.io/kwok" {
			if err := port(dst); err != nil {
				return fmt.Errorf("porting kwok: %w", err)
			}
		}
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(mod, "kwokpin", f), filepath.Join(work, f)); err != nil {
			return err
		}
	}
	return nil
}

// buildKwokPinned builds kwok in work (out/kwokpin) from kwokpin.
func buildKwokPinned(ctx context.Context, mod, work, outFile string) error {
	if err := prepareKwokPinned(ctx, mod, work); err != nil {
		return err
	}
	return goBuild(ctx, work, "-s -w", outFile, "sigs.k8s.io/kwok/cmd/kwok")
}
