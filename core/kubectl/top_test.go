package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"converge/core/controller"
	"converge/core/labels"
)

// fakeMetrics is a metrics API with fixed samples.
type fakeMetrics []controller.PodMetrics

func (f fakeMetrics) PodMetrics(namespace string, sel labels.Selector) []controller.PodMetrics {
	var out []controller.PodMetrics
	for _, m := range f {
		if m.Namespace == namespace {
			out = append(out, m)
		}
	}
	return out
}

// TestTopPod: kubectl top pod prints the metrics server's samples as
// TopCmdPrinter does (cpu in millicores, memory in Mi; every cell ends in a
// tab, so the last one is padded too), and kubectl's
// texts without a metrics API or samples.
func TestTopPod(t *testing.T) {
	t.Parallel()
	const mi = 1000 * 1024 * 1024 // milli-bytes in a mebibyte
	samples := fakeMetrics{
		{Namespace: "default", Name: "web-66b6c48dd5-tz7qw", CPU: 120, Memory: 40 * mi, Window: 15 * time.Second},
		{Namespace: "default", Name: "web-66b6c48dd5-4jw2m", CPU: 250, Memory: 64*mi + 5, Window: 15 * time.Second},
	}
	tests := []struct {
		name    string
		metrics controller.MetricsAPI
		line    string
		out     string
		err     string
	}{
		{"by name", samples, "top pods", "NAME                   CPU(cores)   MEMORY(bytes)   \n" +
			"web-66b6c48dd5-4jw2m   250m         64Mi            \nweb-66b6c48dd5-tz7qw   120m         40Mi            ", ""},
		{"sorted by memory, no headers", samples, "top pod --sort-by=memory --no-headers",
			"web-66b6c48dd5-4jw2m   250m   64Mi   \nweb-66b6c48dd5-tz7qw   120m   40Mi   ", ""},
		{"one pod", samples, "top pod web-66b6c48dd5-tz7qw", "NAME                   CPU(cores)   MEMORY(bytes)   \nweb-66b6c48dd5-tz7qw   120m         40Mi            ", ""},
		{"a pod without a sample yet", samples, "top pod web-66b6c48dd5-8xk2p", "", "error: metrics not available yet"},
		{"no metrics API", nil, "top pods", "", "error: Metrics API not available"},
		{"no samples yet", fakeMetrics{}, "top pods", "", "error: metrics not available yet"},
		{"bad sort", samples, "top pods --sort-by=name", "", "error: --sort-by accepts only cpu or memory"},
		{"nodes", samples, "top nodes", "", "error: " + msgTopNodeNotSimulated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.env.Metrics = tc.metrics
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output, tc.line)
			assert.Equal(t, tc.err, r.Error, tc.line)
		})
	}
}
