package export

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest/simrun"
)

// fakeKubectl is a kubectl for the replay's tests: it logs each call (and
// what an apply reads from its stdin) to $FAKE_LOG, and answers from the
// rules in $FAKE_RULES, one a line, NEEDLE<TAB>EXIT<TAB>OUTPUT: the first
// rule whose NEEDLE is a substring of its arguments gives its exit status and
// output (\n in OUTPUT is a line break); the OUTPUT @block makes it block
// until it is killed (150 s at most, should a test fail), its PID logged
// ("blocked PID"). Without a rule it prints nothing and exits 0, but `get
// namespace` exits 1 (no such namespace yet).
const fakeKubectl = `#!/usr/bin/env bash
args="$*"
printf 'kubectl %s\n' "$args" >> "$FAKE_LOG"
if [[ $args == *" apply -f -"* ]]; then sed 's/^/  | /' >> "$FAKE_LOG"; fi
while IFS=$'\t' read -r needle code output; do
  if [[ -n $needle && $args == *"$needle"* ]]; then
    if [[ $output == @block ]]; then
      echo "blocked $$" >> "$FAKE_LOG"
      exec timeout 150 tail -f /dev/null
    fi
    if [[ -n $output ]]; then printf '%b\n' "$output"; fi
    exit "$code"
  fi
done < "$FAKE_RULES"
if [[ $args == "get namespace "* ]]; then exit 1; fi
exit 0
`

// fakeSleep logs how long the replay waits, without waiting; with
// $FAKE_SLEEP_UNTIL, a glob DIR/FILE, once DIR exists it first waits (up
// to a minute) for a file that matches it: a signal, not a time. With
// $FAKE_SLEEP_SETTLE, a glob of the replay's folder of background steps, it
// first waits (up to a minute) until each step started there (ID.out) has
// ended (ID.rc).
const fakeSleep = `#!/usr/bin/env bash
printf 'sleep %s\n' "$1" >> "$FAKE_LOG"
if [[ -n ${FAKE_SLEEP_UNTIL:-} ]] && compgen -G "${FAKE_SLEEP_UNTIL%/*}" >/dev/null; then
  for (( i = 0; i < 6000; i++ )); do
    if compgen -G "$FAKE_SLEEP_UNTIL" >/dev/null; then break; fi
    command -p sleep 0.01
  done
fi
if [[ -n ${FAKE_SLEEP_SETTLE:-} ]]; then
  for (( i = 0; i < 6000; i++ )); do
    settled=1
    for out in $FAKE_SLEEP_SETTLE/*.out; do
      if [[ -e $out && ! -e ${out%.out}.rc ]]; then settled=; fi
    done
    if [[ -n $settled ]]; then break; fi
    command -p sleep 0.01
  done
fi
`

// replay runs script with the fake kubectl and sleep and the given rules,
// and CONVERGE_YES=1, and returns its exit status, output, error output and
// the calls' log.
func replay(t *testing.T, script []byte, rules []string) (code int, stdout, stderr, log string) {
	t.Helper()
	return replayEnv(t, script, rules, []string{"CONVERGE_YES=1"})
}

// fakeBin is a folder with the fake kubectl and sleep.
func fakeBin(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	require.NoError(t, os.Mkdir(bin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "kubectl"), []byte(fakeKubectl), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "sleep"), []byte(fakeSleep), 0o755))
	return bin
}

