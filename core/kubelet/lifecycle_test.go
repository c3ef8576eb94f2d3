package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// want is what the pod looks like after the Sync at second At.
type want struct {
	At       int
	State    string
	Ready    bool
	Phase    string
	Restarts int32
	// NotStarted checks containerStatuses[0].started is false (a running
	// container whose startup probe has not passed).
	NotStarted bool
	Events     []string // the events of that Sync; nil: not checked
}

func TestPodLifecycleTimeline(t *testing.T) {
	t.Parallel()
	pulled := func(image string, d int) string {
		return "Pulled: " + msgPulled(image, time.Duration(d)*time.Second, time.Duration(d)*time.Second, imageSize(image))
	}
	tests := []struct {
		name   string
		images map[string]Image
		image  string
		opts   []podOption
		want   []want
	}{
		{
			name:  "default image: pull 2s, start 1s, Ready when running (no probe)",
			image: "nginx:1.25",
			want: []want{
				{At: 0, State: "ContainerCreating", Phase: "Pending", Events: []string{`Pulling: Pulling image "nginx:1.25"`}},
				{At: 1, State: "ContainerCreating", Phase: "Pending", Events: []string{}},
				{At: 2, State: "ContainerCreating", Phase: "Pending", Events: []string{pulled("nginx:1.25", 2), "Created: Container created"}},
				{At: 3, State: "Running", Ready: true, Phase: "Running", Events: []string{"Started: Container started"}},
				{At: 60, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
			},
		},
		{
			name:   "slow image: pull 5s, start 3s",
			images: map[string]Image{"app:2": {PullSeconds: 5, StartSeconds: 3}},
			image:  "app:2",
			want: []want{
				{At: 4, State: "ContainerCreating", Phase: "Pending"},
				{At: 5, State: "ContainerCreating", Phase: "Pending", Events: []string{pulled("app:2", 5), "Created: Container created"}},
				{At: 7, State: "ContainerCreating", Phase: "Pending"},
				{At: 8, State: "Running", Ready: true, Phase: "Running"},
			},
		},
		{
			name:   "zero pull and start seconds: running in the first sync",
			images: map[string]Image{"fast:1": {PullSeconds: -1, StartSeconds: -1}},
			image:  "fast:1",
			want: []want{{At: 0, State: "Running", Ready: true, Phase: "Running", Events: []string{
				`Pulling: Pulling image "fast:1"`, pulled("fast:1", 0), "Created: Container created", "Started: Container started"}}},
		},
		{
			name:  "readiness probe: initialDelaySeconds 5 puts the first probe at startedAt+5",
			image: "nginx:1.25",
			opts:  []podOption{withProbe(5, 10, 1, 3)},
			want: []want{
				{At: 3, State: "Running", Phase: "Running"},
				{At: 7, State: "Running", Phase: "Running"},
				{At: 8, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
			},
		},
		{
			name:   "readiness probe: readySeconds 12 fails the probes at +0 and +10, passes at +20",
			images: map[string]Image{"warm:1": {ReadySeconds: 12}},
			image:  "warm:1",
			opts:   []podOption{withProbe(0, 10, 1, 3)},
			want: []want{
				{At: 3, State: "Running", Phase: "Running", Events: []string{"Started: Container started",
					`Unhealthy: Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused`}},
				{At: 13, State: "Running", Phase: "Running", Events: []string{
					`Unhealthy: Readiness probe failed: Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused`}},
				{At: 22, State: "Running", Phase: "Running"},
				{At: 23, State: "Running", Ready: true, Phase: "Running", Events: []string{}},
			},
		},
		{
			name:  "readiness probe: successThreshold 3 with period 1",
			image: "nginx:1.25",
			opts:  []podOption{withProbe(0, 1, 3, 3)},
			want: []want{
				{At: 4, State: "Running", Phase: "Running"},
				{At: 5, State: "Running", Ready: true, Phase: "Running"},
			},
		},
		{
			name:   "neverReady with a probe: Running, never Ready, the warm app answers 503",
			images: map[string]Image{"broken:1": {NeverReady: true}},
			image:  "broken:1",
			opts:   []podOption{withProbe(0, 10, 1, 3)},
			want: []want{
				{At: 13, State: "Running", Phase: "Running", Events: []string{"Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503"}},
				{At: 300, State: "Running", Phase: "Running"},
			},
		},
		{
			name:   "neverReady without a probe: Ready all the same",
			images: map[string]Image{"broken:1": {NeverReady: true}},
			image:  "broken:1",
			want:   []want{{At: 3, State: "Running", Ready: true, Phase: "Running"}},
		},
		{
			name:   "pull fail: ErrImagePull, then ImagePullBackOff, retries after 10s then 20s",
			images: map[string]Image{"bad:1": {PullFail: true}},
			image:  "bad:1",
			want: []want{
				{At: 2, State: "ErrImagePull", Phase: "Pending", Events: []string{
					`Failed: Failed to pull image "bad:1": failed to pull and unpack image "docker.io/library/bad:1": failed to resolve reference "docker.io/library/bad:1": docker.io/library/bad:1: not found`,
					"Failed: Error: ErrImagePull"}},
				{At: 3, State: "ImagePullBackOff", Phase: "Pending", Events: []string{`BackOff: Back-off pulling image "bad:1"`, "Failed: Error: ImagePullBackOff"}},
				{At: 11, State: "ImagePullBackOff", Phase: "Pending", Events: []string{}},
				{At: 12, State: "ImagePullBackOff", Phase: "Pending", Events: []string{`Pulling: Pulling image "bad:1"`}},
				{At: 14, State: "ErrImagePull", Phase: "Pending"},
				{At: 15, State: "ImagePullBackOff", Phase: "Pending"},
				{At: 33, State: "ImagePullBackOff", Phase: "Pending", Events: []string{}},
				{At: 34, State: "ImagePullBackOff", Phase: "Pending", Events: []string{`Pulling: Pulling image "bad:1"`}},
			},
		},
		{
			name:   "crash after 5s: the first restart is immediate, the second waits 10s",
			images: map[string]Image{"crash:1": {CrashAfterSeconds: 5}},
			image:  "crash:1",
			want: []want{
				{At: 3, State: "Running", Ready: true, Phase: "Running"},
				{At: 8, State: "Error", Phase: "Running", Events: []string{
					`Pulled: Container image "crash:1" already present on machine and can be accessed by the pod`, "Created: Container created"}},
				{At: 9, State: "Running", Ready: true, Phase: "Running", Restarts: 1},
				{At: 14, State: "Error", Phase: "Running", Restarts: 1, Events: []string{}},
				{At: 15, State: "CrashLoopBackOff", Phase: "Running", Restarts: 1, Events: []string{"BackOff: " + msgCrashBackOffEvent("web", "web-x_default(UID)")}},
				{At: 23, State: "CrashLoopBackOff", Phase: "Running", Restarts: 1},
				{At: 24, State: "Error", Phase: "Running", Restarts: 1},
				{At: 25, State: "Running", Ready: true, Phase: "Running", Restarts: 2},
				{At: 31, State: "CrashLoopBackOff", Phase: "Running", Restarts: 2},
				{At: 51, State: "Running", Ready: true, Phase: "Running", Restarts: 3},
			},
		},
		{
			name:  "restartPolicy Never: a crash fails the pod",
			image: "crash:1", images: map[string]Image{"crash:1": {CrashAfterSeconds: 2}},
			opts: []podOption{withRestartPolicy(api.RestartPolicyNever)},
			want: []want{
				{At: 5, State: "Error", Phase: "Failed"},
				{At: 60, State: "Error", Phase: "Failed", Events: []string{}},
			},
		},
		{
			name:  "imagePullPolicy Never on a node without the image",
			image: "nginx:1.25",
			opts:  []podOption{withPullPolicy("Never")},
			want: []want{
				{At: 0, State: "ErrImageNeverPull", Phase: "Pending", Events: []string{
					`ErrImageNeverPull: Container image "nginx:1.25" is not present with pull policy of Never`, "Failed: Error: ErrImageNeverPull"}},
				{At: 10, State: "ErrImageNeverPull", Phase: "Pending"},
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

// checkTimeline runs a pod web-x of the image on node-1 and checks it
// after the Sync of each want's second.
func checkTimeline(t *testing.T, images map[string]Image, image string, opts []podOption, wants []want) {
	t.Helper()
	h := newHarness(t, images)
	p := h.add(newPod("web-x", "node-1", image, opts...))
	h.sync()
	for _, w := range wants {
		h.runTo(w.At)
		got := h.pod("web-x")
		assert.Equal(t, w.State, state(got), "state at %ds", w.At)
		assert.Equal(t, w.Ready, ready(got), "Ready at %ds", w.At)
		assert.Equal(t, w.Phase, got.Status.Phase, "phase at %ds", w.At)
		assert.Equal(t, w.Restarts, restarts(got), "restarts at %ds", w.At)
		if w.NotStarted {
			assert.False(t, *got.Status.ContainerStatuses[0].Started, "started at %ds", w.At)
		}
		if w.Events != nil {
			exp := make([]string, len(w.Events))
			for i, e := range w.Events {
				exp[i] = replaceUID(e, p.UID)
			}
			assert.Equal(t, exp, h.reasons(), "events at %ds", w.At)
		}
	}
}

func replaceUID(s, uid string) string {
	const marker = "(UID)"
	for i := 0; i+len(marker) <= len(s); i++ {
		if s[i:i+len(marker)] == marker {
			return s[:i] + "(" + uid + ")" + s[i+len(marker):]
		}
	}
	return s
}

// TestCrashLoopBackOffSequence follows a container that exits 1s after
// every start for an hour: it restarts at once the first time (the 1s start
// aside), then after
// 10, 20, 40, 80, 160, 300, 300 ... seconds, one restart at a time.
func TestCrashLoopBackOffSequence(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"crash:1": {PullSeconds: -1, CrashAfterSeconds: 1}})
	p := h.add(newPod("web-x", "node-1", "crash:1"))
	h.sync()
	var waits []string
	var restartsSeen []int32
	var crashAt, lastRestart int
	var gaps []int
	prevState, prevRestarts := state(h.pod("web-x")), restarts(h.pod("web-x"))
	for h.now() < 3600 {
		h.tick()
		got := h.pod("web-x")
		s, r := state(got), restarts(got)
		if s == "Error" && prevState == "Running" {
			crashAt = h.now()
		}
		if s == "CrashLoopBackOff" && prevState != "CrashLoopBackOff" {
			waits = append(waits, got.Status.ContainerStatuses[0].State.Waiting.Message)
		}
		if r != prevRestarts {
			require.Equal(t, prevRestarts+1, r, "one restart at a time")
			restartsSeen = append(restartsSeen, r)
			gaps = append(gaps, h.now()-crashAt-1) // minus the 1s start
			lastRestart = h.now()
		}
		prevState, prevRestarts = s, r
	}
	want := []int{0, 10, 20, 40, 80, 160, 300, 300, 300, 300}
	require.GreaterOrEqual(t, len(gaps), len(want))
	assert.Equal(t, want, gaps[:len(want)], "seconds from exit to restart")
	assert.Equal(t, []int32{1, 2, 3, 4, 5}, restartsSeen[:5])
	pod := formatPod("web-x", "default", p.UID)
	assert.Equal(t, "back-off 10s restarting failed container=web pod="+pod, waits[0])
	assert.Equal(t, "back-off 20s restarting failed container=web pod="+pod, waits[1])
	assert.Equal(t, "back-off 5m0s restarting failed container=web pod="+pod, waits[5])
	assert.Greater(t, lastRestart, 3000)
}

func TestCrashBackOffResets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		crashAfter int32
		wantLoop   bool
	}{
		{name: "a crash 601s after the last restart restarts at once", crashAfter: 601, wantLoop: false},
		{name: "a crash within 600s of the last restart backs off", crashAfter: 100, wantLoop: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, map[string]Image{"crash:1": {CrashAfterSeconds: tc.crashAfter}})
			h.add(newPod("web-x", "node-1", "crash:1"))
			h.sync()
			looped := false
			for h.now() < 2500 {
				h.tick()
				looped = looped || state(h.pod("web-x")) == "CrashLoopBackOff"
			}
			assert.Equal(t, tc.wantLoop, looped)
			assert.GreaterOrEqual(t, restarts(h.pod("web-x")), int32(3))
		})
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	var b backoff
	t0 := at(0)
	assert.False(t, b.inBackOffSince(t0, t0), "no entry: not in back-off")
	b.next(t0, t0)
	assert.Equal(t, 10*time.Second, b.d)
	assert.True(t, b.inBackOffSince(t0, at(9)))
	assert.False(t, b.inBackOffSince(t0, at(10)))
	for _, d := range []int{20, 40, 80, 160, 300, 300} {
		b.next(at(20), at(20))
		assert.Equal(t, time.Duration(d)*time.Second, b.d)
	}
	assert.False(t, b.inBackOffSince(at(621), at(621)), "expired 600s after the last update")
	b.next(at(621), at(621))
	assert.Equal(t, 10*time.Second, b.d, "an expired entry starts again at 10s")
}
