package scenario

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/internal/matchtest"
)

func mustParse(t *testing.T, in string) *Scenario {
	t.Helper()
	s, probs := Parse([]byte(in), "s.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	require.NotNil(t, s)
	return s
}

func TestParseAppliesTheDefaults(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "name: minimal\n")
	assert.Equal(t, "minimal", s.Name)
	assert.Equal(t, uint64(1), s.Seed)
	assert.Equal(t, 60*time.Second, s.Duration, "60s when there are no steps")
	assert.Equal(t, DefaultCluster(), s.Cluster)
	assert.Equal(t, []string{"node-1", "node-2", "node-3"}, s.Cluster.NodeNames())
	assert.Equal(t, NodeSpec{Name: "node-2", CPU: "4", Memory: "8Gi", Pods: 110}, s.Cluster.Nodes[1])
	assert.Equal(t, Timings{NodeMonitorGracePeriod: 50 * time.Second, NodeMonitorPeriod: 5 * time.Second, PodEvictionTimeout: 300 * time.Second,
		EventTTL: time.Hour}, s.Cluster.Timings)
	assert.Equal(t, ImageSpec{PullSeconds: 2, StartSeconds: 1}, s.Cluster.Image("nginx:1.27"))
	assert.Empty(t, s.Objects)
	assert.Empty(t, s.Steps)
	assert.Empty(t, s.Notes)
}

func TestParseTheContractExample(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/ok/contract.yaml")
	require.NoError(t, err)
	s, probs := Parse(data, "contract.yaml")
	require.Empty(t, probs)
	assert.Equal(t, "rolling-update", s.Name)
	assert.Equal(t, "Rolling update, 25% surge", s.Title)
	assert.Equal(t, "What to watch for.\n", s.Description)
	assert.Equal(t, 5*time.Minute, s.Duration)
	assert.Equal(t, []NodeSpec{
		{Name: "node-1", CPU: "4", Memory: "8Gi", Pods: 110},
		{Name: "node-2", CPU: "2", Memory: "4Gi", Pods: 110},
	}, s.Cluster.Nodes)
	assert.Equal(t, []string{"myrepo/web:2.0"}, s.Cluster.ImageNames())
	assert.Equal(t, ImageSpec{PullSeconds: 2, StartSeconds: 1, CrashAfterSeconds: 10, PullFail: true, NeverReady: true},
		s.Cluster.Image("myrepo/web:2.0"))
	require.Len(t, s.Objects, 1)
	assert.Equal(t, "web", s.Objects[0].Object.GetObjectMeta().Name)

	var actions []string
	for _, st := range s.Steps {
		actions = append(actions, fmt.Sprintf("%s %s (line %d)", st.At, st.Action(), st.Line))
	}
	assert.Equal(t, []string{
		`10s expect deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] == 1 (line 47)`,
		`30s kubectl set image deployment/web web=myrepo/web:2.0 (line 36)`,
		`40s apply deployment/web (line 38)`,
		`45s kubectl scale deployment/web --replicas=0 --selector-typo (line 40)`,
		`50s fault node-down node-2 (line 43)`,
		`1m30s expect deployment/web .status.availableReplicas == 3 (line 45)`,
	}, actions)
	assert.Equal(t, "unknown flag", s.Steps[3].ExpectError)
	assert.Equal(t, &Fault{Type: FaultNodeDown, Target: "node-2"}, s.Steps[4].Fault)
	d := s.Steps[2].Apply[0].Object.(*api.Deployment)
	assert.Equal(t, int32(4), *d.Spec.Replicas)
}

func TestParseOrdersStepsByTimeThenFileOrder(t *testing.T) {
	t.Parallel()
	s := mustParse(t, `name: order
steps:
- {at: 20s, kubectl: get pods -l a}
- {at: 10s, kubectl: get pods -l b}
- {at: 20s, kubectl: get pods -l c}
- {at: 0s, kubectl: kubectl get pods -l d}
- {at: 10s, kubectl: get pods -l e}
`)
	var got []string
	for _, st := range s.Steps {
		got = append(got, st.Action())
	}
	assert.Equal(t, []string{"kubectl get pods -l d", "kubectl get pods -l b", "kubectl get pods -l e",
		"kubectl get pods -l a", "kubectl get pods -l c"}, got)
	assert.Equal(t, 80*time.Second, s.Duration, "60s after the last step")
}

