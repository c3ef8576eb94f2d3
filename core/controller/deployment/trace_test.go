package deployment

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// The traces of docs/kubernetes-rules.md §4, run end to end: the controller on the
// real store, the test playing the ReplicaSet controller and the kubelets.
// A is the old ReplicaSet (image web:1), B the new one (web:2).

// traceRow is one step of a trace: the controller's events ({A} and {B}
// stand for the ReplicaSet names), the sizes and available pods after the
// step, the pods (status.replicas) and kubectl rollout status's line.
type traceRow struct {
	events         []string
	a, b           int32
	aAvail, bAvail int32
	pods           int32
	status         string
}

// settled returns a cluster with Deployment web (image web:1) rolled out.
func settled(t testing.TB, replicas int32, readyAfter int, opts ...simtest.DeploymentOption) *cluster {
	t.Helper()
	c := newCluster(t, readyAfter)
	simtest.MustCreate(t, c.f.store, simtest.NewDeployment("web", replicas, "web:1", opts...))
	c.runUntil(80, func() bool { return c.complete("web") })
	c.step = 0
	return c
}

func (c *cluster) expand(s string) string {
	a := c.hashOf("web", "web:1")
	b := c.hashOf("web", "web:2")
	return strings.NewReplacer("{A}", a, "{B}", b).Replace(s)
}

func sizeAndAvail(rs *api.ReplicaSet) (int32, int32) {
	if rs == nil {
		return 0, 0
	}
	return specOf(rs), rs.Status.AvailableReplicas
}

// runTrace runs one step per row and checks it.
func (c *cluster) runTrace(rows []traceRow) {
	c.t.Helper()
	for i, r := range rows {
		c.run()
		var want []string
		for _, e := range r.events {
			want = append(want, c.expand(e))
		}
		msg := fmt.Sprintf("step %d", i)
		assert.Equal(c.t, want, c.events, msg)
		a, aAvail := sizeAndAvail(c.rsByImage("web:1"))
		b, bAvail := sizeAndAvail(c.rsByImage("web:2"))
		assert.Equal(c.t, []int32{r.a, r.b, r.aAvail, r.bAvail}, []int32{a, b, aAvail, bAvail}, msg+": A, B, A avail, B avail")
		assert.Equal(c.t, r.pods, c.observedStatus("web").Replicas, msg+": pods")
		assert.True(c.t, strings.HasSuffix(c.rolloutStatus("web"), r.status), "%s: rollout status %q, want …%q", msg, c.rolloutStatus("web"), r.status)
	}
}

const (
	updated1 = "1 out of 3 new replicas have been updated..."
	updated2 = "2 out of 3 new replicas have been updated..."
	done     = "successfully rolled out"
)

func TestTraceT1DefaultsThreeReplicas(t *testing.T) {
	t.Parallel()
	c := settled(t, 3, 1)
	c.setImage("web", "web:2")
	c.runTrace([]traceRow{
		{[]string{"Scaled up replica set {B} from 0 to 1"}, 3, 1, 3, 0, 4, updated1},
		{[]string{"Scaled down replica set {A} from 3 to 2"}, 2, 1, 2, 1, 3, updated1},
		{[]string{"Scaled up replica set {B} from 1 to 2"}, 2, 2, 2, 1, 4, updated2},
		{[]string{"Scaled down replica set {A} from 2 to 1"}, 1, 2, 1, 2, 3, updated2},
		{[]string{"Scaled up replica set {B} from 2 to 3"}, 1, 3, 1, 2, 4, "1 old replicas are pending termination..."},
		{[]string{"Scaled down replica set {A} from 1 to 0"}, 0, 3, 0, 3, 3, done},
		{nil, 0, 3, 0, 3, 3, done},
	})
	d := c.f.getD("web")
	assert.Equal(t, "2", d.Annotations[api.RevisionAnnotation])
	avail := GetDeploymentCondition(&d.Status, api.DeploymentAvailable)
	prog := GetDeploymentCondition(&d.Status, api.DeploymentProgressing)
	require.NotNil(t, avail)
	require.NotNil(t, prog)
	assert.Equal(t, api.ConditionTrue, avail.Status)
	assert.Equal(t, NewRSAvailableReason, prog.Reason)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q has successfully progressed.", c.expand("{B}")), prog.Message)
	assert.Equal(t, api.DeploymentAvailable, d.Status.Conditions[0].Type, "a settled Deployment lists Available first")
	assert.NotNil(t, c.rsByImage("web:1"), "the old RS is kept (revisionHistoryLimit 10)")
	assert.True(t, c.record("web").InSync)
}

