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
	// UpSlots, when not nil, bounds how many replays prepare at once:
	// Converge's run and the cluster's start are the CPU-heavy part of a
	// replay (the API server builds its OpenAPI and caches), the replay
	// itself waits on the clock. A replay takes a slot before it runs
	// Converge and gives it back once its cluster is up; blocked replays
	// take the slots in the order they asked (the run's, longest first).
	UpSlots chan struct{}
}

// Replay replays one scenario file on a fresh cluster of its own and
// compares the recording with Converge's trace. The cluster is stopped
// before it returns, whatever happens.
func Replay(ctx context.Context, cfg Config, file string) (res *Result) {
	name := strings.TrimSuffix(filepath.Base(file), ".yaml")
	began := time.Now()
	res = &Result{Scenario: name, Checked: map[string]int{}, Agreed: map[string]int{}}
	phases := map[string]float64{}
	mark := began
	phase := func(name string) {
		now := time.Now()
		phases[name] = now.Sub(mark).Seconds()
		mark = now
	}
	defer func() {
		res.Seconds = time.Since(began).Seconds()
		if len(phases) > 0 {
			res.Phases = phases
		}
	}()
	fail := func(err error) *Result {
		res.Verdict, res.Why, res.Error = NotReplayable, err.Error(), true
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
	held := false
	release := func() {
		if held {
			<-cfg.UpSlots
			held = false
		}
	}
	defer release()
	if cfg.UpSlots != nil {
		select {
		case cfg.UpSlots <- struct{}{}:
			held = true
		case <-ctx.Done():
			return fail(ctx.Err())
		}
		phase("wait")
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
	phase("converge")
	cdir, err := os.MkdirTemp("", "realcluster-"+name+"-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(cdir)
	t0 := time.Now()
	c, err := Up(ctx, cfg.Bin, cdir, Nodes(scn), stages)
	release()
	phase("up")
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
	recCtx, stopRec := context.WithCancel(ctx)
	defer stopRec()
	origin := make(chan time.Time, 1)
	recDone, watchDone := make(chan error, 1), make(chan error, 1)
	go func() {
		watchDone <- c.WatchEvents(recCtx, ns, filepath.Join(dir, "events.jsonl"))
	}()
	go func() {
		recDone <- c.Record(recCtx, ns, origin, filepath.Join(dir, "real.jsonl"))
	}()
	out := &originWriter{origin: origin}
	sctx, cancel := context.WithTimeout(ctx, time.Duration(dur+180)*time.Second)
	cmd := exec.CommandContext(sctx, "bash", filepath.Join(dir, "replay.sh"))
	cmd.Env = append(os.Environ(), "NAMESPACE="+ns, "KUBECONFIG="+c.Kubeconfig, "CONVERGE_YES=1", "EXPECT_WAIT=0",
		// The cluster is the replay's own: the steps on its nodes run.
		"CONVERGE_NODE_STEPS=1",
		"PATH="+cfg.Bin.Dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	runErr := cmd.Run()
	cancel()
	// Record to the scenario's end, and two seconds more.
	if !out.started.IsZero() {
		if wait := time.Until(out.started.Add(time.Duration(dur+2)*time.Second + SampleOffset)); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
			}
		}
	}
	stopRec()
	recErr, watchErr := <-recDone, <-watchDone
	phase("replay")
	_ = c.SaveEvents(ns, filepath.Join(dir, "events.json"))
	_ = os.WriteFile(filepath.Join(dir, "replay.txt"), out.buf.Bytes(), 0o644)
	if ctx.Err() != nil {
		// Interrupted, or the run's deadline: the recording is partial.
		return fail(fmt.Errorf("cut short: %w", ctx.Err()))
	}
	if runErr != nil {
		if ee, ok := runErr.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
			return fail(fmt.Errorf("the replay script: %v (see %s)", runErr, filepath.Join(dir, "replay.txt")))
		}
	}
	if recErr != nil {
		return fail(fmt.Errorf("the recording: %w", recErr))
	}
	if watchErr != nil {
		return fail(fmt.Errorf("the events' watch: %w", watchErr))
	}
	cmp, err := CompareDir(name, dir, ns, dur, cfg.Tolerance)
	if err != nil {
		return fail(err)
	}
	*res = *cmp
	phase("compare")
	return res
}

// originLine begins the line the replay script prints as it starts its
// clock (its second 0).
const originLine = "Replaying "

// originWriter keeps the replay script's output and sends the moment the
// script started its clock, once.
type originWriter struct {
	buf     bytes.Buffer
	line    []byte
	origin  chan<- time.Time
	started time.Time
}

func (w *originWriter) Write(p []byte) (int, error) {
	if w.started.IsZero() {
		w.line = append(w.line, p...)
		for {
			i := bytes.IndexByte(w.line, '\n')
			if i < 0 {
				break
			}
			if bytes.HasPrefix(w.line[:i], []byte(originLine)) {
				w.started = time.Now()
				w.origin <- w.started
				w.line = nil
				break
			}
			w.line = w.line[i+1:]
		}
	}
	return w.buf.Write(p)
}

// CompareDir compares the files one replay left in dir (trace.jsonl,
// real.jsonl, events.jsonl or events.json, replay.txt), as Replay does
// after the run; `realcluster compare` runs it again on a kept replay.
func CompareDir(name, dir, ns string, dur int64, tol Tolerance) (*Result, error) {
	tf, err := os.Open(filepath.Join(dir, "trace.jsonl"))
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	rf, err := os.Open(filepath.Join(dir, "real.jsonl"))
	if err != nil {
		return nil, err
	}
	defer rf.Close()
	in := Inputs{Trace: tf, Real: rf, Namespace: ns, Duration: dur}
	if b, err := os.ReadFile(filepath.Join(dir, "events.jsonl")); err == nil {
		in.WatchedEvents = b
	} else {
		in.Events, _ = os.ReadFile(filepath.Join(dir, "events.json"))
	}
	replay, err := os.ReadFile(filepath.Join(dir, "replay.txt"))
	if err != nil {
		return nil, err
	}
	in.Replay = string(replay)
	return Compare(name, in, tol)
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
