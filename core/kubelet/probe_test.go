package kubelet

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// TestProberThresholds ports the threshold tests of Kubernetes'
// pkg/kubelet/prober/worker_test.go onto prober.observe, the tail of
// worker.doProbe: TestFailureThreshold, TestSuccessThreshold,
// TestStartupProbeSuccessThreshold, TestStartupProbeFailureThreshold,
// TestResultRunOnLivenessCheckFailure and TestOnHoldOnLivenessOrStartupCheckFailure.
// Each row feeds probe results in order and checks the result set after
// each one (and the worker's resultRun and hold where upstream does).
func TestProberThresholds(t *testing.T) {
	t.Parallel()
	const S, F = resultSuccess, resultFailure
	type step struct {
		in     result
		result result
		run    int32 // -1: not checked
		hold   bool
	}
	tests := []struct {
		name             string
		kind             probeKind
		success, failure int32
		initial          result
		steps            []step
	}{
		{name: "TestFailureThreshold: readiness needs 3 failures in a row", kind: readinessProbe, success: 1, failure: 3, initial: F, steps: []step{
			{S, S, -1, false}, {S, S, -1, false}, {S, S, -1, false},
			{F, S, -1, false}, {F, S, -1, false}, {F, F, -1, false}, {F, F, -1, false}, {F, F, -1, false},
			{S, S, -1, false}, {S, S, -1, false}, {S, S, -1, false},
			{F, S, -1, false}, {F, S, -1, false}, {F, F, -1, false},
		}},
		{name: "TestSuccessThreshold: readiness needs 3 successes in a row", kind: readinessProbe, success: 3, failure: 1, initial: F, steps: []step{
			{S, F, -1, false}, {S, F, -1, false}, {S, S, -1, false}, {S, S, -1, false}, {S, S, -1, false},
			{F, F, -1, false},
			{S, F, -1, false}, {S, F, -1, false}, {S, S, -1, false},
		}},
		{name: "TestStartupProbeSuccessThreshold: one success sets it and holds", kind: startupProbe, success: 1, failure: 3, initial: resultUnknown, steps: []step{
			{S, S, 0, true},
		}},
		{name: "TestStartupProbeFailureThreshold: Unknown until the third failure, then hold", kind: startupProbe, success: 1, failure: 3, initial: resultUnknown, steps: []step{
			{F, resultUnknown, 1, false}, {F, resultUnknown, 2, false}, {F, F, 0, true},
		}},
		{name: "TestResultRunOnLivenessCheckFailure", kind: livenessProbe, success: 1, failure: 3, initial: S, steps: []step{
			{S, S, 1, false}, {F, S, 1, false}, {F, S, 2, false}, {F, F, 0, true},
		}},
		{name: "TestOnHoldOnLivenessOrStartupCheckFailure: liveness", kind: livenessProbe, success: 1, failure: 1, initial: S, steps: []step{
			{F, F, 0, true},
		}},
		{name: "TestOnHoldOnLivenessOrStartupCheckFailure: startup", kind: startupProbe, success: 1, failure: 1, initial: resultUnknown, steps: []step{
			{F, F, 0, true},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec := &api.Probe{SuccessThreshold: tc.success, FailureThreshold: tc.failure}
			w := prober{result: tc.initial}
			for i, st := range tc.steps {
				w.observe(tc.kind, st.in, spec)
				assert.Equal(t, st.result, w.result, "result after probe %d", i+1)
				if st.run >= 0 {
					assert.Equal(t, st.run, w.run, "resultRun after probe %d", i+1)
				}
				assert.Equal(t, st.hold, w.hold, "hold after probe %d", i+1)
			}
		})
	}
}

// TestProberTicks: a worker runs at startedAt + initialDelaySeconds + k *
// periodSeconds (TestInitialDelay of pkg/kubelet/prober/worker_test.go:
// nothing runs during the initial delay).
func TestProberTicks(t *testing.T) {
	t.Parallel()
	w := prober{base: at(15), period: 10 * time.Second}
	tests := []struct {
		t         int
		inclusive bool
		want      int
	}{
		{t: 3, want: 15}, {t: 15, inclusive: true, want: 15}, {t: 15, want: 25}, {t: 16, want: 25},
		{t: 25, inclusive: true, want: 25}, {t: 34, inclusive: true, want: 35}, {t: 100, want: 105},
	}
	for _, tc := range tests {
		t.Run(strconv.Itoa(tc.t)+"/"+strconv.FormatBool(tc.inclusive), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, at(tc.want), w.tickAfter(at(tc.t), tc.inclusive))
		})
	}
}

