package simtest

import (
	"converge/core/controller"
	"converge/core/store"
)

// Pass is what one Sync of a controller did: its tick context (the sync
// records in Log, the events in Emitted) and how much it wrote.
type Pass struct {
	*controller.Context
	// Writes is the store's resourceVersion growth during the Sync: every
	// write and every event counts.
	Writes int64
}

// Sync runs one Sync of c on s, at the store clock's time, in a fresh tick
// context, as the engine does once per control-plane round.
func Sync(s *store.Store, c controller.Controller) Pass {
	ctx := &controller.Context{Store: s, Log: &controller.SyncLog{}}
	before := s.ResourceVersion()
	c.Sync(ctx)
	return Pass{Context: ctx, Writes: s.ResourceVersion() - before}
}

// RecordFor returns the pass's sync record about object ("pod/web-x"),
// failing the test when there is none.
func (p Pass) RecordFor(t TB, object string) controller.SyncRecord {
	t.Helper()
	for _, r := range p.Log.Records {
		if r.Object == object {
			return r
		}
	}
	t.Fatalf("no sync record for %s in %+v", object, p.Log.Records)
	return controller.SyncRecord{}
}

// Events returns the pass's events with the given reason, in order.
func (p Pass) Events(reason string) []store.EmittedEvent {
	var out []store.EmittedEvent
	for _, e := range p.Emitted {
		if e.Reason == reason {
			out = append(out, e)
		}
	}
	return out
}
