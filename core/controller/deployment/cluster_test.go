package deployment

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// cluster plays the rest of the control plane around the Deployment
// controller, by hand and in the model of docs/kubernetes-rules.md §4:
//   - one step is one simulated second and (by default) one Deployment
//     controller pass;
//   - after the pass the "ReplicaSet controller" reconciles at once: surplus
//     pods are deleted not-ready first, missing ones are created;
//   - a pod created in step t becomes Ready (and, with minReadySeconds 0,
//     available) at step t+readyAfter, unless it is in neverReady;
//   - a deleted pod is Terminating for grace seconds, then gone.
type cluster struct {
	f          *fixture
	t          testing.TB
	ctrl       *Controller
	readyAfter int
	grace      int64
	// rounds > 1 repeats controller pass + ReplicaSet reconcile while
	// anything was written, as core/sim does.
	rounds int
	// neverReady pods stay not ready; crashLoop marks them CrashLoopBackOff.
	neverReady map[string]bool
	crashLoop  bool
	// newPodsNeverReady makes every pod of a ReplicaSet with this name prefix never ready.
	newPodsNeverReady string

	// afterPass, when set, runs after every controller pass and after every
	// ReplicaSet reconcile (property checks).
	afterPass func()

	step    int
	events  []string                // the controller's events of the last step
	records []controller.SyncRecord // the controller's records of the last step
}

func newCluster(t testing.TB, readyAfter int) *cluster {
	return &cluster{f: newFixture(t), t: t, ctrl: New(), readyAfter: readyAfter, rounds: 1, neverReady: map[string]bool{}}
}

// run advances one step: the clock, the kubelets, ReplicaSet status, the
// controller pass(es) and the ReplicaSet reconcile.
func (c *cluster) run() {
	c.t.Helper()
	if c.step > 0 || c.f.now() != api.Epoch {
		c.f.advance(1)
	}
	c.step++
	c.kubelet()
	c.rsStatus()
	c.events, c.records = nil, nil
	for r := 0; r < max(c.rounds, 1); r++ {
		before := c.f.store.Writes()
		ctx := c.f.context()
		c.ctrl.Sync(ctx)
		// The controller's own messages: the recorder combines the tenth
		// similar event within 10 minutes ("(combined from similar events):
		// ..."), which the traces of docs/kubernetes-rules.md §4 leave out.
		for _, e := range eventTexts(ctx) {
			c.events = append(c.events, strings.TrimPrefix(e, store.AggregatePrefix))
		}
		c.records = append(c.records, ctx.Log.Records...)
		if c.afterPass != nil {
			c.afterPass()
		}
		c.reconcileReplicaSets()
		if c.afterPass != nil {
			c.afterPass()
		}
		if c.f.store.Writes() == before {
			break
		}
	}
}

// runUntil runs steps until done returns true, failing after limit steps.
func (c *cluster) runUntil(limit int, done func() bool) {
	c.t.Helper()
	for i := 0; i < limit; i++ {
		c.run()
		if done() {
			return
		}
	}
	c.t.Fatalf("not done after %d steps", limit)
}

// complete reports whether Deployment name has finished its rollout.
func (c *cluster) complete(name string) bool {
	d := c.f.getD(name)
	st := c.observedStatus(name)
	return DeploymentComplete(d, &st) && d.Status.ObservedGeneration >= d.Generation
}

func (c *cluster) pods() []*api.Pod { return c.f.store.Pods() }

// kubelet makes pods Ready when their time has come and removes pods whose
// grace period is over.
func (c *cluster) kubelet() {
	now := c.f.now()
	for _, p := range c.pods() {
		if p.DeletionTimestamp != nil {
			if !p.DeletionTimestamp.After(now) {
				require.NoError(c.t, c.f.store.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
			}
			continue
		}
		if api.IsPodReady(p) || now.Sub(p.CreationTimestamp.Time) < time.Duration(c.readyAfter)*time.Second {
			continue
		}
		cp := p.DeepCopy()
		if c.neverReady[p.Name] || c.newPodsNeverReady != "" && strings.HasPrefix(p.Name, c.newPodsNeverReady) {
			if !c.crashLoop || len(cp.Status.ContainerStatuses) > 0 {
				continue
			}
			cp.Status.ContainerStatuses = []api.ContainerStatus{{Name: "foo", RestartCount: 1,
				State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}
		} else {
			cp.Status.Phase = api.PodRunning
			cp.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now)}}
		}
		_, err := c.f.store.UpdateStatus(cp)
		require.NoError(c.t, err)
	}
}

// ownedActive returns the active pods controlled by rs, in creation order.
func (c *cluster) ownedActive(rs *api.ReplicaSet) []*api.Pod {
	var out []*api.Pod
	for _, p := range c.pods() {
		if api.IsPodActive(p) && api.IsControlledBy(&p.ObjectMeta, rs.UID) {
			out = append(out, p)
		}
	}
	return out
}

// reconcileReplicaSets creates and deletes pods to match every ReplicaSet's size.
func (c *cluster) reconcileReplicaSets() {
	for _, rs := range c.f.store.ReplicaSets() {
		pods := c.ownedActive(rs)
		diff := len(pods) - int(specOf(rs))
		for i := 0; i < -diff; i++ {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: rs.Name + "-", Namespace: rs.Namespace,
				Labels: api.CopyStringMap(rs.Spec.Template.Labels), OwnerReferences: []api.OwnerReference{api.NewControllerRef(rs)}},
				Spec: rs.Spec.Template.Spec.DeepCopy(), Status: api.PodStatus{Phase: api.PodPending}}
			p.Spec.NodeName = "node-1"
			_, err := c.f.store.Create(p)
			require.NoError(c.t, err)
		}
		if diff > 0 {
			slices.SortStableFunc(pods, deleteFirst)
			for _, p := range pods[:diff] {
				require.NoError(c.t, c.f.store.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{GracePeriodSeconds: api.Int64(c.grace)}))
			}
		}
	}
	c.rsStatus()
}

