package scenario

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/manifest"
)

// summary is what two equal scenarios share (positions aside).
type summary struct {
	Name, Title, Description string
	Seed                     uint64
	Duration                 time.Duration
	Cluster                  Cluster
	Objects                  []string
	Steps                    []string
	// Variants are each variant's name, patches and objects (variants_test.go).
	Variants []string
}

func objectsJSON(docs []manifest.Doc) []string {
	var out []string
	for _, d := range docs {
		b, _ := json.Marshal(d.Object)
		out = append(out, string(b))
	}
	return out
}

func summarize(s *Scenario) summary {
	sum := summary{Name: s.Name, Title: s.Title, Description: s.Description, Seed: s.Seed, Duration: s.Duration,
		Cluster: s.Cluster, Objects: objectsJSON(s.Objects)}
	for _, st := range s.Steps {
		b, _ := json.Marshal(struct {
			At          time.Duration
			Action      string
			Apply       []string
			ExpectError string
		}{st.At, st.Action(), objectsJSON(st.Apply), st.ExpectError})
		sum.Steps = append(sum.Steps, string(b))
	}
	sum.Variants = variantsSummary(s)
	return sum
}

// assertRoundTrip checks that Parse(Marshal(s)) gives s back.
func assertRoundTrip(t *testing.T, s *Scenario) []byte {
	t.Helper()
	out, err := s.Marshal()
	require.NoError(t, err)
	back, probs := Parse(out, "marshalled.yaml")
	require.False(t, probs.HasErrors(), "%v\n%s", probs, out)
	assert.Equal(t, summarize(s), summarize(back))
	return out
}

func TestAppendStepIsWrittenIntoTheFile(t *testing.T) {
	t.Parallel()
	in := `# The scenario.
name: append   # its name
steps:
# first
- at: 10s
  kubectl: get pods
- at: 30s
  kubectl: get pods -o wide
`
	s := mustParse(t, in)
	require.NoError(t, s.AppendStep(Step{At: 10 * time.Second, Kubectl: "scale deployment/web --replicas=2"}))
	require.NoError(t, s.AppendStep(Step{At: 60 * time.Second, Fault: &Fault{Type: FaultNodeDown, Target: "node-3"}}))
	e, err := ParseExpect("deploy/web .status.replicas >= 2")
	require.NoError(t, err)
	require.NoError(t, s.AppendStep(Step{At: 0, Expect: e}))
	assert.Equal(t, 120*time.Second, s.Duration, "60s after the last step")

	out := assertRoundTrip(t, s)
	assert.Equal(t, `# The scenario.
name: append # its name
steps:
- at: 0s
  expect: deployment/web .status.replicas >= 2
# first
- at: 10s
  kubectl: get pods
- at: 10s
  kubectl: scale deployment/web --replicas=2
- at: 30s
  kubectl: get pods -o wide
- at: 1m0s
  fault: node-down node-3
`, string(out))
	var got []string
	for _, st := range s.Steps {
		got = append(got, st.At.String()+" "+st.Action())
	}
	assert.Equal(t, []string{"0s expect deployment/web .status.replicas >= 2", "10s kubectl get pods",
		"10s kubectl scale deployment/web --replicas=2", "30s kubectl get pods -o wide", "1m0s fault node-down node-3"}, got)
}

func TestAppendStepWithoutSteps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"no steps key", "name: a\n", "name: a\nsteps:\n- at: 5s\n  kubectl: get pods\n  expectError: not found\n"},
		{"steps: null", "name: a\nsteps:\n", "name: a\nsteps:\n- at: 5s\n  kubectl: get pods\n  expectError: not found\n"},
		{"an alias", "name: a\nx: &s []\nsteps: *s\n", "name: a\nx: &s []\nsteps:\n- at: 5s\n  kubectl: get pods\n  expectError: not found\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.name == "an alias" {
				// x is not a scenario field; this case only checks the tree surgery.
				s := &Scenario{Name: "a", Cluster: DefaultCluster()}
				nodes, _ := manifest.ParseDocuments([]byte(tc.in), "")
				s.src = nodes[0]
				require.NoError(t, s.AppendStep(Step{At: 5 * time.Second, Kubectl: "get pods", ExpectError: "not found"}))
				out, err := s.Marshal()
				require.NoError(t, err)
				assert.Equal(t, tc.want, string(out))
				return
			}
			s := mustParse(t, tc.in)
			require.NoError(t, s.AppendStep(Step{At: 5 * time.Second, Kubectl: "get pods", ExpectError: "not found"}))
			out := assertRoundTrip(t, s)
			assert.Equal(t, tc.want, string(out))
		})
	}
}

