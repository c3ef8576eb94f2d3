package store

import (
	"slices"
	"strconv"
	"time"

	"converge/core/api"
)

// This file is the event path from a component to the API server:
// client-go's event recorder with its EventCorrelator
// (k8s.io/client-go/tools/record, events_cache.go and event.go), then the
// API server's storage of events with their time to live (--event-ttl).
// docs/fidelity.md ("Events") says what Converge simplifies.

// Event correlation limits, as client-go's defaults.
const (
	// AggregateMaxEvents similar events (same source, object, type and
	// reason, another message) within AggregateInterval are combined into
	// one event with the message "(combined from similar events): ...".
	AggregateMaxEvents = 10
	AggregateInterval  = 600 * time.Second
	// SpamBurst events per source, object and type pass the spam filter at
	// once; then one more every SpamRefill.
	SpamBurst  = 25
	SpamRefill = 300 * time.Second
	// CorrelatorCacheSize bounds each of a correlator's caches (its LRUs).
	CorrelatorCacheSize = 4096
	// DefaultEventTTL is kube-apiserver's --event-ttl: an event is deleted
	// that long after it was last written.
	DefaultEventTTL = time.Hour
)

// AggregatePrefix starts the message of an aggregated event.
const AggregatePrefix = "(combined from similar events): "

