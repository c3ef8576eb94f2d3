package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// TestPrintNamespace is printNamespace's test in kubectl's printers
// (pkg/printers/internalversion/printers_test.go): name, phase and age; a
// namespace created in the future is 0s old, one without a time <unknown>.
func TestPrintNamespace(t *testing.T) {
	t.Parallel()
	now := api.NewTime(api.Epoch.Add(time.Hour))
	tests := []struct {
		name string
		ns   namespace
		want []string
	}{
		{"basic namespace with status and age", namespace{ObjectMeta: api.ObjectMeta{Name: "namespace1",
			CreationTimestamp: api.NewTime(now.Add(1900 * time.Millisecond))}, Status: struct {
			Phase string `json:"phase,omitempty"`
		}{Phase: "FooStatus"}}, []string{"namespace1", "FooStatus", "0s"}},
		{"basic namespace without status or age", namespace{ObjectMeta: api.ObjectMeta{Name: "namespace2"}},
			[]string{"namespace2", "", "<unknown>"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tableRow(&tc.ns, now))
		})
	}
}

// TestGetNamespaces: get ns lists a new cluster's four namespaces and every
// namespace an object lives in (as old as its oldest object), in every
// output format; a missing one is the API server's NotFound; other commands
// refuse the type.
func TestGetNamespaces(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line string
		out  string
		err  string
	}{
		{"table", "get ns", "NAME              STATUS   AGE\ndefault           Active   65s\nkube-node-lease   Active   65s\n" +
			"kube-public       Active   65s\nkube-system       Active   65s\nteam-a            Active   60s", ""},
		{"plural, by name", "get namespaces team-a", "NAME     STATUS   AGE\nteam-a   Active   60s", ""},
		{"singular and slash", "get namespace/kube-system -o name", "namespace/kube-system", ""},
		{"label selector", "get ns -l kubernetes.io/metadata.name=default --no-headers", "default   Active   65s", ""},
		{"yaml", "get ns team-a -o yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  creationTimestamp: \"2026-01-01T00:00:05Z\"\n" +
			"  labels:\n    kubernetes.io/metadata.name: team-a\n  name: team-a\nspec:\n  finalizers:\n  - kubernetes\nstatus:\n  phase: Active", ""},
		{"jsonpath", "get ns -o jsonpath={.items[*].metadata.name}", "default kube-node-lease kube-public kube-system team-a", ""},
		{"not found", "get ns nope", "", `Error from server (NotFound): namespaces "nope" not found`},
		{"not found ignored", "get ns nope --ignore-not-found", "", ""},
		{"delete refused", "delete ns team-a", "", `error: "kubectl delete namespace" is a kubectl command that Converge does not simulate: ` +
			"Converge simulates the objects of namespaces, not the namespaces themselves: kubectl get namespaces lists them"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := simtest.NewStore()
			simtest.Advance(st, 5*time.Second)
			cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "settings", Namespace: "team-a"}}
			simtest.MustCreate(t, st, cm)
			simtest.Advance(st, time.Minute)
			env := &Env{Store: st, Decode: testDecode}
			r := Run(env, tc.line)
			require.Equal(t, tc.err, r.Error, tc.line)
			assert.Equal(t, tc.out, r.Output, tc.line)
		})
	}
}
