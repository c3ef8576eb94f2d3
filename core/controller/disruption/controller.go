// Package disruption is the disruption controller of kube-controller-manager
// (pkg/controller/disruption): for every PodDisruptionBudget it counts the
// pods its selector matches and writes the status the Eviction API decides
// on (store.Evict):
//
//   - expectedPods: with an integer minAvailable, the number of matching
//     pods; with a percentage (or maxUnavailable), the sum of the scales of
//     the pods' controllers (a Deployment's spec.replicas for pods of its
//     ReplicaSets, a standalone ReplicaSet's own), each counted once. Pods
//     without a controller are left out of that sum, with an UnmanagedPods
//     event.
//   - desiredHealthy: minAvailable (a percentage of expectedPods rounded
//     up), or expectedPods − maxUnavailable (a percentage rounded up), at
//     least 0.
//   - currentHealthy: the matching pods that are Ready, not being deleted,
//     and not evicted in the last 2 minutes (disruptedPods).
//   - disruptionsAllowed: currentHealthy − desiredHealthy, 0 when negative
//     or when no pod is expected; the DisruptionAllowed condition says
//     SufficientPods or InsufficientPods.
//
// A pod whose controller cannot be found fails the sync: disruptionsAllowed
// 0 and the condition False with reason SyncFailed (failSafe).
package disruption

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/labels"
	"converge/core/store"
)

// Component is the controller's name, the one its sync records carry
// (sim.TickOrder lists every component's).
const Component = "disruption-controller"

// EventSource is the source of the controller's events: upstream's recorder
// says "controllermanager".
const EventSource = "controllermanager"

// DeletionTimeout is how long an evicted pod counts as disrupted before the
// controller stops expecting its deletion.
const DeletionTimeout = 2 * time.Minute

// Event reasons.
const (
	ReasonNoPods        = "NoPods"
	ReasonUnmanagedPods = "UnmanagedPods"
	ReasonNotDeleted    = "NotDeleted"
	ReasonCalculateFail = "CalculateExpectedPodCountFailed"
)

// Controller is the disruption controller. It keeps no state.
type Controller struct{}

var _ controller.Controller = (*Controller)(nil)

// New returns the controller.
func New() *Controller { return &Controller{} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller; the controller has no state.
func (c *Controller) Clone() controller.Controller { return c }

// Sync is trySync for every PodDisruptionBudget: it compares each status
// with what it computes from the pods and their controllers, and writes it
// when they differ.
func (c *Controller) Sync(ctx *controller.Context) {
	s := ctx.Store
	pdbs := s.PodDisruptionBudgets()
	if len(pdbs) == 0 {
		return
	}
	pods := s.Pods()
	for _, pdb := range pdbs {
		syncBudget(ctx, pdb, pods)
	}
}

// result is one pass's computation for a budget.
type result struct {
	expected, desired, healthy int32
	disrupted                  map[string]api.Time
	unmanaged                  []string
	// notDeleted are the pods evicted more than DeletionTimeout ago that
	// are still not being deleted (a NotDeleted event each).
	notDeleted []*api.Pod
	err        error
}

func syncBudget(ctx *controller.Context, pdb *api.PodDisruptionBudget, all []*api.Pod) {
	s := ctx.Store
	now := ctx.Now()
	pods := podsFor(pdb, all)
	rec := controller.SyncRecord{Controller: Component, Object: store.ShortRef(api.KindPodDisruptionBudget, pdb.Name)}
	r := compute(s, pdb, pods, now)
	if r.err != nil {
		rec.Observed = fmt.Sprintf("%d pods", len(pods))
		failSafe(ctx, pdb, r.err, rec)
		return
	}
	next := pdb.DeepCopy()
	st := &next.Status
	st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods = r.healthy, r.desired, r.expected
	st.DisruptionsAllowed = r.healthy - r.desired
	if r.expected <= 0 || st.DisruptionsAllowed <= 0 {
		st.DisruptionsAllowed = 0
	}
	st.DisruptedPods = r.disrupted
	st.ObservedGeneration = pdb.Generation
	updateDisruptionAllowedCondition(next, api.NewTime(now))
	rec.Observed = fmt.Sprintf("%d pods: %d healthy, %d expected", len(pods), r.healthy, r.expected)
	rec.Desired = fmt.Sprintf("%d healthy", r.desired)
	if unchanged(pdb, next) {
		rec.InSync = true
		ctx.Record(rec)
		return
	}
	if len(pods) == 0 {
		ctx.Event(pdb, EventSource, api.EventTypeNormal, ReasonNoPods, "No matching pods found")
	}
	if len(r.unmanaged) > 0 {
		ctx.Event(pdb, EventSource, api.EventTypeWarning, ReasonUnmanagedPods, unmanagedMessage(pdb))
	}
	for _, p := range r.notDeleted {
		// Upstream's text names the budget's namespace twice.
		ctx.Event(p, EventSource, api.EventTypeWarning, ReasonNotDeleted,
			fmt.Sprintf("Pod was expected by PDB %s/%s to be deleted but it wasn't", pdb.Namespace, pdb.Namespace))
	}
	if _, err := s.UpdateStatus(next); err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			rec.Waiting = fmt.Sprintf("update the status of pod disruption budget %s: %v", pdb.Name, err)
			ctx.Record(rec)
		}
		return
	}
	rec.Action = fmt.Sprintf("update status: %d disruptions allowed", st.DisruptionsAllowed)
	if st.DisruptionsAllowed == 1 {
		rec.Action = "update status: 1 disruption allowed"
	}
	ctx.Record(rec)
}

