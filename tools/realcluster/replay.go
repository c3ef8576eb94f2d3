package realcluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"converge/core/scenario"
)

// Config is what Replay needs.
type Config struct {
	Bin Bin
	// Converge is the converge binary.
	Converge string
	// KwokSrc is the sigs.k8s.io/kwok module directory (its stages).
	KwokSrc string
	// Out is where each scenario's files go (Out/NAME/).
	Out       string
	Tolerance Tolerance
	// Log receives progress lines.
	Log func(format string, args ...any)
}

// Replay replays one scenario file on a fresh cluster of its own and
// compares the recording with Converge's trace. The cluster is stopped
// before it returns, whatever happens.
func Replay(ctx context.Context, cfg Config, file string) (res *Result) {
	name := strings.TrimSuffix(filepath.Base(file), ".yaml")
	began := time.Now()
	res = &Result{Scenario: name, Checked: map[string]int{}, Agreed: map[string]int{}}
	defer func() { res.Seconds = time.Since(began).Seconds() }()
	fail := func(err error) *Result {
		res.Verdict, res.Why = NotReplayable, err.Error()
		return res
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fail(err)
	}
	scn, probs := scenario.Parse(data, file)
	if scn == nil || probs.HasErrors() {
		return fail(fmt.Errorf("the scenario does not load: %v", probs))
	}
	if why := Unreplayable(scn); why != "" {
		res.Verdict, res.Why = NotReplayable, why
		return res
	}
	dir := filepath.Join(cfg.Out, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	// Converge's side: the script (image names kept: kwok pulls nothing,
	// and its stages know the images by those names) and the trace.
	script, err := runTo(ctx, filepath.Join(dir, "replay.sh"), cfg.Converge, "export-kubectl", "--image-map", "none", file)
	if err != nil {
		return fail(fmt.Errorf("export-kubectl: %w", err))
	}
	_ = script
	if _, err := runTo(ctx, filepath.Join(dir, "trace.jsonl"), cfg.Converge, "run", "--output", "jsonl", file); err != nil {
		// converge run exits 1 when an expect fails: the trace is whole.
		if _, ok := err.(*exec.ExitError); !ok {
			return fail(fmt.Errorf("converge run: %w", err))
		}
	}
	tr, err := os.Open(filepath.Join(dir, "trace.jsonl"))
	if err != nil {
		return fail(err)
	}
	delays, err := ReadyDelays(tr)
	tr.Close()
	if err != nil {
		return fail(fmt.Errorf("the trace: %w", err))
	}
	stages, err := Stages(scn, cfg.KwokSrc, delays)
	if err != nil {
		return fail(err)
	}
	cdir, err := os.MkdirTemp("", "realcluster-"+name+"-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(cdir)
	t0 := time.Now()
	c, err := Up(ctx, cfg.Bin, cdir, Nodes(scn), stages)
	if err != nil {
		copyLogs(cdir, dir)
		return fail(fmt.Errorf("the cluster did not start: %w", err))
	}
	defer func() {
		c.Down()
		copyLogs(cdir, dir)
	}()
	cfg.Log("%s: cluster up in %.1fs (pids %v)", name, time.Since(t0).Seconds(), c.PIDs())
	ns := "converge-" + name + "-r1"
	dur := int64(scn.Duration / time.Second)
	start := time.Now()
	recCtx, stopRec := context.WithCancel(ctx)
	recDone := make(chan error, 1)
	go func() {
		recDone <- c.Record(recCtx, ns, start, filepath.Join(dir, "real.jsonl"), filepath.Join(dir, "events.json"))
	}()
	var out bytes.Buffer
	sctx, cancel := context.WithTimeout(ctx, time.Duration(dur+180)*time.Second)
	cmd := exec.CommandContext(sctx, "bash", filepath.Join(dir, "replay.sh"))
	cmd.Env = append(os.Environ(), "NAMESPACE="+ns, "KUBECONFIG="+c.Kubeconfig, "CONVERGE_YES=1", "EXPECT_WAIT=0",
		"PATH="+cfg.Bin.Dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	runErr := cmd.Run()
	cancel()
	// Record to the scenario's end, and two seconds more.
	if wait := time.Until(start.Add(time.Duration(dur+2) * time.Second)); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
	}
	stopRec()
	recErr := <-recDone
	_ = os.WriteFile(filepath.Join(dir, "replay.txt"), out.Bytes(), 0o644)
	if runErr != nil {
		if ee, ok := runErr.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
			return fail(fmt.Errorf("the replay script: %v (see %s)", runErr, filepath.Join(dir, "replay.txt")))
		}
	}
	if recErr != nil {
		return fail(fmt.Errorf("the recording: %w", recErr))
	}
	tf, err := os.Open(filepath.Join(dir, "trace.jsonl"))
	if err != nil {
		return fail(err)
	}
	defer tf.Close()
	rf, err := os.Open(filepath.Join(dir, "real.jsonl"))
	if err != nil {
		return fail(err)
	}
	defer rf.Close()
	events, _ := os.ReadFile(filepath.Join(dir, "events.json"))
	cmp, err := Compare(name, Inputs{Trace: tf, Real: rf, Events: events, Replay: out.String(), Duration: dur}, cfg.Tolerance)
	if err != nil {
		return fail(err)
	}
	cmp.Seconds = res.Seconds
	*res = *cmp
	return res
}

// runTo runs a command with its stdout to file.
func runTo(ctx context.Context, file, name string, args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if werr := os.WriteFile(file, stdout.Bytes(), 0o644); werr != nil && err == nil {
		err = werr
	}
	if err != nil && stderr.Len() > 0 {
		if _, ok := err.(*exec.ExitError); !ok {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
		}
	}
	return stdout.Bytes(), err
}

// copyLogs keeps the components' logs with the scenario's files.
func copyLogs(from, to string) {
	logs, _ := filepath.Glob(filepath.Join(from, "*.log"))
	for _, l := range logs {
		if b, err := os.ReadFile(l); err == nil {
			_ = os.WriteFile(filepath.Join(to, filepath.Base(l)), b, 0o644)
		}
	}
}
