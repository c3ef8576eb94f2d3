package sim

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the child's time zones load on a machine without zoneinfo too

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/kubelet"
	"converge/core/scenario"
	"converge/core/simtest"
	"converge/scenarios"
)

var update = flag.Bool("update", false, "rewrite the golden traces in testdata")

func load(t testing.TB, fsys fs.FS, name string) *scenario.Scenario {
	t.Helper()
	data, err := fs.ReadFile(fsys, name)
	require.NoError(t, err)
	scn, probs := scenario.Parse(data, name)
	require.False(t, probs.HasErrors(), "%v", probs)
	return scn
}

func parse(t testing.TB, src string) *scenario.Scenario {
	t.Helper()
	scn, probs := scenario.Parse([]byte(src), "test.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	return scn
}

// trace runs a scenario to its end and returns the JSONL trace.
func trace(t testing.TB, scn *scenario.Scenario, opts Options) []byte {
	t.Helper()
	s, err := New(scn, opts)
	require.NoError(t, err)
	var b bytes.Buffer
	end := int64(scn.Duration.Seconds())
	for {
		line, err := s.TraceLine()
		require.NoError(t, err)
		b.Write(line)
		b.WriteByte('\n')
		if s.T() >= end {
			return b.Bytes()
		}
		s.Step(1)
	}
}

// TestShippedScenariosHoldTheirExpectations runs every scenario of the
// library to its end: each must parse and every step must hold, in each of
// its variants when it has some.
func TestShippedScenariosHoldTheirExpectations(t *testing.T) {
	t.Parallel()
	files, err := fs.Glob(scenarios.FS, "*.yaml")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 16, "the library has at least 16 scenarios")
	for _, f := range files {
		t.Run(strings.TrimSuffix(f, ".yaml"), func(t *testing.T) {
			t.Parallel()
			scn := load(t, scenarios.FS, f)
			assert.NotEmpty(t, scn.Title, "every scenario has a title")
			assert.NotEmpty(t, scn.Description, "every scenario says what to watch for")
			runs := []*scenario.Scenario{scn}
			for _, name := range scn.VariantNames()[min(1, len(scn.Variants)):] {
				v, err := scn.WithVariant(name)
				require.NoError(t, err)
				runs = append(runs, v)
			}
			for _, scn := range runs {
				s, err := New(scn, Options{})
				require.NoError(t, err)
				expects := 0
				check := func() {
					for _, r := range s.Tick().Steps {
						if r.Expect {
							expects++
						}
						assert.True(t, r.OK, "%sat %s: %s: %s", variantText(scn), r.At, r.Action, r.Error)
					}
				}
				check()
				for s.T() < int64(scn.Duration.Seconds()) {
					s.Step(1)
					check()
				}
				assert.Positive(t, expects, "every scenario checks itself with expect steps")
			}
		})
	}
}

func variantText(scn *scenario.Scenario) string {
	if v := scn.Selected(); v != "" {
		return "variant " + v + ": "
	}
	return ""
}

// traceChild names the environment variable that makes TestTraceIsByteIdentical
// the child it starts: the child writes its trace and what it saw of its
// environment into the folder the variable names.
const traceChild = "CONVERGE_TRACE_CHILD"

// TestTraceIsByteIdentical runs a scenario here and again in a copy of this
// test binary started with another time zone and GOMAXPROCS (time.Local is
// read once per process, so only a new process can have another), and
// compares the bytes. The child also takes checkpoints at another spacing.
func TestTraceIsByteIdentical(t *testing.T) {
	t.Parallel()
	scn := load(t, scenarios.FS, "rolling-update.yaml")
	if dir := os.Getenv(traceChild); dir != "" {
		name, offset := time.Date(2026, 1, 1, 0, 0, 0, 0, time.Local).Zone()
		env := fmt.Sprintf("%s %d %d\n", name, offset, runtime.GOMAXPROCS(0))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "env"), []byte(env), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "trace.jsonl"), trace(t, scn, Options{CheckpointEvery: 3}), 0o644))
		return
	}
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no processes to start on " + runtime.GOOS)
	}
	want := trace(t, scn, Options{})
	tests := []struct {
		name, tz, procs string
		seen            string // what the child must see: its zone in January (name, offset) and GOMAXPROCS
	}{
		{"New York, one proc", "America/New_York", "1", "EST -18000 1"},
		{"Kolkata, five procs", "Asia/Kolkata", "5", "IST 19800 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestTraceIsByteIdentical$", "-test.count=1")
			cmd.Env = append(os.Environ(), "TZ="+tc.tz, "GOMAXPROCS="+tc.procs, traceChild+"="+dir)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			env, err := os.ReadFile(filepath.Join(dir, "env"))
			require.NoError(t, err, "the child ran the test: %s", out)
			assert.Equal(t, tc.seen+"\n", string(env), "the child's local zone and GOMAXPROCS")
			got, err := os.ReadFile(filepath.Join(dir, "trace.jsonl"))
			require.NoError(t, err)
			require.Equal(t, len(want), len(got))
			assert.True(t, bytes.Equal(want, got), "the same scenario gives the same trace")
		})
	}
}

