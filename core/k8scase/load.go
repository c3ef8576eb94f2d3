package k8scase

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/store"
)

// Base is the instant a case's "now" is in Converge's store: thirty days
// after the simulation's epoch, so that every case time lies after it.
var Base = api.Epoch.Add(30 * 24 * time.Hour)

// At returns the instant of case time rel (seconds relative to now) when
// now is base.
func At(base time.Time, rel int64) time.Time { return base.Add(time.Duration(rel) * time.Second) }

// Rel returns the case time of instant t when now is base, in whole seconds.
func Rel(base, t time.Time) int64 { return int64(t.Sub(base) / time.Second) }

// Loaded is a case loaded into a Converge store.
type Loaded struct {
	Store *store.Store
	Clock *clock.Clock
	// UIDs maps "deployment/web", "replicaset/web-1" and "pod/web-1-a" to
	// the uid the store gave each object; the other side of a comparison
	// gives its objects the same uids, which the deletion ranking compares.
	UIDs map[string]string
}

// creationOrder returns the indexes of items sorted by creation time,
// keeping list order among equals: the order objects are created in, and
// so the order both sides list ReplicaSets in.
func creationOrder[T any](items []T, created func(*T) int64) []int {
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(created(&items[a]), created(&items[b])) })
	return idx
}

// ReplicaSetOrder returns the indexes of the state's ReplicaSets in the
// order they are created (and listed, and synced by the ReplicaSet controller).
func (c *State) ReplicaSetOrder() []int {
	return creationOrder(c.ReplicaSets, func(rs *ReplicaSet) int64 { return rs.Created })
}

// PodOrder returns the indexes of the state's pods in creation order.
func (c *State) PodOrder() []int {
	return creationOrder(c.Pods, func(p *Pod) int64 { return p.Created })
}

// Load builds the case's objects in a new store whose clock stands at
// Base: each object is created at its own creation time, gets its status
// and is brought to its generation by user updates; terminating pods are
// then deleted gracefully. The store's refusal of the Deployment is
// returned as is, so that store.ReasonOf classifies it; a refused
// ReplicaSet or pod is a broken case, reported as a plain error.
func Load(c *Case) (*Loaded, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	clk := clock.New(Base)
	l := &Loaded{Store: store.New(store.Options{Clock: clk, Seed: 1}), Clock: clk, UIDs: map[string]string{}}
	d, err := l.createDeployment(c)
	if err != nil {
		return nil, err
	}
	rsObjs := map[string]*api.ReplicaSet{}
	for _, i := range c.ReplicaSetOrder() {
		rs, err := l.createReplicaSet(c, &c.ReplicaSets[i], d)
		if err != nil {
			return nil, err
		}
		rsObjs[rs.Name] = rs
	}
	for _, i := range c.PodOrder() {
		if err := l.createPod(c, &c.Pods[i], rsObjs); err != nil {
			return nil, err
		}
	}
	clk.Set(Base)
	grace := int64(TerminationGraceSeconds)
	for _, p := range c.Pods {
		if !p.Terminating {
			continue
		}
		if err := l.Store.Delete(api.KindPod, Namespace, p.Name, store.DeleteOptions{GracePeriodSeconds: &grace}); err != nil {
			return nil, fmt.Errorf("case %q: delete pod %s: %w", c.Name, p.Name, err)
		}
	}
	return l, nil
}

// bumpAnnotation is a scratch annotation Load sets and removes to raise a
// Deployment's generation (the store bumps it on annotation changes).
const bumpAnnotation = "k8scase.converge/generation"

func (l *Loaded) createDeployment(c *Case) (*api.Deployment, error) {
	cd := c.Deployment
	l.Clock.Set(At(Base, cd.Created))
	d := DeploymentObject(cd)
	if err := applyTemplate(cd.Template, &d.Spec.Template); err != nil {
		return nil, fmt.Errorf("case %q: deployment template: %v", c.Name, err)
	}
	gen := max(cd.Generation, 1)
	if gen > 1 {
		d.Annotations = withEntry(d.Annotations, bumpAnnotation, "0")
	}
	out, err := l.Store.Create(d)
	if err != nil {
		return nil, err
	}
	for g := int64(2); g <= gen; g++ {
		next := out.(*api.Deployment).DeepCopy()
		next.Annotations = api.CopyStringMap(cd.Annotations)
		if g < gen {
			next.Annotations = withEntry(next.Annotations, bumpAnnotation, strconv.FormatInt(g, 10))
		}
		if out, err = l.Store.Update(next); err != nil {
			return nil, err
		}
	}
	created := out.(*api.Deployment)
	l.UIDs["deployment/"+created.Name] = created.UID
	return created, nil
}

