package export

import (
	"errors"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
)

// pdb-drain's drain waits 7 s in the simulation (a PodDisruptionBudget
// refuses the second eviction, drain retries it every 5 s) while the later
// steps keep their seconds: the expect at 16 s sees the budget used up. The
// replay runs it in the background and checks it at 23 s, the second after
// the simulation's ended (22 s); `delete node node-3` at 40 s is a node
// step, run with CONVERGE_NODE_STEPS=1.
func TestKubectlDrainRunsInTheBackground(t *testing.T) {
	t.Parallel()
	script, err := Kubectl(simrun.Builtin(t, "pdb-drain"), KubectlOptions{})
	require.NoError(t, err)
	text := string(script)
	for _, want := range []string{
		"\nat 15\nnode_step 'drain node-1 --ignore-daemonsets' \"node:$NODE_1\" -- watch_start 3 'drain node-1 --ignore-daemonsets' '' drain \"$NODE_1\" --ignore-daemonsets=true\n\nat 16\n",
		"\nat 23\nwatch_end 3 22\n\nat 35\n",
		"\nat 40\nnode_step 'delete node node-3' \"gone:$NODE_3\" -- step 'delete node node-3' delete node \"$NODE_3\"\n",
		"\nwatches_end\n",
	} {
		assert.Contains(t, text, want)
	}
	assert.NotContains(t, text, "LEFT OUT: kubectl delete node")

	t.Run("a drain that never ends", func(t *testing.T) {
		t.Parallel()
		code, stdout, stderr, log := replayEnv(t, script, []string{
			"get node converge-worker\t0\t",
			"drain converge-worker \t0\t@block",
		}, []string{"CONVERGE_YES=1", "CONVERGE_NODE_STEPS=1"})
		assert.Equal(t, 1, code, "%s\n%s", stdout, stderr) // the fake's expects fail
		// The steps after it ran at their seconds, and it was reported and
		// stopped at the end.
		assert.Regexp(t, `(?s)   15s  \$ kubectl drain node-1 --ignore-daemonsets \(watching in the background\)\n`+
			`   16s  FAIL expect poddisruptionbudget/web .status.disruptionsAllowed == 0.*`+
			`   23s  NOTE kubectl drain node-1 --ignore-daemonsets \(from 15s\) is still running; the simulation's ended at 22s\n`+
			`.*   40s  \$ kubectl delete node node-3\n`+
			`.*  100s  FAIL expect poddisruptionbudget/web .status.disruptionsAllowed == 1: got <missing>\n`+
			`   15s  \$ kubectl drain node-1 --ignore-daemonsets \(watched\)\n`+
			`.*   15s    still running at the end: stopped\n`+
			`expectations: `, stdout)
		assert.Contains(t, stdout, "NOT restored: the replay deleted the node converge-worker3;")
		// Without --namespace: kubectl delete warns "deleting cluster-scoped
		// resources, not scoped to the provided namespace" with one.
		assert.Contains(t, log, "\nkubectl delete node converge-worker3\n")
		assert.Contains(t, log, "\nkubectl drain converge-worker --ignore-daemonsets=true\n")
		// Nothing is left running: the blocked kubectl was stopped before
		// the node was put back.
		m := regexp.MustCompile(`blocked (\d+)`).FindStringSubmatch(log)
		require.NotNil(t, m, log)
		pid, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		assert.True(t, errors.Is(syscall.Kill(pid, 0), syscall.ESRCH), "the drain (pid %d) still runs", pid)
		assert.Less(t, strings.Index(log, "blocked "), strings.LastIndex(log, "kubectl uncordon converge-worker\n"), log)
	})

	t.Run("a drain that ends", func(t *testing.T) {
		t.Parallel()
		tmp := t.TempDir()
		// The fake sleep waits for the drain to have ended (its status
		// written), so that the replay reaches 23 s after it.
		code, stdout, stderr, _ := replayEnv(t, script, []string{
			"get node converge-worker\t0\t",
			"drain converge-worker \t0\tnode/converge-worker cordoned\\nevicting pod replay-test/web-1\\nnode/converge-worker drained",
		}, []string{"CONVERGE_YES=1", "CONVERGE_NODE_STEPS=1", "TMPDIR=" + tmp, "FAKE_SLEEP_UNTIL=" + filepath.Join(tmp, "*", "3.rc")})
		assert.Equal(t, 1, code, "%s\n%s", stdout, stderr)
		// Its output is printed under 15 s, where the simulation's ends.
		assert.Regexp(t, `(?s)   22s  FAIL expect node/node-1 .spec.unschedulable == true: got <missing>\n`+
			`   15s  \$ kubectl drain node-1 --ignore-daemonsets \(watched\)\n`+
			`          node/converge-worker cordoned\n          evicting pod replay-test/web-1\n          node/converge-worker drained\n`+
			`   35s  FAIL expect deployment/web`, stdout)
		assert.NotContains(t, stdout, "still running")
		assert.NotContains(t, stdout, "the step failed")
	})

	t.Run("node steps off", func(t *testing.T) {
		t.Parallel()
		_, stdout, _, log := replay(t, script, nil)
		assert.Contains(t, stdout, "SKIP kubectl drain node-1 --ignore-daemonsets: a step on a node")
		assert.Contains(t, stdout, "SKIP kubectl delete node node-3: a step on a node")
		assert.NotContains(t, log, "drain")
		assert.NotContains(t, log, "delete node")
		assert.NotContains(t, stdout, "(watched)")
	})
}

