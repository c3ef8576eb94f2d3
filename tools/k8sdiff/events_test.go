package k8sdiff

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/kubernetes/fake"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/tools/record/util"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/lru"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/store"
)

// TestDiffEvents feeds one stream of events through client-go's event path
// (k8s.io/client-go v0.35.4 tools/record: an EventCorrelator per source
// with a fake clock, then recordEvent's patch-or-create against a fake API
// server's events) and through Converge's store.RecordEvent, and compares
// the stored events after every event: which exist, their counts, first and
// last timestamps and messages, aggregated ones included ("(combined from
// similar events): ..."). The API server's --event-ttl (1h) is played on
// both sides: an event is deleted an hour after its last write.
//
// Two things are pinned rather than compared:
//   - EventAggregate's PopAny: when the tenth distinct message of a reason
//     makes an aggregate, upstream drops any one message of the ten from its
//     set (Go's map order); Converge drops the newest. The harness makes
//     upstream's pick the same (one of its possible outcomes), so that what
//     follows stays comparable.
//   - event names: upstream's are <object>.<hex of the nanosecond>, and two
//     events of one object in the same nanosecond collide (the second create
//     fails AlreadyExists); Converge adds a sequence number. The stream
//     never has two events in one nanosecond; names are compared up to the dot.
func TestDiffEvents(t *testing.T) {
	t.Parallel()
	f := newFamily("client-go EventCorrelator (aggregation, spam filter, TTL) against store.RecordEvent")
	seed := uint64(setting("K8SDIFF_SEED", 1))
	for i := range setting("K8SDIFF_EVENT_CASES", 500) {
		g := newGen(seed^0x6576656e7473, uint64(i)) // "events"
		stream := g.eventStream()
		d, notes := runEventStream(stream)
		if d != "" {
			d = fmt.Sprintf("events-seed%d-case%d: %s", seed, i, d)
		}
		f.add(d, notes...)
	}
	f.finish(t)
}

// evIn is one event of a stream: after step, source src records an event
// about object obj.
type evIn struct {
	step             time.Duration
	src, obj         int
	typ, reason, msg string
}

var evSources = []v1.EventSource{{Component: "deployment-controller"}, {Component: "kubelet", Host: "node-1"}, {Component: "kubelet", Host: "node-2"}}

var evSteps = []time.Duration{time.Millisecond, time.Second, time.Second, time.Second, 2 * time.Second, 10 * time.Second, time.Minute,
	299 * time.Second, 300 * time.Second, 301 * time.Second, 599 * time.Second, 600 * time.Second, 601 * time.Second,
	3599 * time.Second, time.Hour, 3601 * time.Second}

// eventStream draws a stream: bursts of one event, runs of similar
// messages, and steps that land on both sides of the spam filter's refill
// (300s), the aggregation interval (600s) and the TTL (1h).
func (g *gen) eventStream() []evIn {
	n := g.n(5, 90)
	variants := g.n(1, 14)
	if g.chance(0.5) {
		variants = g.n(10, 14) // enough distinct messages to aggregate
	}
	reasons := []string{"ScalingReplicaSet", "BackOff", "Unhealthy"}[:g.n(1, 3)]
	small := g.chance(0.5) // mostly short steps: bursts reach the spam filter
	srcs, objs := g.n(1, len(evSources)), g.n(1, 3)
	types := []string{"Normal", "Warning"}[:g.n(1, 2)]
	if g.chance(0.4) { // one object, one source, one reason: aggregates
		srcs, objs, types, reasons = 1, 1, types[:1], reasons[:1]
	}
	var out []evIn
	for i := range n {
		var e evIn
		switch {
		case i > 0 && g.chance(0.35):
			e = out[i-1]
		default:
			e = evIn{src: g.r.IntN(srcs), obj: g.r.IntN(objs), typ: types[g.r.IntN(len(types))],
				reason: reasons[g.r.IntN(len(reasons))], msg: fmt.Sprintf("message %d", g.r.IntN(variants))}
		}
		switch {
		case small && g.chance(0.9):
			e.step = evSteps[g.r.IntN(5)]
		default:
			e.step = evSteps[g.r.IntN(len(evSteps))]
		}
		if i == 0 {
			e.step = time.Second
		}
		out = append(out, e)
	}
	return out
}

