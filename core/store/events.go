package store

import (
	"hash/maphash"
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
	agg := aggregateKey{object: objectKeyOf(kind, m), typ: typeCode(eventType), reason: reason}

	// 1. EventAggregate.
	lk := logKey{aggregateKey: agg, message: message}
	objHash := agg.object.hash()
	aggHash := mixHash(mixHash(objHash, uint64(agg.typ)), strHash(reason))
	rec, _ := corr.aggregates.upsert(agg, aggHash)
	nowNS := now.UnixNano()
	if rec.last == 0 || time.Duration(nowNS-rec.last) > AggregateInterval {
		*rec = aggregateRecord{}
	}
	if !rec.has(message) {
		rec.add(message)
	}
	rec.last = nowNS
	if rec.len() >= AggregateMaxEvents {
		// The local key set does not grow beyond the limit: client-go pops
		// any one; Converge drops the newest, so the first nine stay.
		rec.more = rec.more[:len(rec.more)-1]
		lk = logKey{aggregateKey: agg, aggregate: true}
		message = AggregatePrefix + message
	}

	// 2. eventObserve.
	logHash := mixHash(aggHash, 1) // the aggregate's key: no message
	if !lk.aggregate {
		logHash = mixHash(aggHash, strHash(lk.message))
	}
	e, seen := corr.logged.upsert(lk, logHash)
	if seen && e.count > 0 {
		e.count++
	} else {
		s.evSeq++
		*e = eventLog{count: 1, first: nowNS, name: eventName(m.Name, nowNS+s.evSeq)}
	}
	ev := *e

	// 3. The spam filter.
	if !corr.allow(spamKey{object: agg.object, typ: agg.typ}, mixHash(objHash, uint64(agg.typ)), nowNS) {
		return EmittedEvent{}, false
	}

	// 4. recordToSink: patch, or create.
	ns := m.Namespace
	if ns == "" {
		ns = api.NamespaceDefault
	}
	c := s.kinds[api.KindEvent]
	k := key(ns, ev.name)
	// A first event is new: only a repeat can find its event stored.
	if ev.count > 1 {
		if cur, ok := c.get(k); ok {
			x := *cur.(*api.Event)
			x.Count, x.LastTimestamp, x.Message = ev.count, now, message
			x.ResourceVersion = s.nextEventRV()
			c.replace(k, &x)
			s.changed(c, changeMeta)
			s.expireLater(k, now.Time)
			return s.short(&x), true
		}
	}
	out := &api.Event{
		ObjectMeta:     api.ObjectMeta{Name: ev.name, Namespace: ns},
		InvolvedObject: ref,
		Reason:         reason, Message: message, Type: eventType,
		Source:         api.EventSource{Component: component, Host: host},
		FirstTimestamp: api.NewTime(time.Unix(0, ev.first).UTC()), LastTimestamp: now, Count: ev.count,
	}
	api.SetDefaults(out)
	out.UID = s.newUID()
	out.ResourceVersion = s.nextEventRV()
	out.CreationTimestamp = now
	// Events are not indexed by uid: nothing owns them or looks them up so.
	c.add(k, out)
	s.changed(c, changeMembers)
	s.expireLater(k, now.Time)
	return s.short(out), true
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
	if n > 0 {
		s.changed(c, changeMembers)
	}
	if len(s.evExpiry) == 0 {
		s.evExpiry = nil
	}
	if now.Sub(s.evPruned) >= CorrelatorPruneEvery {
		s.evPruned = now
		s.pruneCorrelators(now.UnixNano())
	}
	return n
}

// CorrelatorPruneEvery is how often the recorders' caches drop the entries
// that can no longer matter: those about objects that are gone (their uid
// is in no stored object, so no event can be about it again), similar-event
// records older than AggregateInterval (they would start over anyway) and
// spam buckets full again. Only memory changes: the recorders behave the
// same.
const CorrelatorPruneEvery = time.Minute

