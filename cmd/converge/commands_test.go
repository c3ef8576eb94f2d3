package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/session"
	"converge/core/simtest"
	"converge/scenarios"
)

// writeFile writes a scenario into a temp dir and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

var goodScenario = `name: small
seed: 3
duration: 20s
objects:
` + simtest.DeploymentYAML("web", 2, "nginx:1.27") + `steps:
- at: 10s
  kubectl: scale deployment/web --replicas=3
- at: 19s
  expect: deployment/web .status.availableReplicas == 3
`

func TestRunTextTimeline(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", goodScenario)
	code, out, errOut := runCLI(t, "run", f)
	require.Equal(t, exitOK, code, errOut)
	for _, want := range []string{
		"Scenario small\n",
		"    0s  $ apply deployment/web\n          deployment.apps/web created\n",
		"Normal   ScalingReplicaSet   deployment/web",
		"Scaled up replica set web-",
		"   10s  $ kubectl scale deployment/web --replicas=3\n          deployment.apps/web scaled\n",
		"   19s  ✓ expect deployment/web .status.availableReplicas == 3\n",
		"deployment/web: 3 desired, 3 updated, 3 ready, 3 available, revision 1",
		"expectations: 1 passed, 0 failed",
	} {
		assert.Contains(t, out, want)
	}
}

func TestRunJSONLIsOneLinePerSecondAndStable(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", goodScenario)
	code, a, errOut := runCLI(t, "run", f, "--output", "jsonl")
	require.Equal(t, exitOK, code, errOut)
	_, b, _ := runCLI(t, "run", "--output=jsonl", f)
	assert.Equal(t, a, b, "byte-identical run to run")
	lines := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	require.Len(t, lines, 21, "t=0..20")
	for i, l := range lines {
		var v struct {
			T           int64             `json:"t"`
			Deployments []json.RawMessage `json:"deployments"`
			Events      []json.RawMessage `json:"events"`
			Steps       []json.RawMessage `json:"steps"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &v), "line %d", i+1)
		assert.EqualValues(t, i, v.T)
		assert.NotNil(t, v.Events)
		assert.NotNil(t, v.Steps)
	}
	assert.Contains(t, lines[10], `"action":"kubectl scale deployment/web --replicas=3","ok":true,"output":"deployment.apps/web scaled","error":""`)
}

func TestRunUntil(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", goodScenario)
	code, out, _ := runCLI(t, "run", f, "--output", "jsonl", "--until", "5s")
	require.Equal(t, exitOK, code)
	assert.Equal(t, 6, strings.Count(out, "\n"))
	code, _, errOut := runCLI(t, "run", f, "--until", "1.5s")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "--until")
}

func TestRunExpectFailureExits1(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "fail.yaml", strings.Replace(goodScenario, "availableReplicas == 3", "availableReplicas == 7", 1))
	code, _, errOut := runCLI(t, "run", f)
	assert.Equal(t, exitFailed, code)
	assert.Equal(t, f+": at 19s: expect deployment/web .status.availableReplicas == 7: got 3\n", errOut)
}

func TestBadInputExits2WithPositions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, content, want string
	}{
		{"not yaml", "name: [x\n", ":1:"},
		{"unknown field", "name: x\nduraton: 5s\n", `:2:1: unknown field "duraton"`},
		{"bad duration", "name: x\nduration: forever\n", ":2:11:"},
		{"invalid object", `name: x
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: api-v2}}
      spec: {containers: [{name: web, image: nginx}]}
`, ":9:18: The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api-v2\"}: `selector` does not match template `labels`"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := writeFile(t, "bad.yaml", tc.content)
			for _, cmd := range [][]string{{"run", f}, {"validate", f}, {"share", f}} {
				code, out, errOut := runCLI(t, cmd...)
				assert.Equal(t, exitBadInput, code, "%v", cmd)
				assert.Empty(t, out, "%v", cmd)
				assert.Contains(t, errOut, f+tc.want, "%v", cmd)
				assert.NotContains(t, errOut, "goroutine", "never a stack trace")
			}
		})
	}
}

func TestMissingFileExits2(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, "run", "no/such/file.yaml")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "no/such/file.yaml")
}

func TestValidateReportsEveryFile(t *testing.T) {
	t.Parallel()
	good := writeFile(t, "good.yaml", goodScenario)
	bad := writeFile(t, "bad.yaml", "name: x\nsteps:\n- at: 1s\n")
	code, out, errOut := runCLI(t, "validate", good, bad)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, out, good+": ok: scenario small")
	assert.Contains(t, errOut, bad+":3:3:")
	code, _, _ = runCLI(t, "validate", good)
	assert.Equal(t, exitOK, code)
}

func TestValidatePlainManifest(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "web.yaml", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
`)
	code, out, errOut := runCLI(t, "validate", f)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "2 objects")
	code, out, _ = runCLI(t, "run", f, "--until", "10s")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "service/web created")
}

