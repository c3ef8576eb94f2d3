package export

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/sim"
	"converge/core/simtest/simrun"
)

const resolveBase = `name: names
duration: 60s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 4
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: web, image: myrepo/web:1.0}]
steps:
- {at: 10s, kubectl: set image deployment/web web=myrepo/web:2.0}
`

// simPods runs the base scenario to t and returns its pods of the
// ReplicaSet with revision rev, oldest first, and that ReplicaSet's name
// and the revision-1 ReplicaSet's.
func simNames(t *testing.T, at int, rev string) (pods []*api.Pod, rs, rs1 string) {
	t.Helper()
	s, err := sim.New(simrun.Parse(t, resolveBase), sim.Options{CheckpointEvery: -1})
	require.NoError(t, err)
	s.Step(at)
	for _, r := range s.Store().ReplicaSets() {
		switch r.Annotations[api.RevisionAnnotation] {
		case rev:
			rs = r.Name
		case "1":
			rs1 = r.Name
		}
	}
	for _, p := range s.Store().Pods() {
		if controllerOf(&p.ObjectMeta, api.KindReplicaSet) == rs && p.DeletionTimestamp == nil {
			pods = append(pods, p)
		}
	}
	sort.SliceStable(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	require.NotEmpty(t, pods)
	return pods, rs, rs1
}

// A generated pod name stands for the cluster's pod of the same
// ReplicaSet (found by its Deployment and revision), on the same node, of
// the same rank; the name stays pinned, so that the expect after the
// delete checks the deleted pod, not another with the same prefix.
func TestKubectlReplayPinsGeneratedNames(t *testing.T) {
	t.Parallel()
	pods, rs, rs1 := simNames(t, 39, "2")
	target := pods[len(pods)-1]
	node := map[string]string{"node-1": "converge-worker", "node-2": "converge-worker2", "node-3": "converge-worker3"}[target.Spec.NodeName]
	require.NotEmpty(t, node, "pod %s on %q", target.Name, target.Spec.NodeName)
	// Its rank among its ReplicaSet's pods on its node, oldest first.
	var mates []*api.Pod
	for _, p := range pods {
		if p.Spec.NodeName == target.Spec.NodeName {
			mates = append(mates, p)
		}
	}
	sort.SliceStable(mates, func(i, j int) bool {
		a, b := mates[i].CreationTimestamp.Time, mates[j].CreationTimestamp.Time
		if !a.Equal(b) {
			return a.Before(b)
		}
		return mates[i].Name < mates[j].Name
	})
	rank := 0
	for i, p := range mates {
		if p.Name == target.Name {
			rank = i
		}
	}
	scn := simrun.Parse(t, resolveBase+fmt.Sprintf(`- {at: 40s, kubectl: delete pod %s}
- {at: 41s, expect: pod/%s .metadata.name == null}
- {at: 42s, expect: replicaset/%s .spec.replicas == 0}
- {at: 43s, kubectl: describe rs %s}
`, target.Name, target.Name, rs1, rs))
	script, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	text := string(script)
	assert.Contains(t, text, "pin_rs "+rs+" web 2\n")
	assert.Contains(t, text, "set image deployment/web web=registry.k8s.io/pause:3.9\n", "the images are mapped")
	assert.Contains(t, text, "pin_rs "+rs1+" web 1\n")
	assert.Contains(t, text, fmt.Sprintf(`pin_pod %s "${pinned[%s]}" %d "$NODE_`, target.Name, rs, rank))
	assert.Contains(t, text, `step 'delete pod `+target.Name+`' delete pod "${pinned[`+target.Name+`]}"`)
	assert.Contains(t, text, `describe rs "${pinned[`+rs+`]}"`)
	assert.NotContains(t, text, "$(pod ")

	// The cluster: web-real2 is revision 2 (web-other-x is another
	// Deployment's), its pods on the node in creation order, one of them
	// terminating, one on another node, and revision 1's pods.
	other := "converge-worker"
	if node == other {
		other = "converge-worker2"
	}
	var lines []string
	for i := 0; i <= rank; i++ {
		lines = append(lines, fmt.Sprintf("2026-03-01T10:00:%02dZ|web-real2-p%d|web-real2|%s|", 10+i, i, node))
	}
	lines = append(lines,
		"2026-03-01T10:00:05Z|web-real2-gone|web-real2|"+node+"|2026-03-01T10:00:30Z",
		"2026-03-01T10:00:01Z|web-real2-far|web-real2|"+other+"|",
		"2026-03-01T09:59:00Z|web-real1-old|web-real1|"+node+"|")
	rules := []string{
		"get replicasets -o jsonpath\t0\tweb-other-x|2\\nweb-real1|1\\nweb-real2|2",
		"get pods -o jsonpath\t0\t" + strings.Join(lines, "\\n"),
		fmt.Sprintf("get pod/web-real2-p%d -o jsonpath={.metadata.name}\t1\tError from server (NotFound)", rank),
		"get replicaset/web-real1 -o jsonpath={.spec.replicas}\t0\t0",
	}
	code, stdout, stderr, log := replay(t, script, rules)
	assert.Equal(t, 0, code, "%s\n%s\n%s", stdout, stderr, log)
	assert.Contains(t, log, fmt.Sprintf("kubectl --namespace replay-test delete pod web-real2-p%d\n", rank))
	assert.Contains(t, log, "kubectl --namespace replay-test describe rs web-real2\n")
	assert.Contains(t, stdout, "ok   expect pod/"+target.Name+" .metadata.name == null")
	assert.Contains(t, stdout, "ok   expect replicaset/"+rs1+" .spec.replicas == 0")
	assert.Equal(t, 1, strings.Count(log, "get pods -o jsonpath"), "the pod is looked up once, then pinned")
}

// A ReplicaSet the simulation never held, and a pod the cluster does not
// have, stay as written.
func TestKubectlReplayUnknownNamesStay(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, resolveBase+`- {at: 20s, expect: replicaset/web-nothere .spec.replicas == 0}
- {at: 21s, kubectl: delete pod web-nothere-abcde}
`)
	script, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	assert.Contains(t, string(script), "expect 'replicaset/web-nothere .spec.replicas == 0' replicaset/web-nothere ")
	assert.Contains(t, string(script), "delete pod web-nothere-abcde\n")
	assert.NotRegexp(t, "\npin_(rs|pod) ", string(script))
}

