package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/store"
)

// TestKillGrace ports TestKillContainerGracePeriod of Kubernetes'
// pkg/kubelet/kuberuntime/kuberuntime_container_test.go
// (setTerminationGracePeriod), plus the deletion's grace period, which
// comes first.
func TestKillGrace(t *testing.T) {
	t.Parallel()
	short, medium, long := int64(10), int64(30), int64(60)
	withProbes := func(startup, liveness *int64) api.Container {
		c := api.Container{Name: "foo"}
		if startup != nil {
			c.StartupProbe = &api.Probe{TerminationGracePeriodSeconds: startup}
		}
		if liveness != nil {
			c.LivenessProbe = &api.Probe{TerminationGracePeriodSeconds: liveness}
		}
		return c
	}
	tests := []struct {
		name      string
		c         api.Container
		podGrace  *int64
		deletion  *int64
		reason    killReason
		wantGrace int64
	}{
		{name: "default termination grace period", c: api.Container{Name: "foo"}, reason: killDelete, wantGrace: 2},
		{name: "use pod termination grace period", c: api.Container{Name: "foo"}, podGrace: &long, reason: killDelete, wantGrace: long},
		{name: "liveness probe overrides pod termination grace period", c: withProbes(nil, &short), podGrace: &long, reason: killLiveness, wantGrace: short},
		{name: "startup probe overrides pod termination grace period", c: withProbes(&short, nil), podGrace: &long, reason: killStartup, wantGrace: short},
		{name: "startup probe overrides pod termination grace period, probe period > pod period", c: withProbes(&long, nil), podGrace: &short, reason: killStartup, wantGrace: long},
		{name: "liveness probe overrides pod termination grace period, probe period > pod period", c: withProbes(nil, &long), podGrace: &short, reason: killLiveness, wantGrace: long},
		{name: "non-liveness probe failure, use pod termination grace period", c: withProbes(nil, &short), podGrace: &long, reason: killDelete, wantGrace: long},
		{name: "non-startup probe failure, use pod termination grace period", c: withProbes(&short, nil), podGrace: &long, reason: killDelete, wantGrace: long},
		{name: "all three grace periods set, use pod termination grace period", c: withProbes(&short, &medium), podGrace: &long, reason: killDelete, wantGrace: long},
		{name: "all three grace periods set, use startup termination grace period", c: withProbes(&short, &medium), podGrace: &long, reason: killStartup, wantGrace: short},
		{name: "all three grace periods set, use liveness termination grace period", c: withProbes(&short, &medium), podGrace: &long, reason: killLiveness, wantGrace: medium},
		{name: "a deletion's grace period comes first", c: withProbes(&short, &medium), podGrace: &long, deletion: &short, reason: killLiveness, wantGrace: short},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := &api.Pod{}
			p.Spec.Containers = []api.Container{tc.c}
			p.Spec.TerminationGracePeriodSeconds = tc.podGrace
			p.DeletionGracePeriodSeconds = tc.deletion
			assert.Equal(t, tc.wantGrace, killGrace(p, &p.Spec.Containers[0], tc.reason))
		})
	}
}

