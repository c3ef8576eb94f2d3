package replicaset

import (
	"reflect"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/workqueue"
	"converge/core/labels"
	"converge/core/store"
)

// rsState is what one sync learns about one ReplicaSet and the pods it
// claims.
type rsState struct {
	rs     *api.ReplicaSet
	uid    string
	sel    labels.Selector
	selErr error
	// template is the template's labels when fullyLabeledReplicas needs
	// its own check (they say more than the selector); nil otherwise.
	template map[string]string
	counts   podCounts
	// release holds active pods it controls that the selector no longer matches.
	release []*api.Pod
	// memo caches the label checks of the last labels map seen (see labelsOf).
	memo labelMemo
	// track is set for a ReplicaSet whose last sync failed: the pass folds
	// the pods it controls into watched, which tells the work queue whether
	// any of them changed.
	track   bool
	watched workqueue.Watched
	// until is the first second a pod counted ready but not available
	// becomes available (zero: none), when the counts change by themselves.
	until time.Time
}

// labelMemo remembers, within one sync, the selector and template checks of
// one labels map. Stored objects are immutable and the pods one sync creates
// share one labels map (podFromTemplate), so consecutive pods usually carry
// the very same map and the lookups are done once per map, not per pod.
type labelMemo struct {
	id uintptr
	// labels keeps the map alive, so that id cannot be reused by another
	// map during the sync.
	labels      map[string]string
	match, full bool
}

// labelsOf returns whether the selector matches labels and whether they
// hold every template label.
func (st *rsState) labelsOf(l map[string]string) (match, full bool) {
	id := reflect.ValueOf(l).Pointer()
	if id == 0 || id != st.memo.id {
		st.memo = labelMemo{id: id, labels: l, match: st.sel.Matches(l), full: st.template == nil || containsAll(l, st.template)}
	}
	return st.memo.match, st.memo.full
}

// podCounts are the status counters of calculateStatus.
type podCounts struct {
	active, ready, available, fullyLabeled, terminating int32
}

// orphan is an active pod without a controller, which the first matching
// ReplicaSet may adopt.
type orphan struct {
	pod     *api.Pod
	adopted bool
}

func (st *rsState) init(rs *api.ReplicaSet) {
	st.rs, st.uid = rs, rs.UID
	st.watched.Add(&rs.ObjectMeta)
	st.sel, st.selErr = labels.FromLabelSelector(rs.Spec.Selector)
	if st.selErr == nil && !selectorIsSet(rs.Spec.Selector, rs.Spec.Template.Labels) {
		st.template = rs.Spec.Template.Labels
	}
}

// selectorIsSet reports whether the selector is exactly matchLabels equal to
// the template labels, in which case a pod the selector matches is also
// fully labeled (the usual shape of a Deployment's ReplicaSet).
func selectorIsSet(sel *api.LabelSelector, template map[string]string) bool {
	if sel == nil || len(sel.MatchExpressions) > 0 || len(sel.MatchLabels) != len(template) {
		return false
	}
	for k, v := range template {
		if w, ok := sel.MatchLabels[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// observePods is the sync's one pass over the pods: each pod a ReplicaSet
// controls is counted for it (or queued for release), and the active pods
// without a controller are returned as adoption candidates. Pods controlled
// by anything else are left alone.
func observePods(s *store.Store, states []rsState, now time.Time) []orphan {
	var orphans []orphan
	lastUID, lastIdx := "", -1
	s.EachPod(func(p *api.Pod) bool {
		ref := api.GetControllerOf(&p.ObjectMeta)
		if ref == nil {
			if api.IsPodActive(p) {
				orphans = append(orphans, orphan{pod: p})
			}
			return true
		}
		if ref.UID != lastUID || lastIdx < 0 {
			lastUID, lastIdx = ref.UID, indexOf(states, ref.UID)
		}
		if lastIdx >= 0 {
			st := &states[lastIdx]
			st.observe(p, now)
			if st.track {
				st.watched.Add(&p.ObjectMeta)
			}
		}
		return true
	})
	return orphans
}

func indexOf(states []rsState, uid string) int {
	for i := range states {
		if states[i].uid == uid {
			return i
		}
	}
	return -1
}

// observe counts a pod the ReplicaSet controls. Only active pods are claimed
// (so only they can be released); a terminating pod the selector matches
// counts toward terminatingReplicas.
func (st *rsState) observe(p *api.Pod, now time.Time) {
	if !api.IsPodActive(p) {
		if p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed &&
			st.sel.Matches(p.Labels) {
			st.counts.terminating++
		}
		return
	}
	match, full := st.labelsOf(p.Labels)
	if !match {
		if st.rs.DeletionTimestamp == nil {
			st.release = append(st.release, p)
		}
		return
	}
	st.count(p, full, now)
}

// count adds a claimed active pod to the status counters; full tells
// whether it carries every template label.
func (st *rsState) count(p *api.Pod, full bool, now time.Time) {
	st.counts.active++
	if full {
		st.counts.fullyLabeled++
	}
	if c := api.GetPodCondition(&p.Status, api.PodReady); c != nil && c.Status == api.ConditionTrue {
		st.counts.ready++
		if api.IsAvailable(c, st.rs.Spec.MinReadySeconds, now) {
			st.counts.available++
		} else {
			st.until = earliest(st.until, st.availableAt(c, now))
		}
	}
}

func containsAll(set, sub map[string]string) bool {
	for k, v := range sub {
		if w, ok := set[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// releasePods removes the ReplicaSet's ownerReference from the pods its
// selector no longer matches (ReleasePod); they live on as orphans.
func (st *rsState) releasePods(ctx *controller.Context) []string {
	var names []string
	for _, p := range st.release {
		x := *p
		x.ObjectMeta = p.ObjectMeta.DeepCopy()
		refs := x.OwnerReferences[:0]
		for _, r := range x.OwnerReferences {
			if r.UID != st.uid {
				refs = append(refs, r)
			}
		}
		if len(refs) == 0 {
			refs = nil
		}
		x.OwnerReferences = refs
		if _, err := ctx.Store.Update(&x); err == nil {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return []string{nameList("release", names)}
}

// adoptOrphans makes the ReplicaSet the controller of every active orphan
// pod in its namespace that its selector matches and that no earlier
// ReplicaSet adopted in this sync (AdoptPod), and counts them.
func (st *rsState) adoptOrphans(ctx *controller.Context, orphans []orphan, now time.Time) []string {
	var names []string
	for i := range orphans {
		o := &orphans[i]
		p := o.pod
		if o.adopted || p.Namespace != st.rs.Namespace || !st.sel.Matches(p.Labels) {
			continue
		}
		x := *p
		x.ObjectMeta = p.ObjectMeta.DeepCopy()
		x.OwnerReferences = append(x.OwnerReferences, api.NewControllerRef(st.rs))
		updated, err := ctx.Store.Update(&x)
		if err != nil {
			continue
		}
		o.adopted = true
		names = append(names, p.Name)
		_, full := st.labelsOf(updated.GetObjectMeta().Labels)
		st.count(updated.(*api.Pod), full, now)
	}
	if len(names) == 0 {
		return nil
	}
	return []string{nameList("adopt", names)}
}