// replayEnv is replay with env added to the script's environment (and no
// CONVERGE_YES unless env has it), its standard input empty (no terminal),
// in a folder of its own which must stay empty: a file there means a word
// of the script was expanded by the shell.
func replayEnv(t *testing.T, script []byte, rules, env []string) (code int, stdout, stderr, log string) {
	t.Helper()
	bash := bashPath(t)
	dir := t.TempDir()
	bin := fakeBin(t)
	work := filepath.Join(dir, "work")
	require.NoError(t, os.Mkdir(work, 0o755))
	file := filepath.Join(dir, "replay.sh")
	require.NoError(t, os.WriteFile(file, script, 0o755))
	rulesFile := filepath.Join(dir, "rules")
	require.NoError(t, os.WriteFile(rulesFile, []byte(strings.Join(rules, "\n")+"\n"), 0o644))
	logFile := filepath.Join(dir, "log")
	// A bound, not a timing: a replay with the fake sleep ends in well
	// under a second, and one that hangs fails here instead of at go
	// test's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, file)
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "FAKE_LOG="+logFile, "FAKE_RULES="+rulesFile, "NAMESPACE=replay-test", "CONVERGE_YES=", "CONVERGE_NODE_STEPS=")
	cmd.Env = append(cmd.Env, env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	left, err := os.ReadDir(work)
	require.NoError(t, err)
	assert.Empty(t, left, "the script made files: a word was expanded")
	data, _ := os.ReadFile(logFile)
	return code, out.String(), errOut.String(), string(data)
}