func TestTraceT2aSurgeOneUnavailableOne(t *testing.T) {
	t.Parallel()
	c := settled(t, 3, 1, simtest.WithRollingUpdate("1", "1"))
	c.setImage("web", "web:2")
	c.runTrace([]traceRow{
		{[]string{"Scaled up replica set {B} from 0 to 1", "Scaled down replica set {A} from 3 to 2"}, 2, 1, 2, 0, 3, updated1},
		{[]string{"Scaled up replica set {B} from 1 to 2"}, 2, 2, 2, 1, 4, updated2},
		{[]string{"Scaled down replica set {A} from 2 to 0"}, 0, 2, 0, 2, 2, updated2},
		{[]string{"Scaled up replica set {B} from 2 to 3"}, 0, 3, 0, 2, 3, "2 of 3 updated replicas are available..."},
		{nil, 0, 3, 0, 3, 3, done},
	})
}

func TestTraceT3DefaultsTenReplicas(t *testing.T) {
	t.Parallel()
	c := settled(t, 10, 1)
	c.setImage("web", "web:2")
	c.runTrace([]traceRow{
		{[]string{"Scaled up replica set {B} from 0 to 3", "Scaled down replica set {A} from 10 to 8"}, 8, 3, 8, 0, 11, "3 out of 10 new replicas have been updated..."},
		{[]string{"Scaled up replica set {B} from 3 to 5"}, 8, 5, 8, 3, 13, "5 out of 10 new replicas have been updated..."},
		{[]string{"Scaled down replica set {A} from 8 to 3"}, 3, 5, 3, 5, 8, "5 out of 10 new replicas have been updated..."},
		{[]string{"Scaled up replica set {B} from 5 to 10"}, 3, 10, 3, 5, 13, "3 old replicas are pending termination..."},
		{[]string{"Scaled down replica set {A} from 3 to 0"}, 0, 10, 0, 10, 10, done},
	})
}

func TestTraceT4NoSurge(t *testing.T) {
	t.Parallel()
	c := settled(t, 3, 1, simtest.WithRollingUpdate("0", "1"))
	c.setImage("web", "web:2")
	c.runTrace([]traceRow{
		{[]string{"Scaled down replica set {A} from 3 to 2"}, 2, 0, 2, 0, 2, "0 out of 3 new replicas have been updated..."},
		{[]string{"Scaled up replica set {B} from 0 to 1"}, 2, 1, 2, 0, 3, updated1},
		{[]string{"Scaled down replica set {A} from 2 to 1"}, 1, 1, 1, 1, 2, updated1},
		{[]string{"Scaled up replica set {B} from 1 to 2"}, 1, 2, 1, 1, 3, updated2},
		{[]string{"Scaled down replica set {A} from 1 to 0"}, 0, 2, 0, 2, 2, updated2},
		{[]string{"Scaled up replica set {B} from 2 to 3"}, 0, 3, 0, 2, 3, "2 of 3 updated replicas are available..."},
		{nil, 0, 3, 0, 3, 3, done},
	})
}