// deleteFirst ranks pods for deletion: not ready first, then the most
// recently ready, then the newest.
func deleteFirst(a, b *api.Pod) int {
	ra, rb := api.IsPodReady(a), api.IsPodReady(b)
	switch {
	case ra != rb:
		if !ra {
			return -1
		}
		return 1
	case ra:
		ta := api.GetPodCondition(&a.Status, api.PodReady).LastTransitionTime
		tb := api.GetPodCondition(&b.Status, api.PodReady).LastTransitionTime
		if !ta.Equal(tb) {
			return tb.Compare(ta.Time)
		}
	}
	return b.CreationTimestamp.Compare(a.CreationTimestamp.Time)
}

// rsStatus writes every ReplicaSet's status from its pods.
func (c *cluster) rsStatus() {
	now := c.f.now()
	for _, rs := range c.f.store.ReplicaSets() {
		var st api.ReplicaSetStatus
		minReady := time.Duration(rs.Spec.MinReadySeconds) * time.Second
		for _, p := range c.ownedActive(rs) {
			st.Replicas++
			st.FullyLabeledReplicas++
			if cond := api.GetPodCondition(&p.Status, api.PodReady); cond != nil && cond.Status == api.ConditionTrue {
				st.ReadyReplicas++
				if minReady == 0 || cond.LastTransitionTime.Add(minReady).Before(now) {
					st.AvailableReplicas++
				}
			}
		}
		st.ObservedGeneration = rs.Generation
		st.Conditions = rs.Status.Conditions
		if statusSame(rs.Status, st) {
			continue
		}
		cp := rs.DeepCopy()
		cp.Status = st
		_, err := c.f.store.UpdateStatus(cp)
		require.NoError(c.t, err)
	}
}

func statusSame(a, b api.ReplicaSetStatus) bool {
	return a.Replicas == b.Replicas && a.ReadyReplicas == b.ReadyReplicas && a.AvailableReplicas == b.AvailableReplicas &&
		a.FullyLabeledReplicas == b.FullyLabeledReplicas && a.ObservedGeneration == b.ObservedGeneration
}

// observedStatus is the status the controller would write now: the
// Deployment's status recomputed from the ReplicaSets after the ReplicaSet
// reconcile (the tables of docs/kubernetes-rules.md §4 list it that way).
func (c *cluster) observedStatus(name string) api.DeploymentStatus {
	d := c.f.getD(name)
	var owned []*api.ReplicaSet
	for _, rs := range c.f.store.ReplicaSets() {
		if api.IsControlledBy(&rs.ObjectMeta, d.UID) {
			owned = append(owned, rs)
		}
	}
	newRS := FindNewReplicaSet(d, owned)
	st := calculateStatus(owned, newRS, d, c.f.now())
	st.Conditions = d.Status.Conditions
	return st
}

// rolloutStatus is what `kubectl rollout status` prints for the observed
// status (kubectl's DeploymentStatusViewer).
func (c *cluster) rolloutStatus(name string) string {
	d := c.f.getD(name)
	st := c.observedStatus(name)
	n := replicas(d)
	if cond := GetDeploymentCondition(&d.Status, api.DeploymentProgressing); cond != nil && cond.Reason == TimedOutReason {
		return fmt.Sprintf("error: deployment %q exceeded its progress deadline", name)
	}
	prefix := fmt.Sprintf("Waiting for deployment %q rollout to finish: ", name)
	switch {
	case st.UpdatedReplicas < n:
		return prefix + fmt.Sprintf("%d out of %d new replicas have been updated...", st.UpdatedReplicas, n)
	case st.Replicas > st.UpdatedReplicas:
		return prefix + fmt.Sprintf("%d old replicas are pending termination...", st.Replicas-st.UpdatedReplicas)
	case st.AvailableReplicas < st.UpdatedReplicas:
		return prefix + fmt.Sprintf("%d of %d updated replicas are available...", st.AvailableReplicas, st.UpdatedReplicas)
	}
	return fmt.Sprintf("deployment %q successfully rolled out", name)
}

// rsByImage returns the Deployment's ReplicaSet whose template runs image, or nil.
func (c *cluster) rsByImage(image string) *api.ReplicaSet {
	for _, rs := range c.f.store.ReplicaSets() {
		if rs.Spec.Template.Spec.Containers[0].Image == image {
			return rs
		}
	}
	return nil
}

// record returns the last sync record of the step for deployment/name.
func (c *cluster) record(name string) controller.SyncRecord {
	c.t.Helper()
	for i := len(c.records) - 1; i >= 0; i-- {
		if c.records[i].Object == "deployment/"+name {
			return c.records[i]
		}
	}
	c.t.Fatalf("no record for deployment/%s", name)
	return controller.SyncRecord{}
}

// hashOf returns the pod-template-hash the Deployment's template gets with image.
func (c *cluster) hashOf(name, image string) string {
	d := c.f.getD(name)
	tmpl := d.Spec.Template.DeepCopy()
	tmpl.Spec.Containers[0].Image = image
	return name + "-" + ComputeHash(&tmpl, d.Status.CollisionCount)
}

// setImage changes the Deployment's image, as kubectl set image does.
func (c *cluster) setImage(name, image string) {
	c.f.update(name, func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image })
}
