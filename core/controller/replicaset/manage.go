package replicaset

import (
	"errors"
	"fmt"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// manageResult is what manageReplicas did: the text of its action, what it
// waits for, and the error that sets the ReplicaFailure condition.
type manageResult struct {
	action  string
	waiting string
	err     error
}

// manageReplicas is the controller's manageReplicas: diff = active pods −
// spec.replicas; a negative diff creates −diff pods in slow-start batches, a
// positive one deletes the diff pods ranked first for deletion, both capped
// at BurstReplicas.
//
// Example: replicas 10, 0 pods: one sync creates 1, 2, 4, then 3 pods; if the
// third batch fails, the fourth is not tried and the sync reports 3 pods
// created plus the error.
func manageReplicas(ctx *controller.Context, states []rsState, i int) manageResult {
	st := &states[i]
	rs := st.rs
	diff := int(st.counts.active) - int(api.Deref(rs.Spec.Replicas, 1))
	switch {
	case diff < 0:
		return createPods(ctx, rs, min(-diff, BurstReplicas))
	case diff > 0:
		return deletePods(ctx, states, i, min(diff, BurstReplicas))
	}
	return manageResult{}
}

// slowStartBatches returns the batch sizes slowStartBatch uses for count
// calls: 1, 2, 4, ... doubling from SlowStartInitialBatchSize, the last one
// capped at what remains.
//
// Example: 10 → 1, 2, 4, 3; 3 → 1, 2; 20 → 1, 2, 4, 8, 5.
func slowStartBatches(count int) []int {
	var out []int
	remaining := count
	for batch := min(remaining, SlowStartInitialBatchSize); batch > 0; batch = min(2*batch, remaining) {
		out = append(out, batch)
		remaining -= batch
	}
	return out
}

// createPods creates n pods from the template in slow-start batches. Every
// call of a batch is made (Kubernetes runs them in parallel); if any failed,
// the remaining batches are skipped.
func createPods(ctx *controller.Context, rs *api.ReplicaSet, n int) manageResult {
	var names []string
	var firstErr error
	parts := newPodParts(rs)
	for _, batch := range slowStartBatches(n) {
		for j := 0; j < batch; j++ {
			created, err := ctx.Store.Create(podFromTemplate(rs, &parts))
			if err != nil {
				ctx.Event(rs, Component, api.EventTypeWarning, FailedCreateReason, "Error creating: "+err.Error())
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			name := created.GetObjectMeta().Name
			names = append(names, name)
			ctx.Event(rs, Component, api.EventTypeNormal, SuccessfulCreateReason, "Created pod: "+name)
			ctx.Yield()
		}
		if firstErr != nil {
			break
		}
	}
	res := manageResult{err: firstErr}
	if len(names) > 0 {
		res.action = nameList("create", names)
	}
	if firstErr != nil {
		if len(names) > 0 {
			res.action += fmt.Sprintf("; %d not created: %v", n-len(names), firstErr)
		} else {
			res.waiting = firstErr.Error()
		}
	}
	return res
}

// podParts are what the pods of one createPods call share: one labels map,
// one ownerReferences list (the controller reference) and one (defaulted)
// spec with its containers.
// Stored objects are never modified (every writer copies first), so sharing
// is safe, and it lets the controllers that read every pod in every round
// tell the pods of one batch alike at a pointer compare instead of a map
// lookup or a cache miss per pod (labelsOf here, the scheduler's request
// sums).
type podParts struct {
	labels map[string]string
	refs   []api.OwnerReference
	spec   api.PodSpec
}

func newPodParts(rs *api.ReplicaSet) podParts {
	spec := rs.Spec.Template.Spec.DeepCopy()
	api.SetDefaultsPodSpec(&spec)
	return podParts{labels: api.CopyStringMap(rs.Spec.Template.Labels), refs: []api.OwnerReference{api.NewControllerRef(rs)}, spec: spec}
}

// podFromTemplate is GetPodFromTemplate: the template's labels, annotations,
// finalizers and spec, generateName "<rs-name>-" (without the dash when that
// would make an invalid name prefix), the ReplicaSet's namespace and a
// controller reference to it. Labels, reference and spec come from parts;
// the tolerations are the pod's own, since admission appends to them.
func podFromTemplate(rs *api.ReplicaSet, parts *podParts) *api.Pod {
	t := &rs.Spec.Template
	prefix := rs.Name + "-"
	if len(prefix) > 253 {
		prefix = rs.Name
	}
	p := &api.Pod{ObjectMeta: api.ObjectMeta{
		GenerateName:    prefix,
		Namespace:       rs.Namespace,
		Labels:          parts.labels,
		Annotations:     api.CopyStringMap(t.Annotations),
		OwnerReferences: parts.refs,
	}}
	if t.Finalizers != nil {
		p.Finalizers = append([]string(nil), t.Finalizers...)
	}
	p.Spec = parts.spec
	p.Spec.Tolerations = append([]api.Toleration(nil), parts.spec.Tolerations...)
	return p
}

// deletePods deletes the n pods ranked first for deletion, gracefully.
func deletePods(ctx *controller.Context, states []rsState, i, n int) manageResult {
	rs := states[i].rs
	now := ctx.Now()
	candidates := rankCandidates(ctx.Store, states, i)
	var names []string
	var firstErr error
	for _, p := range getPodsToDelete(candidates, n, now) {
		err := ctx.Store.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{})
		switch {
		case err == nil:
			names = append(names, p.Name)
			ctx.Event(rs, Component, api.EventTypeNormal, SuccessfulDeleteReason, "Deleted pod: "+p.Name)
			ctx.Yield()
		case errors.Is(err, store.ErrNotFound):
		default:
			ctx.Event(rs, Component, api.EventTypeWarning, FailedDeleteReason, "Error deleting: "+err.Error())
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	res := manageResult{err: firstErr}
	if len(names) > 0 {
		res.action = nameList("delete", names)
	} else if firstErr != nil {
		res.waiting = firstErr.Error()
	}
	return res
}

// rankCandidates lists the active pods the ReplicaSet claims, in creation
// order, each ranked by getPodsRankedByRelatedPodsOnSameNode: the number of
// active pods on its node that the selector of any ReplicaSet with the same
// controller (the Deployment's ReplicaSets) matches. A ReplicaSet without a
// controller ranks every pod 0.
func rankCandidates(s *store.Store, states []rsState, i int) []rankedPod {
	st := &states[i]
	var siblings []*rsState
	if ref := api.GetControllerOf(&st.rs.ObjectMeta); ref != nil {
		for j := range states {
			if o := api.GetControllerOf(&states[j].rs.ObjectMeta); o != nil && o.UID == ref.UID && states[j].selErr == nil {
				siblings = append(siblings, &states[j])
			}
		}
	}
	onNode := map[string]int{}
	var pods []*api.Pod
	s.EachPod(func(p *api.Pod) bool {
		if !api.IsPodActive(p) {
			return true
		}
		if api.IsControlledBy(&p.ObjectMeta, st.uid) {
			if match, _ := st.labelsOf(p.Labels); match {
				pods = append(pods, p)
			}
		}
		for _, sib := range siblings {
			if match, _ := sib.labelsOf(p.Labels); match && p.Namespace == sib.rs.Namespace {
				onNode[p.Spec.NodeName]++
				break
			}
		}
		return true
	})
	out := make([]rankedPod, len(pods))
	for k, p := range pods {
		out[k] = newRankedPod(p, onNode[p.Spec.NodeName])
	}
	return out
}