func TestTraceT6CleanupUnhealthyFirst(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 1)
	simtest.MustCreate(t, c.f.store, simtest.NewDeployment("web", 10, "web:1", simtest.WithRollingUpdate("0", "2")))
	c.run()
	for _, p := range c.pods()[:2] {
		c.neverReady[p.Name] = true
	}
	c.run()
	c.run()
	a := c.rsByImage("web:1")
	require.Equal(t, int32(8), a.Status.AvailableReplicas)
	c.step = 0
	c.setImage("web", "web:2")
	u := func(n int) string { return fmt.Sprintf("%d out of 10 new replicas have been updated...", n) }
	c.runTrace([]traceRow{
		{[]string{"Scaled down replica set {A} from 10 to 8"}, 8, 0, 8, 0, 8, u(0)},
		{[]string{"Scaled up replica set {B} from 0 to 2"}, 8, 2, 8, 0, 10, u(2)},
		{[]string{"Scaled down replica set {A} from 8 to 6"}, 6, 2, 6, 2, 8, u(2)},
		{[]string{"Scaled up replica set {B} from 2 to 4"}, 6, 4, 6, 2, 10, u(4)},
		{[]string{"Scaled down replica set {A} from 6 to 4"}, 4, 4, 4, 4, 8, u(4)},
		{[]string{"Scaled up replica set {B} from 4 to 6"}, 4, 6, 4, 4, 10, u(6)},
		{[]string{"Scaled down replica set {A} from 4 to 2"}, 2, 6, 2, 6, 8, u(6)},
		{[]string{"Scaled up replica set {B} from 6 to 8"}, 2, 8, 2, 6, 10, u(8)},
		{[]string{"Scaled down replica set {A} from 2 to 0"}, 0, 8, 0, 8, 8, u(8)},
		{[]string{"Scaled up replica set {B} from 8 to 10"}, 0, 10, 0, 8, 10, "8 of 10 updated replicas are available..."},
		{nil, 0, 10, 0, 10, 10, done},
	})
	for name := range c.neverReady {
		_, err := c.f.store.GetPod(api.NamespaceDefault, name)
		assert.Error(t, err, "the never-ready pod %s went first", name)
	}
}

func TestTraceT7RecreateWithoutWaiting(t *testing.T) {
	t.Parallel()
	c := settled(t, 4, 1, simtest.WithRollingUpdate("0", "100%"))
	c.grace = 5
	c.setImage("web", "web:2")
	c.runTrace([]traceRow{
		{[]string{"Scaled down replica set {A} from 4 to 0"}, 0, 0, 0, 0, 0, "0 out of 4 new replicas have been updated..."},
		{[]string{"Scaled up replica set {B} from 0 to 4"}, 0, 4, 0, 0, 4, "0 of 4 updated replicas are available..."},
	})
	terminating := 0
	for _, p := range c.pods() {
		if p.DeletionTimestamp != nil {
			terminating++
		}
	}
	assert.Equal(t, 4, terminating, "B scaled up while A's pods are still terminating")
	c.runTrace([]traceRow{{nil, 0, 4, 0, 4, 4, done}})
}

func TestTraceT8Recreate(t *testing.T) {
	t.Parallel()
	c := settled(t, 3, 1, simtest.WithRecreate())
	c.grace = 3
	c.setImage("web", "web:2")
	c.run()
	assert.Equal(t, []string{c.expand("Scaled down replica set {A} from 3 to 0")}, c.events)
	assert.Nil(t, c.rsByImage("web:2"), "no new RS before the old pods are gone")
	for step := 1; step <= 2; step++ {
		c.run()
		assert.Empty(t, c.events, "step %d", step)
		assert.Nil(t, c.rsByImage("web:2"), "step %d", step)
		assert.Equal(t, "waiting for 3 old pods to terminate (Recreate)", c.record("web").Waiting, "step %d", step)
		assert.Equal(t, "Waiting for deployment \"web\" rollout to finish: 0 out of 3 new replicas have been updated...", c.rolloutStatus("web"))
		cond := GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentAvailable)
		assert.Equal(t, MinimumReplicasUnavailable, cond.Reason, "Recreate has no availability budget")
	}
	c.run()
	assert.Equal(t, []string{c.expand("Scaled up replica set {B} from 0 to 3")}, c.events)
	b, _ := sizeAndAvail(c.rsByImage("web:2"))
	assert.Equal(t, int32(3), b)
	assert.True(t, strings.HasSuffix(c.rolloutStatus("web"), "0 of 3 updated replicas are available..."))
	c.run()
	assert.True(t, strings.HasSuffix(c.rolloutStatus("web"), done))
	c.run()
	d := c.f.getD("web")
	assert.Equal(t, MinimumReplicasAvailable, GetDeploymentCondition(&d.Status, api.DeploymentAvailable).Reason)
	assert.Equal(t, NewRSAvailableReason, GetDeploymentCondition(&d.Status, api.DeploymentProgressing).Reason)
}