func TestShareAndUnshareRoundTrip(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", goodScenario)
	code, link, errOut := runCLI(t, "share", f, "--base", "https://example.com/converge/")
	require.Equal(t, exitOK, code, errOut)
	require.True(t, strings.HasPrefix(link, "https://example.com/converge/#s="), link)
	code, yaml, errOut := runCLI(t, "unshare", strings.TrimSpace(link))
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, goodScenario, yaml)
	payload := strings.TrimPrefix(strings.TrimSpace(link), "https://example.com/converge/#s=")
	_, yaml2, _ := runCLI(t, "unshare", payload)
	assert.Equal(t, goodScenario, yaml2, "a bare payload works too")

	code, _, errOut = runCLI(t, "unshare", "https://example.com/#s=!!!not-base64")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "share link is corrupt")
	code, _, _ = runCLI(t, "share", f, "--base", "not a url")
	assert.Equal(t, exitBadInput, code)
}

func TestKubectlAgainstScenarioState(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", goodScenario)
	code, out, errOut := runCLI(t, "kubectl", "--scenario", f, "--at", "15s", "get", "deployments")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           15s\n", out)

	code, out, _ = runCLI(t, "kubectl", "get", "nodes")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "node-3")

	code, _, errOut = runCLI(t, "kubectl", "--scenario", f, "get", "deployment", "nope")
	assert.Equal(t, exitBadInput, code)
	assert.Equal(t, "Error from server (NotFound): deployments.apps \"nope\" not found\n", errOut)

	code, _, errOut = runCLI(t, "kubectl", "frobnicate")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, `error: unknown command "frobnicate" for "kubectl"`)
}

func TestKubectlLineQuoting(t *testing.T) {
	t.Parallel()
	assert.Equal(t, `annotate deploy/web 'a=b c' x`, kubectlLine([]string{"annotate", "deploy/web", "a=b c", "x"}))
	assert.Equal(t, `''`, kubectlLine([]string{""}))
	assert.Equal(t, `'it'\''s'`, kubectlLine([]string{"it's"}))
}

// TestUnshareSaysWhatThePageSays: a link the page cannot open is refused
// with the page's own words (session.ShareOfLink decides for both).
func TestUnshareSaysWhatThePageSays(t *testing.T) {
	t.Parallel()
	lib := session.NewLibrary(scenarios.FS)
	for _, link := range []string{"http://127.0.0.1:8080/#s=AAAA%zz", "http://127.0.0.1:8080/#s=@@@@", "http://127.0.0.1:8080/#s="} {
		code, out, errOut := runCLI(t, "unshare", link)
		assert.Equal(t, exitBadInput, code, link)
		assert.Empty(t, out, link)
		msg, ok := strings.CutPrefix(strings.TrimSuffix(errOut, "\n"), "converge unshare: ")
		require.True(t, ok, errOut)
		page := session.DecideAddress(session.ParseAddress(link), lib).Error
		assert.Equal(t, "The shared scenario cannot be opened: "+msg+". Showing the built-in scenario desired-state instead.", page, link)
	}
	code, _, errOut := runCLI(t, "unshare", "http://x/#t=3")
	assert.Equal(t, exitBadInput, code)
	assert.Equal(t, "converge unshare: the link has no s= (a share link is PAGE#s=SHARE)\n", errOut)
}

// runCLIWithStdin is runCLI with stdin as standard input.
func runCLIWithStdin(t *testing.T, stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), &env{stdin: stdin, stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

func TestValidateChecksStepsAsTheyWillRun(t *testing.T) {
	t.Parallel()
	// goodScenario's first step is at line 15, its action at line 16.
	selector := `  apply:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 2
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec: {containers: [{name: web, image: nginx:1.27}]}
`
	tests := []struct {
		name, action, want string
	}{
		{"an apply step changes the selector", selector,
			`:22:7: The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"api"}}: field is immutable`},
		{"an unknown command", "  kubectl: scael deployment/web\n",
			`:16:12: steps[0].kubectl: unknown command "scael" for "kubectl"; did you mean "scale"?`},
		{"a bad flag value", "  kubectl: scale deployment/web --replicas=abc\n",
			`:16:44: steps[0].kubectl: invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax`},
		{"an unknown flag", "  kubectl: scale deployment/web --replicas=0 --selector-typo\n",
			":16:46: steps[0].kubectl: unknown flag: --selector-typo"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			step := "- at: 10s\n  kubectl: scale deployment/web --replicas=3\n"
			require.Contains(t, goodScenario, step)
			f := writeFile(t, "bad.yaml", strings.Replace(goodScenario, step, "- at: 10s\n"+tc.action, 1))
			for _, cmd := range [][]string{{"validate", f}, {"run", f}, {"kubectl", "--scenario", f, "get", "pods"}} {
				code, out, errOut := runCLI(t, cmd...)
				assert.Equal(t, exitBadInput, code, "%v", cmd)
				assert.Empty(t, out, "%v", cmd)
				assert.Equal(t, f+tc.want+"\n", errOut, "%v", cmd)
			}

			meant := writeFile(t, "meant.yaml", strings.Replace(goodScenario, step, "- at: 10s\n"+tc.action+"  expectError: e\n", 1))
			code, out, errOut := runCLI(t, "validate", meant)
			assert.Equal(t, exitOK, code, errOut)
			assert.Contains(t, out, meant+": ok: scenario small")
		})
	}
}