// runEventStream runs a stream on both sides; it returns "" when they agree
// after every event, else where they first differ.
func runEventStream(stream []evIn) (string, []string) {
	ku := newKubeEvents()
	cv := newConvEvents()
	var notes []string
	for i, e := range stream {
		ku.advance(e.step)
		cv.advance(e.step)
		aggregated, skipped := ku.record(e)
		cv.record(e)
		if aggregated {
			notes = append(notes, "aggregated")
		}
		if skipped {
			notes = append(notes, "dropped by the spam filter")
		}
		a, b := ku.stored(), cv.stored()
		if !slices.Equal(a, b) {
			return fmt.Sprintf("after event %d (%+v):%s", i, e, lineDiff("kubernetes", a, "converge", b)), notes
		}
	}
	notes = append(notes, "events")
	return "", notes
}

// kubeEvents is client-go's side: one correlator per source, a fake API
// server for the events.
type kubeEvents struct {
	start  time.Time
	clock  *clocktesting.FakeClock
	corr   []*record.EventCorrelator
	client *fake.Clientset
	sink   *typedcorev1.EventSinkImpl
	uids   []types.UID
}

func newKubeEvents() *kubeEvents {
	start := api.Epoch
	k := &kubeEvents{start: start, clock: clocktesting.NewFakeClock(start), client: fake.NewSimpleClientset(),
		uids: []types.UID{"uid-a", "uid-b", "uid-c"}}
	k.sink = &typedcorev1.EventSinkImpl{Interface: k.client.CoreV1().Events(metav1.NamespaceDefault)}
	for range evSources {
		k.corr = append(k.corr, record.NewEventCorrelatorWithOptions(record.CorrelatorOptions{Clock: k.clock}))
	}
	return k
}

// advance moves the clock and plays the TTL: events last written an hour
// ago or more are deleted.
func (k *kubeEvents) advance(d time.Duration) {
	k.clock.Step(d)
	now := k.clock.Now()
	obj, _ := k.client.Tracker().List(v1.SchemeGroupVersion.WithResource("events"), v1.SchemeGroupVersion.WithKind("Event"), metav1.NamespaceDefault)
	list := obj.(*v1.EventList)
	for _, e := range list.Items {
		if !e.LastTimestamp.Add(store.DefaultEventTTL).After(now) {
			_ = k.client.Tracker().Delete(v1.SchemeGroupVersion.WithResource("events"), e.Namespace, e.Name)
		}
	}
	k.client.ClearActions()
}

// record is recorder.generateEvent (makeEvent) and recordToSink's
// recordEvent (k8s.io/client-go v0.35.4 tools/record/event.go), copied
// without the broadcaster's goroutine and retries (the fake API server
// does not fail). It reports whether the event became an aggregate and
// whether the spam filter dropped it.
func (k *kubeEvents) record(e evIn) (aggregated, skipped bool) {
	src := evSources[e.src]
	now := metav1.Time{Time: k.clock.Now()}
	ref := v1.ObjectReference{Kind: "Pod", Namespace: metav1.NamespaceDefault, Name: evObject(e.obj), UID: k.uids[e.obj], APIVersion: "v1"}
	ev := &v1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: util.GenerateEventName(ref.Name, now.UnixNano()), Namespace: metav1.NamespaceDefault},
		InvolvedObject: ref, Reason: e.reason, Message: e.msg, FirstTimestamp: now, LastTimestamp: now, Count: 1, Type: e.typ,
		Source: src, ReportingController: src.Component, ReportingInstance: src.Host,
	}
	corr := k.corr[e.src]
	aggKey, _ := record.EventAggregatorByReasonFunc(ev)
	keys := aggregateKeys(corr, aggKey)
	before := sets.New[string]()
	if keys != nil {
		before = keys.Clone()
	}
	result, err := corr.EventCorrelate(ev)
	if err != nil {
		panic(err)
	}
	// The tenth distinct message (an aggregate, even one the spam filter
	// then drops, when result.Event is nil): nine before, nine after.
	if after := aggregateKeys(corr, aggKey); before.Len() == 9 && !before.Has(e.msg) && after.Len() == 9 {
		aggregated = true
		// Pin PopAny to Converge's pick: the set goes back to the nine
		// messages it held before this one.
		after.Clear()
		after.Insert(before.UnsortedList()...)
	}
	if result.Event != nil && (result.Event.Message != e.msg) != aggregated {
		panic(fmt.Sprintf("aggregate %q not told from the set of messages", result.Event.Message))
	}
	if result.Skip {
		return aggregated, true
	}
	event := result.Event
	var newEvent *v1.Event
	update := event.Count > 1
	if update {
		newEvent, err = k.sink.Patch(event, result.Patch)
	}
	if !update || util.IsKeyNotFoundError(err) {
		event.ResourceVersion = ""
		newEvent, err = k.sink.Create(event)
	}
	if err == nil {
		corr.UpdateState(newEvent)
	} else if !apierrors.IsAlreadyExists(err) {
		panic(err)
	}
	return aggregated, false
}