// TestTermination deletes a running pod at 10s and follows it: the Killing
// event, the preStop hook, SIGTERM, the exit (or SIGKILL), the terminal
// phase, the removal.
func TestTermination(t *testing.T) {
	t.Parallel()
	sleep := func(s int64) podOption { return withPreStop(api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: s}}) }
	tests := []struct {
		name      string
		image     Image
		opts      []podOption
		grace     int64
		events    []string // at the deletion
		serveAt   []int    // seconds the app still answers requests
		exitAt    int      // when the container exits
		exitCode  int32
		reason    string
		phase     string
		goneAt    int
		readyTill int // the last second the pod is Ready
	}{
		{name: "default image: SIGTERM, exit 0 at once", grace: 30, events: []string{"Killing: Stopping container web"},
			exitAt: 10, reason: "Completed", phase: api.PodSucceeded, goneAt: 11, readyTill: 9},
		{name: "preStop sleep 5: serves 5 more seconds, then exits", grace: 30, opts: []podOption{sleep(5)},
			events: []string{"Killing: Stopping container web"}, serveAt: []int{10, 14}, exitAt: 15, reason: "Completed",
			phase: api.PodSucceeded, goneAt: 16, readyTill: 14},
		{name: "shutdownSeconds 12: exits 12s after SIGTERM", image: Image{ShutdownSeconds: 12}, grace: 30,
			exitAt: 22, reason: "Completed", phase: api.PodSucceeded, goneAt: 23, readyTill: 21},
		{name: "shutdownSeconds 40 > grace 30: SIGKILL at 40s, 137", image: Image{ShutdownSeconds: 40}, grace: 30,
			exitAt: 40, exitCode: 137, reason: "Error", phase: api.PodFailed, goneAt: 41, readyTill: 39},
		{name: "shutdownSeconds equal to the grace period: it just makes it", image: Image{ShutdownSeconds: 30}, grace: 30,
			exitAt: 40, reason: "Completed", phase: api.PodSucceeded, goneAt: 41, readyTill: 39},
		{name: "exitCode 3 on SIGTERM: Error, phase Failed", image: Image{ShutdownSeconds: 2, ExitCode: 3}, grace: 30,
			exitAt: 12, exitCode: 3, reason: "Error", phase: api.PodFailed, goneAt: 13, readyTill: 11},
		{name: "preStop sleep takes the whole grace: 2s more after SIGTERM, then SIGKILL", image: Image{ShutdownSeconds: 10}, grace: 30,
			opts: []podOption{sleep(30)}, serveAt: []int{39}, exitAt: 42, exitCode: 137, reason: "Error", phase: api.PodFailed, goneAt: 43, readyTill: 41},
		{name: "exec preStop sh -c sleep 8", grace: 30,
			opts:    []podOption{withPreStop(api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"/bin/sh", "-c", "sleep 8"}}})},
			serveAt: []int{17}, exitAt: 18, reason: "Completed", phase: api.PodSucceeded, goneAt: 19, readyTill: 17},
		{name: "httpGet preStop to an app that is not up yet: FailedPreStopHook, then SIGTERM", image: Image{ReadySeconds: 100}, grace: 30,
			opts:   []podOption{withPreStop(api.LifecycleHandler{HTTPGet: api.Raw(`{"path":"/drain","port":8080}`)})},
			events: []string{"Killing: Stopping container web", "FailedPreStopHook: PreStopHook failed"},
			exitAt: 10, reason: "Completed", phase: api.PodSucceeded, goneAt: 11, readyTill: 9},
		{name: "httpGet preStop to a hung app: hangs until the grace period ends", image: Image{LivenessFailAfterSeconds: 5}, grace: 20,
			opts:   []podOption{withPreStop(api.LifecycleHandler{HTTPGet: api.Raw(`{"path":"/drain","port":8080}`)})},
			events: []string{"Killing: Stopping container web"}, exitAt: 30, reason: "Completed", phase: api.PodSucceeded, goneAt: 31, readyTill: 29},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, map[string]Image{"app:1": tc.image})
			h.add(newPod("web-x", "node-1", "app:1", append([]podOption{withGrace(tc.grace)}, tc.opts...)...))
			h.sync()
			h.runTo(9)
			require.Equal(t, "Running", state(h.pod("web-x")))
			h.tick()
			require.NoError(t, h.s.Delete(api.KindPod, "default", "web-x", store.DeleteOptions{}))
			h.sync()
			if tc.events != nil {
				assert.Equal(t, tc.events, h.reasons())
			}
			serving := map[int]bool{}
			for _, s := range tc.serveAt {
				serving[s] = true
			}
			for h.now() < tc.goneAt {
				p := h.pod("web-x")
				if h.now() < tc.exitAt {
					assert.Equal(t, "Running", state(p), "still running at %ds", h.now())
					assert.Equal(t, api.PodRunning, p.Status.Phase, "phase at %ds", h.now())
				} else {
					require.NotNil(t, p.Status.ContainerStatuses[0].State.Terminated, "exited at %ds", h.now())
					term := p.Status.ContainerStatuses[0].State.Terminated
					assert.Equal(t, tc.exitCode, term.ExitCode)
					assert.Equal(t, tc.reason, term.Reason)
					assert.Equal(t, at(tc.exitAt), term.FinishedAt.Time)
					assert.Equal(t, tc.phase, p.Status.Phase)
				}
				assert.Equal(t, h.now() <= tc.readyTill, ready(p), "Ready at %ds", h.now())
				if len(tc.serveAt) > 0 && h.now() <= tc.serveAt[len(tc.serveAt)-1] {
					assert.True(t, h.k.Serving(p, h.s.Clock().Now()), "serving at %ds, during the preStop hook", h.now())
				} else if h.now() >= 10 && !serving[h.now()] {
					assert.False(t, h.k.Serving(p, h.s.Clock().Now()), "not serving at %ds, after SIGTERM", h.now())
				}
				h.tick()
			}
			assert.True(t, h.gone("web-x"), "removed at %ds", tc.goneAt)
			assert.Zero(t, h.k.pods.Len(), "the state of a removed pod is dropped")
		})
	}
}

