package store

import (
	"strconv"

	"converge/core/api"
)

// EmittedEvent is the short form of an event as a trace line lists it.
type EmittedEvent struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Object  string `json:"object"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
}

// RecordEvent stores an event about obj from a component (deployment-controller,
// replicaset-controller, default-scheduler, kubelet, node-controller ...), as
// client-go's recorder does: an identical event (same object, type, reason,
// message and source) within the last 10 minutes bumps count and
// lastTimestamp instead of creating another object. It returns the short form.
func (s *Store) RecordEvent(obj api.Object, component, host, eventType, reason, message string) EmittedEvent {
	m, tm := obj.GetObjectMeta(), obj.GetTypeMeta()
	kind := tm.Kind
	if kind == "" {
		kind = api.KindOf(obj)
	}
	now := s.Now()
	c := s.kinds[api.KindEvent]
	// Aggregate with the most recent identical event, searching backwards a little way.
	checked := 0
	for i := c.n - 1; i >= 0 && checked < 64; i-- {
		o := c.at(i)
		if o == nil {
			continue
		}
		checked++
		e := o.(*api.Event)
		if e.InvolvedObject.UID == m.UID && e.Reason == reason && e.Message == message && e.Type == eventType &&
			e.Source.Component == component && now.Sub(e.LastTimestamp.Time) <= 600*secondsDur(1) {
			x := *e
			x.Count++
			x.LastTimestamp = now
			x.ResourceVersion = s.nextEventRV()
			c.set(i, &x)
			s.changed(c, changeMeta)
			return short(&x)
		}
	}
	s.evSeq++
	ns := m.Namespace
	if ns == "" {
		ns = api.NamespaceDefault
	}
	e := &api.Event{
		ObjectMeta:     api.ObjectMeta{Name: eventName(m.Name, now.UnixNano()+s.evSeq), Namespace: ns},
		InvolvedObject: api.ObjectReference{Kind: kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID},
		Reason:         reason, Message: message, Type: eventType,
		Source:         api.EventSource{Component: component, Host: host},
		FirstTimestamp: now, LastTimestamp: now, Count: 1,
	}
	api.SetDefaults(e)
	e.UID = s.newUID()
	e.ResourceVersion = s.nextEventRV()
	e.CreationTimestamp = now
	// Events are not indexed by uid: nothing owns them or looks them up so.
	c.add(key(e.Namespace, e.Name), e)
	s.changed(c, changeMembers)
	return short(e)
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