// basic-loop replayed on a cluster that does what the simulation did: the
// objects are applied in the namespace, each step runs at its second (the
// waits add up to the step's at, counted from the start), and every expect
// holds.
func TestKubectlReplayOfBasicLoop(t *testing.T) {
	t.Parallel()
	script, err := Kubectl(simrun.Builtin(t, "basic-loop"), KubectlOptions{})
	require.NoError(t, err)
	jp := func(target, path, value string) string {
		return "get " + target + " -o jsonpath={" + path + "}\t0\t" + value
	}
	rules := []string{
		"scale deployment/web --replicas=5\t0\tdeployment.apps/web scaled",
		jp("deployment/web", ".spec.replicas", "5"),
		jp("deployment/web", ".status.updatedReplicas", "5"),
		jp("deployment/web", ".status.replicas", "2"),
	}
	// availableReplicas is 3, then 5, then 2: three answers in turn would
	// need state, so the fake says 5 and two expects miss.
	rules = append(rules, jp("deployment/web", ".status.availableReplicas", "5"))
	began := time.Now()
	code, stdout, stderr, log := replay(t, script, rules)
	took := time.Since(began)
	assert.Equal(t, 1, code, "two expects miss: exit 1\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	calls := strings.Split(strings.TrimSpace(log), "\n")
	require.GreaterOrEqual(t, len(calls), 5, log)
	assert.Equal(t, "kubectl config current-context", calls[0])
	assert.Equal(t, "kubectl config view --minify -o jsonpath={.clusters[0].name} at {.clusters[0].cluster.server}", calls[1])
	assert.Equal(t, "kubectl get namespace replay-test", calls[2])
	assert.Equal(t, "kubectl create namespace replay-test", calls[3])
	assert.Equal(t, "kubectl --namespace replay-test apply -f -", calls[4])
	assert.Contains(t, log, "  | kind: Deployment\n  | metadata:\n  |   labels:\n  |     app: web\n  |   name: web\n")
	var sleeps []int
	for _, c := range calls {
		if w, ok := strings.CutPrefix(c, "sleep "); ok {
			n, err := strconv.Atoi(w)
			require.NoError(t, err, c)
			sleeps = append(sleeps, n)
		}
	}
	// The fake sleep takes no time, so each wait is the step's at less the
	// seconds the script itself has taken so far (bash's SECONDS, which a
	// loaded machine advances): a count that never goes back and stays
	// within the run's own duration.
	ats := []int{15, 20, 40, 45, 46, 75}
	require.Len(t, sleeps, len(ats), log)
	elapsed := 0
	for i, at := range ats {
		e := at - sleeps[i]
		assert.GreaterOrEqual(t, e, elapsed, "the wait before the step at %ds counts from the start", at)
		assert.LessOrEqual(t, float64(e), math.Ceil(took.Seconds())+1, "the wait before the step at %ds (the run took %s)", at, took)
		elapsed = e
	}
	assert.Contains(t, log, "kubectl --namespace replay-test scale deployment/web --replicas=5\n")
	assert.Contains(t, log, "kubectl --namespace replay-test get deployment/web -o jsonpath={.status.availableReplicas}\n")
	assert.Contains(t, stdout, "   20s  $ kubectl scale deployment/web --replicas=5\n          deployment.apps/web scaled\n")
	assert.Contains(t, stdout, "   40s  ok   expect deployment/web .status.availableReplicas == 5\n")
	assert.Contains(t, stdout, "   15s  FAIL expect deployment/web .status.availableReplicas == 3: got 5\n")
	assert.Contains(t, stdout, "expectations: 4 passed, 2 failed\n")
	assert.Equal(t, "basic-loop.yaml: at 15s: expect deployment/web .status.availableReplicas == 3: got 5\n"+
		"basic-loop.yaml: at 75s: expect deployment/web .status.availableReplicas == 2: got 5\n", stderr)
}

// A failing step is printed and the replay goes on; expectError holds only
// for a failure with the text; a missing object is <missing>; a namespace
// that exists already stops the replay before anything runs (exit 2).
func TestKubectlReplayOfFailures(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, `name: failures
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: c}
  data: {k: v}
steps:
- {at: 1s, kubectl: delete configmap nope}
- {at: 2s, kubectl: rollout undo deployment/web --to-revision=9, expectError: "unable to find specified revision 9 in history"}
- {at: 3s, kubectl: rollout undo deployment/web --to-revision=8, expectError: "unable to find specified revision 8 in history"}
- {at: 4s, expect: deployment/web .status.replicas == 1}
- {at: 5s, expect: deployment/web .metadata.name == null}
- {at: 6s, expect: configmap/c .data.k == v}
`)
	script, err := Kubectl(scn, KubectlOptions{File: "f.yaml"})
	require.NoError(t, err)
	rules := []string{
		"delete configmap nope\t1\tError from server (NotFound): configmaps \"nope\" not found",
		"--to-revision=9\t1\terror: unable to find specified revision 9 in history",
		"--to-revision=8\t1\terror: something else",
		"get deployment/web\t1\tError from server (NotFound): deployments.apps \"web\" not found",
		"get configmap/c -o jsonpath={.data.k}\t0\tv",
	}
	code, stdout, stderr, _ := replay(t, script, rules)
	assert.Equal(t, 1, code, stdout)
	assert.Contains(t, stdout, "    1s  $ kubectl delete configmap nope\n          Error from server (NotFound): configmaps \"nope\" not found\n    1s    the step failed\n")
	assert.Contains(t, stdout, "    2s  ok   it failed as expected\n")
	assert.Contains(t, stdout, "    5s  ok   expect deployment/web .metadata.name == null\n")
	assert.Contains(t, stdout, "    6s  ok   expect configmap/c .data.k == v\n")
	assert.Contains(t, stdout, "expectations: 3 passed, 2 failed\n")
	assert.Equal(t, "f.yaml: at 3s: kubectl rollout undo deployment/web --to-revision=8: the error does not contain \"unable to find specified revision 8 in history\"\n"+
		"f.yaml: at 4s: expect deployment/web .status.replicas == 1: got <missing>\n", stderr)

	code, _, stderr, log := replay(t, script, []string{"get namespace replay-test\t0\tnamespace/replay-test"})
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "the namespace replay-test exists already")
	assert.NotContains(t, log, "apply")

	code, _, stderr, log = replay(t, script, []string{" apply -f -\t1\terror: the server could not find the requested resource"})
	assert.Equal(t, 2, code, "the objects refused: nothing to replay")
	assert.Contains(t, stderr, "the cluster refused the scenario's objects; the replay stops")
	assert.NotContains(t, log, "delete configmap nope", "no step ran")
}