// DeploymentObject returns the case's Deployment as Converge's api type
// (undefaulted, without server-set metadata).
func DeploymentObject(cd *Deployment) *api.Deployment {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: cd.Name, Namespace: Namespace, Annotations: api.CopyStringMap(cd.Annotations)}}
	d.Spec.Replicas = api.Int32(cd.Replicas)
	d.Spec.Selector = &api.LabelSelector{MatchLabels: cd.Selector()}
	d.Spec.Template.Labels = cd.Selector()
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "app", Image: cd.Image}}
	d.Spec.Strategy.Type = cd.Strategy
	if cd.MaxSurge != nil || cd.MaxUnavailable != nil {
		d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: copyIntOrString(cd.MaxSurge), MaxUnavailable: copyIntOrString(cd.MaxUnavailable)}
	}
	d.Spec.MinReadySeconds = cd.MinReadySeconds
	d.Spec.RevisionHistoryLimit = copyInt32(cd.RevisionHistoryLimit)
	d.Spec.ProgressDeadlineSeconds = copyInt32(cd.ProgressDeadlineSeconds)
	d.Spec.Paused = cd.Paused
	d.Status = api.DeploymentStatus{
		ObservedGeneration:  cd.Status.ObservedGeneration,
		Replicas:            cd.Status.Replicas,
		UpdatedReplicas:     cd.Status.UpdatedReplicas,
		ReadyReplicas:       cd.Status.ReadyReplicas,
		AvailableReplicas:   cd.Status.AvailableReplicas,
		UnavailableReplicas: cd.Status.UnavailableReplicas,
		TerminatingReplicas: copyInt32(cd.Status.TerminatingReplicas),
		CollisionCount:      copyInt32(cd.Status.CollisionCount),
	}
	for _, cc := range cd.Status.Conditions {
		d.Status.Conditions = append(d.Status.Conditions, api.DeploymentCondition{Type: cc.Type, Status: cc.Status,
			Reason: cc.Reason, Message: cc.Message,
			LastUpdateTime: api.NewTime(At(Base, cc.LastUpdate)), LastTransitionTime: api.NewTime(At(Base, cc.LastTransition))})
	}
	return d
}

func (l *Loaded) createReplicaSet(c *Case, crs *ReplicaSet, d *api.Deployment) (*api.ReplicaSet, error) {
	l.Clock.Set(At(Base, crs.Created))
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: crs.Name, Namespace: Namespace,
		Labels: c.RSMetaLabels(crs), Annotations: api.CopyStringMap(crs.Annotations)}}
	if !crs.Orphan {
		rs.OwnerReferences = []api.OwnerReference{api.NewControllerRef(d)}
	}
	gen := max(crs.Generation, 1)
	// The store bumps a ReplicaSet's generation on spec changes: create it
	// gen-1 replicas larger and step down to its size.
	rs.Spec.Replicas = api.Int32(crs.Replicas + int32(gen-1))
	rs.Spec.MinReadySeconds = crs.MinReadySeconds
	rs.Spec.Selector = &api.LabelSelector{MatchLabels: c.RSLabels(crs.Hash)}
	rs.Spec.Template.Labels = c.RSLabels(crs.Hash)
	rs.Spec.Template.Spec.Containers = []api.Container{{Name: "app", Image: crs.Image}}
	if err := applyTemplate(crs.Template, &rs.Spec.Template); err != nil {
		return nil, fmt.Errorf("case %q: replica set %s: %v", c.Name, crs.Name, err)
	}
	rs.Status = api.ReplicaSetStatus{
		Replicas:             crs.Status.Replicas,
		FullyLabeledReplicas: crs.Status.FullyLabeledReplicas,
		ReadyReplicas:        crs.Status.ReadyReplicas,
		AvailableReplicas:    crs.Status.AvailableReplicas,
		TerminatingReplicas:  copyInt32(crs.Status.TerminatingReplicas),
		ObservedGeneration:   crs.Status.ObservedGeneration,
	}
	for _, cc := range crs.Status.Conditions {
		rs.Status.Conditions = append(rs.Status.Conditions, api.ReplicaSetCondition{Type: cc.Type, Status: cc.Status,
			Reason: cc.Reason, Message: cc.Message, LastTransitionTime: api.NewTime(At(Base, cc.LastTransition))})
	}
	out, err := l.Store.Create(rs)
	if err != nil {
		return nil, fmt.Errorf("case %q: replica set %s: %v", c.Name, crs.Name, err)
	}
	for r := crs.Replicas + int32(gen-2); r >= crs.Replicas; r-- {
		next := out.(*api.ReplicaSet).DeepCopy()
		next.Spec.Replicas = api.Int32(r)
		if out, err = l.Store.Update(next); err != nil {
			return nil, fmt.Errorf("case %q: replica set %s: %v", c.Name, crs.Name, err)
		}
	}
	created := out.(*api.ReplicaSet)
	l.UIDs["replicaset/"+created.Name] = created.UID
	return created, nil
}

func (l *Loaded) createPod(c *Case, cp *Pod, owners map[string]*api.ReplicaSet) error {
	l.Clock.Set(At(Base, cp.Created))
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: cp.Name, Namespace: Namespace, Labels: c.RSLabels(cp.Hash)}}
	if cp.Owner != "" {
		p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(owners[cp.Owner])}
	}
	if cp.DeletionCost != nil {
		p.Annotations = map[string]string{api.PodDeletionCostAnnotation: *cp.DeletionCost}
	}
	p.Spec.Containers = []api.Container{{Name: "app", Image: cp.Image}}
	p.Spec.NodeName = cp.Node
	p.Status.Phase = cp.Phase
	ready := api.PodCondition{Type: api.PodReady, Status: api.ConditionFalse}
	if cp.Ready {
		ready.Status = api.ConditionTrue
	}
	if cp.ReadySince != nil {
		ready.LastTransitionTime = api.NewTime(At(Base, *cp.ReadySince))
	}
	p.Status.Conditions = []api.PodCondition{ready}
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app", Image: cp.Image, Ready: cp.Ready, RestartCount: cp.Restarts}}
	out, err := l.Store.Create(p)
	if err != nil {
		return fmt.Errorf("case %q: pod %s: %v", c.Name, cp.Name, err)
	}
	l.UIDs["pod/"+cp.Name] = out.GetObjectMeta().UID
	return nil
}

func withEntry(m map[string]string, k, v string) map[string]string {
	out := api.CopyStringMap(m)
	if out == nil {
		out = map[string]string{}
	}
	out[k] = v
	return out
}

func copyInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func copyIntOrString(p *api.IntOrString) *api.IntOrString {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
