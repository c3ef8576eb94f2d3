package kubectl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// The legal file, scaled: 300 pods that each carry a 250 KB
// environment value would print 75 MB with -o json or yaml, or describe.
// Beyond MaxOutput the command prints nothing and says why; one of the
// pods, or the pods by name, print as before.
func TestOutputHasAByteBudget(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	big := strings.Repeat("x", 250_000)
	d, err := f.st.GetDeployment("default", "web")
	require.NoError(t, err)
	rs := f.addReplicaSet(t, d, "big", "2", 300)
	rs.Spec.Template.Spec.Containers[0].Env = []api.EnvVar{{Name: "BIG", Value: big}}
	for i := range 300 {
		p := f.addPod(t, rs, fmt.Sprintf("big-%03d", i), "node-1", "10.244.2.1")
		f.editPod(t, p.Name, func(p *api.Pod) { p.Spec.Containers[0].Env = []api.EnvVar{{Name: "BIG", Value: big}} })
	}
	tests := []struct {
		line, err string
	}{
		{"get pods -o json", "error: the output of -o json would be larger than 64 MiB, the limit of one command's output in Converge (a simulation limit, not a Kubernetes one); the 303 objects hold too much to print at once: name fewer objects, or use -o name or a table"},
		{"get pods -o yaml", "error: the output of -o yaml would be larger than 64 MiB"},
		{"describe pods", "error: the output of describe would be larger than 64 MiB"},
		{"get pod big-007 -o json", ""},
		{"get pods -o name", ""},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			r := f.run(tt.line)
			if tt.err == "" {
				assert.Empty(t, r.Error)
				assert.NotEmpty(t, r.Output)
				return
			}
			assert.Contains(t, r.Error, tt.err)
			assert.Empty(t, r.Output, "nothing is printed")
		})
	}
}