func TestParseAPlainManifestFile(t *testing.T) {
	t.Parallel()
	in := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: b}, spec: {ports: [{port: 80}]}}\n- {apiVersion: v1, kind: Pod, metadata: {name: c}, spec: {containers: [{name: c, image: i}]}}\n"
	s, probs := Parse([]byte(in), "dir/My Manifests.yaml")
	require.Empty(t, probs)
	assert.Equal(t, "my-manifests", s.Name)
	assert.Equal(t, DefaultCluster(), s.Cluster)
	assert.Equal(t, 60*time.Second, s.Duration)
	require.Len(t, s.Objects, 3)
	assert.Equal(t, "c", s.Objects[2].Object.GetObjectMeta().Name)

	one := mustParse(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n")
	assert.Equal(t, "s", one.Name, "a single manifest is a scenario too")
}

func TestParseAcceptsKubectlGetOutputWithNotes(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/ok/kubectl-get.yaml")
	require.NoError(t, err)
	s, probs := Parse(data, "kubectl-get.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	assert.Equal(t, []string{
		`kubectl-get.yaml:7:7: note: dropped server-set field metadata.annotations["deployment.kubernetes.io/revision"]`,
		`kubectl-get.yaml:8:5: note: dropped server-set field metadata.creationTimestamp`,
		`kubectl-get.yaml:9:5: note: dropped server-set field metadata.generation`,
		`kubectl-get.yaml:12:5: note: dropped server-set field metadata.resourceVersion`,
		`kubectl-get.yaml:13:5: note: dropped server-set field metadata.uid`,
		`kubectl-get.yaml:44:3: note: dropped server-set field status`,
		`kubectl-get.yaml:53:5: note: dropped server-set field metadata.creationTimestamp`,
		`kubectl-get.yaml:55:5: note: dropped server-set field metadata.resourceVersion`,
		`kubectl-get.yaml:56:5: note: dropped server-set field metadata.uid`,
		`kubectl-get.yaml:73:3: note: dropped server-set field status`,
	}, problemStrings(s.Notes))
	require.Len(t, s.Objects, 2)
	assert.Equal(t, api.KindService, s.Objects[1].Object.GetTypeMeta().Kind)
	assert.Equal(t, "kubectl-get", s.Name)
}

func problemStrings(ps Problems) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

func TestParseNodeObjectsCountForFaults(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "name: n\nobjects:\n- {apiVersion: v1, kind: Node, metadata: {name: extra}}\nsteps:\n- {at: 1s, fault: node-down extra}\n- {at: 2s, fault: crash deploy/web}\n- {at: 3s, fault: crash po/web-1}\n")
	assert.Equal(t, "fault node-down extra", s.Steps[0].Action())
	assert.Equal(t, &Fault{Type: FaultCrashDeployment, Target: "web"}, s.Steps[1].Fault)
	assert.Equal(t, "fault crash pod/web-1", s.Steps[2].Action())
}

