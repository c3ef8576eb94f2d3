package store

import (
	"maps"

	"converge/core/api"
)

// collection holds the objects of one kind in creation order. Objects are
// immutable once stored: an update swaps the pointer in place, a delete
// leaves a hole that compaction later removes. Cloning copies the index and
// the slice, never the objects, which is what makes checkpoints cheap.
type collection struct {
	index map[string]int // key -> position in items
	items []api.Object   // creation order; nil marks a deleted entry
	holes int
	// iterating counts the EachPod loops under way: while one runs, the
	// positions must not move, so compaction waits until it ends.
	iterating int
}

func newCollection() *collection { return &collection{index: map[string]int{}} }

func (c *collection) get(key string) (api.Object, bool) {
	i, ok := c.index[key]
	if !ok {
		return nil, false
	}
	return c.items[i], true
}

func (c *collection) add(key string, obj api.Object) {
	c.index[key] = len(c.items)
	c.items = append(c.items, obj)
}

func (c *collection) replace(key string, obj api.Object) {
	c.items[c.index[key]] = obj
}

func (c *collection) remove(key string) {
	i, ok := c.index[key]
	if !ok {
		return
	}
	delete(c.index, key)
	c.items[i] = nil
	c.holes++
	c.maybeCompact()
}

// maybeCompact compacts when more than half the entries (and more than 64)
// are holes, unless an iteration is under way.
func (c *collection) maybeCompact() {
	if c.iterating == 0 && c.holes > 64 && c.holes > len(c.items)/2 {
		c.compact()
	}
}

func (c *collection) compact() {
	out := make([]api.Object, 0, len(c.index))
	for _, o := range c.items {
		if o != nil {
			c.index[o.GetObjectMeta().Key()] = len(out)
			out = append(out, o)
		}
	}
	c.items = out
	c.holes = 0
}

func (c *collection) len() int { return len(c.index) }

func (c *collection) clone() *collection {
	out := &collection{index: maps.Clone(c.index), items: make([]api.Object, len(c.items), cap(c.items)), holes: c.holes}
	copy(out.items, c.items)
	return out
}