// endless is an input that never ends, counting what was read of it.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '#'
	}
	e.read += len(p)
	return len(p), nil
}

func TestInputsLargerThanTheLimitAreRefused(t *testing.T) {
	t.Parallel()
	const msg = "the file is too large: a scenario may have at most 4 MiB"
	big := "name: big\n" + strings.Repeat("#", 5<<20) + "\n"
	f := writeFile(t, "big.yaml", big)
	tests := []struct {
		name  string
		stdin bool
		args  []string
		want  string
	}{
		{"validate FILE", false, []string{"validate", f}, f + ": " + msg + "\n"},
		{"run FILE", false, []string{"run", f}, "converge run: " + f + ": " + msg + "\n"},
		{"share FILE", false, []string{"share", f}, "converge share: " + f + ": " + msg + "\n"},
		{"kubectl --scenario FILE", false, []string{"kubectl", "--scenario", f, "get", "pods"}, "converge kubectl: " + f + ": " + msg + "\n"},
		{"validate -", true, []string{"validate", "-"}, "<stdin>: " + msg + "\n"},
		{"run -", true, []string{"run", "-"}, "converge run: <stdin>: " + msg + "\n"},
		{"kubectl apply -f -", true, []string{"kubectl", "apply", "-f", "-"}, "error: read STDIN: " + msg + "\n"},
		{"kubectl apply -f FILE", false, []string{"kubectl", "apply", "-f", f}, "error: read " + f + ": " + msg + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdin := &endless{}
			code, out, errOut := runCLIWithStdin(t, stdin, tc.args...)
			assert.Equal(t, exitBadInput, code)
			assert.Empty(t, out)
			assert.Equal(t, tc.want, errOut)
			if tc.stdin {
				assert.Equal(t, 4<<20+1, stdin.read, "standard input is read up to the limit, not to its end")
			} else {
				assert.Zero(t, stdin.read, "standard input is not read")
			}
		})
	}
}

func TestKubectlApplyReadsFilesAndStdin(t *testing.T) {
	t.Parallel()
	cm := func(name string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: {k: v}\n"
	}
	scn := writeFile(t, "small.yaml", goodScenario)
	abs := writeFile(t, "abs.yaml", cm("abs"))
	wd, err := os.Getwd()
	require.NoError(t, err)
	rel, err := filepath.Rel(wd, writeFile(t, "rel.yaml", cm("rel")))
	require.NoError(t, err)
	tests := []struct {
		name     string
		stdin    string
		args     []string
		out, err string
	}{
		{"an absolute path", "", []string{"apply", "-f", abs}, "configmap/abs created\n", ""},
		{"a relative path", "", []string{"apply", "-f", rel}, "configmap/rel created\n", ""},
		{"standard input", cm("in"), []string{"apply", "-f", "-"}, "configmap/in created\n", ""},
		{"a scenario's state", cm("in"), []string{"--scenario", scn, "--at", "5s", "apply", "-f", "-", "-o", "name"}, "configmap/in\n", ""},
		{"a missing file", "", []string{"apply", "-f", "no/such.yaml"}, "", "error: the path \"no/such.yaml\" does not exist\n"},
		{"empty standard input", "", []string{"apply", "-f", "-"}, "", "error: no objects passed to apply\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLIWithStdin(t, strings.NewReader(tc.stdin), append([]string{"kubectl"}, tc.args...)...)
			assert.Equal(t, tc.out, out)
			assert.Equal(t, tc.err, errOut)
			if tc.err == "" {
				assert.Equal(t, exitOK, code)
			} else {
				assert.Equal(t, exitBadInput, code)
			}
		})
	}
}

func TestRunUntilZeroIsTheInitialStateAlone(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "small.yaml", goodScenario)
	for _, until := range []string{"0s", "0"} {
		code, out, errOut := runCLI(t, "run", f, "--output", "jsonl", "--until", until)
		require.Equal(t, exitOK, code, errOut)
		require.Equal(t, 1, strings.Count(out, "\n"), out)
		assert.True(t, strings.HasPrefix(out, `{"t":0,`), out)
	}
	code, out, _ := runCLI(t, "run", f, "--output", "jsonl")
	require.Equal(t, exitOK, code)
	assert.Equal(t, 21, strings.Count(out, "\n"), "without --until: the scenario's 20s")
	code, _, errOut := runCLI(t, "run", f, "--until=")
	assert.Equal(t, exitBadInput, code, "an empty --until is not the scenario's duration")
	assert.Contains(t, errOut, "--until")
}
