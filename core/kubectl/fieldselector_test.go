package kubectl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGetFieldSelector: the API server's field selectors on the fixture,
// with the texts of its refusals (field label conversion).
func TestGetFieldSelector(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, line, out, err string }{
		{"by phase", "get pods --field-selector=status.phase=Running -o name",
			"pod/web-66b6c48dd5-4jw2m\npod/web-66b6c48dd5-8xk2p\npod/web-66b6c48dd5-tz7qw", ""},
		{"by node", "get pods --field-selector spec.nodeName=node-1 -o name", "pod/web-66b6c48dd5-4jw2m\npod/web-66b6c48dd5-tz7qw", ""},
		{"not equal, and a second term", "get pods --field-selector=spec.nodeName!=node-1,status.phase==Running -o name",
			"pod/web-66b6c48dd5-8xk2p", ""},
		{"by name", "get pods --field-selector metadata.name=web-66b6c48dd5-8xk2p -o name", "pod/web-66b6c48dd5-8xk2p", ""},
		{"the pod IP", "get pods --field-selector status.podIP=10.244.1.6 -o name", "pod/web-66b6c48dd5-8xk2p", ""},
		{"nothing matches", "get pods --field-selector=status.phase=Pending", "No resources found in default namespace.", ""},
		{"a node field", "get nodes --field-selector spec.unschedulable=false -o name", "node/node-1\nnode/node-2", ""},
		{"events of a kind", "get events --field-selector involvedObject.kind=Deployment,type=Normal -o custom-columns=REASON:.reason",
			"REASON\nScalingReplicaSet", ""},
		{"a field pods do not have", "get pods --field-selector spec.foo=bar", "",
			"Error from server (BadRequest): field label not supported: spec.foo"},
		{"a kind without field selectors of its own", "get deployments --field-selector status.replicas=3", "",
			`Error from server (BadRequest): "status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"`},
		{"no operator", "get pods --field-selector status.phase", "",
			"Error from server (BadRequest): invalid selector: 'status.phase'; can't understand 'status.phase'"},
	}
	f := newFixture(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output, tc.line)
			assert.Equal(t, tc.err, r.Error, tc.line)
		})
	}
}

// TestGetSortBy: --sort-by orders by a JSONPath value, numbers as numbers.
func TestGetSortBy(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, line, out, err string }{
		{"by node, then as listed", "get pods --sort-by=.spec.nodeName -o name",
			"pod/web-66b6c48dd5-4jw2m\npod/web-66b6c48dd5-tz7qw\npod/web-66b6c48dd5-8xk2p", ""},
		{"by name, the relaxed form", "get pods --sort-by=metadata.name -o name",
			"pod/web-66b6c48dd5-4jw2m\npod/web-66b6c48dd5-8xk2p\npod/web-66b6c48dd5-tz7qw", ""},
		{"a field nobody has", "get pods --sort-by=.spec.nothing", "", `error: couldn't find any field with path "{.spec.nothing}" in the list of objects`},
	}
	f := newFixture(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output, tc.line)
			assert.Equal(t, tc.err, r.Error, tc.line)
		})
	}
}
