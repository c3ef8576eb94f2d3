package store_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/simtest"
	"converge/core/store"
)

// event is one event to record: the object (a pod of namespace my-ns),
// reason and message, from the kubelet on node1 as in events_cache_test.go.
type event struct {
	pod, ns, reason, message string
	typ                      string
}

func (e event) record(s *store.Store) (store.EmittedEvent, bool) {
	ns := e.ns
	if ns == "" {
		ns = "my-ns"
	}
	typ := e.typ
	if typ == "" {
		typ = api.EventTypeNormal
	}
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: e.pod, Namespace: ns, UID: "C934D34AFB20242"}}
	return s.RecordEvent(p, "kubelet", "kublet.node1", typ, e.reason, e.message)
}

func times(n int, e event) []event {
	out := make([]event, n)
	for i := range out {
		out[i] = e
	}
	return out
}

// similar is makeSimilarEvents: n events that differ only in their message.
func similar(n int, e event) []event {
	out := times(n, e)
	for i := range out {
		out[i].message = fmt.Sprintf("%s-%d-%s", e.message, i, e.message)
	}
	return out
}

// unique is makeUniqueEvents: n events about n pods in n namespaces.
func unique(n int) []event {
	out := make([]event, n)
	for i := range out {
		out[i] = event{pod: fmt.Sprint("pod-", i), ns: fmt.Sprint("ns-", i), reason: fmt.Sprint("reason-", i), message: fmt.Sprint("message-", i)}
	}
	return out
}

func TestEventCorrelator(t *testing.T) {
	t.Parallel()
	// client-go tools/record/events_cache_test.go, TestEventCorrelator. The
	// upstream test's IntervalClock moves on by the interval at each of the
	// three Now() calls per event (the test's, the aggregator's and the
	// spam filter's): here the clock moves on by three intervals between
	// events. Upstream's row events-from-different-containers-do-not-aggregate
	// needs involvedObject.fieldPath, which Converge's events do not carry.
	first := event{pod: "my-pod", reason: "first", message: "i am first"}
	duplicate := event{pod: "my-pod", reason: "duplicate", message: "me again"}
	uniq := event{pod: "my-pod", reason: "unique", message: "snowflake"}
	sim := event{pod: "my-pod", reason: "similar", message: "similar message"}
	tests := []struct {
		name      string
		previous  []event
		next      event
		interval  int
		wantSkip  bool
		wantCount int32
		wantMsg   string
	}{
		{"create-a-single-event", nil, first, 5, false, 1, "i am first"},
		{"the-same-event-should-just-count", times(1, duplicate), duplicate, 5, false, 2, "me again"},
		{"the-same-event-should-just-count-even-if-more-than-aggregate", times(store.AggregateMaxEvents, duplicate), duplicate, 30, false, 11, "me again"},
		{"the-same-event-is-spam-if-happens-too-frequently", times(store.SpamBurst+1, duplicate), duplicate, 1, true, 0, ""},
		{"create-many-unique-events", unique(30), uniq, 5, false, 1, "snowflake"},
		{"similar-events-should-aggregate-event", similar(store.AggregateMaxEvents-1, sim), sim, 5, false, 1, store.AggregatePrefix + "similar message"},
		{"similar-events-many-times-should-count-the-aggregate", similar(store.AggregateMaxEvents, sim), sim, 5, false, 2, store.AggregatePrefix + "similar message"},
		{"similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate", similar(store.AggregateMaxEvents-1, sim), sim,
			int(store.AggregateInterval / time.Second), false, 1, "similar message"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			step := time.Duration(3*tc.interval) * time.Second
			for _, e := range tc.previous {
				simtest.Advance(s, step)
				e.record(s)
			}
			simtest.Advance(s, step)
			short, ok := tc.next.record(s)
			require.Equal(t, tc.wantSkip, !ok)
			if tc.wantSkip {
				return
			}
			assert.Equal(t, tc.wantMsg, short.Message)
			var got *api.Event
			for _, e := range s.Events() {
				if e.Message == tc.wantMsg && e.InvolvedObject.Name == tc.next.pod && e.Reason == tc.next.reason {
					got = e
				}
			}
			require.NotNil(t, got, "the event as stored")
			assert.Equal(t, tc.wantCount, got.Count)
			assert.True(t, got.LastTimestamp.Equal(s.Now()))
			assert.Equal(t, tc.wantCount > 1, !got.FirstTimestamp.Equal(got.LastTimestamp), "compressed events span a time")
			assert.True(t, strings.HasPrefix(got.Name, tc.next.pod+"."), got.Name)
		})
	}
}

func TestEventSpamFilter(t *testing.T) {
	t.Parallel()
	// client-go tools/record/events_cache_test.go, TestEventSpamFilter, with
	// the default burst (25) instead of its 1, and the spam key of
	// client-go 1.35: source, object and type.
	original := event{pod: "my-pod", reason: "original", message: "i am first"}
	tests := []struct {
		name     string
		next     event
		wantSkip bool
	}{
		{"event should be reported as spam if object reference is the same for default spam filter",
			event{pod: "my-pod", reason: "duplicate", message: "me again"}, true},
		{"another type is another budget", event{pod: "my-pod", reason: "duplicate", message: "me again", typ: api.EventTypeWarning}, false},
		{"another object is another budget", event{pod: "other-pod", reason: "original", message: "i am first"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			for i := 0; i < store.SpamBurst; i++ {
				simtest.Advance(s, time.Second)
				e := original
				e.reason = fmt.Sprint("r", i) // neither aggregated nor deduplicated
				_, ok := e.record(s)
				require.True(t, ok, i)
			}
			simtest.Advance(s, time.Second)
			_, ok := tc.next.record(s)
			assert.Equal(t, tc.wantSkip, !ok)
		})
	}
}

