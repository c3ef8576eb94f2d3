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

// fakeNodeMetrics is a metrics API that has node metrics too.
type fakeNodeMetrics struct {
	fakeMetrics
	nodes []controller.NodeMetrics
}

func (f fakeNodeMetrics) NodeMetrics() []controller.NodeMetrics { return f.nodes }

// TestTopNode is kubectl's top_node_test.go on the fixture's nodes
// (node-1 and node-2: 4 cpus, 8Gi allocatable): every node, one by name,
// by label selector, sorted by cpu and by memory; a node without metrics
// prints <unknown>; and kubectl's errors.
func TestTopNode(t *testing.T) {
	t.Parallel()
	const gi = 1000 * 1024 * 1024 * 1024 // milli-bytes in a gibibyte
	two := fakeNodeMetrics{nodes: []controller.NodeMetrics{
		{Name: "node-1", CPU: 1200, Memory: 2 * gi},
		{Name: "node-2", CPU: 250, Memory: 3 * gi},
	}}
	one := fakeNodeMetrics{nodes: two.nodes[1:]}
	tests := []struct {
		name    string
		metrics controller.MetricsAPI
		line    string
		out     string
		err     string
	}{
		{"all metrics", two, "top node",
			"NAME     CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)   \n" +
				"node-1   1200m        30%      2048Mi          25%         \n" +
				"node-2   250m         6%       3072Mi          37%         ", ""},
		{"with name", two, "top nodes node-2",
			"NAME     CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)   \nnode-2   250m         6%       3072Mi          37%         ", ""},
		{"with label selector", two, "top no -l kubernetes.io/hostname=node-1 --no-headers",
			"node-1   1200m   30%   2048Mi   25%   ", ""},
		{"sort by cpu", two, "top node --sort-by=cpu --no-headers",
			"node-1   1200m   30%   2048Mi   25%   \nnode-2   250m    6%    3072Mi   37%   ", ""},
		{"sort by memory", two, "top node --sort-by=memory --no-headers",
			"node-2   250m    6%    3072Mi   37%   \nnode-1   1200m   30%   2048Mi   25%   ", ""},
		{"a node without metrics", one, "top node --no-headers",
			"node-2   250m        6%          3072Mi      37%         \nnode-1   <unknown>   <unknown>   <unknown>   <unknown>   ", ""},
		{"a named node without metrics", one, "top node node-1", "",
			`Error from server (NotFound): nodemetrics.metrics.k8s.io "node-1" not found`},
		{"no metrics yet", fakeNodeMetrics{}, "top node", "", "error: metrics not available yet"},
		{"no metrics API", nil, "top node", "", "error: Metrics API not available"},
		{"name and selector", two, "top node node-1 -l a=b", "", "error: only one of NAME or --selector can be provided"},
		{"bad sort", two, "top node --sort-by=name", "", "error: --sort-by accepts only cpu or memory"},
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