func TestAppendStepRefusesInvalidSteps(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "name: a\n")
	e, err := ParseExpect("pod/x .status.phase == Running")
	require.NoError(t, err)
	tests := []struct {
		name string
		step Step
		want string
	}{
		{"no action", Step{At: time.Second}, "append step: a step needs exactly one of kubectl, apply, fault, expect, commit, load, note"},
		{"two actions", Step{Kubectl: "get pods", Expect: e}, "append step: a step needs exactly one of kubectl, apply, fault, expect, commit, load, note"},
		{"a fraction of a second", Step{At: 1500 * time.Millisecond, Kubectl: "get pods"}, "append step: at 1.5s: must be a whole number of seconds between 0s and 24h"},
		{"negative", Step{At: -time.Second, Kubectl: "get pods"}, "append step: at -1s: must be a whole number of seconds between 0s and 24h"},
		{"beyond 24h", Step{At: 25 * time.Hour, Kubectl: "get pods"}, "append step: at 25h0m0s: must be a whole number of seconds between 0s and 24h"},
		{"two lines", Step{Kubectl: "get\npods"}, "append step: kubectl: must be one line"},
		{"expectError on an expect", Step{Expect: e, ExpectError: "x"}, "append step: expectError: only kubectl and apply steps may expect an error"},
		{"an unknown node", Step{Fault: &Fault{Type: FaultNodeUp, Target: "node-9"}}, `append step: fault node-up node-9: unknown node "node-9"`},
		{"a bad fault", Step{Fault: &Fault{Type: "melt", Target: "x"}}, `append step: fault melt x: column 1: unknown fault "melt"; use node-down NODE, node-up NODE, crash pod/NAME, crash deployment/NAME, crash -l SELECTOR [--count=N] or delete pod -l SELECTOR [--count=N]`},
		{"a bad expect", Step{Expect: &Expect{Kind: "Pod", Name: "x", Op: "~"}}, `append step: expect pod/x  ~ null: column 8: a path starts with '.', e.g. .status.availableReplicas`},
		{"an apply without object", Step{Apply: []manifest.Doc{{}}}, "append step: apply: no object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.EqualError(t, s.AppendStep(tc.step), tc.want)
		})
	}
	assert.Empty(t, s.Steps)
}

func TestAppendStepAfterAnExplicitDurationExtendsIt(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "name: a\nduration: 30s\n")
	require.NoError(t, s.AppendStep(Step{At: 10 * time.Second, Kubectl: "get pods"}))
	assert.Equal(t, 30*time.Second, s.Duration)
	require.NoError(t, s.AppendStep(Step{At: 40 * time.Second, Kubectl: "get pods"}))
	assert.Equal(t, 100*time.Second, s.Duration)
	out := assertRoundTrip(t, s)
	assert.Contains(t, string(out), "duration: 1m40s\n")
}

func TestAppendStepApply(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "name: a\n")
	docs, probs := manifest.Decode([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: \"1\"}\n"), "-")
	require.Empty(t, probs)
	require.NoError(t, s.AppendStep(Step{At: time.Second, Apply: docs}))
	fromCode := docs[0]
	fromCode.Node = nil
	require.NoError(t, s.AppendStep(Step{At: 2 * time.Second, Apply: []manifest.Doc{fromCode, fromCode}}))
	out := assertRoundTrip(t, s)
	assert.Equal(t, `name: a
steps:
- at: 1s
  apply:
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: c}
    data: {k: "1"}
- at: 2s
  apply:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: c
    data:
      k: "1"
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: c
    data:
      k: "1"
`, string(out))
}