// An orphaned ReplicaSet keeps its revision annotation: it is found by the
// name its Deployment gave it.
func TestDeploymentOf(t *testing.T) {
	t.Parallel()
	yes := true
	tests := []struct {
		name string
		rs   api.ReplicaSet
		dep  string
		ok   bool
	}{
		{"owned", api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-abc", Annotations: map[string]string{api.RevisionAnnotation: "2"},
			OwnerReferences: []api.OwnerReference{{Kind: api.KindDeployment, Name: "web", Controller: &yes}}}}, "web", true},
		{"orphan", api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "my-web-abc", Annotations: map[string]string{api.RevisionAnnotation: "1"}}}, "my-web", true},
		{"no revision", api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-abc"}}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dep, ok := deploymentOf(&tt.rs)
			assert.Equal(t, tt.dep, dep)
			assert.Equal(t, tt.ok, ok)
		})
	}
}

// An expect that compares one of the simulation's timestamps compares the
// cluster's time since the replay's start, within TIME_SLACK seconds.
func TestKubectlReplayComparesSimulatedTimes(t *testing.T) {
	t.Parallel()
	scn := simrun.Parse(t, resolveBase+`- {at: 40s, kubectl: rollout restart deployment/web}
- {at: 41s, expect: 'deployment/web .spec.template.metadata.annotations["kubectl.kubernetes.io/restartedAt"] == "2026-01-01T00:00:40Z"'}
`)
	script, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	require.Contains(t, string(script), "== time 40")
	for _, tt := range []struct {
		name   string
		offset time.Duration
		code   int
	}{
		{"on time", 40 * time.Second, 0},
		{"a second late", 41 * time.Second, 0},
		{"ten seconds late", 50 * time.Second, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			at := time.Now().Add(tt.offset).UTC().Format(time.RFC3339)
			code, stdout, stderr, _ := replay(t, script, []string{"restartedAt}\t0\t" + at})
			assert.Equal(t, tt.code, code, "%s\n%s", stdout, stderr)
		})
	}
}

// A watching rollout status with expectError runs in the background, with
// a timeout, and is checked where the simulation's ends (waits.go); the
// steps after it keep their seconds.
func TestKubectlReplayWatchesRolloutStatus(t *testing.T) {
	t.Parallel()
	script, err := Kubectl(simrun.Builtin(t, "stuck-bad-image"), KubectlOptions{})
	require.NoError(t, err)
	text := string(script)
	assert.Regexp(t, `watch_start \d+ 'rollout status deployment/web' 'exceeded its progress deadline' rollout status deployment/web --timeout=`, text)
	assert.NotContains(t, text, "exceeded its progress deadline' rollout status deployment/web --watch=false")
	assert.Contains(t, text, "\nwatches_end\n")
	code, stdout, stderr, _ := replay(t, script, []string{
		"rollout status deployment/web --timeout\t1\terror: deployment web exceeded its progress deadline",
	})
	assert.Contains(t, stdout, "   40s  $ kubectl rollout status deployment/web (watched)\n          error: deployment web exceeded its progress deadline\n   40s  ok   it failed as expected\n")
	assert.Contains(t, stdout, "ok   it failed as expected")
	assert.NotContains(t, stderr, "rollout status deployment/web: ", "%s", stdout)
	_ = code
}