// unchanged is updatePdbStatus' test: the counters, the disrupted pods, the
// observed generation and the condition as they should be.
func unchanged(old, next *api.PodDisruptionBudget) bool {
	o, n := &old.Status, &next.Status
	return o.CurrentHealthy == n.CurrentHealthy && o.DesiredHealthy == n.DesiredHealthy &&
		o.ExpectedPods == n.ExpectedPods && o.DisruptionsAllowed == n.DisruptionsAllowed &&
		equalTimes(o.DisruptedPods, n.DisruptedPods) && o.ObservedGeneration == old.Generation &&
		conditionsUpToDate(old)
}

func equalTimes(a, b map[string]api.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !w.Equal(v) {
			return false
		}
	}
	return true
}

// podsFor is getPodsForPdb: the pods of the budget's namespace its selector
// matches (a null selector matches none, an empty one all).
func podsFor(pdb *api.PodDisruptionBudget, all []*api.Pod) []*api.Pod {
	sel, err := labels.FromLabelSelector(pdb.Spec.Selector)
	if err != nil {
		return nil
	}
	var out []*api.Pod
	for _, p := range all {
		if p.Namespace == pdb.Namespace && sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// compute is getExpectedPodCount, buildDisruptedPodMap and
// countHealthyPods.
func compute(s *store.Store, pdb *api.PodDisruptionBudget, pods []*api.Pod, now time.Time) result {
	var r result
	spec := &pdb.Spec
	switch {
	case spec.MaxUnavailable != nil:
		r.expected, r.unmanaged, r.err = expectedScale(s, pods)
		if r.err != nil {
			return r
		}
		maxUnavailable, err := api.ScaledValue(spec.MaxUnavailable, int(r.expected), true)
		if err != nil {
			r.err = err
			return r
		}
		r.desired = max(0, r.expected-int32(maxUnavailable))
	case spec.MinAvailable != nil && !spec.MinAvailable.IsString:
		r.desired = spec.MinAvailable.IntVal
		r.expected = int32(len(pods))
	case spec.MinAvailable != nil:
		r.expected, r.unmanaged, r.err = expectedScale(s, pods)
		if r.err != nil {
			return r
		}
		minAvailable, err := api.ScaledValue(spec.MinAvailable, int(r.expected), true)
		if err != nil {
			r.err = err
			return r
		}
		r.desired = int32(minAvailable)
	}
	r.disrupted, r.notDeleted = disruptedPods(pdb, pods, now)
	r.healthy = countHealthy(pods, r.disrupted, now)
	return r
}

// expectedScale is getExpectedScale: the sum of the scales of the pods'
// controllers, each counted once; pods without a controller are returned
// apart, and a controller that cannot be found is an error.
func expectedScale(s *store.Store, pods []*api.Pod) (int32, []string, error) {
	scales := map[string]int32{}
	var order []string
	var unmanaged []string
	for _, p := range pods {
		ref := api.GetControllerOf(&p.ObjectMeta)
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		if _, ok := scales[ref.UID]; ok {
			continue
		}
		uid, scale, ok := findController(s, ref, p.Namespace)
		if !ok {
			return 0, nil, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
		if _, seen := scales[uid]; !seen {
			order = append(order, uid)
		}
		scales[ref.UID] = 0 // the reference is resolved
		scales[uid] = scale
	}
	var total int32
	for _, uid := range order {
		total += scales[uid]
	}
	return total, unmanaged, nil
}

// findController is the finders of the disruption controller
// (getPodReplicaSet, getPodDeployment) for the kinds Converge has: a pod's
// ReplicaSet, or the Deployment that controls it. It returns the uid and
// the scale (spec.replicas) of the controller that counts.
func findController(s *store.Store, ref *api.OwnerReference, namespace string) (string, int32, bool) {
	if ref.Kind != api.KindReplicaSet || !appsGroup(ref.APIVersion) {
		return "", 0, false
	}
	rs, err := s.GetReplicaSet(namespace, ref.Name)
	if err != nil || rs.UID != ref.UID {
		return "", 0, false
	}
	// A ReplicaSet whose Deployment is gone (or is another object of that
	// name) is not found by getPodDeployment nor getPodReplicaSet, but by
	// the last finder, getScaleController: the ReplicaSet's own scale.
	own := api.Deref(rs.Spec.Replicas, 1)
	dref := api.GetControllerOf(&rs.ObjectMeta)
	if dref == nil || dref.Kind != api.KindDeployment || !appsGroup(dref.APIVersion) {
		return rs.UID, own, true
	}
	d, err := s.GetDeployment(namespace, dref.Name)
	if err != nil || d.UID != dref.UID {
		return rs.UID, own, true
	}
	return d.UID, api.Deref(d.Spec.Replicas, 1), true
}

// appsGroup is verifyGroupKind's group check: apps or extensions.
func appsGroup(apiVersion string) bool {
	return apiVersion == "apps/v1" || len(apiVersion) > 11 && apiVersion[:11] == "extensions/" ||
		len(apiVersion) > 5 && apiVersion[:5] == "apps/"
}

// disruptedPods is buildDisruptedPodMap: the entries of
// status.disruptedPods whose pod still exists, is not being deleted and
// was evicted less than DeletionTimeout ago; and the pods evicted before
// that which are still not being deleted.
func disruptedPods(pdb *api.PodDisruptionBudget, pods []*api.Pod, now time.Time) (map[string]api.Time, []*api.Pod) {
	if pdb.Status.DisruptedPods == nil {
		return nil, nil
	}
	out := map[string]api.Time{}
	var late []*api.Pod
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		at, ok := pdb.Status.DisruptedPods[p.Name]
		switch {
		case !ok:
			continue
		case at.Add(DeletionTimeout).Before(now):
			late = append(late, p)
			continue
		}
		out[p.Name] = at
	}
	if len(out) == 0 {
		return nil, late
	}
	return out, late
}

// countHealthy is countHealthyPods: Ready pods, not being deleted, not just
// evicted.
func countHealthy(pods []*api.Pod, disrupted map[string]api.Time, now time.Time) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if at, ok := disrupted[p.Name]; ok && at.Add(DeletionTimeout).After(now) {
			continue
		}
		if api.IsPodReady(p) {
			n++
		}
	}
	return n
}

