package kubelet

import (
	"testing"

	"converge/core/api"
)

// FuzzProbeOutput feeds arbitrary probe handlers to the failure message: it
// must never panic.
func FuzzProbeOutput(f *testing.F) {
	for _, s := range []string{`{"path":"/healthz","port":8080}`, `{"port":"http"}`, `{"port":[1]}`, `null`, `{`, `{"scheme":"HTTPS","host":"x","port":1}`} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, warm bool) {
		c := &api.Container{Ports: []api.ContainerPort{{Name: "http", ContainerPort: 80}}}
		for _, p := range []api.Probe{{HTTPGet: api.Raw(raw)}, {TCPSocket: api.Raw(raw)}, {GRPC: api.Raw(raw)}} {
			_ = probeOutput(&p, c, "10.244.1.2", warm)
		}
	})
}

// FuzzNormalizeImage checks image references of any shape give a qualified
// reference and digest without panicking.
func FuzzNormalizeImage(f *testing.F) {
	for _, s := range []string{"nginx", "nginx:1.25", "a/b/c:d", "localhost:5000/x", "x@sha256:abc", "", ":", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, image string) {
		if normalizeImage(image) == "" || imageID(image) == "" {
			t.Fatalf("empty reference for %q", image)
		}
	})
}