// An expect in the replay holds exactly when it holds in the simulation,
// for what kubectl's JSONPath prints of the same object: numbers (and
// strings holding them) compare numerically, a missing field Kubernetes
// omits is its zero, a missing path is null. (JSONPath prints the number 3
// and the string "3" alike, so `.spec.replicas == "3"`, which never holds
// in the simulation, holds in the replay; docs/fidelity.md.)
func TestKubectlExpectAgreesWithTheSimulation(t *testing.T) {
	t.Parallel()
	obj := map[string]any{
		"metadata": map[string]any{"name": "web", "annotations": map[string]any{"deployment.kubernetes.io/revision": "2"}},
		"spec":     map[string]any{"replicas": json.Number("3"), "paused": true},
		"status": map[string]any{"replicas": json.Number("3"), "conditions": []any{
			map[string]any{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
		}},
	}
	exprs := []string{
		`deployment/web .spec.replicas == 3`, `deployment/web .spec.replicas != 3`, `deployment/web .spec.replicas < 4`,
		`deployment/web .spec.replicas <= 2`, `deployment/web .spec.replicas > 2.5`, `deployment/web .spec.replicas >= 3`,
		`deployment/web .spec.paused == true`, `deployment/web .spec.paused != false`,
		`deployment/web .status.availableReplicas == 0`, `deployment/web .status.availableReplicas > 0`,
		`deployment/web .status.readyReplicas != 1`,
		`deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] == 2`,
		`deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] >= "10"`,
		`deployment/web .metadata.annotations["nope"] == null`, `deployment/web .metadata.annotations["nope"] != "x"`,
		`deployment/web .metadata.annotations["nope"] == "x"`,
		`deployment/web .status.conditions[?(@.type=="Available")].status == True`,
		`deployment/web .status.conditions[?(@.type=="Available")].reason < N`,
		`deployment/web .status.conditions[?(@.type=="Progressing")].status == null`,
		`deployment/web .status.conditions[?(@.type=="Progressing")].reason == null`,
		`deployment/web .status.conditions[?(@.type=="Progressing")].reason != null`,
		`deployment/web .status.conditions[?(@.type=="Available")].message == null`,
		`deployment/web .status.conditions[?(@.type=="Available")].message == ""`,
		`deployment/web .status.conditions[0].type == Available`,
		`deployment/web .metadata.name == web`, `deployment/web .metadata.name != null`,
	}
	bash := bashPath(t)
	for _, src := range exprs {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			e, err := scenario.ParseExpect(src)
			require.NoError(t, err)
			want, _, err := e.Eval(obj)
			require.NoError(t, err)
			printed := jsonpathPrint(e.Path, obj)
			parent, parentPrinted := "", ""
			if len(e.Path) > 1 {
				parent, err = JSONPath(e.Path[:len(e.Path)-1])
				require.NoError(t, err)
				parentPrinted = jsonpathPrint(e.Path[:len(e.Path)-1], obj)
			}
			g := &script{scn: &scenario.Scenario{}}
			g.expectStep(e)
			line := strings.TrimSpace(g.b.String())
			prog := helpers + pinHelpers + "\nnamespace=x\nexpect_wait=0\nscenario_file=x.yaml\n" +
				"kubectl() { if [[ ${*: -1} == " + shQuote("jsonpath="+parent) + " ]]; then printf '%s' " + shQuote(parentPrinted) +
				"; else printf '%s' " + shQuote(printed) + "; fi; }\n" + line + "\necho \"$passed $failed\"\n"
			out, err := exec.Command(bash, "-c", "set -euo pipefail\n"+prog).CombinedOutput()
			require.NoError(t, err, "%s", out)
			result := map[bool]string{true: "1 0", false: "0 1"}[want]
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			assert.Equal(t, result, lines[len(lines)-1], "the simulation says %v for %q (kubectl prints %q)\n%s", want, src, printed, out)
		})
	}
}

// jsonpathPrint is what kubectl get -o jsonpath prints for a path on obj:
// a string as is, other scalars as JSON, nothing for a missing path.
func jsonpathPrint(p scenario.Path, obj any) string {
	cur := obj
	for _, s := range p {
		switch s.Kind {
		case scenario.SegField:
			m, _ := cur.(map[string]any)
			cur = m[s.Key]
		case scenario.SegIndex:
			l, _ := cur.([]any)
			if s.Index >= len(l) {
				return ""
			}
			cur = l[s.Index]
		case scenario.SegFilter:
			l, _ := cur.([]any)
			var found any
			for _, el := range l {
				if m, ok := el.(map[string]any); ok && m[s.Key] == s.Value {
					found = el
					break
				}
			}
			cur = found
		}
		if cur == nil {
			return ""
		}
	}
	switch v := cur.(type) {
	case string:
		return v
	case json.Number:
		return string(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	b, _ := json.Marshal(cur)
	return string(b)
}