func TestTraceT9ProportionalScaling(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		replicas int32
		events   []string
		a, b     int32
		max      string
	}{
		{"scale up to 20", 20, []string{"Scaled up replica set {A} from 8 to 15", "Scaled up replica set {B} from 5 to 10"}, 15, 10, "25"},
		{"scale down to 5", 5, []string{"Scaled down replica set {A} from 8 to 4", "Scaled down replica set {B} from 5 to 3"}, 4, 3, "7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := settled(t, 10, 1)
			c.setImage("web", "web:2")
			c.run()
			c.run()
			a, b := c.rsByImage("web:1"), c.rsByImage("web:2")
			require.Equal(t, []int32{8, 5}, []int32{specOf(a), specOf(b)}, "T3 after step 1")
			c.f.update("web", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(tc.replicas) })
			c.run()
			var want []string
			for _, e := range tc.events {
				want = append(want, c.expand(e))
			}
			assert.Equal(t, want, c.events)
			a, b = c.rsByImage("web:1"), c.rsByImage("web:2")
			assert.Equal(t, []int32{tc.a, tc.b}, []int32{specOf(a), specOf(b)})
			for _, rs := range []*api.ReplicaSet{a, b} {
				assert.Equal(t, fmt.Sprint(tc.replicas), rs.Annotations[api.DesiredReplicasAnnotation])
				assert.Equal(t, tc.max, rs.Annotations[api.MaxReplicasAnnotation])
			}
			c.runUntil(40, func() bool { return c.complete("web") })
			assert.Equal(t, tc.replicas, specOf(c.rsByImage("web:2")))
			assert.Equal(t, int32(0), specOf(c.rsByImage("web:1")))
		})
	}
}

func TestTraceT10RollbackRevisionNumbers(t *testing.T) {
	t.Parallel()
	c := settled(t, 3, 1)
	c.setImage("web", "web:2")
	c.runUntil(20, func() bool { return c.complete("web") })
	a, b := c.rsByImage("web:1"), c.rsByImage("web:2")
	require.Equal(t, "1", a.Annotations[api.RevisionAnnotation])
	require.Equal(t, "2", b.Annotations[api.RevisionAnnotation])

	// `kubectl rollout undo` patches the template back to revision 1's.
	c.setImage("web", "web:1")
	c.run()
	assert.Equal(t, []string{c.expand("Scaled up replica set {A} from 0 to 1")}, c.events, "a scale of the existing RS, not a creation")
	a = c.rsByImage("web:1")
	assert.Equal(t, "3", a.Annotations[api.RevisionAnnotation])
	assert.Equal(t, "1", a.Annotations[api.RevisionHistoryAnnotation])
	c.runUntil(20, func() bool { return c.complete("web") })
	assert.Equal(t, "3", c.f.getD("web").Annotations[api.RevisionAnnotation])
	assert.Equal(t, int32(3), specOf(c.rsByImage("web:1")))
	assert.Equal(t, int32(0), specOf(c.rsByImage("web:2")))

	// A second undo goes back to revision 2 (B): it becomes revision 4.
	c.setImage("web", "web:2")
	c.runUntil(20, func() bool { return c.complete("web") })
	b = c.rsByImage("web:2")
	assert.Equal(t, "4", b.Annotations[api.RevisionAnnotation])
	assert.Equal(t, "2", b.Annotations[api.RevisionHistoryAnnotation])
	assert.Equal(t, "4", c.f.getD("web").Annotations[api.RevisionAnnotation])
	assert.Equal(t, "3", c.rsByImage("web:1").Annotations[api.RevisionAnnotation], "history is now 3, 4: revision 1 is gone")
}

