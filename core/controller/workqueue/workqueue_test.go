package workqueue

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
)

func TestExponential(t *testing.T) {
	t.Parallel()
	// client-go util/workqueue/default_rate_limiters_test.go,
	// TestItemExponentialFailureRateLimiter and ...OverFlow: When after n
	// earlier failures.
	tests := []struct {
		base, limit time.Duration
		n           int
		want        time.Duration
	}{
		{time.Millisecond, time.Second, 0, time.Millisecond},
		{time.Millisecond, time.Second, 1, 2 * time.Millisecond},
		{time.Millisecond, time.Second, 2, 4 * time.Millisecond},
		{time.Millisecond, time.Second, 3, 8 * time.Millisecond},
		{time.Millisecond, time.Second, 4, 16 * time.Millisecond},
		{time.Millisecond, 1000 * time.Second, 5, 32 * time.Millisecond},
		{time.Millisecond, 1000 * time.Second, 1000, 1000 * time.Second},
		{time.Minute, 1000 * time.Hour, 2, 4 * time.Minute},
		{time.Minute, 1000 * time.Hour, 1000, 1000 * time.Hour},
		{time.Millisecond, time.Second, 10, time.Second},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v×2^%d≤%v", tc.base, tc.n, tc.limit), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, exponential(tc.base, tc.limit, tc.n))
		})
	}
}

func TestItemBackoff(t *testing.T) {
	t.Parallel()
	// DefaultControllerRateLimiter's per-item limiter: 5ms base, 1000s cap.
	want := map[int]time.Duration{0: 5 * time.Millisecond, 1: 10 * time.Millisecond, 7: 640 * time.Millisecond,
		8: 1280 * time.Millisecond, 14: 81920 * time.Millisecond, 17: 655360 * time.Millisecond, 18: 1000 * time.Second,
		200: 1000 * time.Second, -1: 5 * time.Millisecond}
	for _, n := range []int{-1, 0, 1, 7, 8, 14, 17, 18, 200} {
		assert.Equal(t, want[n], ItemBackoff(n), "n=%d", n)
	}
}

var t0 = api.Epoch

func meta(rv string) *api.ObjectMeta { return &api.ObjectMeta{ResourceVersion: rv} }

func TestRequeuesPerKeyAndForget(t *testing.T) {
	t.Parallel()
	// As TestItemExponentialFailureRateLimiter: keys back off independently
	// and Forget starts a key over.
	q := New(0)
	var w Watched
	for i := 0; i < 5; i++ {
		q.Failed("one", t0, w, controller.SyncRecord{})
	}
	q.Failed("two", t0, w, controller.SyncRecord{})
	q.Failed("two", t0, w, controller.SyncRecord{})
	assert.Equal(t, 5, q.NumRequeues("one"))
	assert.Equal(t, 2, q.NumRequeues("two"))
	assert.Equal(t, "80ms", q.record(q.items["one"]).Backoff)
	q.Forget("one")
	assert.Equal(t, 0, q.NumRequeues("one"))
	assert.False(t, q.Has("one"))
	r := q.Failed("one", t0, w, controller.SyncRecord{})
	assert.Equal(t, "5ms", r.Queue.Backoff)
	assert.Zero(t, r.Queue.MaxRetries, "no limit")
}

func TestDue(t *testing.T) {
	t.Parallel()
	var w Watched
	w.Add(meta("7"))
	q := New(2)
	assert.True(t, q.Due("new", t0, w), "a key that never failed is always synced")

	q.Failed("k", t0, w, controller.SyncRecord{}) // retry at +5ms
	assert.False(t, q.Due("k", t0, w), "not before the back-off ends")
	assert.True(t, q.Due("k", t0.Add(time.Second), w), "the first tick after it")
	assert.False(t, q.Due("k", t0.Add(time.Second), w), "a due retry is consumed")

	changed := w
	changed.Add(meta("9"))
	assert.True(t, q.Due("k", t0.Add(time.Second), changed), "a change of what it watches wakes it")

	q.Failed("k", t0.Add(2*time.Second), w, controller.SyncRecord{})
	r := q.Failed("k", t0.Add(3*time.Second), w, controller.SyncRecord{Waiting: "boom"})
	assert.Equal(t, "boom (dropped after 2 retries: waits for a change)", r.Waiting)
	assert.True(t, r.Queue.Dropped)
	assert.False(t, q.Due("k", t0.Add(time.Hour), w), "dropped: time alone never wakes it")
	assert.True(t, q.Due("k", t0.Add(time.Hour), changed), "a change does")
	assert.False(t, q.Has("k"), "and the drop is over: the key starts again")
}