// TestAppAnswers pins the image behaviour keys (docs/scenarios.md) as the
// probes see them.
func TestAppAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		im    Image
		kind  probeKind
		s     int
		want  answer
		next  int // nextChange; 0: never
		serve bool
	}{
		{name: "healthy", kind: readinessProbe, s: 0, want: answerOK, serve: true},
		{name: "warming up refuses every probe", im: Image{ReadySeconds: 30}, kind: livenessProbe, s: 29, want: answerRefused, next: 30},
		{name: "warm", im: Image{ReadySeconds: 30}, kind: startupProbe, s: 30, want: answerOK, serve: true},
		{name: "neverReady: liveness passes", im: Image{NeverReady: true}, kind: livenessProbe, s: 5, want: answerOK},
		{name: "neverReady: readiness fails", im: Image{NeverReady: true}, kind: readinessProbe, s: 5, want: answerUnhealthy},
		{name: "unready after 20s: before", im: Image{UnreadyAfterSeconds: 20}, kind: readinessProbe, s: 19, want: answerOK, next: 20, serve: true},
		{name: "unready after 20s: after", im: Image{UnreadyAfterSeconds: 20}, kind: readinessProbe, s: 20, want: answerUnhealthy},
		{name: "unready after 20s: liveness unaffected", im: Image{UnreadyAfterSeconds: 20}, kind: livenessProbe, s: 25, want: answerOK},
		{name: "flap 10s: up", im: Image{ReadySeconds: 5, ReadinessFlapSeconds: 10}, kind: readinessProbe, s: 14, want: answerOK, next: 15, serve: true},
		{name: "flap 10s: down", im: Image{ReadySeconds: 5, ReadinessFlapSeconds: 10}, kind: readinessProbe, s: 15, want: answerUnhealthy, next: 25},
		{name: "flap 10s: up again", im: Image{ReadySeconds: 5, ReadinessFlapSeconds: 10}, kind: readinessProbe, s: 25, want: answerOK, next: 35, serve: true},
		{name: "hung: liveness times out", im: Image{LivenessFailAfterSeconds: 40}, kind: livenessProbe, s: 40, want: answerHung},
		{name: "hung: readiness too", im: Image{LivenessFailAfterSeconds: 40}, kind: readinessProbe, s: 41, want: answerHung},
		{name: "before the hang", im: Image{LivenessFailAfterSeconds: 40}, kind: livenessProbe, s: 39, want: answerOK, next: 40, serve: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := time.Duration(tc.s) * time.Second
			assert.Equal(t, tc.want, tc.im.answers(tc.kind, s))
			assert.Equal(t, time.Duration(tc.next)*time.Second, tc.im.nextChange(tc.kind, s))
			assert.Equal(t, tc.serve, tc.im.serves(s))
		})
	}
}

