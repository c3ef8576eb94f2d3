package sim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const waitScenario = `name: waits
seed: 42
duration: 60s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - {name: web, image: myrepo/web:1.0}
steps:
- at: 6s
  kubectl: set image deployment/web web=myrepo/web:2.0
- at: 6s
  kubectl: rollout status deployment/web
- at: 6s
  kubectl: wait --for=condition=Available deployment/web --timeout=60s
- at: 7s
  kubectl: get deployment web
- at: 8s
  kubectl: rollout status deployment/web --timeout=3s
  expectError: timed out waiting for the condition
`

// stepLog runs s to its end and lists every result of step index i as
// "Ts waiting|done ok OUTPUT ERROR".
func stepLog(t *testing.T, src string, i int) []StepResultAt {
	t.Helper()
	s, err := New(parse(t, src), Options{})
	require.NoError(t, err)
	var out []StepResultAt
	for {
		for _, r := range s.Tick().Steps {
			if r.Index == i {
				out = append(out, StepResultAt{T: s.T(), R: r})
			}
		}
		if s.T() >= int64(s.Duration().Seconds()) {
			return out
		}
		s.Step(1)
	}
}

type StepResultAt struct {
	T int64
	R StepResult
}

func TestRolloutStatusAsAStep(t *testing.T) {
	t.Parallel()
	log := stepLog(t, waitScenario, 1)
	require.NotEmpty(t, log)
	first := log[0]
	assert.Equal(t, int64(6), first.T)
	assert.Equal(t, StepResult{At: "6s", Action: "kubectl rollout status deployment/web", OK: true, Waiting: true, Index: 1,
		Output: "Waiting for deployment spec update to be observed...\n" +
			`Waiting for deployment "web" rollout to finish: 1 out of 2 new replicas have been updated...`}, first.R,
		"one result for the second it started in: the line printed before the controllers' work of 6s, then the one after")
	var lines []string
	for _, l := range log {
		lines = append(lines, splitLines(l.R.Output)...)
		assert.Equal(t, "6s", l.R.At, "every result carries the step's own second")
	}
	last := log[len(log)-1]
	assert.False(t, last.R.Waiting)
	assert.True(t, last.R.OK)
	assert.Equal(t, `deployment "web" successfully rolled out`, last.R.Output)
	assert.Greater(t, last.T, int64(10))
	assert.Contains(t, lines, `Waiting for deployment "web" rollout to finish: 1 out of 2 new replicas have been updated...`)
	for i := 1; i < len(lines); i++ {
		assert.NotEqual(t, lines[i-1], lines[i], "a line is printed when it changes")
	}
	for _, l := range log[:len(log)-1] {
		assert.True(t, l.R.Waiting)
	}
}

func TestWaitAsAStep(t *testing.T) {
	t.Parallel()
	log := stepLog(t, waitScenario, 2)
	require.Len(t, log, 1)
	assert.Equal(t, StepResult{At: "6s", Action: "kubectl wait --for=condition=Available deployment/web --timeout=60s", OK: true, Index: 2,
		Output: "deployment.apps/web condition met"}, log[0].R,
		"not met before the controllers' work of 6s (generation 2 not observed yet), met after it, in the same second")
}

func TestWaitingStepExpectError(t *testing.T) {
	t.Parallel()
	log := stepLog(t, waitScenario, 4)
	require.NotEmpty(t, log)
	last := log[len(log)-1]
	assert.Equal(t, int64(11), last.T, "--timeout=3s from 8s")
	assert.True(t, last.R.OK, "the error it expected: %s", last.R.Error)
	assert.Equal(t, "error: timed out waiting for the condition", last.R.Error)

	failing := waitScenario[:len(waitScenario)-len("  expectError: timed out waiting for the condition\n")] +
		"  expectError: exceeded its progress deadline\n"
	log = stepLog(t, failing, 4)
	last = log[len(log)-1]
	assert.False(t, last.R.OK)
	assert.Equal(t, `expected an error containing "exceeded its progress deadline", got: error: timed out waiting for the condition`, last.R.Error)
}