// updateDisruptionAllowedCondition is pdb helper's
// UpdateDisruptionAllowedCondition.
func updateDisruptionAllowedCondition(pdb *api.PodDisruptionBudget, now api.Time) {
	c := api.Condition{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse, Reason: api.InsufficientPodsReason,
		ObservedGeneration: pdb.Status.ObservedGeneration}
	if pdb.Status.DisruptionsAllowed > 0 {
		c.Status, c.Reason = api.ConditionTrue, api.SufficientPodsReason
	}
	api.SetCondition(&pdb.Status.Conditions, c, now)
}

// conditionsAreUpToDate is pdb helper's ConditionsAreUpToDate.
func conditionsUpToDate(pdb *api.PodDisruptionBudget) bool {
	c := api.FindCondition(pdb.Status.Conditions, api.DisruptionAllowedCondition)
	if c == nil || pdb.Status.ObservedGeneration != pdb.Generation {
		return false
	}
	if pdb.Status.DisruptionsAllowed > 0 {
		return c.Status == api.ConditionTrue && c.Reason == api.SufficientPodsReason
	}
	return c.Status == api.ConditionFalse && c.Reason == api.InsufficientPodsReason
}

// failSafe is the controller's failSafe after a sync error: no disruption
// allowed, the condition False with reason SyncFailed and the error.
func failSafe(ctx *controller.Context, pdb *api.PodDisruptionBudget, err error, rec controller.SyncRecord) {
	next := pdb.DeepCopy()
	next.Status.DisruptionsAllowed = 0
	api.SetCondition(&next.Status.Conditions, api.Condition{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse,
		Reason: api.SyncFailedReason, Message: err.Error(), ObservedGeneration: next.Status.ObservedGeneration}, api.NewTime(ctx.Now()))
	if reflect.DeepEqual(next.Status, pdb.Status) {
		rec.Waiting = err.Error()
		ctx.Record(rec)
		return
	}
	ctx.Event(pdb, EventSource, api.EventTypeWarning, ReasonCalculateFail, "Failed to calculate the number of expected pods: "+err.Error())
	if _, uerr := ctx.Store.UpdateStatus(next); uerr != nil && !errors.Is(uerr, store.ErrNotFound) {
		rec.Waiting = fmt.Sprintf("%v; update the status: %v", err, uerr)
		ctx.Record(rec)
		return
	}
	rec.Action = "no disruption allowed: " + err.Error()
	ctx.Record(rec)
}

// unmanagedMessage is the UnmanagedPods event's text.
func unmanagedMessage(pdb *api.PodDisruptionBudget) string {
	return fmt.Sprintf("Pods selected by this PodDisruptionBudget (selector: %s) were found to be unmanaged. "+
		"As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "+
		"To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.", selectorString(pdb.Spec.Selector))
}

// selectorString renders a selector as Go's %v of a *metav1.LabelSelector
// does: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}.
func selectorString(ls *api.LabelSelector) string {
	if ls == nil {
		return "nil"
	}
	out := "&LabelSelector{MatchLabels:map[string]string{"
	keys := make([]string, 0, len(ls.MatchLabels))
	for k := range ls.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out += k + ": " + ls.MatchLabels[k] + ","
	}
	out += "},MatchExpressions:[]LabelSelectorRequirement{"
	for _, e := range ls.MatchExpressions {
		out += fmt.Sprintf("LabelSelectorRequirement{Key:%s,Operator:%s,Values:[%s],},", e.Key, e.Operator, strings.Join(e.Values, " "))
	}
	return out + "},}"
}
