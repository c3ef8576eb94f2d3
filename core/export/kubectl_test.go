package export

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
	"converge/core/version"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.sh")

// goldenScenarios are the shipped scenarios whose replay scripts are pinned
// in testdata/NAME.golden.sh: between them every kind of step (kubectl,
// apply, expectError, the faults, expects with filters and keys with dots,
// a drain in the background and a node deleted),
// node names, a generated pod name and simulated image behaviour.
var goldenScenarios = []string{
	"basic-loop", "node-lost", "cordon-drain", "pdb-drain", "crashloop", "pod-deleted",
	"selector-immutable", "rollback-revisions", "configmap-no-rollout", "stuck-no-capacity",
}

func TestKubectlScriptsMatchTheGoldens(t *testing.T) {
	t.Parallel()
	for _, name := range goldenScenarios {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := Kubectl(simrun.Builtin(t, name), KubectlOptions{Version: version.Version})
			require.NoError(t, err)
			golden := filepath.Join("testdata", name+".golden.sh")
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./core/export -update to write it")
			assert.Equal(t, string(want), string(got), "go test ./core/export -update rewrites %s", golden)
		})
	}
}

// Every shipped scenario exports a script that bash parses (bash -n), and
// the same bytes twice.
func TestKubectlScriptsOfEveryScenarioParseInBash(t *testing.T) {
	t.Parallel()
	bash := bashPath(t)
	dir := t.TempDir()
	for _, name := range simrun.BuiltinNames(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			scn := simrun.Builtin(t, name)
			a, err := Kubectl(scn, KubectlOptions{Version: version.Version})
			require.NoError(t, err)
			b, err := Kubectl(scn, KubectlOptions{Version: version.Version})
			require.NoError(t, err)
			require.Equal(t, string(a), string(b), "the script is deterministic")
			file := filepath.Join(dir, name+".sh")
			require.NoError(t, os.WriteFile(file, a, 0o755))
			out, err := exec.Command(bash, "-n", file).CombinedOutput()
			assert.NoError(t, err, "bash -n %s: %s", file, out)
			assert.True(t, strings.HasPrefix(string(a), "#!/usr/bin/env bash\n"))
			assert.Contains(t, string(a), "set -euo pipefail\n")
		})
	}
}

// bashPath finds bash, which every machine that builds Converge has.
func bashPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("bash")
	require.NoError(t, err, "the replay script's tests need bash")
	return p
}

func TestKubectlHeaderDescribesTheCluster(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, `name: two
cluster:
  nodes:
  - {name: a, cpu: "2", memory: 4Gi, pods: 10}
  - {name: b, cpu: "8", memory: 16Gi, pods: 110}
  images:
    myrepo/web:2.0: {pull: fail}
    myrepo/slow:1: {pullSeconds: 30, readySeconds: 5}
    myrepo/odd:1: {pullFailures: 2, unreadyAfterSeconds: 40, readinessFlapSeconds: 10, livenessFailAfterSeconds: 60, shutdownSeconds: 20, exitCode: 137}
objects:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {k: v}}
steps:
- {at: 5s, kubectl: cordon b}
`)
	out, err := Kubectl(scn, KubectlOptions{File: "dir/two.yaml", Version: "9.9.9"})
	require.NoError(t, err)
	s := string(out)
	for _, want := range []string{
		"# two\n",
		"converge export-kubectl (Converge 9.9.9)",
		"#   - role: worker\n#   - role: worker\n#   EOF",
		"# Then: bash two.sh",
		"#   a is $NODE_1 (default converge-worker)\n#   b is $NODE_2 (default converge-worker2)\n",
		"#   a: cpu 2, memory 4Gi, 10 pods\n#   b: cpu 8, memory 16Gi, 110 pods\n",
		"#   myrepo/odd:1: its first 2 pulls on each node fail, readiness fails from 40s after each start, readiness alternates every 10s, " +
			"hangs 60s after each start (liveness fails), takes 20s to exit after SIGTERM, exits with code 137 after SIGTERM\n" +
			"#   myrepo/slow:1: pulls in 30s, ready 5s after it runs\n#   myrepo/web:2.0: its pull fails (ErrImagePull, ImagePullBackOff)\n",
		"scenario_file=dir/two.yaml\n",
		"namespace=${NAMESPACE:-converge-two}\n",
		"NODE_2=${NODE_2:-converge-worker2}\n",
		"\nat 5\nnode_step 'cordon b' \"node:$NODE_2\" -- step 'cordon b' cordon \"$NODE_2\"\n",
	} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "namespace: default", "objects are applied in the replay's namespace")
}