// TestShorterGracePeriod: a second deletion with a shorter grace period
// cuts the running kill short.
func TestShorterGracePeriod(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"slow:1": {ShutdownSeconds: 60}})
	h.add(newPod("web-x", "node-1", "slow:1", withGrace(30)))
	h.sync()
	h.runTo(10)
	require.NoError(t, h.s.Delete(api.KindPod, "default", "web-x", store.DeleteOptions{}))
	h.sync()
	h.runTo(15)
	require.NoError(t, h.s.Delete(api.KindPod, "default", "web-x", store.DeleteOptions{GracePeriodSeconds: api.Int64(3)}))
	h.sync()
	h.runTo(17)
	assert.Equal(t, "Running", state(h.pod("web-x")))
	h.runTo(18)
	term := h.pod("web-x").Status.ContainerStatuses[0].State.Terminated
	require.NotNil(t, term)
	assert.Equal(t, int32(137), term.ExitCode)
	h.runTo(19)
	assert.True(t, h.gone("web-x"))
}

// TestDeletedDuringLivenessKill: a container being killed by its liveness
// probe when the pod is deleted is not restarted.
func TestDeletedDuringLivenessKill(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"hang:1": {LivenessFailAfterSeconds: 5, ShutdownSeconds: 20}})
	h.add(newPod("web-x", "node-1", "hang:1", withGrace(30), withLiveness(httpProbe(0, 5, 1))))
	h.sync()
	h.runTo(8)
	assert.Contains(t, h.reasons(), "Killing: Container web failed liveness probe, will be restarted")
	h.runTo(10)
	require.NoError(t, h.s.Delete(api.KindPod, "default", "web-x", store.DeleteOptions{}))
	h.sync()
	assert.NotContains(t, h.reasons(), "Killing: Stopping container web", "the kill in progress goes on")
	h.runTo(27)
	assert.Equal(t, "Running", state(h.pod("web-x")))
	h.runTo(28)
	p := h.pod("web-x")
	assert.Equal(t, "Completed", state(p))
	assert.Equal(t, api.PodSucceeded, p.Status.Phase)
	assert.Equal(t, int32(0), restarts(p))
	h.runTo(29)
	assert.True(t, h.gone("web-x"))
}

func TestExecSleep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  []string
		want time.Duration
	}{
		{"sleep", []string{"sleep", "5"}, 5 * time.Second},
		{"/bin/sleep with a unit", []string{"/bin/sleep", "2m"}, 2 * time.Minute},
		{"sh -c", []string{"/bin/sh", "-c", "sleep 15"}, 15 * time.Second},
		{"bash -c with other commands", []string{"bash", "-c", "nginx -s quit; sleep 3 && sleep 4s"}, 7 * time.Second},
		{"no sleep", []string{"/usr/local/bin/drain"}, 0},
		{"a sleep that does not parse", []string{"sleep", "infinity"}, 0},
		{"a fraction", []string{"sleep", "0.5"}, 0},
		{"empty", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, execSleep(tc.cmd))
		})
	}
}

