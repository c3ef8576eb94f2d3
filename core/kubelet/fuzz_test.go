package kubelet

import (
	"testing"

	"converge/core/api"
)

// FuzzProbeOutput feeds arbitrary probe handlers to the failure message: it
// must never panic.
func FuzzProbeOutput(f *testing.F) {
	for _, s := range []string{`{"path":"/healthz","port":8080}`, `{"port":"http"}`, `{"port":[1]}`, `null`, `{`, `{"scheme":"HTTPS","host":"x","port":1}`} {
		f.Add(s, uint8(answerUnhealthy))
	}
	f.Fuzz(func(t *testing.T, raw string, ans uint8) {
		c := &api.Container{Ports: []api.ContainerPort{{Name: "http", ContainerPort: 80}}}
		for _, p := range []api.Probe{{HTTPGet: api.Raw(raw)}, {TCPSocket: api.Raw(raw)}, {GRPC: api.Raw(raw)}, {Exec: api.Raw(raw)}} {
			_ = probeOutput(&p, c, "10.244.1.2", answer(ans%4))
		}
	})
}

// FuzzNormalizeImage checks image references of any shape give a qualified
// reference and digest without panicking (an invalid one never runs: the
// kubelet reports InvalidImageName), and an invalid one has the kubelet's
// message.
func FuzzNormalizeImage(f *testing.F) {
	for _, s := range []string{"nginx", "nginx:1.25", "a/b/c:d", "localhost:5000/x", "x@sha256:abc", "", ":", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, image string) {
		valid := invalidImageMessage(image) == ""
		if valid && (normalizeImage(image) == "" || imageID(image) == "" || pullTimeoutError(image) == "") {
			t.Fatalf("empty reference for %q", image)
		}
		if !valid && normalizeImage(image) != image {
			t.Fatalf("an invalid reference %q is reported as is", image)
		}
	})
}
