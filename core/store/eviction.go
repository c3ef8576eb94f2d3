package store

import (
	"fmt"

	"converge/core/api"
	"converge/core/labels"
)

// Texts of the Eviction API (pkg/registry/core/pod/storage/eviction.go).
const (
	msgEvictionRefused   = "Cannot evict pod as it would violate the pod's disruption budget."
	msgTooManyBudgets    = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
	msgBudgetProcessing  = "The disruption budget %s is still being processed by the server."
	msgBudgetNeeds       = "The disruption budget %s needs %d healthy pods and has %d currently"
	reasonEvictionByAPI  = "EvictionByEvictionAPI"
	msgEvictionCondition = "Eviction API: evicting"
)

// Evict is the pods/eviction subresource (EvictionREST.Create): it deletes
// the pod with opts unless a PodDisruptionBudget forbids it.
//
//   - A pod that is Succeeded, Failed, Pending or already being deleted goes
//     without a look at the budgets.
//   - With no budget selecting the pod it goes; with more than one the
//     eviction fails (500).
//   - A pod that is not Ready goes when its budget's policy is AlwaysAllow,
//     or when the budget is met (currentHealthy ≥ desiredHealthy > 0).
//   - Otherwise the budget must allow a disruption: its status must be
//     observed for its generation and disruptionsAllowed above 0, else the
//     eviction is refused with 429 TooManyRequests, "Cannot evict pod as it
//     would violate the pod's disruption budget.", the budget named in the
//     cause (refusal says why). An allowed eviction takes one disruption
//     off the budget's status and records the pod in status.disruptedPods.
//
// An evicted pod gets the DisruptionTarget condition (reason
// EvictionByEvictionAPI) and is then deleted, gracefully.
func (s *Store) Evict(namespace, name string, opts DeleteOptions) error {
	if namespace == "" {
		namespace = api.NamespaceDefault
	}
	o, err := s.Get(api.KindPod, namespace, name)
	if err != nil {
		return err
	}
	p := o.(*api.Pod)
	if canIgnorePDB(p) {
		return s.deleteEvicted(p, opts)
	}
	var pdbs []*api.PodDisruptionBudget
	for _, b := range listAs[*api.PodDisruptionBudget](s, api.KindPodDisruptionBudget) {
		sel, err := labels.FromLabelSelector(b.Spec.Selector)
		if err != nil || b.Namespace != p.Namespace || !sel.Matches(p.Labels) {
			continue
		}
		pdbs = append(pdbs, b)
	}
	switch len(pdbs) {
	case 0:
		return s.deleteEvicted(p, opts)
	case 1:
	default:
		return &StatusError{Reason: ReasonInternalError, Kind: api.KindPod, Name: name, Message: msgTooManyBudgets}
	}
	pdb := pdbs[0]
	if !api.IsPodReady(p) {
		if pol := pdb.Spec.UnhealthyPodEvictionPolicy; pol != nil && *pol == api.AlwaysAllow {
			return s.deleteEvicted(p, opts)
		}
		if pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0 {
			return s.deleteEvicted(p, opts)
		}
	}
	if err := s.checkAndDecrement(p, pdb); err != nil {
		return err
	}
	return s.deleteEvicted(p, opts)
}

// canIgnorePDB: a finished, pending or already deleted pod disrupts nothing more.
func canIgnorePDB(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodPending ||
		p.DeletionTimestamp != nil
}

// checkAndDecrement is the Eviction API's checkAndDecrement.
func (s *Store) checkAndDecrement(p *api.Pod, pdb *api.PodDisruptionBudget) error {
	if pdb.Status.ObservedGeneration < pdb.Generation {
		return tooManyRequests(p.Name, 10, fmt.Sprintf(msgBudgetProcessing, pdb.Name))
	}
	if pdb.Status.DisruptionsAllowed < 0 {
		return NewForbidden(api.KindPodDisruptionBudget, pdb.Name, "pdb disruptions allowed is negative")
	}
	if len(pdb.Status.DisruptedPods) > MaxDisruptedPodSize {
		return NewForbidden(api.KindPodDisruptionBudget, pdb.Name, "DisruptedPods map too big - too many evictions not confirmed by PDB controller")
	}
	if pdb.Status.DisruptionsAllowed == 0 {
		return tooManyRequests(p.Name, 0, refusal(pdb))
	}
	next := pdb.DeepCopy()
	next.Status.DisruptionsAllowed--
	if next.Status.DisruptionsAllowed == 0 {
		api.SetCondition(&next.Status.Conditions, api.Condition{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse,
			Reason: api.InsufficientPodsReason, ObservedGeneration: next.Status.ObservedGeneration}, s.Now())
	}
	if next.Status.DisruptedPods == nil {
		next.Status.DisruptedPods = map[string]api.Time{}
	}
	next.Status.DisruptedPods[p.Name] = s.Now()
	_, err := s.UpdateStatus(next)
	return err
}

// MaxDisruptedPodSize bounds status.disruptedPods: beyond it the Eviction
// API refuses evictions until the disruption controller has caught up.
const MaxDisruptedPodSize = 2000

// refusal is the cause of a refusal when the budget allows no disruption:
// a failed sync says so first (its counts are not to be trusted), then a
// budget that is not met says what it needs, then the condition's reason
// and message when it has one.
func refusal(pdb *api.PodDisruptionBudget) string {
	st := &pdb.Status
	c := api.FindCondition(st.Conditions, api.DisruptionAllowedCondition)
	switch {
	case c != nil && c.Status == api.ConditionFalse && c.Message != "" && c.Reason == api.SyncFailedReason:
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %s", pdb.Name, c.Message)
	case st.CurrentHealthy <= st.DesiredHealthy:
		return fmt.Sprintf(msgBudgetNeeds, pdb.Name, st.DesiredHealthy, st.CurrentHealthy)
	case c != nil && c.Status == api.ConditionFalse && c.Message != "":
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently (%s): %s", pdb.Name, c.Reason, c.Message)
	}
	return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", pdb.Name)
}

func tooManyRequests(pod string, retryAfter int, cause string) error {
	return &StatusError{Reason: ReasonTooManyRequests, Kind: api.KindPod, Name: pod, Message: msgEvictionRefused,
		Causes: []StatusCause{{Type: api.DisruptionBudgetCause, Message: cause}}, RetryAfterSeconds: retryAfter}
}

// deleteEvicted is addConditionAndDeletePod: the DisruptionTarget
// condition, then the delete.
func (s *Store) deleteEvicted(p *api.Pod, opts DeleteOptions) error {
	x := p.DeepCopy()
	if api.UpdatePodCondition(&x.Status, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue,
		Reason: reasonEvictionByAPI, Message: msgEvictionCondition}, s.Now()) {
		if _, err := s.UpdateStatus(x); err != nil {
			return err
		}
	}
	return s.Delete(api.KindPod, p.Namespace, p.Name, opts)
}