// EmittedEvent is the short form of an event as a trace line lists it.
type EmittedEvent struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Object  string `json:"object"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
}

// RecordEvent records an event about obj from a component
// (deployment-controller, replicaset-controller, default-scheduler,
// kubelet, node-controller ...) on host (the kubelet's node, "" for the
// control plane), as client-go's recorder does (EventCorrelate, then
// recordToSink):
//
//  1. aggregation: the AggregateMaxEvents-th distinct message with the same
//     source, object, type and reason within AggregateInterval of the
//     previous one makes an aggregate event instead, "(combined from
//     similar events): <message>", which later similar events update;
//  2. dedup: an event identical to one recorded before (source, object,
//     type, reason and message, or the same aggregate) updates that event:
//     count+1 and lastTimestamp now, firstTimestamp and name kept;
//  3. spam filter: per source, object and type, SpamBurst events, then one
//     per SpamRefill; an event over the budget is dropped;
//  4. the write: a new event is created; an update patches the stored
//     event, or creates it again (with its count) when the API server has
//     deleted it in the meantime (its TTL ran out).
//
// It returns the short form of what was written, and false when the spam
// filter dropped the event (nothing was written).
func (s *Store) RecordEvent(obj api.Object, component, host, eventType, reason, message string) (EmittedEvent, bool) {
	m, tm := obj.GetObjectMeta(), obj.GetTypeMeta()
	kind := tm.Kind
	if kind == "" {
		kind = api.KindOf(obj)
	}
	now := s.Now()
	ref := api.ObjectReference{Kind: kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID}
	corr := s.correlator(eventSource{component, host})
	agg := aggregateKey{object: objectKey{kind, m.Namespace, m.Name, m.UID}, typ: eventType, reason: reason}

	// 1. EventAggregate.
	lk := logKey{aggregateKey: agg, message: message}
	rec, _ := corr.aggregates.get(agg)
	if now.Time.Sub(rec.last) > AggregateInterval {
		rec = aggregateRecord{}
	}
	known := slices.Contains(rec.messages, message)
	if !known {
		rec.messages = append(slices.Clip(rec.messages), message)
	}
	rec.last = now.Time
	aggregated := len(rec.messages) >= AggregateMaxEvents
	if aggregated {
		// The local key set does not grow beyond the limit: client-go pops
		// any one; Converge drops the newest, so the first nine stay.
		rec.messages = rec.messages[:len(rec.messages)-1]
		lk = logKey{aggregateKey: agg, aggregate: true}
		message = AggregatePrefix + message
	}
	corr.aggregates.put(agg, rec)

	// 2. eventObserve.
	last, seen := corr.logged.get(lk)
	e := eventLog{count: 1, first: now}
	if seen && last.count > 0 {
		e = eventLog{count: last.count + 1, first: last.first, name: last.name}
	}
	if e.name == "" {
		s.evSeq++
		e.name = eventName(m.Name, now.UnixNano()+s.evSeq)
	}
	corr.logged.put(lk, e)

	// 3. The spam filter.
	if !corr.allow(spamKey{object: agg.object, typ: eventType}, now.Time) {
		return EmittedEvent{}, false
	}

	// 4. recordToSink: patch, or create.
	ns := m.Namespace
	if ns == "" {
		ns = api.NamespaceDefault
	}
	c := s.kinds[api.KindEvent]
	k := key(ns, e.name)
	if cur, ok := c.get(k); ok && e.count > 1 {
		x := *cur.(*api.Event)
		x.Count, x.LastTimestamp, x.Message = e.count, now, message
		x.ResourceVersion = s.nextEventRV()
		c.replace(k, &x)
		s.expireLater(k, now.Time)
		return short(&x), true
	}
	ev := &api.Event{
		ObjectMeta:     api.ObjectMeta{Name: e.name, Namespace: ns},
		InvolvedObject: ref,
		Reason:         reason, Message: message, Type: eventType,
		Source:         api.EventSource{Component: component, Host: host},
		FirstTimestamp: e.first, LastTimestamp: now, Count: e.count,
	}
	api.SetDefaults(ev)
	ev.UID = s.newUID()
	ev.ResourceVersion = s.nextEventRV()
	ev.CreationTimestamp = now
	// Events are not indexed by uid: nothing owns them or looks them up so.
	c.add(k, ev)
	s.expireLater(k, now.Time)
	return short(ev), true
}

// ExpireEvents deletes the events whose time to live ran out: the API
// server stores each event with a TTL of EventTTL from its last write
// (creation or update), and etcd deletes it then. It returns how many went.
// The engine calls it at the start of every second.
func (s *Store) ExpireEvents() int {
	now := s.clock.Now()
	c := s.kinds[api.KindEvent]
	n := 0
	for len(s.evExpiry) > 0 && !s.evExpiry[0].at.After(now) {
		k := s.evExpiry[0].key
		s.evExpiry = s.evExpiry[1:]
		o, ok := c.get(k)
		if !ok {
			continue
		}
		if e := o.(*api.Event); e.LastTimestamp.Add(s.eventTTL()).After(now) {
			continue // written again since; a later entry covers it
		}
		c.remove(k)
		n++
	}
	if len(s.evExpiry) == 0 {
		s.evExpiry = nil
	}
	return n
}

// EventTTL returns how long the store keeps an event after its last write.
func (s *Store) EventTTL() time.Duration { return s.eventTTL() }

func (s *Store) eventTTL() time.Duration {
	if s.evTTL <= 0 {
		return DefaultEventTTL
	}
	return s.evTTL
}

// expireLater notes that the event at k was written at t.
func (s *Store) expireLater(k string, t time.Time) {
	s.evExpiry = append(s.evExpiry, eventExpiry{at: t.Add(s.eventTTL()), key: k})
}

// eventExpiry is when the event at key expires, as of one of its writes.
type eventExpiry struct {
	at  time.Time
	key string
}

// eventName is client-go's "<object>.<hex of the timestamp>".
func eventName(object string, n int64) string {
	b := make([]byte, 0, len(object)+17)
	b = append(b, object...)
	b = append(b, '.')
	return string(strconv.AppendInt(b, n, 16))
}

func short(e *api.Event) EmittedEvent {
	return EmittedEvent{Type: e.Type, Reason: e.Reason, Object: ShortRef(e.InvolvedObject.Kind, e.InvolvedObject.Name),
		Message: e.Message, Source: e.Source.Component}
}

// ShortRef renders kind and name as kubectl's short reference: deployment/web, pod/web-5d9c7b8f4-x2kq.
func ShortRef(kind, name string) string {
	if r := api.ResourceFor(kind); r != nil {
		return r.Singular + "/" + name
	}
	return lower(kind) + "/" + name
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// nextEventRV hands out a resourceVersion without counting a write.
func (s *Store) nextEventRV() string {
	s.rv++
	return fmtInt(s.rv)
}

func fmtInt(n int64) string { return strconv.FormatInt(n, 10) }

// eventSource is a recorder: each component (each kubelet, by its host)
// has its own, as each has its own EventBroadcaster.
type eventSource struct{ component, host string }

type objectKey struct{ kind, namespace, name, uid string }

// aggregateKey is EventAggregatorByReasonFunc's key within one source.
type aggregateKey struct {
	object      objectKey
	typ, reason string
}

// logKey is getEventKey within one source, or an aggregate's key.
type logKey struct {
	aggregateKey
	message   string
	aggregate bool
}

// spamKey is getSpamKey within one source: the object and the type.
type spamKey struct {
	object objectKey
	typ    string
}

// aggregateRecord is the aggregator's record: the distinct messages seen
// (at most AggregateMaxEvents−1 are kept) and the last similar event.
type aggregateRecord struct {
	messages []string
	last     time.Time
}

// eventLog is the logger's record of an event it wrote.
type eventLog struct {
	count int32
	first api.Time
	name  string
}

// correlator is one source's EventCorrelator: the aggregator's, the
// logger's and the spam filter's caches (LRUs of CorrelatorCacheSize).
// A correlator shared with a checkpoint is frozen and copied before a write.
type correlator struct {
	frozen     bool
	aggregates *lru[aggregateKey, aggregateRecord]
	logged     *lru[logKey, eventLog]
	// spam holds each key's token bucket as its "empty" instant: it holds
	// (now − empty) / SpamRefill tokens, at most SpamBurst.
	spam *lru[spamKey, time.Time]
}

func newCorrelator() *correlator {
	return &correlator{aggregates: newLRU[aggregateKey, aggregateRecord](CorrelatorCacheSize),
		logged: newLRU[logKey, eventLog](CorrelatorCacheSize), spam: newLRU[spamKey, time.Time](CorrelatorCacheSize)}
}

func (c *correlator) clone() *correlator {
	out := &correlator{aggregates: c.aggregates.clone(), logged: c.logged.clone(), spam: c.spam.clone()}
	for i := range out.aggregates.items {
		it := &out.aggregates.items[i]
		it.val.messages = slices.Clone(it.val.messages)
	}
	return out
}

// correlator returns the source's correlator, ready to be written.
func (s *Store) correlator(src eventSource) *correlator {
	if s.correlators == nil {
		s.correlators = map[eventSource]*correlator{}
	}
	c := s.correlators[src]
	switch {
	case c == nil:
		c = newCorrelator()
		s.correlators[src] = c
	case c.frozen:
		c = c.clone()
		s.correlators[src] = c
	}
	return c
}

// allow is the spam filter's TryAccept for key at now.
func (c *correlator) allow(key spamKey, now time.Time) bool {
	full := now.Add(-SpamBurst * SpamRefill)
	empty, ok := c.spam.get(key)
	if !ok || empty.Before(full) {
		empty = full
	}
	if now.Sub(empty) < SpamRefill {
		c.spam.put(key, empty)
		return false
	}
	c.spam.put(key, empty.Add(SpamRefill))
	return true
}

// freezeCorrelators shares the correlators with a clone: neither side
// writes them again; each copies the one it writes first.
func (s *Store) freezeCorrelators() map[eventSource]*correlator {
	if len(s.correlators) == 0 {
		return nil
	}
	out := make(map[eventSource]*correlator, len(s.correlators))
	for k, c := range s.correlators {
		c.frozen = true
		out[k] = c
	}
	return out
}