// A drain that must fail (expectError) is checked when it ends, as
// step_fails does.
func TestKubectlDrainExpectError(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, `name: drain-fails
duration: 20s
objects:
- apiVersion: v1
  kind: Pod
  metadata: {name: solo}
  spec: {containers: [{name: c, image: nginx}], nodeName: node-1}
steps:
- {at: 2s, kubectl: drain node-1, expectError: "cannot delete Pods that declare no controller"}
- {at: 5s, kubectl: get pods}
`)
	script, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	text := string(script)
	assert.Contains(t, text, "-- watch_start 0 'drain node-1' 'cannot delete Pods that declare no controller' drain \"$NODE_1\"\n\nat 3\nwatch_end 0 2\n")
	for _, tt := range []struct {
		name, rule, want string
		code             int
	}{
		{"fails as expected", "1\terror: unable to drain node \"converge-worker\" due to error: cannot delete Pods that declare no controller (use --force to override): replay-test/solo", "    2s  ok   it failed as expected\n", 0},
		{"succeeds", "0\tnode/converge-worker drained", "", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			code, stdout, stderr, _ := replayEnv(t, script, []string{"get node converge-worker\t0\t", "drain converge-worker\t" + tt.rule},
				[]string{"CONVERGE_YES=1", "CONVERGE_NODE_STEPS=1", "TMPDIR=" + tmp, "FAKE_SLEEP_UNTIL=" + filepath.Join(tmp, "*", "0.rc")})
			assert.Equal(t, tt.code, code, "%s\n%s", stdout, stderr)
			assert.Contains(t, stdout, tt.want)
			if tt.code == 1 {
				assert.Contains(t, stderr, "drain-fails.yaml: at 2s: kubectl drain node-1: succeeded, but an error containing \"cannot delete Pods that declare no controller\" was expected")
			}
		})
	}
}

// `kubectl wait` is a waiting step in the simulation: it polls until its
// condition holds or its --timeout runs out, while the later steps keep
// their seconds. The replay runs it in the background too; on main it ran
// in the foreground, so a wait that kept waiting held up the steps after
// it (here `get pods` at 5 s) for its whole timeout.
func TestKubectlWaitRunsInTheBackground(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, `name: wait-bg
duration: 40s
cluster:
  images:
    app:never: {neverReady: true}
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 1
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: c
          image: app:never
          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}
steps:
- {at: 2s, kubectl: "wait --for=condition=Ready pods -l app=web --timeout=20s", expectError: "timed out waiting for the condition"}
- {at: 5s, kubectl: get pods}
- {at: 6s, kubectl: "wait --for=condition=Available deployment/web"}
`)
	script, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	text := string(script)
	for _, want := range []string{
		"\nat 2\nwatch_start 0 'wait --for=condition=Ready pods -l app=web --timeout=20s' 'timed out waiting for the condition' wait pods --for=condition=Ready --selector=app=web --timeout=20s\n\nat 5\nstep 'get pods' get pods\n",
		// The simulation's first wait times out in second 22, the second
		// (kubectl's default 30 s) in second 36.
		"\nat 23\nwatch_end 0 22\n",
		"\nat 37\nwatch_end 2 36\n",
	} {
		assert.Contains(t, text, want)
	}

	t.Run("the steps after a wait keep their seconds", func(t *testing.T) {
		t.Parallel()
		code, stdout, stderr, log := replay(t, script, []string{"wait \t0\t@block"})
		assert.Equal(t, 1, code, "%s\n%s", stdout, stderr) // the first wait never fails as expected
		assert.Regexp(t, `(?s)    2s  \$ kubectl wait --for=condition=Ready pods -l app=web --timeout=20s \(watching in the background\)\n`+
			`    5s  \$ kubectl get pods\n`+
			`.*   23s  NOTE kubectl wait --for=condition=Ready pods -l app=web --timeout=20s \(from 2s\) is still running; the simulation's ended at 22s\n`+
			`.*    2s  \$ kubectl wait --for=condition=Ready pods -l app=web --timeout=20s \(watched\)\n`, stdout)
		assert.Contains(t, stderr, "still running at the end, but an error containing \"timed out waiting for the condition\" was expected")
		assert.Contains(t, log, "\nkubectl --namespace replay-test wait pods --for=condition=Ready --selector=app=web --timeout=20s\n")
		// Both blocked waits were stopped.
		for _, m := range regexp.MustCompile(`blocked (\d+)`).FindAllStringSubmatch(log, -1) {
			pid, err := strconv.Atoi(m[1])
			require.NoError(t, err)
			assert.True(t, errors.Is(syscall.Kill(pid, 0), syscall.ESRCH), "the wait (pid %d) still runs", pid)
		}
	})

	t.Run("a wait that times out as expected", func(t *testing.T) {
		t.Parallel()
		tmp := t.TempDir()
		code, stdout, stderr, _ := replayEnv(t, script, []string{
			"--for=condition=Ready\t1\terror: timed out waiting for the condition on pods/web-abc",
			"--for=condition=Available\t0\tdeployment.apps/web condition met",
		}, []string{"CONVERGE_YES=1", "TMPDIR=" + tmp, "FAKE_SLEEP_SETTLE=" + filepath.Join(tmp, "*")})
		assert.Equal(t, 0, code, "%s\n%s", stdout, stderr)
		assert.Contains(t, stdout, "    2s  ok   it failed as expected\n")
		assert.Contains(t, stdout, "    6s  $ kubectl wait --for=condition=Available deployment/web (watched)\n          deployment.apps/web condition met\n")
		assert.NotContains(t, stdout, "still running")
	})
}