func TestEarlierRetryWins(t *testing.T) {
	t.Parallel()
	// The delaying queue keeps the earlier of two AddAfter times.
	q := New(0)
	var w Watched
	for i := 0; i < 10; i++ {
		q.Failed("k", t0, w, controller.SyncRecord{})
		if i < 9 {
			require.True(t, q.Due("k", t0.Add(time.Hour), w), "consume the retry, as the sync that failed again did")
		}
	}
	due := q.items["k"].due
	require.Equal(t, t0.Add(2560*time.Millisecond), due)
	q.Failed("k", t0.Add(time.Second), w, controller.SyncRecord{}) // +5.12s, later
	assert.Equal(t, due, q.items["k"].due)
}

func TestWaitingRepeatsTheFailedRecord(t *testing.T) {
	t.Parallel()
	q := New(15)
	var w Watched
	rec := controller.SyncRecord{Controller: "c", Object: "deployment/web", Observed: "seen", Action: "scale; then failed: x"}
	got := q.Failed("default/web", t0, w, rec)
	assert.Equal(t, "scale; then failed: x (retry 1 of 15 in 5ms)", got.Action)
	wait := q.Waiting("default/web", t0.Add(time.Millisecond))
	assert.Equal(t, controller.SyncRecord{Controller: "c", Object: "deployment/web", Observed: "seen",
		Waiting: "backing off after an error: retry 1 of 15 in 4ms",
		Queue:   &controller.QueueRecord{Requeues: 1, MaxRetries: 15, Backoff: "5ms"}}, wait)
	assert.Equal(t, controller.SyncRecord{}, q.Waiting("other", t0))
}

func TestBucket(t *testing.T) {
	t.Parallel()
	// The queue-wide bucket (10 qps, burst 100): 100 failures at one instant
	// pass, the 101st waits 100ms, the 102nd 200ms; a second later 10
	// tokens are back.
	q := New(0)
	var w Watched
	for i := 0; i < 100; i++ {
		r := q.Failed(fmt.Sprint("k", i), t0, w, controller.SyncRecord{})
		require.Equal(t, "5ms", r.Queue.Backoff, i)
	}
	assert.Equal(t, "100ms", q.Failed("k100", t0, w, controller.SyncRecord{}).Queue.Backoff)
	assert.Equal(t, "200ms", q.Failed("k101", t0, w, controller.SyncRecord{}).Queue.Backoff)
	// At +1.2s the bucket has refilled to 10 tokens (12 − the 2 borrowed).
	for i := 0; i < 10; i++ {
		require.Equal(t, "5ms", q.Failed(fmt.Sprint("j", i), t0.Add(1200*time.Millisecond), w, controller.SyncRecord{}).Queue.Backoff, i)
	}
	assert.Equal(t, "100ms", q.Failed("j10", t0.Add(1200*time.Millisecond), w, controller.SyncRecord{}).Queue.Backoff)
}

func TestWatched(t *testing.T) {
	t.Parallel()
	var a, b Watched
	a.Add(meta("3"))
	a.Add(meta("5"))
	b.Add(meta("5"))
	b.Add(meta("3"))
	assert.Equal(t, a, b, "order does not matter")
	c := a
	c.Add(meta("4"))
	assert.NotEqual(t, a, c, "one more object")
	var d Watched
	d.Add(meta("3"))
	d.Add(meta("6"))
	assert.NotEqual(t, a, d, "an update")
	e := a
	e.Count(2)
	assert.NotEqual(t, a, e)
}

func TestPruneAndClone(t *testing.T) {
	t.Parallel()
	q := New(0)
	var w Watched
	q.Failed("a", t0, w, controller.SyncRecord{})
	q.Failed("b", t0, w, controller.SyncRecord{})
	c := q.Clone()
	q.Prune(func(k string) bool { return k == "a" })
	assert.Equal(t, 1, q.Len())
	assert.Equal(t, 2, c.Len(), "the clone is independent")
	c.Failed("a", t0, w, controller.SyncRecord{})
	assert.Equal(t, 1, q.NumRequeues("a"))
	assert.Equal(t, 2, c.NumRequeues("a"))
}