// The words of kubectl steps: node names become the cluster's, pod names
// the simulation chose are looked up, declared pods stay, rollout status
// does not watch, and nothing expands.
func TestKubectlStepWords(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, `name: words
objects:
- apiVersion: v1
  kind: Pod
  metadata: {name: solo}
  spec: {containers: [{name: c, image: nginx}]}
steps:
- {at: 1s, kubectl: drain node-2 --ignore-daemonsets}
- {at: 1s, kubectl: get node node-1 -o wide}
- {at: 1s, kubectl: describe no/node-3}
- {at: 1s, kubectl: label node node-1 disk=ssd}
- {at: 1s, kubectl: delete pod web-79d8c5cd98-x7k2p}
- {at: 1s, kubectl: delete pod/solo}
- {at: 1s, kubectl: rollout status deployment/web}
- {at: 1s, kubectl: "annotate deployment/web \"note=$(rm -rf /) it's\" --overwrite"}
- {at: 1s, kubectl: get pods -n kube-system}
- {at: 1s, kubectl: rollout undo deployment/web --to-revision=9, expectError: "unable to find specified revision 9 in history"}
- {at: 2s, kubectl: delete node node-3}
- {at: 2s, kubectl: delete no/node-1 --wait=false}
`)
	out, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	s := string(out)
	for _, want := range []string{
		// drain runs in the background (waits.go), checked where the
		// simulation's ends.
		`node_step 'drain node-2 --ignore-daemonsets' "node:$NODE_2" -- watch_start 0 'drain node-2 --ignore-daemonsets' '' drain "$NODE_2" --ignore-daemonsets=true`,
		"\nat 2\nwatch_end 0 1\n",
		// delete node is a node step: the scenario's nodes, by name.
		`node_step 'delete node node-3' "gone:$NODE_3" -- step 'delete node node-3' delete node "$NODE_3"`,
		`node_step 'delete no/node-1 --wait=false' "gone:$NODE_1" -- step 'delete no/node-1 --wait=false' delete "no/$NODE_1" --wait=false`,
		`step 'get node node-1 -o wide' get node "$NODE_1" --output=wide`,
		`step 'describe no/node-3' describe "no/$NODE_3"`,
		"# LEFT OUT: kubectl label node node-1 disk=ssd\n# (it changes nodes, which are outside the replay's namespace)",
		`step 'delete pod web-79d8c5cd98-x7k2p' delete pod web-79d8c5cd98-x7k2p`,
		`step 'delete pod/solo' delete pod/solo`,
		`step 'rollout status deployment/web' rollout status deployment/web --watch=false`,
		`annotate deployment/web 'note=$(rm -rf /) it'\''s' --overwrite=true`,
		"# The step names the namespace kube-system; the replay runs it in its own.\nstep 'get pods -n kube-system' get pods\n",
		`step_fails 'rollout undo deployment/web --to-revision=9' 'unable to find specified revision 9 in history' rollout undo deployment/web --to-revision=9`,
	} {
		assert.Contains(t, s, want)
	}
}

func TestKubectlFaultsAreInstructions(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, `name: faults
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 1
    selector: {matchLabels: {app: web, tier: fe}}
    template:
      metadata: {labels: {app: web, tier: fe}}
      spec: {containers: [{name: web, image: nginx}]}
steps:
- {at: 10s, fault: node-down node-2}
- {at: 20s, fault: node-up node-2}
- {at: 30s, fault: crash pod/web-79d8c5cd98-x7k2p}
- {at: 40s, fault: crash deployment/web}
`)
	out, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	s := string(out)
	for _, want := range []string{
		"# A kind node is a container: docker stop \"$NODE_2\"\n",
		"\nat 10\n# fault node-down node-2: the node's kubelet stops",
		"\nfault 'node-down node-2' \"docker stop $NODE_2\"\n",
		"fault 'node-up node-2' \"docker start $NODE_2\"\n",
		`#   kubectl exec --namespace "$namespace" web-79d8c5cd98-x7k2p -- kill 1`,
		`fault 'crash pod/web-79d8c5cd98-x7k2p' "kubectl exec --namespace $namespace web-79d8c5cd98-x7k2p -- kill 1"`,
		`#   for p in $(kubectl get pods --namespace "$namespace" -l app=web,tier=fe -o name); do`,
	} {
		assert.Contains(t, s, want)
	}
	for _, l := range strings.Split(s, "\n") {
		assert.False(t, strings.HasPrefix(l, "docker ") || strings.HasPrefix(l, "kubectl exec"), "a fault is never run: %s", l)
	}
}

func TestHeredocDelimiterNeverInTheBody(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body, want string }{
		{"plain", "a: 1\n", "CONVERGE_EOF"},
		{"indented is no clash", "  CONVERGE_EOF\n", "CONVERGE_EOF"},
		{"a line equal to it", "x\nCONVERGE_EOF\ny\n", "CONVERGE_EOF_2"},
		{"both", "CONVERGE_EOF\nCONVERGE_EOF_2\n", "CONVERGE_EOF_3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, heredocDelimiter(tc.body))
		})
	}
}

// What a manifest holds reaches kubectl as written: the here-document is
// quoted, so $, backquotes and a line like the delimiter stay text.
func TestKubectlManifestsDoNotExpand(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, `name: eof
objects:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: c}
  data:
    script: |
      cat <<'CONVERGE_EOF'
      $HOME `+"`date`"+` $(id)
      CONVERGE_EOF
`)
	out, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	assert.Contains(t, string(out), "objects 'apply configmap/c' <<'CONVERGE_EOF'\n")
	assert.Contains(t, string(out), "    $HOME `date` $(id)\n    CONVERGE_EOF\nkind: ConfigMap\n")
}