// TestProbeTimeline follows pods through their probes, second by second.
func TestProbeTimeline(t *testing.T) {
	t.Parallel()
	const (
		hung    = `Get "http://10.244.1.2:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`
		refused = `Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused`
		present = `Pulled: Container image "%s" already present on machine and can be accessed by the pod`
	)
	pres := func(image string) string { return replaceAll(present, "%s", image) }
	tests := []struct {
		name   string
		images map[string]Image
		image  string
		opts   []podOption
		want   []want
	}{
		{
			name:   "liveness: the hung app is killed after 3 failures 5s apart and restarts in the same pod, then backs off",
			images: map[string]Image{"hang:1": {LivenessFailAfterSeconds: 20}},
			image:  "hang:1",
			opts:   []podOption{withLiveness(httpProbe(0, 5, 3))},
			want: []want{
				{At: 3, State: "Running", Ready: true, Phase: "Running", Events: []string{"Started: Container started"}},
				{At: 22, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
				{At: 23, State: "Running", Ready: true, Phase: "Running", Events: []string{"Unhealthy: Liveness probe failed: " + hung}},
				{At: 28, State: "Running", Ready: true, Phase: "Running", Events: []string{"Unhealthy: Liveness probe failed: " + hung}},
				{At: 33, State: "Completed", Phase: "Running", Events: []string{"Unhealthy: Liveness probe failed: " + hung,
					"Killing: Container web failed liveness probe, will be restarted", pres("hang:1"), "Created: Container created"}},
				{At: 34, State: "Running", Ready: true, Phase: "Running", Restarts: 1},
				{At: 63, State: "Running", Ready: true, Phase: "Running", Restarts: 1},
				{At: 64, State: "Completed", Phase: "Running", Restarts: 1},
				{At: 65, State: "CrashLoopBackOff", Phase: "Running", Restarts: 1, Events: []string{
					"BackOff: " + msgCrashBackOffEvent("web", "web-x_default(UID)")}},
				{At: 75, State: "Running", Ready: true, Phase: "Running", Restarts: 2},
			},
		},
		{
			name:   "liveness with the probe's terminationGracePeriodSeconds: an app that ignores SIGTERM is killed 5s later, 137",
			images: map[string]Image{"hang:1": {LivenessFailAfterSeconds: 10, ShutdownSeconds: 60}},
			image:  "hang:1",
			opts: []podOption{withLiveness(func() *api.Probe {
				pr := httpProbe(0, 5, 1)
				pr.TerminationGracePeriodSeconds = api.Int64(5)
				return pr
			}())},
			want: []want{
				{At: 13, State: "Running", Ready: true, Phase: "Running", Events: []string{"Unhealthy: Liveness probe failed: " + hung,
					"Killing: Container web failed liveness probe, will be restarted"}},
				{At: 17, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
				{At: 18, State: "Error", Phase: "Running", Events: []string{pres("hang:1"), "Created: Container created"}},
				{At: 19, State: "Running", Ready: true, Phase: "Running", Restarts: 1},
			},
		},
		{
			name:   "startup probe: liveness waits while the slow app starts, the container is started at 30s",
			images: map[string]Image{"slow:1": {ReadySeconds: 30}},
			image:  "slow:1",
			opts:   []podOption{withStartup(httpProbe(0, 5, 10)), withLiveness(httpProbe(0, 5, 1))},
			want: []want{
				{At: 3, State: "Running", Phase: "Running", NotStarted: true, Events: []string{"Started: Container started",
					"Unhealthy: Startup probe failed: " + refused}},
				{At: 28, State: "Running", Phase: "Running", NotStarted: true, Events: []string{"Unhealthy: Startup probe failed: " + refused}},
				{At: 33, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
				{At: 38, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
				{At: 300, State: "Running", Ready: true, Phase: "Running"},
			},
		},
		{
			name:   "no startup probe: the liveness probe kills the slow app before it is up, again and again",
			images: map[string]Image{"slow:1": {ReadySeconds: 30}},
			image:  "slow:1",
			opts:   []podOption{withLiveness(httpProbe(0, 5, 1))},
			want: []want{
				{At: 3, State: "Completed", Phase: "Running", Events: []string{"Started: Container started",
					"Unhealthy: Liveness probe failed: " + refused, "Killing: Container web failed liveness probe, will be restarted",
					pres("slow:1"), "Created: Container created"}},
				{At: 4, State: "Completed", Phase: "Running", Restarts: 1, Events: []string{"Started: Container started",
					"Unhealthy: Liveness probe failed: " + refused, "Killing: Container web failed liveness probe, will be restarted"}},
				{At: 5, State: "CrashLoopBackOff", Phase: "Running", Restarts: 1},
				{At: 120, State: "CrashLoopBackOff", Phase: "Running", Restarts: 4},
			},
		},
		{
			name:   "startup probe that never passes: killed after failureThreshold x periodSeconds",
			images: map[string]Image{"never:1": {ReadySeconds: 1000}},
			image:  "never:1",
			opts:   []podOption{withStartup(httpProbe(0, 10, 3))},
			want: []want{
				{At: 13, State: "Running", Phase: "Running", NotStarted: true},
				{At: 23, State: "Completed", Phase: "Running", Events: []string{"Unhealthy: Startup probe failed: " + refused,
					"Killing: Container web failed startup probe, will be restarted", pres("never:1"), "Created: Container created"}},
				{At: 24, State: "Running", Phase: "Running", Restarts: 1, NotStarted: true},
			},
		},
		{
			name:   "startup then readiness: readiness runs as soon as the container has started",
			images: map[string]Image{"slow:1": {ReadySeconds: 12}},
			image:  "slow:1",
			opts:   []podOption{withStartup(httpProbe(0, 5, 10)), withReadiness(httpProbe(0, 10, 3))},
			want: []want{
				{At: 13, State: "Running", Phase: "Running", NotStarted: true},
				{At: 18, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
			},
		},
		{
			name:   "readiness flaps every 10s: Ready, not Ready after 2 failures, Ready again",
			images: map[string]Image{"flap:1": {ReadinessFlapSeconds: 10}},
			image:  "flap:1",
			opts:   []podOption{withReadiness(httpProbe(0, 5, 2))},
			want: []want{
				{At: 3, State: "Running", Ready: true, Phase: "Running"},
				{At: 12, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
				{At: 13, State: "Running", Ready: true, Phase: "Running", Events: []string{"Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503"}},
				{At: 18, State: "Running", Phase: "Running", Events: []string{"Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503"}},
				{At: 22, State: "Running", Phase: "Running"},
				{At: 23, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
				{At: 38, State: "Running", Phase: "Running"},
			},
		},
		{
			name:   "unready after 15s: readiness fails for good, the container keeps running",
			images: map[string]Image{"tired:1": {UnreadyAfterSeconds: 15}},
			image:  "tired:1",
			opts:   []podOption{withReadiness(httpProbe(0, 5, 3)), withLiveness(httpProbe(0, 5, 3))},
			want: []want{
				{At: 17, State: "Running", Ready: true, Phase: "Running"},
				{At: 27, State: "Running", Ready: true, Phase: "Running"},
				{At: 28, State: "Running", Phase: "Running"},
				{At: 600, State: "Running", Phase: "Running"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkTimeline(t, tc.images, tc.image, tc.opts, tc.want)
		})
	}
}

func replaceAll(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + replaceAll(s[i+len(old):], old, new)
		}
	}
	return s
}

// TestLivenessKillWithRestartPolicyNever: the kill message drops ", will
// be restarted" and the pod ends (computePodActions).
func TestLivenessKillWithRestartPolicyNever(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"hang:1": {LivenessFailAfterSeconds: 5, ExitCode: 143}})
	h.add(newPod("web-x", "node-1", "hang:1", withRestartPolicy(api.RestartPolicyNever), withLiveness(httpProbe(0, 5, 1))))
	h.sync()
	h.runTo(8)
	assert.Contains(t, h.reasons(), "Killing: Container web failed liveness probe")
	p := h.pod("web-x")
	assert.Equal(t, api.PodFailed, p.Status.Phase)
	require.NotNil(t, p.Status.ContainerStatuses[0].State.Terminated)
	assert.Equal(t, int32(143), p.Status.ContainerStatuses[0].State.Terminated.ExitCode)
	assert.Equal(t, "Error", p.Status.ContainerStatuses[0].State.Terminated.Reason)
	h.runTo(60)
	assert.Equal(t, int32(0), restarts(h.pod("web-x")))
}

// TestServingFollowsTheApp: requests fail when the app hangs or its
// readiness endpoint is down, before any probe has noticed.
func TestServingFollowsTheApp(t *testing.T) {
	t.Parallel()
	images := map[string]Image{"hang:1": {LivenessFailAfterSeconds: 20}, "flap:1": {ReadinessFlapSeconds: 10}}
	tests := []struct {
		name  string
		image string
		at    int
		want  bool
	}{
		{"before the hang", "hang:1", 22, true},
		{"hung", "hang:1", 23, false},
		{"flap up", "flap:1", 12, true},
		{"flap down", "flap:1", 13, false},
		{"flap up again", "flap:1", 23, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, images)
			h.add(newPod("web-x", "node-1", tc.image, withReadiness(httpProbe(0, 5, 3))))
			h.sync()
			h.runTo(tc.at)
			assert.Equal(t, tc.want, h.k.Serving(h.pod("web-x"), h.s.Clock().Now()))
		})
	}
}
