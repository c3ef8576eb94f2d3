package replicaset

import (
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// quietPass remembers a Sync that wrote nothing and left no key in the work
// queue: its result depends on the pods and ReplicaSets alone (and on the
// time, through minReadySeconds), so while neither kind changed and no pod
// has become available since, the next Sync would do the same nothing and
// record the same records. Sync then repeats those records instead of
// reading every pod again, as an informer-driven controller sleeps until an
// event wakes it (docs/performance.md, Skipped work).
type quietPass struct {
	store   *store.Identity
	pods    store.Changes
	rss     store.Changes
	until   time.Time // the first second a pod counted as ready becomes available; zero: none
	records []controller.SyncRecord
}

// replay records the remembered pass's records and reports true when it
// holds for the store as it is now.
func (q *quietPass) replay(ctx *controller.Context, now time.Time) bool {
	s := ctx.Store
	if q == nil || q.store != s.Identity() || q.pods != s.Changes(api.KindPod) ||
		q.rss != s.Changes(api.KindReplicaSet) || (!q.until.IsZero() && !now.Before(q.until)) {
		return false
	}
	for _, r := range q.records {
		ctx.Record(r)
	}
	return true
}

// marks returns what a quietPass compares, read before the pass.
func marks(s *store.Store) quietPass {
	return quietPass{store: s.Identity(), pods: s.Changes(api.KindPod), rss: s.Changes(api.KindReplicaSet)}
}

// availableAt returns when a ready pod of st becomes available, or the zero
// time when that does not depend on the time to come (it is available, or
// its Ready condition has no transition time).
func (st *rsState) availableAt(c *api.PodCondition, now time.Time) time.Time {
	if st.rs.Spec.MinReadySeconds <= 0 || c.LastTransitionTime.IsZero() || api.IsAvailable(c, st.rs.Spec.MinReadySeconds, now) {
		return time.Time{}
	}
	return c.LastTransitionTime.Add(time.Duration(st.rs.Spec.MinReadySeconds) * time.Second)
}

// earliest is the earlier of two times, the zero time being none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}