func TestSpamFilterRefillsOneEventPerFiveMinutes(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	e := event{pod: "p", reason: "BackOff", message: "Back-off restarting failed container"}
	passed := 0
	for i := 0; i < 25+10; i++ {
		if _, ok := e.record(s); ok {
			passed++
		}
		simtest.Advance(s, time.Second)
	}
	require.Equal(t, store.SpamBurst, passed, "a burst of 25, then nothing within 10s")
	simtest.Advance(s, store.SpamRefill-36*time.Second)
	_, ok := e.record(s)
	assert.False(t, ok, "299s after the burst began: not yet")
	simtest.Advance(s, time.Second)
	_, ok = e.record(s)
	assert.True(t, ok, "300s: one token")
	_, ok = e.record(s)
	assert.False(t, ok)
	evs := s.Events()
	require.Len(t, evs, 1)
	assert.Equal(t, int32(37), evs[0].Count, "dropped events still count: the written one says so")
}

func TestAggregateIsUpdatedWithTheLatestMessage(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < 12; i++ {
		simtest.Advance(s, time.Second)
		short, ok := event{pod: "web", reason: "FailedCreate", message: fmt.Sprintf("Error creating: pods \"web-%d\" is forbidden", i)}.record(s)
		require.True(t, ok)
		if i < 9 {
			assert.False(t, strings.HasPrefix(short.Message, store.AggregatePrefix), i)
		} else {
			assert.Equal(t, store.AggregatePrefix+fmt.Sprintf("Error creating: pods \"web-%d\" is forbidden", i), short.Message, i)
		}
	}
	evs := s.Events()
	require.Len(t, evs, 10, "9 events and the aggregate")
	agg := evs[9]
	assert.Equal(t, int32(3), agg.Count)
	assert.Equal(t, store.AggregatePrefix+`Error creating: pods "web-11" is forbidden`, agg.Message)

	// A repeat of one of the nine is counted on its own event.
	short, _ := event{pod: "web", reason: "FailedCreate", message: `Error creating: pods "web-0" is forbidden`}.record(s)
	assert.Equal(t, `Error creating: pods "web-0" is forbidden`, short.Message)
	assert.Equal(t, int32(2), s.Events()[0].Count)

	// After 10 minutes without a similar event, aggregation starts over.
	simtest.Advance(s, store.AggregateInterval+time.Second)
	short, _ = event{pod: "web", reason: "FailedCreate", message: "new"}.record(s)
	assert.Equal(t, "new", short.Message)
}

func TestEventTTL(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "a")
	simtest.Advance(s, 30*time.Minute)
	s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "b")
	simtest.Advance(s, 29*time.Minute)
	s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "a") // count 2: written again
	simtest.Advance(s, time.Minute)
	assert.Zero(t, s.ExpireEvents(), "a was written again 1 minute ago")
	simtest.Advance(s, 30*time.Minute)
	assert.Equal(t, 1, s.ExpireEvents(), "b, 1h after it was written")
	require.Len(t, s.Events(), 1)
	assert.Equal(t, "a", s.Events()[0].Message)
	simtest.Advance(s, 28*time.Minute)
	assert.Zero(t, s.ExpireEvents(), "1:58")
	simtest.Advance(s, time.Minute)
	assert.Equal(t, 1, s.ExpireEvents(), "1:59, 1h after a's last write")
	assert.Empty(t, s.Events())

	// The recorder still counts it: a repeat creates the event again, with
	// its name, first timestamp and count (recordToSink's create after a
	// failed patch).
	short, ok := s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "a")
	require.True(t, ok)
	assert.Equal(t, "a", short.Message)
	evs := s.Events()
	require.Len(t, evs, 1)
	assert.Equal(t, int32(3), evs[0].Count)
	assert.True(t, evs[0].FirstTimestamp.Equal(api.NewTime(api.Epoch)))
}

func TestEventTTLOption(t *testing.T) {
	t.Parallel()
	s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 1, EventTTL: time.Minute})
	d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "a")
	simtest.Advance(s, 59*time.Second)
	assert.Zero(t, s.ExpireEvents())
	simtest.Advance(s, time.Second)
	assert.Equal(t, 1, s.ExpireEvents())
	assert.Equal(t, time.Minute, s.EventTTL())
}

func TestCorrelatorsAreClonedOnWrite(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	e := event{pod: "p", reason: "R", message: "m"}
	e.record(s)
	c := s.Clone(s.Clock().Clone())
	e.record(s)
	e.record(s)
	e.record(c)
	assert.Equal(t, int32(3), s.Events()[0].Count)
	assert.Equal(t, int32(2), c.Events()[0].Count, "the clone's recorder went on from the state at the clone")
}