// aggregateKeys is the EventAggregator's set of messages for key, shared
// with its cache (nil when there is no record).
func aggregateKeys(corr *record.EventCorrelator, key string) sets.Set[string] {
	agg := getField(corr, "aggregator").(*record.EventAggregator)
	cache := getField(agg, "cache").(*lru.Cache)
	v, ok := cache.Get(key)
	if !ok {
		return nil
	}
	rv := reflect.New(reflect.TypeOf(v)).Elem()
	rv.Set(reflect.ValueOf(v))
	f := rv.FieldByName("localKeys")
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(sets.Set[string])
}

func evObject(i int) string { return fmt.Sprintf("web-%d", i) }

// stored lists the stored events, one line each, sorted.
func (k *kubeEvents) stored() []string {
	list, err := k.client.Tracker().List(v1.SchemeGroupVersion.WithResource("events"), v1.SchemeGroupVersion.WithKind("Event"), metav1.NamespaceDefault)
	if err != nil {
		panic(err)
	}
	var out []string
	for _, e := range list.(*v1.EventList).Items {
		out = append(out, eventLine(e.Name, e.InvolvedObject.Name, e.Source.Component, e.Source.Host, e.Type, e.Reason, e.Message, e.Count,
			e.FirstTimestamp.Sub(k.start), e.LastTimestamp.Sub(k.start)))
	}
	slices.Sort(out)
	return out
}

func eventLine(name, obj, component, host, typ, reason, msg string, count int32, first, last time.Duration) string {
	prefix, _, _ := strings.Cut(name, ".")
	return fmt.Sprintf("%s. %s %s/%s %s %s %q count=%d first=%s last=%s", prefix, obj, component, host, typ, reason, msg, count,
		first.Truncate(time.Second), last.Truncate(time.Second))
}

// convEvents is Converge's side: a store with the three pods.
type convEvents struct {
	clock *clock.Clock
	s     *store.Store
	pods  []*api.Pod
}

func newConvEvents() *convEvents {
	c := &convEvents{clock: clock.New(api.Epoch)}
	c.s = store.New(store.Options{Clock: c.clock})
	for i := range 3 {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: evObject(i), Namespace: api.NamespaceDefault},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}}}
		o, err := c.s.Create(p)
		if err != nil {
			panic(err)
		}
		c.pods = append(c.pods, o.(*api.Pod))
	}
	return c
}

// advance moves the clock; the engine expires events at every tick.
func (c *convEvents) advance(d time.Duration) {
	c.clock.Advance(d)
	c.s.ExpireEvents()
}

func (c *convEvents) record(e evIn) {
	src := evSources[e.src]
	c.s.RecordEvent(c.pods[e.obj], src.Component, src.Host, e.typ, e.reason, e.msg)
}

func (c *convEvents) stored() []string {
	var out []string
	for _, e := range c.s.Events() {
		out = append(out, eventLine(e.Name, e.InvolvedObject.Name, e.Source.Component, e.Source.Host, e.Type, e.Reason, e.Message, e.Count,
			e.FirstTimestamp.Sub(api.Epoch), e.LastTimestamp.Sub(api.Epoch)))
	}
	slices.Sort(out)
	return out
}
