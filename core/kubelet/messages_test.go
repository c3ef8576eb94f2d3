package kubelet

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/api"
)

func TestNormalizeImage(t *testing.T) {
	t.Parallel()
	const digest = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	tests := []struct{ in, want, id string }{
		{in: "nginx:1.25", want: "docker.io/library/nginx:1.25", id: "docker.io/library/nginx@sha256:"},
		{in: "nginx", want: "docker.io/library/nginx:latest", id: "docker.io/library/nginx@sha256:"},
		{in: "myrepo/web:2.0", want: "docker.io/myrepo/web:2.0", id: "docker.io/myrepo/web@sha256:"},
		{in: "ghcr.io/org/app:v1", want: "ghcr.io/org/app:v1", id: "ghcr.io/org/app@sha256:"},
		{in: "localhost:5000/app", want: "localhost:5000/app:latest", id: "localhost:5000/app@sha256:"},
		{in: "localhost/app:1", want: "localhost/app:1", id: "localhost/app@sha256:"},
		{in: "nginx@sha256:" + digest, want: "docker.io/library/nginx@sha256:" + digest, id: "docker.io/library/nginx@sha256:" + digest},
		{in: "nginx:1.25@sha256:" + digest, want: "docker.io/library/nginx:1.25@sha256:" + digest, id: "docker.io/library/nginx@sha256:" + digest},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, normalizeImage(tc.in))
			assert.Contains(t, imageID(tc.in), tc.id)
		})
	}
	assert.Len(t, imageID("nginx:1.25"), len("docker.io/library/nginx@sha256:")+64)
	assert.NotEqual(t, imageID("nginx:1.25"), imageID("nginx:1.26"))
	assert.Equal(t, imageSize("nginx:1.25"), imageSize("nginx:1.25"))
	assert.NotEqual(t, containerID("u", "web", 0), containerID("u", "web", 1))
}

func TestPodPhase(t *testing.T) {
	t.Parallel()
	running := api.ContainerState{Running: &api.ContainerStateRunning{}}
	exited := func(code int32) api.ContainerState {
		return api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code}}
	}
	waiting := api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ContainerCreating"}}
	backoff := api.ContainerStatus{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}, LastTerminationState: exited(1)}
	tests := []struct {
		name   string
		policy string
		cs     []api.ContainerStatus
		killed bool
		want   string
	}{
		{name: "no containers", policy: "Always", want: "Pending"},
		{name: "creating", policy: "Always", cs: []api.ContainerStatus{{State: waiting}}, want: "Pending"},
		{name: "one running, one creating", policy: "Always", cs: []api.ContainerStatus{{State: running}, {State: waiting}}, want: "Pending"},
		{name: "running", policy: "Always", cs: []api.ContainerStatus{{State: running}}, want: "Running"},
		{name: "crash-looping counts as stopped: Running", policy: "Always", cs: []api.ContainerStatus{backoff}, want: "Running"},
		{name: "exited, Always", policy: "Always", cs: []api.ContainerStatus{{State: exited(1)}}, want: "Running"},
		{name: "exited 0, Never", policy: "Never", cs: []api.ContainerStatus{{State: exited(0)}}, want: "Succeeded"},
		{name: "exited 1, Never", policy: "Never", cs: []api.ContainerStatus{{State: exited(1)}}, want: "Failed"},
		{name: "exited 1, OnFailure", policy: "OnFailure", cs: []api.ContainerStatus{{State: exited(1)}}, want: "Running"},
		{name: "stopped for deletion, exit 0", policy: "Always", cs: []api.ContainerStatus{{State: exited(0)}}, killed: true, want: "Succeeded"},
		{name: "stopped for deletion after a crash", policy: "Always", cs: []api.ContainerStatus{{State: exited(0)}, {State: exited(1)}}, killed: true, want: "Failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, podPhase(tc.policy, tc.cs, tc.killed))
		})
	}
}

func TestQOSClass(t *testing.T) {
	t.Parallel()
	q := api.MustQuantity
	tests := []struct {
		name string
		res  []api.ResourceRequirements
		want string
	}{
		{name: "nothing set", res: []api.ResourceRequirements{{}}, want: "BestEffort"},
		{name: "requests only", res: []api.ResourceRequirements{{Requests: api.ResourceList{"cpu": q("100m")}}}, want: "Burstable"},
		{name: "limits equal requests", res: []api.ResourceRequirements{{Limits: api.ResourceList{"cpu": q("1"), "memory": q("1Gi")},
			Requests: api.ResourceList{"cpu": q("1000m"), "memory": q("1Gi")}}}, want: "Guaranteed"},
		{name: "limits only", res: []api.ResourceRequirements{{Limits: api.ResourceList{"cpu": q("1"), "memory": q("1Gi")}}}, want: "Guaranteed"},
		{name: "one container without limits", res: []api.ResourceRequirements{{Limits: api.ResourceList{"cpu": q("1"), "memory": q("1Gi")}}, {}},
			want: "Burstable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var s api.PodSpec
			for _, r := range tc.res {
				s.Containers = append(s.Containers, api.Container{Resources: r})
			}
			assert.Equal(t, tc.want, api.QOSClass(&s))
		})
	}
}

