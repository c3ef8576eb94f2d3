package store

import (
	"slices"

	"converge/core/api"
	"converge/core/persist"
)

// chunkLen is how many positions one chunk of a collection holds.
const chunkLen = 64

// collection holds the objects of one kind in creation order. Objects are
// immutable once stored: an update swaps the pointer at the object's
// position, a delete leaves a hole that compaction later removes.
//
// The positions are cut into chunks of 64 and the key index is a
// persist.Map, so a clone copies one pointer per chunk and 64 per index
// (never an object), and the first write to a chunk or an index bucket
// after a clone copies that piece alone (see package persist): a
// checkpoint costs what changed since the previous one.
//
// enc and order are caches of this version alone: a clone starts without
// them, and they go with the version that built them.
type collection struct {
	kind   string
	own    *persist.Owner
	index  persist.Map[int32] // key -> position
	chunks []*chunk
	n      int // positions handed out: objects and holes
	holes  int
	// iterating counts the EachPod loops under way: while one runs, the
	// positions must not move, so compaction waits until it ends.
	iterating int

	// enc[pos] is the JSON of the object at pos (json.Marshal's bytes),
	// nil until asked for and again once the object is replaced.
	enc [][]byte
	// order is the positions < ordered sorted by namespace and name, as
	// kubectl lists them; orderHoles says some of them are holes now.
	order      []int32
	ordered    int
	orderHoles bool
	// podIx indexes the pods by node and by controller (podindex.go).
	podIx podIndexes

	// changes says when the kind last changed (Changes).
	changes Changes
}

// chunk is 64 positions of a collection (fewer in the last one).
type chunk struct {
	own  *persist.Owner
	objs []api.Object // nil marks a hole
}

func newCollection(kind string) *collection { return &collection{kind: kind, own: persist.NewOwner()} }

func (c *collection) at(pos int) api.Object { return c.chunks[pos/chunkLen].objs[pos%chunkLen] }

// writableChunk returns chunk i, copied first when another version owns it.
func (c *collection) writableChunk(i int) *chunk {
	ch := c.chunks[i]
	if ch.own != c.own {
		objs := make([]api.Object, len(ch.objs), chunkLen)
		copy(objs, ch.objs)
		ch = &chunk{own: c.own, objs: objs}
		c.chunks[i] = ch
	}
	return ch
}

// set stores obj at pos (nil makes a hole) and forgets pos's encoding.
func (c *collection) set(pos int, obj api.Object) {
	ch := c.writableChunk(pos / chunkLen)
	old := ch.objs[pos%chunkLen]
	ch.objs[pos%chunkLen] = obj
	if pos < len(c.enc) {
		c.enc[pos] = nil
	}
	c.podIx.wrote(pos, old, obj)
}

func (c *collection) get(key string) (api.Object, bool) {
	pos, ok := c.index.Get(key)
	if !ok {
		return nil, false
	}
	return c.at(int(pos)), true
}

func (c *collection) add(key string, obj api.Object) {
	pos := c.n
	if pos%chunkLen == 0 {
		c.chunks = append(c.chunks, &chunk{own: c.own, objs: make([]api.Object, 0, chunkLen)})
	}
	ch := c.writableChunk(pos / chunkLen)
	ch.objs = append(ch.objs, obj)
	c.n++
	c.index.Add(c.own, key, int32(pos))
	c.podIx.wrote(pos, nil, obj)
}

func (c *collection) replace(key string, obj api.Object) {
	pos, _ := c.index.Get(key)
	c.set(int(pos), obj)
}

func (c *collection) remove(key string) {
	pos, ok := c.index.Get(key)
	if !ok {
		return
	}
	c.index.Delete(c.own, key)
	c.set(int(pos), nil)
	c.holes++
	if int(pos) < c.ordered {
		c.orderHoles = true
	}
	c.maybeCompact()
}

// maybeCompact compacts when more than half the entries (and more than 64)
// are holes, unless an iteration is under way.
func (c *collection) maybeCompact() {
	if c.iterating == 0 && c.holes > 64 && c.holes > c.n/2 {
		c.compact()
	}
}

// compact moves the objects down over the holes, keeping their order, and
// carries the caches along.
func (c *collection) compact() {
	moved := make([]int32, c.n) // old position -> new one, -1 for a hole
	var chunks []*chunk
	var enc [][]byte
	n := 0
	for pos := 0; pos < c.n; pos++ {
		o := c.at(pos)
		if o == nil {
			moved[pos] = -1
			continue
		}
		if n%chunkLen == 0 {
			chunks = append(chunks, &chunk{own: c.own, objs: make([]api.Object, 0, chunkLen)})
		}
		last := chunks[len(chunks)-1]
		last.objs = append(last.objs, o)
		if pos < len(c.enc) {
			enc = append(enc, make([][]byte, n+1-len(enc))...)
			enc[n] = c.enc[pos]
		}
		moved[pos] = int32(n)
		c.index.Set(c.own, o.GetObjectMeta().Key(), int32(n))
		n++
	}
	// The ordered positions that hold an object keep their order; they are
	// the objects first in creation order, so they stay the first positions.
	order := c.order[:0]
	for _, pos := range c.order {
		if p := moved[pos]; p >= 0 {
			order = append(order, p)
		}
	}
	c.chunks, c.n, c.holes, c.enc = chunks, n, 0, enc
	c.order, c.ordered, c.orderHoles = order, len(order), false
	c.podIx.remap(moved)
}

func (c *collection) len() int { return c.index.Len() }

// clone returns a collection with the same objects sharing every chunk and
// index bucket, without the caches. c and the clone get new owners, so
// that neither writes what they share.
func (c *collection) clone() *collection {
	out := &collection{kind: c.kind, own: persist.NewOwner(), index: c.index.Clone(), chunks: slices.Clone(c.chunks), n: c.n,
		holes: c.holes, changes: c.changes}
	c.own = persist.NewOwner()
	return out
}

// each calls f with every object in creation order until f returns false.
func (c *collection) each(f func(api.Object) bool) {
	for _, ch := range c.chunks {
		for _, o := range ch.objs {
			if o != nil && !f(o) {
				return
			}
		}
	}
}