func TestLaterStepsKeepTheirTimes(t *testing.T) {
	t.Parallel()
	log := stepLog(t, waitScenario, 3)
	require.Len(t, log, 1)
	assert.Equal(t, int64(7), log[0].T)
}

func TestUnfinished(t *testing.T) {
	t.Parallel()
	src := waitScenario + "- at: 10s\n  kubectl: wait --for=delete deployment/web --timeout=1h\n" +
		"- at: 10s\n  kubectl: wait --for=delete deployment/web --timeout=1h\n  expectError: timed out\n"
	s, err := New(parse(t, src), Options{})
	require.NoError(t, err)
	s.SeekTo(60)
	u := s.Unfinished()
	require.Len(t, u, 2)
	assert.True(t, u[0].OK)
	assert.True(t, u[0].Waiting)
	assert.False(t, u[1].OK)
	assert.Equal(t, `expected an error containing "timed out", but the command was still waiting at 60s`, u[1].Error)
}

func TestWaitingStepsReplayFromCheckpoints(t *testing.T) {
	t.Parallel()
	straight := trace(t, parse(t, waitScenario), Options{CheckpointEvery: -1})
	s, err := New(parse(t, waitScenario), Options{CheckpointEvery: 5})
	require.NoError(t, err)
	s.SeekTo(40)
	s.SeekTo(12) // from the checkpoint at 10s: the waiters are restored with it
	var b bytes.Buffer
	for s.T() < 60 {
		s.Step(1)
	}
	s.SeekTo(0)
	for {
		line, err := s.TraceLine()
		require.NoError(t, err)
		b.Write(line)
		b.WriteByte('\n')
		if s.T() >= 60 {
			break
		}
		s.Step(1)
	}
	assert.Equal(t, string(straight), b.String())
	p := s.Progress(StepResult{Index: 1})
	assert.False(t, p.Waiting)
	assert.Contains(t, p.Output, "Waiting for deployment spec update to be observed...\n")
	assert.True(t, bytes.HasSuffix([]byte(p.Output), []byte(`deployment "web" successfully rolled out`)), p.Output)
}

func TestConsoleCommandThatWaits(t *testing.T) {
	t.Parallel()
	s, err := New(parse(t, waitScenario), Options{})
	require.NoError(t, err)
	s.SeekTo(7)
	r := s.Run("rollout status deployment/web")
	require.True(t, r.Waiting)
	require.NotZero(t, r.Follow)
	assert.Equal(t, -1, r.Index, "read-only: not a step")
	assert.Len(t, s.Scenario().Steps, 5)
	s.Step(30)
	p := s.Progress(r)
	assert.False(t, p.Waiting)
	assert.True(t, bytes.HasSuffix([]byte(p.Output), []byte(`deployment "web" successfully rolled out`)), p.Output)

	s.SeekTo(7)
	r = s.Run("rollout status deployment/web")
	s.Step(1)
	s.SeekTo(3) // back in time: interrupted
	p = s.Progress(r)
	assert.False(t, p.Waiting)
	before := p.Output
	s.Step(40)
	assert.Equal(t, before, s.Progress(r).Output)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// TestConsoleGetWatchRunsUntilTheNextCommand: get -w from the console
// follows the simulation (a row per change) until the next command, as
// Ctrl+C would end it; a rollout status started before it is not ended.
func TestConsoleGetWatchRunsUntilTheNextCommand(t *testing.T) {
	t.Parallel()
	s, err := New(parse(t, waitScenario), Options{})
	require.NoError(t, err)
	s.SeekTo(7)
	status := s.Run("rollout status deployment/web")
	r := s.Run("get rs -w")
	require.True(t, r.Waiting)
	require.NotZero(t, r.Follow)
	s.Step(5)
	p := s.Progress(r)
	assert.True(t, p.Waiting)
	assert.Greater(t, len(splitLines(p.Output)), len(splitLines(r.Output)), "rows for the changes: %s", p.Output)
	s.Run("get pods")
	p = s.Progress(r)
	assert.False(t, p.Waiting, "the next command ends it")
	before := p.Output
	s.Step(10)
	assert.Equal(t, before, s.Progress(r).Output)
	assert.NotEqual(t, status.Output, s.Progress(status).Output, "rollout status goes on")
}