// TestProbeOutput pins the prober's failure texts: pkg/probe/http/http.go
// (a refused or timed-out request is the Go client's error, a bad status is
// "HTTP probe failed with statuscode: %d"), pkg/probe/tcp/tcp.go (the dial
// error), pkg/probe/grpc/grpc.go and pkg/probe/exec (ExecProbeTimeout's
// "command %q timed out").
func TestProbeOutput(t *testing.T) {
	t.Parallel()
	c := &api.Container{Ports: []api.ContainerPort{{Name: "http", ContainerPort: 8080}}}
	tests := []struct {
		name  string
		probe api.Probe
		ans   answer
		want  string
	}{
		{name: "httpGet on a named port", probe: api.Probe{HTTPGet: api.Raw(`{"path":"ready","port":"http"}`)}, ans: answerRefused,
			want: `Get "http://10.244.1.2:8080/ready": dial tcp 10.244.1.2:8080: connect: connection refused`},
		{name: "httpGet https with a host", probe: api.Probe{HTTPGet: api.Raw(`{"port":443,"host":"example.test","scheme":"HTTPS"}`)}, ans: answerRefused,
			want: `Get "https://example.test:443/": dial tcp example.test:443: connect: connection refused`},
		{name: "httpGet, warm but unhealthy", probe: api.Probe{HTTPGet: api.Raw(`{"port":80}`)}, ans: answerUnhealthy, want: "HTTP probe failed with statuscode: 503"},
		{name: "httpGet, hung", probe: api.Probe{HTTPGet: api.Raw(`{"path":"/healthz","port":8080}`)}, ans: answerHung,
			want: `Get "http://10.244.1.2:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`},
		{name: "tcpSocket", probe: api.Probe{TCPSocket: api.Raw(`{"port":5432}`)}, ans: answerRefused, want: "dial tcp 10.244.1.2:5432: connect: connection refused"},
		{name: "tcpSocket, unhealthy: refused", probe: api.Probe{TCPSocket: api.Raw(`{"port":5432}`)}, ans: answerUnhealthy, want: "dial tcp 10.244.1.2:5432: connect: connection refused"},
		{name: "tcpSocket, hung", probe: api.Probe{TCPSocket: api.Raw(`{"port":5432}`)}, ans: answerHung, want: "dial tcp 10.244.1.2:5432: i/o timeout"},
		{name: "unknown named port", probe: api.Probe{TCPSocket: api.Raw(`{"port":"db"}`)}, ans: answerRefused, want: "dial tcp 10.244.1.2:db: connect: connection refused"},
		{name: "grpc", probe: api.Probe{GRPC: api.Raw(`{"port":9090}`), TimeoutSeconds: 2}, ans: answerRefused,
			want: `timeout: failed to connect service "10.244.1.2:9090" within 2s: context deadline exceeded`},
		{name: "grpc, unhealthy", probe: api.Probe{GRPC: api.Raw(`{"port":9090}`)}, ans: answerUnhealthy, want: `service unhealthy (responded with "NOT_SERVING")`},
		{name: "grpc, hung", probe: api.Probe{GRPC: api.Raw(`{"port":9090}`), TimeoutSeconds: 5}, ans: answerHung, want: "timeout: health rpc did not complete within 5s"},
		{name: "exec prints what the command printed: nothing", probe: api.Probe{Exec: api.Raw(`{"command":["false"]}`)}, ans: answerUnhealthy, want: ""},
		{name: "exec, hung", probe: api.Probe{Exec: api.Raw(`{"command":["cat","/tmp/healthy"]}`)}, ans: answerHung, want: `command "cat /tmp/healthy" timed out`},
		{name: "malformed handler", probe: api.Probe{HTTPGet: api.Raw(`{"port":[1]}`)}, ans: answerRefused, want: `Get "http://10.244.1.2:0/": dial tcp 10.244.1.2:0: connect: connection refused`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, probeOutput(&tc.probe, c, "10.244.1.2", tc.ans))
		})
	}
}

func TestStatusEqual(t *testing.T) {
	t.Parallel()
	base := func() api.PodStatus {
		return api.PodStatus{Phase: "Running", StartTime: api.NewTimePtr(at(1)),
			Conditions: []api.PodCondition{{Type: "Ready", Status: "True", LastTransitionTime: api.NewTime(at(3))}},
			ContainerStatuses: []api.ContainerStatus{{Name: "web", Started: api.Bool(true),
				State:                api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(at(3))}},
				LastTerminationState: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, FinishedAt: api.NewTime(at(2))}}}}}
	}
	tests := []struct {
		name   string
		change func(*api.PodStatus)
	}{
		{name: "phase", change: func(s *api.PodStatus) { s.Phase = "Pending" }},
		{name: "start time", change: func(s *api.PodStatus) { s.StartTime = nil }},
		{name: "condition time", change: func(s *api.PodStatus) { s.Conditions[0].LastTransitionTime = api.NewTime(at(4)) }},
		{name: "condition count", change: func(s *api.PodStatus) { s.Conditions = nil }},
		{name: "started", change: func(s *api.PodStatus) { s.ContainerStatuses[0].Started = nil }},
		{name: "running since", change: func(s *api.PodStatus) { s.ContainerStatuses[0].State.Running.StartedAt = api.NewTime(at(9)) }},
		{name: "state kind", change: func(s *api.PodStatus) {
			s.ContainerStatuses[0].State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "x"}}
		}},
		{name: "last state", change: func(s *api.PodStatus) { s.ContainerStatuses[0].LastTerminationState.Terminated.ExitCode = 2 }},
	}
	a := base()
	b := base()
	assert.True(t, statusEqual(&a, &b))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			x, y := base(), base()
			tc.change(&y)
			assert.False(t, statusEqual(&x, &y))
		})
	}
}