// TestSeekBackwardsEqualsRunningForward checks, on every library scenario,
// that seconds reached by restoring a checkpoint and replaying give the same
// trace line as the straight run: the checkpoints share the objects and the
// kubelets' pod states with the live state (copy on write), so a write that
// leaked into a shared one would show here.
func TestSeekBackwardsEqualsRunningForward(t *testing.T) {
	t.Parallel()
	files, err := fs.Glob(scenarios.FS, "*.yaml")
	require.NoError(t, err)
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			scn := load(t, scenarios.FS, name)
			want := bytes.Split(bytes.TrimSuffix(trace(t, scn, Options{CheckpointEvery: -1}), []byte("\n")), []byte("\n"))
			s, err := New(load(t, scenarios.FS, name), Options{CheckpointEvery: 7})
			require.NoError(t, err)
			end := int64(len(want) - 1)
			s.SeekTo(end)
			for _, at := range []int64{0, 3, 60, 13, 14, 7, end, 29, 1, end / 2, end - 1, end / 3} {
				if at >= int64(len(want)) {
					continue
				}
				s.SeekTo(at)
				got, err := s.TraceLine()
				require.NoError(t, err)
				require.Equal(t, string(want[at]), string(got), "trace line at %ds after seeking", at)
			}
		})
	}
}

func TestRunMutatingCommandBecomesAStepAndReplays(t *testing.T) {
	t.Parallel()
	scn := load(t, scenarios.FS, "basic-loop.yaml")
	s, err := New(scn, Options{})
	require.NoError(t, err)
	s.SeekTo(30)
	s.SeekTo(10)
	r := s.Run("kubectl scale deployment/web --replicas=4")
	require.True(t, r.OK, r.Error)
	assert.Equal(t, "deployment.apps/web scaled", r.Output)
	assert.Equal(t, "11s", r.At)
	assert.EqualValues(t, 11, s.T(), "a mutating command advances one second to run")
	assert.EqualValues(t, 11, s.Horizon(), "what was computed after the command is dropped")

	// A read-only command runs against the current state and is not recorded.
	steps := len(s.Scenario().Steps)
	g := s.Run("get deployment web")
	require.True(t, g.OK, g.Error)
	assert.Contains(t, g.Output, "web")
	assert.Len(t, s.Scenario().Steps, steps)
	assert.EqualValues(t, 11, s.T())

	// The scenario's YAML now carries the step: replaying it gives the same state.
	src, err := s.Scenario().Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(src), "scale deployment/web --replicas=4")
	s.SeekTo(16)
	live, err := s.TraceLine()
	require.NoError(t, err)
	again, err := New(parse(t, string(src)), Options{})
	require.NoError(t, err)
	again.SeekTo(16)
	replayed, err := again.TraceLine()
	require.NoError(t, err)
	assert.JSONEq(t, string(live), string(replayed))
	assert.EqualValues(t, 4, again.Snapshot().Deployments[0].Status.Replicas)
}

func TestRunRejectedCommandIsNotRecorded(t *testing.T) {
	t.Parallel()
	s, err := New(load(t, scenarios.FS, "basic-loop.yaml"), Options{})
	require.NoError(t, err)
	steps := len(s.Scenario().Steps)
	r := s.Run("frobnicate deployment/web")
	assert.False(t, r.OK)
	assert.Contains(t, r.Error, `unknown command "frobnicate" for "kubectl"`)
	assert.Len(t, s.Scenario().Steps, steps)
	assert.EqualValues(t, 0, s.T())
}

func TestExpectFailureIsReported(t *testing.T) {
	t.Parallel()
	scn := parse(t, `name: x
objects:
`+simtest.DeploymentYAML("web", 2, "nginx")+`steps:
- at: 10s
  expect: deployment/web .status.availableReplicas == 3
- at: 10s
  expect: deployment/nope .status.availableReplicas == 3
`)
	s, err := New(scn, Options{})
	require.NoError(t, err)
	s.SeekTo(10)
	res := s.Expectations()
	require.Len(t, res, 2)
	assert.False(t, res[0].OK)
	assert.Equal(t, "got 2", res[0].Error)
	assert.False(t, res[1].OK)
	assert.Contains(t, res[1].Error, "not found")
	// Seeking back forgets outcomes that lie in the future again.
	s.SeekTo(5)
	assert.Empty(t, s.Expectations())
}

