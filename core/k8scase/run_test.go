package k8scase_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/k8scase"
)

func i64(v int64) *int64 { return &v }

// rollout is a settled Deployment of 3 pods (revision 1, image v1) whose
// template was just changed to v2: the first sync of a rollout.
func rollout() *k8scase.Case {
	c := &k8scase.Case{Name: "rollout", Controller: k8scase.DeploymentController}
	c.Deployment = &k8scase.Deployment{Name: "web", Replicas: 3, Image: "v2", Strategy: api.RollingUpdateDeploymentStrategyType,
		Created: -100, Generation: 2, Annotations: map[string]string{api.RevisionAnnotation: "1"},
		Status: k8scase.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
			Conditions: []k8scase.Condition{
				{Type: "Available", Status: "True", Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability.", LastUpdate: -90, LastTransition: -90},
				{Type: "Progressing", Status: "True", Reason: "NewReplicaSetAvailable", Message: `ReplicaSet "web-1" has successfully progressed.`, LastUpdate: -90, LastTransition: -99},
			}}}
	c.ReplicaSets = []k8scase.ReplicaSet{{Name: "web-1", Hash: "1", Image: "v1", Replicas: 3, Created: -99, Generation: 1,
		Annotations: map[string]string{api.RevisionAnnotation: "1", api.DesiredReplicasAnnotation: "3", api.MaxReplicasAnnotation: "4"},
		Status:      k8scase.ReplicaSetStatus{Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, ObservedGeneration: 1}}}
	for _, n := range []string{"a", "b", "c"} {
		c.Pods = append(c.Pods, k8scase.Pod{Name: "web-1-" + n, Owner: "web-1", Hash: "1", Image: "v1", Node: "node-1",
			Phase: api.PodRunning, Ready: true, ReadySince: i64(-95), Created: -98})
	}
	return c
}

func lines(ws []k8scase.Write) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = w.String()
	}
	return strings.Join(s, "\n")
}

func TestRunCreatesTheNewReplicaSetAtItsSurge(t *testing.T) {
	t.Parallel()
	c := rollout()
	out, err := k8scase.Run(c)
	require.NoError(t, err)
	got := lines(k8scase.Writes(c, out))
	assert.Contains(t, got, `replicaset/web-{new} created: replicas=1 image=v2 minReadySeconds=0 owned=true annotations={deployment.kubernetes.io/desired-replicas="3", deployment.kubernetes.io/max-replicas="4", deployment.kubernetes.io/revision="2"}`)
	assert.Contains(t, got, `deployment/web annotations[deployment.kubernetes.io/revision]: "1" -> "2"`)
	assert.Contains(t, got, `deployment/web status.observedGeneration: 1 -> 2`)
	assert.Contains(t, got, `event ScalingReplicaSet: Normal "Scaled up replica set web-{new} from 0 to 1"`)
	assert.NotContains(t, got, "replicaset/web-1 spec.replicas", "no scale-down: maxUnavailable is 0 on 3 replicas")
}

func TestRunReplicaSetControllerDeletesNotReadyPodsFirst(t *testing.T) {
	t.Parallel()
	c := rollout()
	c.Controller = k8scase.ReplicaSetController
	c.ReplicaSets[0].Replicas = 2
	c.Pods[1].Ready = false
	out, err := k8scase.Run(c)
	require.NoError(t, err)
	got := lines(k8scase.Writes(c, out))
	assert.Contains(t, got, "pod/web-1-b deleted: yes")
	assert.NotContains(t, got, "pod/web-1-a deleted")
	assert.Contains(t, got, `event SuccessfulDelete: Normal "Deleted pod: web-1-b"`)
}

func TestRunSlowStartStopsAtTheCreateLimit(t *testing.T) {
	t.Parallel()
	c := rollout()
	c.Controller = k8scase.ReplicaSetController
	c.ReplicaSets[0].Replicas = 13 // 10 to create: batches 1, 2, 4, 3
	limit := 4
	c.CreateLimit = &limit
	out, err := k8scase.Run(c)
	require.NoError(t, err)
	got := lines(k8scase.Writes(c, out))
	assert.Contains(t, got, "replicaset/web-1 pods created: 4 (image v1 hash-matches=true)")
	assert.Equal(t, 3, strings.Count(got, "event FailedCreate"), "the batch of 4 has 3 failures; the last batch is never tried")
	assert.Contains(t, got, `replicaset/web-1 status.conditions: [] -> [ReplicaFailure=True FailedCreate "{error}" updated@0 transition@0]`)
}

func TestRunRejectsZeroSurgeAndZeroUnavailable(t *testing.T) {
	t.Parallel()
	c := rollout()
	zero := api.FromInt(0)
	c.Deployment.MaxSurge, c.Deployment.MaxUnavailable = &zero, &zero
	out, err := k8scase.Run(c)
	require.NoError(t, err)
	assert.Equal(t, "deployment/web rejected: "+out.Rejected, lines(k8scase.Writes(c, out)))
	assert.Contains(t, out.Rejected, "may not be 0 when `maxSurge` is 0")
}

func TestLoadThenDumpGivesTheCaseBack(t *testing.T) {
	t.Parallel()
	c := rollout()
	c.Pods[2].Terminating = true
	c.Deployment.Generation, c.ReplicaSets[0].Generation = 3, 2
	l, err := k8scase.Load(c)
	require.NoError(t, err)
	got := l.Dump("web")
	assert.Empty(t, k8scase.Writes(c, &k8scase.Outcome{After: got}))
	assert.EqualValues(t, 3, got.Deployment.Generation)
	assert.EqualValues(t, 2, got.ReplicaSets[0].Generation)
	assert.True(t, got.Pods[2].Terminating)
	assert.NotEmpty(t, l.UIDs["pod/web-1-a"])
}
