package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/controller"
	"converge/core/simtest/simrun"
)

func TestWhyNamesTheBlockingBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		src      string
		t        int64
		kind     string
		blocking string
		headline string
		pods     string
		acted    string
		budget   string
	}{
		{"creating the first pods: progressing, no stutter, not \"new\"", rolling, 1, "progressing", "",
			"Progressing: 0 of 10 pods available so far; the Deployment controller waits for the rest.", "10 ContainerCreating", "", ""},
		{"the kubelets were faster than the controller", rolling, 3, "progressing", "", "0 of 10 pods available",
			"it sees them in the next second", "", ""},
		{"rollout complete", rolling, 5, "in-sync", "", "In sync: 10 of 10 pods of revision 1 available; nothing to do.", "", "", ""},
		{"surge cap right after the image change: pacing, not failure", rolling, 10, "progressing", "surge",
			"Progressing, paced by maxSurge: the ReplicaSets already want 13 pods, the most allowed is 10 desired + 3 surge.",
			"5 ContainerCreating", "This second it took a step: ", ""},
		{"unavailable cap", rolling, 14, "progressing", "unavailable",
			"Progressing, paced by maxUnavailable: 2 of 10 pods are unavailable, the most allowed is 2.", "ContainerCreating",
			"scale down replica set web-cb9944cdd from 8 to 3; scale up replica set web-7fd994d44f from 5 to 10.", ""},
		{"maxSurge 0 waits at the surge bound", unavailScn, 12, "progressing", "surge", "the most allowed is 4 desired + 0 surge", "1 ContainerCreating", "", ""},
		{"image pull failure", stuckScn, 8, "stuck", "surge", `Stuck: 1 pod cannot pull image "web:bad" (`, "1 ImagePullBackOff", "", "Held by maxSurge"},
		{"progress deadline", stuckScn, 20, "stuck", "progress-deadline", `cannot pull image "web:bad" (ImagePullBackOff)`, "ImagePullBackOff", "", "ProgressDeadlineExceeded"},
		{"paused", pausedScn, 8, "paused", "paused", "Run kubectl rollout resume deployment/web.", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lines := Why(at(t, tc.src, tc.t))
			require.Len(t, lines, 1)
			w := lines[0]
			assert.Equal(t, "web", w.Key)
			assert.Equal(t, tc.kind, w.Kind)
			assert.Equal(t, tc.blocking, w.Blocking)
			assert.Contains(t, w.Headline, tc.headline)
			assert.Contains(t, w.Detail, "deployment-controller: observed ")
			if tc.pods == "" {
				assert.Empty(t, w.Pods)
			} else {
				assert.Contains(t, w.Pods, tc.pods)
			}
			if tc.budget == "" {
				assert.Empty(t, w.Budget)
			} else {
				assert.Contains(t, w.Budget, tc.budget)
			}
			if tc.acted == "" {
				assert.Empty(t, w.Acted)
			} else {
				assert.Contains(t, w.Acted, tc.acted)
			}
		})
	}
}

func TestWhyActingAndUnsynced(t *testing.T) {
	t.Parallel()
	// A scale in a paused Deployment: the controller scales the only
	// ReplicaSet, then waits as paused.
	s := at(t, pausedScn+`- at: 9s
  kubectl: scale deployment/web --replicas=5
`, 9)
	w := Why(s)[0]
	assert.Equal(t, "paused", w.Kind)
	assert.Equal(t, "This second it took a step: scale up replica set web-cb9944cdd from 3 to 5.", w.Acted)

	d := Focus(s, "web")
	require.NotNil(t, d)
	n := whyLine(s, d, nil)
	assert.Equal(t, "waiting", n.Kind)
	assert.Equal(t, "deployment/web has not been synced yet.", n.Headline)

	a := whyLine(s, d, &controller.SyncRecord{Controller: "deployment-controller", Object: "deployment/web",
		Observed: "3 replicas", Desired: "5 replicas", Action: "scale up replica set web-1 from 3 to 5"})
	assert.Equal(t, "acting", a.Kind)
	assert.Equal(t, "Acting now: scale up replica set web-1 from 3 to 5.", a.Headline)
	assert.Equal(t, "deployment-controller: observed 3 replicas; desired 5 replicas; scale up replica set web-1 from 3 to 5", a.Detail)

	e := whyLine(s, d, &controller.SyncRecord{Waiting: "retrying after error: boom"})
	assert.Equal(t, "error", e.Kind)
	assert.Equal(t, "Failing: retrying after error: boom.", e.Headline)
}

func TestWhyHasOneLinePerDeploymentByName(t *testing.T) {
	t.Parallel()
	src := `name: two
objects:
` + deploymentDoc("1", "web:1") + `- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: api}
  spec:
    replicas: 1
    selector: {matchLabels: {app: api}}
    template:
      metadata: {labels: {app: api}}
      spec:
        containers: [{name: api, image: "api:1"}]
`
	lines := Why(at(t, src, 5))
	require.Len(t, lines, 2)
	assert.Equal(t, "api", lines[0].Key)
	assert.Equal(t, "web", lines[1].Key)
	assert.Empty(t, Why(load(t, "name: empty\n")))
}