func TestFaultsReportUnknownTargets(t *testing.T) {
	t.Parallel()
	scn := parse(t, `name: x
steps:
- at: 1s
  fault: crash pod/ghost
- at: 1s
  fault: crash deployment/ghost
`)
	s, err := New(scn, Options{})
	require.NoError(t, err)
	s.Step(1)
	steps := s.Tick().Steps
	require.Len(t, steps, 2)
	for _, r := range steps {
		assert.False(t, r.OK, r.Action)
		assert.NotEmpty(t, r.Error)
	}
}

func TestHistoryRecordsEverySecond(t *testing.T) {
	t.Parallel()
	s, err := New(load(t, scenarios.FS, "rolling-update.yaml"), Options{})
	require.NoError(t, err)
	s.SeekTo(40)
	h := s.History()
	require.Len(t, h, 41)
	for i, smp := range h {
		assert.EqualValues(t, i, smp.T)
	}
	d := h[21].Deployments[0]
	assert.Equal(t, "web", d.Name)
	assert.EqualValues(t, 10, d.Desired)
	assert.EqualValues(t, 3, d.MaxSurge, "25% of 10 rounded up")
	assert.EqualValues(t, 2, d.MaxUnavail, "25% of 10 rounded down")
	assert.LessOrEqual(t, d.Total, d.Desired+d.MaxSurge)
	var marked bool
	for _, m := range h[20].Markers {
		marked = marked || m.Kind == "step" && strings.Contains(m.Label, "set image")
	}
	assert.True(t, marked, "the set image step is marked at 20s")
	s.SeekTo(5)
	assert.Len(t, s.History(), 41, "seeking back keeps the computed timeline")
}

// TestGoldenTraces compares the whole trace of small scenarios with
// testdata/*.golden.jsonl; `go test ./core/sim -update` rewrites them.
func TestGoldenTraces(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			scn, probs := scenario.Parse(data, f)
			require.False(t, probs.HasErrors(), "%v", probs)
			got := trace(t, scn, Options{})
			golden := strings.TrimSuffix(f, ".yaml") + ".golden.jsonl"
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./core/sim -update to create it")
			wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
			for i := 0; i < len(wl) && i < len(gl); i++ {
				if !bytes.Equal(wl[i], gl[i]) {
					var w, g map[string]any
					_ = json.Unmarshal(wl[i], &w)
					_ = json.Unmarshal(gl[i], &g)
					require.Equal(t, w, g, "%s: line %d (t=%d) differs", golden, i+1, i)
				}
			}
			require.Equal(t, len(wl), len(gl), "%s: number of lines", golden)
		})
	}
}

func TestExpectationsFollowTheCurrentSecond(t *testing.T) {
	t.Parallel()
	s, err := New(load(t, scenarios.FS, "basic-loop.yaml"), Options{CheckpointEvery: 5})
	require.NoError(t, err)
	s.SeekTo(75)
	all := len(s.Expectations())
	require.Equal(t, 6, all)
	s.SeekTo(16)
	assert.Len(t, s.Expectations(), 1, "only the expect at 15s has run by 16s")
	s.SeekTo(70)
	assert.Len(t, s.Expectations(), 5, "a forward jump through a checkpoint keeps what ran before it")
	for _, r := range s.Expectations() {
		assert.True(t, r.OK, r.Action)
	}
}

// TestImageBehaviourReachesTheKubelets: every cluster.images key is handed
// to the kubelets, and a pull or start time written as 0 is no time at all
// (the kubelets' zero being their default).
func TestImageBehaviourReachesTheKubelets(t *testing.T) {
	t.Parallel()
	scn := parse(t, `name: x
cluster:
  images:
    a:1: {pullSeconds: 0, startSeconds: 0, readySeconds: 4, crashAfterSeconds: 50, pullFailures: 2,
      unreadyAfterSeconds: 30, readinessFlapSeconds: 7, livenessFailAfterSeconds: 40, shutdownSeconds: 9, exitCode: 143}
    b:1: {pull: fail, neverReady: true}
`)
	images := kubeletImages(scn.Cluster)
	assert.Equal(t, kubelet.Image{PullSeconds: -1, StartSeconds: -1, ReadySeconds: 4, CrashAfterSeconds: 50, PullFailures: 2,
		UnreadyAfterSeconds: 30, ReadinessFlapSeconds: 7, LivenessFailAfterSeconds: 40, ShutdownSeconds: 9, ExitCode: 143}, images["a:1"])
	assert.Equal(t, kubelet.Image{PullSeconds: 2, StartSeconds: 1, PullFail: true, NeverReady: true}, images["b:1"])

	fast := parse(t, `name: fast
cluster:
  images:
    fast:1: {pullSeconds: 0, startSeconds: 0}
objects:
- {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {nodeName: node-1, containers: [{name: c, image: "fast:1"}]}}
`)
	s, err := New(fast, Options{})
	require.NoError(t, err)
	p, err := s.state.store.GetPod("default", "p")
	require.NoError(t, err)
	assert.Equal(t, "Running", p.Status.Phase, "pulled, created and started at t=0")
}

