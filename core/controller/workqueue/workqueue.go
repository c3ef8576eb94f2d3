// Package workqueue is client-go's rate-limited work queue
// (k8s.io/client-go/util/workqueue) as the simulated controllers need it:
// deterministic, on the simulated clock, without goroutines.
//
// Kubernetes' controllers sync a key when an object they watch changes; a
// sync that fails is requeued with AddRateLimited, whose delay is the
// larger of two limiters, as DefaultControllerRateLimiter combines them:
//
//   - per key, ItemExponentialFailureRateLimiter: 5ms × 2^n after the n-th
//     requeue since the key's last successful sync, capped at 1000s
//     (5ms, 10ms, 20ms, ... 1.28s, 2.56s, ... 81.92s, ... 16m40s);
//   - for the whole queue, a token bucket of 10 per second with a burst of
//     100 (it only matters when more than 100 keys fail at once).
//
// A successful sync forgets the key (Forget: the next failure starts at 5ms
// again). The deployment controller gives up after maxRetries = 15 requeues:
// it forgets the key and syncs it again only when an object it watches
// changes. The ReplicaSet controller has no such limit.
//
// Converge's controllers are level-based: they compare every object every
// pass, which for an object whose last sync succeeded is what the informers'
// events would have made them do, and writes nothing when nothing changed.
// The queue therefore only holds the keys whose last sync failed, and decides
// when those are synced again (Due):
//
//   - when their back-off expires: a delay ends between two simulated
//     seconds, so the retry runs at the first tick at or after it (the state
//     does not change between ticks, so retries within one second would all
//     see the same cluster);
//   - at once when an object the key's sync watches changed since the failed
//     sync (an informer event: queue.Add), back-off or not; a change also
//     ends a drop;
//   - of a pending retry and a new one, the earlier time wins, as the
//     delaying queue keeps the earlier of two AddAfter times.
//
// What "watched" means is the controller's: Watched folds the objects in,
// and any create, update or delete among them changes the value.
package workqueue

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// The rate limiters of DefaultControllerRateLimiter.
const (
	// BaseDelay is the back-off after the first failure.
	BaseDelay = 5 * time.Millisecond
	// MaxDelay caps the per-key back-off.
	MaxDelay = 1000 * time.Second
	// BucketQPS and BucketBurst are the queue-wide token bucket.
	BucketQPS   = 10
	BucketBurst = 100
)

// Queue holds the keys whose last sync failed. The zero value is not
// useful; use New.
type Queue struct {
	maxRetries int
	items      map[string]*entry
	// bucket is the token bucket's "empty" instant: the bucket holds
	// (now − bucket) / interval tokens, at most BucketBurst. Zero: full.
	bucket time.Time
}

// entry is one failing key.
type entry struct {
	// requeues is NumRequeues: the requeues since the key's last success.
	requeues int
	// due is the pending retry (a delayed add), zero when none is pending.
	due time.Time
	// backoff is the delay of the last requeue.
	backoff time.Duration
	// dropped is set once the controller gave up (maxRetries); the key
	// then waits for a change of what it watches.
	dropped bool
	// seen is what the key's sync watches, as it was after the failed sync.
	seen Watched
	// last is the record of the failed sync, repeated while the key waits.
	last controller.SyncRecord
}

// New returns an empty queue. maxRetries is how many requeues the
// controller allows before it drops a key; 0 means no limit.
func New(maxRetries int) *Queue {
	return &Queue{maxRetries: maxRetries, items: map[string]*entry{}}
}

// Clone returns an independent copy (for checkpoints).
func (q *Queue) Clone() *Queue {
	out := &Queue{maxRetries: q.maxRetries, items: make(map[string]*entry, len(q.items)), bucket: q.bucket}
	for k, e := range q.items {
		x := *e
		out.items[k] = &x
	}
	return out
}

// Len returns the number of failing keys.
func (q *Queue) Len() int { return len(q.items) }

// Has reports whether key's last sync failed (it backs off or was dropped).
func (q *Queue) Has(key string) bool { return q.items[key] != nil }

// NumRequeues returns how often key was requeued since its last success.
func (q *Queue) NumRequeues(key string) int {
	if e := q.items[key]; e != nil {
		return e.requeues
	}
	return 0
}

// Due reports whether a failing key is synced now: its retry fell due, or
// what it watches changed since the failed sync. A due retry is consumed; a
// change also ends a drop (the key then starts again at the first back-off,
// as the controller had forgotten it). A key that is not failing is always
// due.
func (q *Queue) Due(key string, now time.Time, watched Watched) bool {
	e := q.items[key]
	switch {
	case e == nil:
		return true
	case watched != e.seen:
		if e.dropped {
			delete(q.items, key)
		}
		return true
	case !e.due.IsZero() && !now.Before(e.due):
		e.due = time.Time{}
		return true
	}
	return false
}

// Forget is the controller's Forget after a successful sync, or for an
// object that is gone: the key's failures are forgotten.
func (q *Queue) Forget(key string) { delete(q.items, key) }