func TestMarshalAPlainManifestFileWrapsIt(t *testing.T) {
	t.Parallel()
	in := "# web\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n"
	s, probs := Parse([]byte(in), "two.yaml")
	require.Empty(t, probs)
	require.NoError(t, s.AppendStep(Step{At: time.Second, Kubectl: "get cm"}))
	out := assertRoundTrip(t, s)
	assert.Equal(t, `name: two
objects:
# web
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: b}
steps:
- at: 1s
  kubectl: get cm
`, string(out))
}

func TestMarshalAScenarioBuiltInCode(t *testing.T) {
	t.Parallel()
	docs, probs := manifest.Decode([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), "-")
	require.Empty(t, probs)
	docs[0].Node = nil
	e, err := ParseExpect(`cm/c .data["a.b"] == "1"`)
	require.NoError(t, err)
	s := &Scenario{
		Name: "built", Title: "Built: in code", Description: "Two\nlines.\n", Seed: 7, Duration: 10 * time.Minute,
		Cluster: Cluster{
			Nodes:   []NodeSpec{{Name: "a", CPU: "500m", Memory: "1Gi", Pods: 10}},
			Timings: Timings{NodeMonitorGracePeriod: 40 * time.Second, NodeMonitorPeriod: DefaultNodeMonitorPeriod, PodEvictionTimeout: time.Minute, EventTTL: DefaultEventTTL},
			Images: map[string]ImageSpec{
				"z:1": {PullSeconds: 1, StartSeconds: 1},
				"a:1": {PullSeconds: 3, StartSeconds: 2, ReadySeconds: 4, CrashAfterSeconds: 5, PullFail: true, NeverReady: true},
				"m:1": {PullSeconds: 2, StartSeconds: 1, ReadySeconds: 5, PullFailures: 2, UnreadyAfterSeconds: 60, ReadinessFlapSeconds: 10,
					LivenessFailAfterSeconds: 90, ShutdownSeconds: 20, ExitCode: 143},
			},
		},
		Objects: docs,
	}
	require.NoError(t, s.AppendStep(Step{At: 3 * time.Second, Expect: e}))
	require.NoError(t, s.AppendStep(Step{At: 3 * time.Second, Fault: &Fault{Type: FaultCrashPod, Target: "p"}}))
	out := assertRoundTrip(t, s)
	assert.Equal(t, `name: built
title: 'Built: in code'
description: |
  Two
  lines.
seed: 7
duration: 10m0s
cluster:
  nodes:
  - {name: a, cpu: 500m, memory: 1Gi, pods: 10}
  timings:
    nodeMonitorGracePeriod: 40s
    podEvictionTimeout: 1m0s
  images:
    a:1:
      pullSeconds: 3
      startSeconds: 2
      readySeconds: 4
      crashAfterSeconds: 5
      pull: fail
      neverReady: true
    m:1:
      pullSeconds: 2
      startSeconds: 1
      readySeconds: 5
      pullFailures: 2
      unreadyAfterSeconds: 60
      readinessFlapSeconds: 10
      livenessFailAfterSeconds: 90
      shutdownSeconds: 20
      exitCode: 143
    z:1:
      pullSeconds: 1
      startSeconds: 1
      readySeconds: 0
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
steps:
- at: 3s
  expect: configmap/c .data["a.b"] == "1"
- at: 3s
  fault: crash pod/p
`, string(out))

	minimal := &Scenario{Name: "m", Seed: DefaultSeed, Duration: Tail, Cluster: DefaultCluster()}
	out = assertRoundTrip(t, minimal)
	assert.Equal(t, "name: m\n", string(out))
}

func TestMarshalKeepsComments(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/ok/contract.yaml")
	require.NoError(t, err)
	s, probs := Parse(data, "contract.yaml")
	require.Empty(t, probs)
	out := assertRoundTrip(t, s)
	assert.True(t, strings.HasPrefix(string(out), "# The example of docs/scenarios.md.\nname: rolling-update # required\n"), "%s", out)
}