func TestRunRefusedByTheAPIServerIsNoStepAndKeepsTheClock(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line, err string
	}{
		{"not found", "scale deployment/nope --replicas=3", `deployments.apps "nope" not found`},
		{"invalid value", "scale deployment/web --replicas=-1", "COUNT must be greater than or equal to 0"},
		{"not simulated", "logs web", "does not simulate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := New(load(t, scenarios.FS, "basic-loop.yaml"), Options{})
			require.NoError(t, err)
			s.SeekTo(30)
			s.SeekTo(10)
			before, err := s.TraceLine()
			require.NoError(t, err)
			src, err := s.Scenario().Marshal()
			require.NoError(t, err)
			steps, horizon := len(s.Scenario().Steps), s.Horizon()

			r := s.Run(tc.line)
			assert.False(t, r.OK)
			assert.Contains(t, r.Error, tc.err)
			assert.Equal(t, "10s", r.At, "refused at the second it was typed")
			assert.Equal(t, -1, r.Index)
			assert.EqualValues(t, 10, s.T(), "the clock does not move")
			assert.Len(t, s.Scenario().Steps, steps)
			after, err := s.Scenario().Marshal()
			require.NoError(t, err)
			assert.Equal(t, string(src), string(after), "the scenario (and so the share link) is unchanged")
			now, err := s.TraceLine()
			require.NoError(t, err)
			assert.Equal(t, string(before), string(now))
			assert.Equal(t, horizon, s.Horizon(), "the computed future is kept")
			s.SeekTo(30)
			for _, h := range s.History()[11:31] {
				for _, m := range h.Markers {
					assert.NotEqual(t, "failed-step", m.Kind, "at %ds", h.T)
				}
			}
		})
	}
}

func TestRemoveStepTakesBackAConsoleStep(t *testing.T) {
	t.Parallel()
	s, err := New(load(t, scenarios.FS, "basic-loop.yaml"), Options{})
	require.NoError(t, err)
	orig, err := s.Scenario().Marshal()
	require.NoError(t, err)
	s.SeekTo(8)
	r := s.Run("scale deployment/web --replicas=6")
	require.True(t, r.OK, r.Error)
	require.GreaterOrEqual(t, r.Index, 0)
	s.SeekTo(18)
	assert.EqualValues(t, 6, s.Snapshot().Deployments[0].Status.Replicas)

	require.NoError(t, s.RemoveStep(r.Index))
	assert.EqualValues(t, 18, s.T(), "the simulation stays at its second")
	assert.EqualValues(t, 3, s.Snapshot().Deployments[0].Status.Replicas, "and shows the timeline without the step")
	src, err := s.Scenario().Marshal()
	require.NoError(t, err)
	assert.Equal(t, string(orig), string(src))

	fresh, err := New(load(t, scenarios.FS, "basic-loop.yaml"), Options{})
	require.NoError(t, err)
	fresh.SeekTo(18)
	want, err := fresh.TraceLine()
	require.NoError(t, err)
	got, err := s.TraceLine()
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))

	err = s.RemoveStep(0)
	if len(s.Scenario().Steps) > 0 {
		require.Error(t, err)
		assert.Contains(t, err.Error(), "written in the scenario")
	}
	assert.ErrorContains(t, s.RemoveStep(99), "no step 99")
}

func TestStepResultsListEveryStepThatRan(t *testing.T) {
	t.Parallel()
	s, err := New(load(t, scenarios.FS, "selector-immutable.yaml"), Options{})
	require.NoError(t, err)
	s.SeekTo(19)
	assert.Empty(t, s.StepResults())
	s.SeekTo(25)
	rs := s.StepResults()
	require.Len(t, rs, 2)
	assert.Equal(t, "20s", rs[0].At)
	assert.True(t, rs[0].OK, "an expected error holds")
	assert.Contains(t, rs[0].Error, "field is immutable")
	assert.True(t, rs[1].Expect)
	s.SeekTo(20)
	assert.Len(t, s.StepResults(), 1, "seeking back forgets later results")
}