// Failed is handleErr for a sync of key that failed at now: below the
// controller's limit it requeues the key with AddRateLimited, at the limit
// it drops it. watched is what the key watches after the failed sync; rec is
// the sync's record, which Failed returns with the queue's state in
// rec.Queue and in its Waiting (or Action) text, and which Waiting repeats
// while the key waits.
func (q *Queue) Failed(key string, now time.Time, watched Watched, rec controller.SyncRecord) controller.SyncRecord {
	e := q.items[key]
	if e == nil {
		e = &entry{}
		q.items[key] = e
	}
	e.seen = watched
	if q.maxRetries > 0 && e.requeues >= q.maxRetries {
		// utilruntime.HandleError(err); queue.Forget(key): dropped.
		e.dropped, e.due, e.backoff = true, time.Time{}, 0
	} else {
		d := max(ItemBackoff(e.requeues), q.reserve(now))
		e.requeues++
		e.backoff = d
		if next := now.Add(d); e.due.IsZero() || next.Before(e.due) {
			e.due = next
		}
	}
	rec.Queue = q.record(e)
	note := q.note(e, now)
	switch {
	case rec.Waiting != "":
		rec.Waiting += " (" + note + ")"
	case rec.Action != "":
		rec.Action += " (" + note + ")"
	default:
		rec.Waiting = note
	}
	e.last = rec
	return rec
}

// Waiting returns the record of a failing key that is not synced now: the
// record of its failed sync, saying when it is tried again.
func (q *Queue) Waiting(key string, now time.Time) controller.SyncRecord {
	e := q.items[key]
	if e == nil {
		return controller.SyncRecord{}
	}
	rec := e.last
	rec.Action, rec.InSync = "", false
	rec.Queue = q.record(e)
	if e.dropped {
		rec.Waiting = fmt.Sprintf("not retrying: dropped from the queue after %d retries; waits for a change", e.requeues)
	} else {
		rec.Waiting = "backing off after an error: " + q.note(e, now)
	}
	return rec
}

// Prune forgets the keys for which exists is false (their objects are gone).
func (q *Queue) Prune(exists func(key string) bool) {
	if len(q.items) == 0 {
		return
	}
	keys := make([]string, 0, len(q.items))
	for k := range q.items {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !exists(k) {
			delete(q.items, k)
		}
	}
}

// record is the queue's state of e for a sync record.
func (q *Queue) record(e *entry) *controller.QueueRecord {
	r := &controller.QueueRecord{Requeues: e.requeues, MaxRetries: q.maxRetries, Dropped: e.dropped}
	if !e.dropped {
		r.Backoff = e.backoff.String()
	}
	return r
}

// note says what the queue does with e: "retry 3 of 15 in 20ms",
// "retry 12 in 10.24s", "dropped after 15 retries: waits for a change".
func (q *Queue) note(e *entry, now time.Time) string {
	if e.dropped {
		return fmt.Sprintf("dropped after %d retries: waits for a change", e.requeues)
	}
	n := strconv.Itoa(e.requeues)
	if q.maxRetries > 0 {
		n += " of " + strconv.Itoa(q.maxRetries)
	}
	return "retry " + n + " in " + e.due.Sub(now).String()
}

// ItemBackoff is ItemExponentialFailureRateLimiter's delay for a key
// requeued n times before: BaseDelay × 2^n, capped at MaxDelay.
//
//	0 → 5ms, 1 → 10ms, 7 → 640ms, 8 → 1.28s, 14 → 1m21.92s, 18 → 16m40s (capped)
func ItemBackoff(n int) time.Duration { return exponential(BaseDelay, MaxDelay, n) }

// exponential is base × 2^n, capped at limit (When of an
// ItemExponentialFailureRateLimiter(base, limit)), without overflowing.
func exponential(base, limit time.Duration, n int) time.Duration {
	d := base
	for i := 0; i < n; i++ {
		if d >= limit/2+1 {
			return limit
		}
		d *= 2
	}
	return min(d, limit)
}

// reserve takes a token from the queue-wide bucket (BucketRateLimiter's
// Reserve().Delay()): 0 while tokens are left, else the wait for the next.
// The bucket starts full and refills one token every 1/BucketQPS second.
func (q *Queue) reserve(now time.Time) time.Duration {
	interval := time.Second / BucketQPS
	full := now.Add(-BucketBurst * interval)
	if q.bucket.IsZero() || q.bucket.Before(full) {
		q.bucket = full
	}
	q.bucket = q.bucket.Add(interval)
	if d := q.bucket.Sub(now); d > 0 {
		return d
	}
	return 0
}

// Watched folds the objects a key's sync watches into one comparable value
// that changes whenever one of them is created, updated or deleted: the
// largest resourceVersion among them (a write gives an object a
// resourceVersion larger than any before) and their number (a delete
// lowers it). The zero value watches nothing.
type Watched struct {
	maxRV   int64
	n       int
	counted int
}

// Add folds an object in.
func (w *Watched) Add(m *api.ObjectMeta) {
	w.n++
	if rv, err := strconv.ParseInt(m.ResourceVersion, 10, 64); err == nil && rv > w.maxRV {
		w.maxRV = rv
	}
}

// Count folds in only how many objects of a kind there are: creating or
// deleting one changes the value, updating one does not.
func (w *Watched) Count(n int) { w.counted += n }