func TestParseEnforcesTheLimits(t *testing.T) {
	t.Parallel()
	var nodes strings.Builder
	nodes.WriteString("name: big\ncluster:\n  nodes:\n")
	for i := range 501 {
		fmt.Fprintf(&nodes, "  - {name: n-%d}\n", i)
	}
	deploy := func(name string, replicas int) string {
		return fmt.Sprintf("- {apiVersion: apps/v1, kind: Deployment, metadata: {name: %s}, spec: {replicas: %d, selector: {matchLabels: {app: %s}}, template: {metadata: {labels: {app: %s}}, spec: {containers: [{name: c, image: i}]}}}}\n", name, replicas, name, name)
	}
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"501 nodes", nodes.String(), []string{"s.yaml:3:3: cluster.nodes: too many nodes: 501 (the limit is 500)"}},
		{"10,001 replicas across the objects", "name: r\nobjects:\n" + deploy("a", 6000) + deploy("b", 4000) + "- {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}\n",
			[]string{"s.yaml:5:58: too many replicas: the objects ask for 10001 in total (the limit is 10000)"}},
		{"10,001 replicas in one apply", "name: r\nsteps:\n- at: 1s\n  apply:\n  " + deploy("a", 10001),
			[]string{"s.yaml:5:83: too many replicas: steps[0].apply asks for 10001 in total (the limit is 10000)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, probs := Parse([]byte(tc.in), "s.yaml")
			assert.Nil(t, s)
			assert.Equal(t, tc.want, problemStrings(probs))
		})
	}
	ok := mustParse(t, "name: r\nobjects:\n"+deploy("a", 6000)+deploy("b", 4000))
	assert.Len(t, ok.Objects, 2, "exactly 10,000 is allowed")
}

func TestParseOKFiles(t *testing.T) {
	t.Parallel()
	files, err := os.ReadDir("testdata/ok")
	require.NoError(t, err)
	for _, f := range files {
		t.Run(f.Name(), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile("testdata/ok/" + f.Name())
			require.NoError(t, err)
			s, probs := Parse(data, f.Name())
			require.False(t, probs.HasErrors(), "%v", probs)
			assertRoundTrip(t, s)
		})
	}
}

func TestErrorColumnsInsideQuotedStrings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, expect string
		col          int
	}{
		{"plain", `deploy/web .status.replicas =~ 3`, 39},
		{"plain after a wide character", `cm/é .status.x =~ 3`, 26},
		{"single quotes", `'deploy/web .status.replicas =~ 3'`, 40},
		{"single quotes with an escaped quote", `'cm/c .data["it''s"] =~ 3'`, 32},
		{"double quotes with escapes", `"cm/c .data[\"a\\\\b\"] =~ 3"`, 35},
		{"double quotes with a unicode escape", `"cm/c .data[\"\u00e9\"] =~ 3"`, 35},
		{"double quotes with a hex escape", `"cm/c .data[\"\x41\"] =~ 3"`, 33},
		{"a folded scalar falls back to the value", ">-\n    deploy/web .status.replicas =~ 3", 11},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := "name: q\nsteps:\n- at: 1s\n  expect: " + tc.expect + "\n"
			_, probs := Parse([]byte(in), "q.yaml")
			require.Len(t, probs, 1)
			assert.Equal(t, 4, probs[0].Line)
			assert.Equal(t, tc.col, probs[0].Col, probs[0].String())
			assert.Contains(t, probs[0].Message, `unknown operator "=~"`)
		})
	}
}

func TestApplyStepWithExpectErrorIsNotValidatedAtLoad(t *testing.T) {
	t.Parallel()
	src := `name: x
steps:
- at: 1s
  apply:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: api}
    spec:
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: other}}
        spec: {containers: [{name: api, image: a}]}
  expectError: does not match
- at: 2s
  apply:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: api2}
    spec:
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: other}}
        spec: {containers: [{name: api, image: a}]}
`
	_, probs := Parse([]byte(src), "x.yaml")
	require.Len(t, probs.Errors(), 1, "%v", probs)
	assert.Contains(t, probs.Errors()[0].String(), "x.yaml:22:20:")
	assert.Contains(t, probs.Errors()[0].String(), "`selector` does not match template `labels`")
}

// isDurationSyntax is the expression it replaces.
func TestDurationSyntaxIsTheExpression(t *testing.T) {
	t.Parallel()
	matchtest.Exhaustive(t, durationSyntaxExpr, isDurationSyntax, "1.-nsmhuµ", 5,
		"99999999h", "1h2m3.5s", "-.5ms", "1μs", "1µs", "1.s", ".s", "+", "", "1e3s", "1mss")
}

func FuzzDurationSyntax(f *testing.F) {
	for _, s := range []string{"1h", "-1.5m", "99999999999h", "1μs2ns"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { matchtest.Same(t, durationSyntaxExpr, isDurationSyntax, s) })
}
