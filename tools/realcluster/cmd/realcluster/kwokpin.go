package main

import (
	"context"
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

// portKwok copies kwok's module from src to dst and applies kwokPort.
func portKwok(src, dst string) error {
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
	for _, r := range kwokPort {
		p := filepath.Join(dst, r.file)
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

// buildKwokPinned builds kwok in work (out/kwokpin) from kwokpin's go.mod
// and go.sum and kwok's ported module in work/src.
func buildKwokPinned(ctx context.Context, mod, work, outFile string) error {
	src, err := kwokSrc(ctx)
	if err != nil {
		return err
	}
	if err := portKwok(src, filepath.Join(work, "src")); err != nil {
		return fmt.Errorf("porting kwok: %w", err)
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(mod, "kwokpin", f), filepath.Join(work, f)); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w", "-o", outFile, "sigs.k8s.io/kwok/cmd/kwok")
	cmd.Dir, cmd.Stdout, cmd.Stderr = work, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build (kwok at kc's versions): %w", err)
	}
	return nil
}
