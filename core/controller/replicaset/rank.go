package replicaset

import (
	"math/bits"
	"slices"
	"strconv"
	"time"

	"converge/core/api"
)

// rankedPod is a deletion candidate with every key ActivePodsWithRanks.Less
// compares, computed once so that sorting thousands of pods stays cheap.
type rankedPod struct {
	pod       *api.Pod
	rank      int       // active related pods on the same node
	assigned  bool      // spec.nodeName set
	phase     int       // podPhaseToOrdinal
	ready     bool      // Ready=True
	readyTime time.Time // Ready lastTransitionTime; zero when unknown
	cost      int32     // controller.kubernetes.io/pod-deletion-cost
	restarts  int32     // highest container restartCount
	created   time.Time
	uid       string
}

// podPhaseToOrdinal orders phases for deletion: Pending < Unknown < Running.
// Any other phase (Succeeded, Failed, empty) counts as 0, as in Kubernetes'
// map lookup of an absent key.
func podPhaseToOrdinal(phase string) int {
	switch phase {
	case api.PodUnknown:
		return 1
	case api.PodRunning:
		return 2
	}
	return 0
}

func newRankedPod(p *api.Pod, rank int) rankedPod {
	r := rankedPod{pod: p, rank: rank, assigned: p.Spec.NodeName != "", phase: podPhaseToOrdinal(p.Status.Phase),
		created: p.CreationTimestamp.Time, uid: p.UID}
	if c := api.GetPodCondition(&p.Status, api.PodReady); c != nil && c.Status == api.ConditionTrue {
		r.ready = true
		r.readyTime = c.LastTransitionTime.Time
	}
	r.cost = deletionCost(p.Annotations)
	for _, cs := range p.Status.ContainerStatuses {
		r.restarts = max(r.restarts, cs.RestartCount)
	}
	return r
}

// deletionCost is GetDeletionCostFromPodAnnotations: the int32 value of the
// pod-deletion-cost annotation, 0 when absent or invalid. A leading plus sign
// or leading zeros ("+10", "008") make the value invalid.
func deletionCost(annotations map[string]string) int32 {
	v, ok := annotations[api.PodDeletionCostAnnotation]
	if !ok || v == "" {
		return 0
	}
	if !(v[0] == '-' || v == "0" || v[0] >= '1' && v[0] <= '9') {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// lessForDeletion is ActivePodsWithRanks.Less with the PodDeletionCost and
// LogarithmicScaleDown gates on (their defaults): it reports whether a should
// be deleted before b. The first rule that tells them apart decides:
//
//  1. unassigned before assigned;
//  2. Pending before Unknown before Running;
//  3. not ready before ready;
//  4. lower pod-deletion-cost first;
//  5. higher rank (more related pods on the same node) first;
//  6. both ready: the more recently ready first, comparing floor(log2(age))
//     buckets, same bucket by uid; a ready pod without a transition time is
//     the newest;
//  7. more container restarts first;
//  8. newer creationTimestamp first, in the same logarithmic buckets.
//
// Example (now = 12:00): a pod ready since 10:00 (age 2 h, bucket 42) goes
// before one ready since 07:00 (5 h, bucket 44), but pods ready 5 h and 8 h
// ago share bucket 44 and are told apart by uid.
func lessForDeletion(a, b *rankedPod, now time.Time) bool {
	if a.assigned != b.assigned {
		return !a.assigned
	}
	if a.phase != b.phase {
		return a.phase < b.phase
	}
	if a.ready != b.ready {
		return !a.ready
	}
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.rank != b.rank {
		return a.rank > b.rank
	}
	if a.ready && b.ready && !a.readyTime.Equal(b.readyTime) {
		if d, decided := compareAges(a.readyTime, b.readyTime, a.uid, b.uid, now); decided {
			return d
		}
	}
	if a.restarts != b.restarts {
		return a.restarts > b.restarts
	}
	if !a.created.Equal(b.created) {
		if d, decided := compareAges(a.created, b.created, a.uid, b.uid, now); decided {
			return d
		}
	}
	return false
}

// compareAges orders two different timestamps newest first: a zero time is
// the newest of all; otherwise the floor(log2(age in ns)) buckets decide, and
// within one bucket the smaller uid goes first.
func compareAges(t1, t2 time.Time, uid1, uid2 string, now time.Time) (less, decided bool) {
	if now.IsZero() || t1.IsZero() || t2.IsZero() {
		return afterOrZero(t1, t2), true
	}
	diff := logBucket(now.Sub(t1)) - logBucket(now.Sub(t2))
	if diff == 0 {
		return uid1 < uid2, true
	}
	return diff < 0, true
}

// afterOrZero reports whether t1 is after t2, a zero time counting as after
// any other.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// logBucket is floor(log2(d)) for d > 0 nanoseconds and -1 otherwise,
// computed on integers (Kubernetes uses math.Log2 on a float64; both agree
// for every age below 104 days).
func logBucket(d time.Duration) int {
	if d <= 0 {
		return -1
	}
	return bits.Len64(uint64(d)) - 1
}

// getPodsToDelete returns the diff pods to delete first, ranked by
// lessForDeletion; when every pod goes, no sorting is needed. The sort is
// stable on the given order (creation order), so pods that compare equal
// are taken oldest-listed first and the choice is deterministic.
func getPodsToDelete(pods []rankedPod, diff int, now time.Time) []*api.Pod {
	if diff > len(pods) {
		diff = len(pods)
	}
	if diff < len(pods) {
		slices.SortStableFunc(pods, func(a, b rankedPod) int {
			switch {
			case lessForDeletion(&a, &b, now):
				return -1
			case lessForDeletion(&b, &a, now):
				return 1
			}
			return 0
		})
	}
	out := make([]*api.Pod, diff)
	for i := range out {
		out[i] = pods[i].pod
	}
	return out
}