func TestWhyPodsSaysWhatTheWaitedForPodsDo(t *testing.T) {
	t.Parallel()
	invalidImage := `name: s
objects:
` + deploymentDoc("3", "web:1") + `steps:
- at: 5s
  kubectl: set image deployment/web web=Web:2
`
	noRoom := `name: full
cluster:
  nodes: [{name: node-1, cpu: "8", memory: 8Gi, pods: 4}]
objects:
` + deploymentDoc("6", "web:1")
	tests := []struct {
		name  string
		src   string
		t     int64
		pods  string
		stuck bool
	}{
		{"the only ReplicaSet's pods", rolling, 1, "Pods (web-", false},
		{"the new ReplicaSet's pods", rolling, 10, "New pods (web-", false},
		{"a bad image", stuckScn, 8, "1 ImagePullBackOff.", true},
		{"an invalid image name", invalidImage, 8, "1 InvalidImageName.", true},
		{"a lost node", nodeDown, 26, "; 2 of them on a node that is not Ready.", false},
		{"no room", noRoom, 8, "Pending", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := Why(at(t, tc.src, tc.t))[0]
			assert.Contains(t, w.Pods, tc.pods)
			assert.Equal(t, tc.stuck, w.Stuck, w.Pods)
		})
	}
}

// quotaScn is a rollout whose surge pod a ResourceQuota refuses.
var quotaScn = `name: q
objects:
- apiVersion: v1
  kind: ResourceQuota
  metadata: {name: compute}
  spec:
    hard: {requests.cpu: 200m}
` + deploymentDoc("2", "nginx:1.27", "strategy:", "  rollingUpdate: {maxSurge: 1, maxUnavailable: 0}") + `
steps:
- at: 10s
  kubectl: set image deployment/web web=nginx:1.28
`

// TestWhySaysPodsCannotBeCreated: when the new ReplicaSet's pods are
// refused (ReplicaFailure), the line says so, with the API server's text.
func TestWhySaysPodsCannotBeCreated(t *testing.T) {
	t.Parallel()
	lines := Why(at(t, quotaScn, 13))
	require.Len(t, lines, 1)
	w := lines[0]
	assert.Equal(t, "stuck", w.Kind)
	assert.Equal(t, "surge", w.Blocking)
	assert.Equal(t, "Stuck: the new pods cannot be created (ReplicaFailure, FailedCreate): the API server refuses them, "+
		"and the ReplicaSet controller retries until it admits them. The refused pods still count against maxSurge, so nothing else moves.", w.Headline)
	assert.Contains(t, w.Pods, "Pods cannot be created (FailedCreate): pods \"web-")
	assert.Contains(t, w.Pods, "exceeded quota: compute, requested: requests.cpu=100m, used: requests.cpu=200m, limited: requests.cpu=200m.")
	assert.True(t, w.Stuck)
}

func TestWhyLeadsWithTheBlockingCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, scenario string
		t              int64
		kind, headline string
		budget         string
	}{
		{"no capacity: the scheduler's message", "stuck-no-capacity", 30, "stuck",
			"Stuck: 1 pod cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.", "Held by maxSurge: the ReplicaSets already want 4 pods"},
		{"a bad image: the image", "stuck-bad-image", 40, "stuck",
			`Stuck: 1 pod cannot pull image "myrepo/web:2.0-typo" (ImagePullBackOff);`, "Held by maxSurge"},
		{"an invalid image name", "invalid-image-name", 30, "stuck", `image "Nginx:1.27" is not a valid image name (InvalidImageName)`, "Held by maxSurge"},
		{"CrashLoopBackOff with its restarts", "crashloop", 90, "stuck",
			`Stuck: 3 pods crash after starting (CrashLoopBackOff, 3 restarts so far, container "app").`, "The Deployment controller waits: 0 of 3 pods available"},
		{"readiness never passes", "stuck-never-ready", 70, "stuck",
			`Stuck: 2 pods run but never become ready: container "shop"'s readiness probe has not passed in 42s.`, "Held by maxSurge"},
		{"a lost node", "node-lost", 80, "stuck", "Stuck: node node-2 is not Ready (its kubelet stopped posting status), so 2 pods on it", "The Deployment controller waits: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simrun.New(t, simrun.Builtin(t, tc.scenario))
			s.SeekTo(tc.t)
			lines := Why(s)
			require.Len(t, lines, 1)
			assert.Equal(t, tc.kind, lines[0].Kind)
			assert.Contains(t, lines[0].Headline, tc.headline)
			assert.Contains(t, lines[0].Budget, tc.budget)
		})
	}
	// Pods that are merely starting blame nothing: the budget leads.
	s := simrun.New(t, simrun.Builtin(t, "rolling-update"))
	s.SeekTo(1)
	assert.Equal(t, "progressing", Why(s)[0].Kind)
	assert.Empty(t, Why(s)[0].Budget)
}

func TestNoDeploymentSaysWhetherOneWasDeleted(t *testing.T) {
	t.Parallel()
	src := `name: deleted
duration: 60s
objects:
` + deploymentDoc("1", "web:1") + `steps:
  - at: 20s
    kubectl: delete deployment web
`
	s := at(t, src, 10)
	require.NotEmpty(t, s.Store().Deployments())
	s = at(t, src, 30)
	require.Empty(t, s.Store().Deployments())
	assert.Equal(t, "No Deployment: deployment/web was deleted at 20s: create one in the console or the editor.", NoDeployment(s, false))
	assert.Equal(t, "No Deployment: deployment/web was deleted at 20s.", NoDeployment(s, true))

	empty := load(t, "name: empty\n")
	assert.Equal(t, "No Deployment yet: create one in the console or the editor.", NoDeployment(empty, false))
	assert.Equal(t, "No Deployment yet.", NoDeployment(empty, true))
}