func (s *Store) pruneCorrelators(now int64) {
	gone := func(o objectKey) bool {
		if o.uid == "" {
			return false
		}
		_, ok := s.uidIx.Get(o.uid)
		return !ok
	}
	dropAggregate := func(k aggregateKey, r aggregateRecord) bool {
		return gone(k.object) || time.Duration(now-r.last) > AggregateInterval
	}
	dropLogged := func(k logKey, _ eventLog) bool { return gone(k.object) }
	dropSpam := func(k spamKey, empty int64) bool {
		return gone(k.object) || empty <= now-int64(SpamBurst*SpamRefill)
	}
	for src, c := range s.correlators {
		if c.frozen {
			// Shared with a clone: copied only when something goes, so
			// that a quiet minute costs the checkpoints nothing.
			if !c.aggregates.any(dropAggregate) && !c.logged.any(dropLogged) && !c.spam.any(dropSpam) {
				continue
			}
			c = c.clone()
			s.correlators[src] = c
		}
		c.aggregates.prune(dropAggregate)
		c.logged.prune(dropLogged)
		c.spam.prune(dropSpam)
	}
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

// short is the event's short form. The object's reference is kept for
// the next event, which is often about the same object (a kubelet's
// Pulled, Created, Started).
func (s *Store) short(e *api.Event) EmittedEvent {
	o := &e.InvolvedObject
	if r := &s.lastRef; r.kind != o.Kind || r.name != o.Name || r.ref == "" {
		*r = shortRef{kind: o.Kind, name: o.Name, ref: ShortRef(o.Kind, o.Name)}
	}
	return EmittedEvent{Type: e.Type, Reason: e.Reason, Object: s.lastRef.ref, Message: e.Message, Source: e.Source.Component}
}

// shortRef is ShortRef(kind, name), remembered.
type shortRef struct{ kind, name, ref string }

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

// objectKey identifies the event's object within a source: its uid and
// name (client-go's keys hold kind, namespace, name and uid; a uid is
// unique, and an object without one is told apart by kind, namespace and
// name, folded into name).
type objectKey struct{ uid, name string }

func objectKeyOf(kind string, m *api.ObjectMeta) objectKey {
	if m.UID == "" {
		return objectKey{name: kind + "/" + m.Namespace + "/" + m.Name}
	}
	return objectKey{uid: m.UID, name: m.Name}
}

// hash is the object's part of its keys' hashes in the caches (lru).
func (o objectKey) hash() uint64 { return mixHash(strHash(o.uid), strHash(o.name)) }

// keySeed seeds the hashes of the caches' keys. Only their speed depends
// on the hashes (keys that collide are told apart), so a process's own
// seed keeps every run the same.
var keySeed = maphash.MakeSeed()

func strHash(s string) uint64 { return maphash.String(keySeed, s) }

// mixHash combines a hash with the next field's.
func mixHash(h, x uint64) uint64 {
	h ^= x + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	return h * 0xbf58476d1ce4e5b9
}

// eventTypeCode is an event type in a key: Normal 0, Warning 1, any other
// 2 (the recorder takes only Normal and Warning).
type eventTypeCode uint8

func typeCode(t string) eventTypeCode {
	switch t {
	case api.EventTypeNormal:
		return 0
	case api.EventTypeWarning:
		return 1
	}
	return 2
}

// aggregateKey is EventAggregatorByReasonFunc's key within one source.
type aggregateKey struct {
	object objectKey
	typ    eventTypeCode
	reason string
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
	typ    eventTypeCode
}

// aggregateRecord is the aggregator's record: the distinct messages seen
// (at most AggregateMaxEvents−1 are kept; the first apart, as most objects
// have one message per reason) and the last similar event.
type aggregateRecord struct {
	first string
	more  []string
	n0    bool  // first is set
	last  int64 // the last similar event, in Unix nanoseconds
}

func (r *aggregateRecord) has(m string) bool {
	return (r.n0 && r.first == m) || slices.Contains(r.more, m)
}

func (r *aggregateRecord) len() int {
	if !r.n0 {
		return 0
	}
	return 1 + len(r.more)
}

// add adds a message; more is copied first, as a record may be shared with
// a checkpoint's correlator.
func (r *aggregateRecord) add(m string) {
	if !r.n0 {
		r.first, r.n0 = m, true
		return
	}
	r.more = append(slices.Clip(r.more), m)
}

// eventLog is the logger's record of an event it wrote.
type eventLog struct {
	count int32
	first int64 // firstTimestamp, in Unix nanoseconds
	name  string
}

// correlator is one source's EventCorrelator: the aggregator's, the
// logger's and the spam filter's caches (LRUs of CorrelatorCacheSize).
// A correlator shared with a checkpoint is frozen and copied before a write.
type correlator struct {
	frozen     bool
	aggregates *lru[aggregateKey, aggregateRecord]
	logged     *lru[logKey, eventLog]
	// spam holds each key's token bucket as its "empty" instant (Unix
	// nanoseconds): it holds (now − empty) / SpamRefill tokens, at most
	// SpamBurst.
	spam *lru[spamKey, int64]
}

func newCorrelator() *correlator {
	return &correlator{aggregates: newLRU[aggregateKey, aggregateRecord](CorrelatorCacheSize),
		logged: newLRU[logKey, eventLog](CorrelatorCacheSize), spam: newLRU[spamKey, int64](CorrelatorCacheSize)}
}

func (c *correlator) clone() *correlator {
	out := &correlator{aggregates: c.aggregates.clone(), logged: c.logged.clone(), spam: c.spam.clone()}
	for i := range out.aggregates.items {
		it := &out.aggregates.items[i]
		it.val.more = slices.Clone(it.val.more)
	}
	return out
}

// correlator returns the source's correlator, ready to be written.
func (s *Store) correlator(src eventSource) *correlator {
	// Events come in runs from one source (a kubelet's pass over its pods):
	// the last one returned is still the source's while it is not frozen
	// (a correlator is replaced only when frozen).
	if c := s.lastCorr; c != nil && !c.frozen && s.lastSrc == src {
		return c
	}
	c := s.correlatorSlow(src)
	s.lastSrc, s.lastCorr = src, c
	return c
}

func (s *Store) correlatorSlow(src eventSource) *correlator {
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

// allow is the spam filter's TryAccept for key, whose hash is h, at now.
func (c *correlator) allow(key spamKey, h uint64, now int64) bool {
	full := now - int64(SpamBurst*SpamRefill)
	empty, ok := c.spam.upsert(key, h)
	if !ok || *empty < full {
		*empty = full
	}
	if now-*empty < int64(SpamRefill) {
		return false
	}
	*empty += int64(SpamRefill)
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