// TestImageReferenceAndPullFailures: an image reference the kubelet cannot
// parse is InvalidImageName (pkg/kubelet/images/image_manager.go,
// EnsureImageExists), retried every 10s; an image with pullFailures fails
// that many pulls on the node, with the pull back-off, then pulls.
func TestImageReferenceAndPullFailures(t *testing.T) {
	t.Parallel()
	const invalid = `Failed to apply default image tag "Nginx:1.25": couldn't parse image name "Nginx:1.25": invalid reference format: repository name (library/Nginx) must be lowercase`
	timeout := `Failed: Failed to pull image "flaky:1": ` + pullTimeoutError("flaky:1")
	tests := []struct {
		name   string
		images map[string]Image
		image  string
		want   []want
	}{
		{
			name:  "uppercase repository: InvalidImageName",
			image: "Nginx:1.25",
			want: []want{
				{At: 0, State: "InvalidImageName", Phase: "Pending", Events: []string{"InspectFailed: " + invalid, "Failed: Error: InvalidImageName"}},
				{At: 9, State: "InvalidImageName", Phase: "Pending", Events: []string{}},
				{At: 10, State: "InvalidImageName", Phase: "Pending", Events: []string{"InspectFailed: " + invalid, "Failed: Error: InvalidImageName"}},
			},
		},
		{
			name:   "pullFailures 2: two failed pulls, back-off 10s then 20s, then pulled",
			images: map[string]Image{"flaky:1": {PullFailures: 2}},
			image:  "flaky:1",
			want: []want{
				{At: 0, State: "ContainerCreating", Phase: "Pending", Events: []string{`Pulling: Pulling image "flaky:1"`}},
				{At: 2, State: "ErrImagePull", Phase: "Pending", Events: []string{timeout, "Failed: Error: ErrImagePull"}},
				{At: 3, State: "ImagePullBackOff", Phase: "Pending"},
				{At: 12, State: "ImagePullBackOff", Phase: "Pending", Events: []string{`Pulling: Pulling image "flaky:1"`}},
				{At: 14, State: "ErrImagePull", Phase: "Pending", Events: []string{timeout, "Failed: Error: ErrImagePull"}},
				{At: 34, State: "ImagePullBackOff", Phase: "Pending", Events: []string{`Pulling: Pulling image "flaky:1"`}},
				{At: 36, State: "ContainerCreating", Phase: "Pending"},
				{At: 37, State: "Running", Ready: true, Phase: "Running"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkTimeline(t, tc.images, tc.image, nil, tc.want)
		})
	}
	h := newHarness(t, nil)
	h.add(newPod("web-x", "node-1", "Nginx:1.25"))
	h.sync()
	w := h.pod("web-x").Status.ContainerStatuses[0].State.Waiting
	require.NotNil(t, w)
	assert.Equal(t, invalid, w.Message)
	assert.Equal(t, `failed to pull and unpack image "docker.io/library/flaky:1": failed to resolve reference "docker.io/library/flaky:1": `+
		`failed to do request: Head "https://registry-1.docker.io/v2/library/flaky/manifests/1": dial tcp: lookup registry-1.docker.io: i/o timeout`,
		pullTimeoutError("flaky:1"))
	assert.Equal(t, `failed to pull and unpack image "registry.example.com:5000/team/web@sha256:`+testDigest+`": failed to resolve reference "registry.example.com:5000/team/web@sha256:`+testDigest+`": `+
		`failed to do request: Head "https://registry.example.com:5000/v2/team/web/manifests/sha256:`+testDigest+`": dial tcp: lookup registry.example.com: i/o timeout`,
		pullTimeoutError("registry.example.com:5000/team/web@sha256:"+testDigest))
}

const testDigest = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// TestPullFailuresCountPerNode: the next pod on a node whose pulls have
// already failed pulls at once.
func TestPullFailuresCountPerNode(t *testing.T) {
	t.Parallel()
	h := newHarness(t, map[string]Image{"flaky:1": {PullFailures: 1}}, "node-1", "node-2")
	h.add(newPod("a", "node-1", "flaky:1"))
	h.add(newPod("b", "node-1", "flaky:1"))
	h.add(newPod("c", "node-2", "flaky:1"))
	h.sync()
	h.runTo(2)
	get := func(name string) *api.Pod { return h.pod(name) }
	assert.Equal(t, "ErrImagePull", state(get("a")), "node-1's first pull fails")
	assert.Equal(t, "ContainerCreating", state(get("b")), "node-1's second pull succeeds")
	assert.Equal(t, "ErrImagePull", state(get("c")), "node-2's first pull fails")
}
