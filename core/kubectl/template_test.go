package kubectl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGetJSONPathAndCustomColumns: what tutorials paste, on the fixture
// (Deployment web, its three pods on node-1 and node-2).
func TestGetJSONPathAndCustomColumns(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, line, out, err string }{
		{"names of a list", "get pods -o jsonpath={.items[*].metadata.name}",
			"web-66b6c48dd5-4jw2m web-66b6c48dd5-8xk2p web-66b6c48dd5-tz7qw", ""},
		{"one object's field", "get deploy web -o jsonpath={.spec.template.spec.containers[0].image}", "nginx:1.25", ""},
		{"the relaxed form with --template", "get deploy web -o jsonpath --template={.spec.replicas}", "3", ""},
		{"$ is the root", "get deploy web -o jsonpath={$.metadata.name}", "web", ""},
		{"range with literal text", `get pods -o 'jsonpath={range .items[*]}{.metadata.name}{"\t"}{.spec.nodeName}{"\n"}{end}'`,
			"web-66b6c48dd5-4jw2m\tnode-1\nweb-66b6c48dd5-8xk2p\tnode-2\nweb-66b6c48dd5-tz7qw\tnode-1", ""},
		{"text around the action", "get deploy web -o jsonpath=replicas={.spec.replicas}", "replicas=3", ""},
		{"a map prints as JSON", "get deploy web -o jsonpath={.spec.selector}", `{"matchLabels":{"app":"web"}}`, ""},
		{"a filter", `get deploy web -o jsonpath={.status.conditions[?(@.type=="Available")].status}`, "True", ""},
		{"a missing key prints nothing", "get deploy web -o jsonpath={.spec.nothing}", "", ""},
		{"unclosed", "get deploy web -o jsonpath={.spec", "", "error: error parsing jsonpath {.spec, unclosed action"},
		{"end outside range", "get deploy web -o jsonpath={end}", "", "error: error parsing jsonpath {end}, not in range, nothing to end"},
		{"unclosed range", "get pods -o 'jsonpath={range .items[*]}{.metadata.name}'", "",
			"error: error parsing jsonpath {range .items[*]}{.metadata.name}, unclosed range"},
		{"custom columns", "get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,IMAGES:.spec.containers[*].image",
			"NAME                   NODE     IMAGES\nweb-66b6c48dd5-4jw2m   node-1   nginx:1.25\nweb-66b6c48dd5-8xk2p   node-2   nginx:1.25\n" +
				"web-66b6c48dd5-tz7qw   node-1   nginx:1.25", ""},
		{"custom columns: missing values are <none>, no headers", "get deploy -o custom-columns=NAME:metadata.name,X:{.spec.paused} --no-headers",
			"web   <none>", ""},
		{"custom columns: a bad spec", "get pods -o custom-columns=NAME", "",
			"error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>"},
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