func TestTraceT11PauseEditScaleResume(t *testing.T) {
	t.Parallel()
	c := settled(t, 3, 1)
	c.f.update("web", func(d *api.Deployment) { d.Spec.Paused = true })
	c.run()
	prog := GetDeploymentCondition(&c.f.getD("web").Status, api.DeploymentProgressing)
	assert.Equal(t, []string{api.ConditionUnknown, PausedDeployReason, pausedMessage}, []string{prog.Status, prog.Reason, prog.Message})

	gen := c.f.getD("web").Generation
	c.setImage("web", "web:2")
	c.run()
	d := c.f.getD("web")
	assert.Equal(t, gen+1, d.Generation)
	assert.Equal(t, d.Generation, d.Status.ObservedGeneration, "the edit is observed")
	assert.Nil(t, c.rsByImage("web:2"), "no new RS while paused")
	assert.True(t, strings.HasSuffix(c.rolloutStatus("web"), "0 out of 3 new replicas have been updated..."))
	assert.Equal(t, "paused: template changes wait for rollout resume", c.record("web").Waiting)
	assert.Equal(t, BlockingPaused, c.record("web").Rollout.Blocking)

	c.f.update("web", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(5) })
	c.run()
	assert.Equal(t, []string{c.expand("Scaled up replica set {A} from 3 to 5")}, c.events)
	c.run()
	c.run()
	require.Equal(t, int32(5), c.rsByImage("web:1").Status.AvailableReplicas)

	c.f.update("web", func(d *api.Deployment) { d.Spec.Paused = false })
	c.run()
	assert.Equal(t, []string{c.expand("Scaled up replica set {B} from 0 to 2"), c.expand("Scaled down replica set {A} from 5 to 4")}, c.events)
	assert.Equal(t, int32(4), specOf(c.rsByImage("web:1")))
	assert.Equal(t, int32(2), specOf(c.rsByImage("web:2")))
	c.runUntil(30, func() bool { return c.complete("web") })
	assert.Equal(t, int32(5), specOf(c.rsByImage("web:2")))
}

func TestTraceT5StuckRolloutTimesOut(t *testing.T) {
	t.Parallel()
	c := settled(t, 3, 1, simtest.WithProgressDeadlineSeconds(10))
	c.newPodsNeverReady = c.hashOf("web", "web:2")
	c.crashLoop = true
	c.setImage("web", "web:2")
	c.run()
	assert.Equal(t, []string{c.expand("Scaled up replica set {B} from 0 to 1")}, c.events)
	c.run()
	assert.Equal(t, "at surge cap 4/4: waiting for new pods to become available", c.record("web").Waiting, "progress this second (B's pod exists)")
	assert.Equal(t, int64(11), c.record("web").Rollout.ProgressDeadlineIn)
	c.run()
	assert.Equal(t, "ProgressDeadlineExceeded in 10s", c.record("web").Waiting, "no progress and a crash-looping new pod: the deadline is next")
	for i := 0; i < 9; i++ {
		c.run()
		assert.Empty(t, c.events)
	}
	assert.Equal(t, "ProgressDeadlineExceeded in 1s", c.record("web").Waiting)
	c.run()
	d := c.f.getD("web")
	prog := GetDeploymentCondition(&d.Status, api.DeploymentProgressing)
	assert.Equal(t, TimedOutReason, prog.Reason)
	assert.Equal(t, api.ConditionFalse, prog.Status)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q has timed out progressing.", c.expand("{B}")), prog.Message)
	assert.Equal(t, `error: deployment "web" exceeded its progress deadline`, c.rolloutStatus("web"))
	assert.Equal(t, api.ConditionTrue, GetDeploymentCondition(&d.Status, api.DeploymentAvailable).Status, "3 of 3 old pods still available")
	r := c.record("web")
	assert.Equal(t, BlockingProgressDeadline, r.Rollout.Blocking)
	assert.Equal(t, "progress deadline exceeded; at surge cap 4/4: waiting for new pods to become available", r.Waiting)
	assert.Equal(t, []int32{3, 1}, []int32{specOf(c.rsByImage("web:1")), specOf(c.rsByImage("web:2"))}, "the layout is kept")
}
