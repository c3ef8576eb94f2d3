package store

import "converge/core/api"

// Real controllers learn what changed from their informers and skip what
// did not; Converge's controllers read the store every tick, so the store
// tells them, cheaply, when each kind last changed (and podindex.go lists
// the pods of one node or one controller).

// Changes says when the objects of one kind last changed, by what changed.
// Each figure is the store's resourceVersion just after the latest such
// write (0: none yet), so it only grows; a reader that kept the figures of
// its last pass knows whether anything it depends on changed since. They
// are meaningful for one store (see Identity).
type Changes struct {
	// Members is the latest create or delete (the removal of the object).
	Members int64
	// Meta is the latest write of metadata or spec: Update, Patch, Bind, a
	// graceful delete (the deletionTimestamp), ownerReferences removed for
	// an orphaning delete, the Deployment status write (it sets an
	// annotation), an event counted again.
	Meta int64
	// Status is the latest write of the status alone.
	Status int64
}

// Any is the latest change of any sort.
func (c Changes) Any() int64 { return max(c.Members, c.Meta, c.Status) }

type change uint8

const (
	changeMembers change = 1 << iota
	changeMeta
	changeStatus
)

// changed notes a write to c's kind at the current resourceVersion.
func (s *Store) changed(c *collection, what change) {
	if what&changeMembers != 0 {
		c.changes.Members = s.rv
		if c.kind != api.KindEvent {
			s.membership = s.rv
		}
	}
	if what&changeMeta != 0 {
		c.changes.Meta = s.rv
	}
	if what&changeStatus != 0 {
		c.changes.Status = s.rv
	}
}

// Changes returns when the objects of a kind last changed (zero for an
// unknown kind).
func (s *Store) Changes(kind string) Changes {
	if c, ok := s.kinds[kind]; ok {
		return c.changes
	}
	return Changes{}
}

// Membership is the resourceVersion just after the latest create or
// delete of an object of any kind but Event: what decides which uids
// exist (Exists).
func (s *Store) Membership() int64 { return s.membership }

// Identity tells stores apart for a reader's cache: a store keeps its
// Identity for life, a clone gets a new one. A cache of what a store held
// (with its Changes) is valid only for the store of the same Identity.
type Identity struct{ _ byte }

// Identity returns the store's identity.
func (s *Store) Identity() *Identity { return s.id }
