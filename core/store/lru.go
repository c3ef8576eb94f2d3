package store

// lru is a least-recently-used cache of at most size entries, as
// k8s.io/utils/lru: get and put make an entry the most recent, and a put
// beyond the size evicts the least recent one. It is deterministic and
// copies cheaply (clone), for checkpoints.
//
// The index holds a 64-bit hash of each key, which the caller computes
// (an event's three keys share their object's hash, so a key's strings
// are hashed once, not once per cache), and keys whose hashes collide are
// chained; the cache behaves as one indexed by the keys themselves.
type lru[K comparable, V any] struct {
	size int
	n    int // entries
	// index maps a hash to the slot of a key with that hash; the others
	// with the same hash follow through lruItem.same.
	index map[uint64]int32
	// items[0] is the sentinel of the ring, items[0].next the most recent.
	items []lruItem[K, V]
	// free holds the slots of pruned entries, for reuse.
	free []int32
}

type lruItem[K comparable, V any] struct {
	key        K
	val        V
	hash       uint64
	prev, next int32
	same       int32 // the next slot whose key has the same hash, 0 for none
}

func newLRU[K comparable, V any](size int) *lru[K, V] {
	return &lru[K, V]{size: size, index: map[uint64]int32{}, items: make([]lruItem[K, V], 1, 8)}
}

// upsert returns the entry for k, whose hash is h, the most recent, and
// whether it was there; a missing one is added (zero), evicting the least
// recent entry when the cache is full. The pointer is good until the next
// change of the cache.
func (c *lru[K, V]) upsert(k K, h uint64) (*V, bool) {
	if i := c.find(k, h); i != 0 {
		c.toFront(i)
		return &c.items[i].val, true
	}
	return &c.items[c.insert(k, h)].val, false
}

// find returns the slot of k, 0 when it is not cached.
func (c *lru[K, V]) find(k K, h uint64) int32 {
	i := c.index[h]
	for i != 0 && c.items[i].key != k {
		i = c.items[i].same
	}
	return i
}

// insert adds k, not cached, as the most recent entry and returns its slot.
func (c *lru[K, V]) insert(k K, h uint64) int32 {
	var i int32
	if n := len(c.free); n > 0 {
		i, c.free = c.free[n-1], c.free[:n-1]
	} else if c.n >= c.size {
		i = c.items[0].prev // the least recent
		c.remove(i)
	} else {
		if len(c.items) == cap(c.items) {
			// Grow by doubling, but never past the size (plus the sentinel).
			grown := make([]lruItem[K, V], len(c.items), min(2*cap(c.items), c.size+1))
			copy(grown, c.items)
			c.items = grown
		}
		c.items = append(c.items, lruItem[K, V]{})
		i = int32(len(c.items) - 1)
	}
	c.items[i] = lruItem[K, V]{key: k, hash: h, same: c.index[h]}
	c.index[h] = i
	c.n++
	c.link(i)
	return i
}

// remove takes slot i out of the ring and the index; the slot keeps its
// contents until it is reused or cleared.
func (c *lru[K, V]) remove(i int32) {
	c.unlink(i)
	it := &c.items[i]
	switch head := c.index[it.hash]; {
	case head == i && it.same == 0:
		delete(c.index, it.hash)
	case head == i:
		c.index[it.hash] = it.same
	default:
		for c.items[head].same != i {
			head = c.items[head].same
		}
		c.items[head].same = it.same
	}
	c.n--
}

func (c *lru[K, V]) toFront(i int32) {
	if c.items[0].next == i {
		return
	}
	c.unlink(i)
	c.link(i)
}

func (c *lru[K, V]) unlink(i int32) {
	p, n := c.items[i].prev, c.items[i].next
	c.items[p].next, c.items[n].prev = n, p
}

// link puts i at the front.
func (c *lru[K, V]) link(i int32) {
	first := c.items[0].next
	c.items[i].prev, c.items[i].next = 0, first
	c.items[first].prev = i
	c.items[0].next = i
}

func (c *lru[K, V]) clone() *lru[K, V] {
	out := &lru[K, V]{size: c.size, n: c.n, index: make(map[uint64]int32, len(c.index)),
		items: make([]lruItem[K, V], len(c.items), cap(c.items)), free: append([]int32(nil), c.free...)}
	copy(out.items, c.items)
	for k, v := range c.index {
		out.index[k] = v
	}
	return out
}

// any reports whether f is true for an entry.
func (c *lru[K, V]) any(f func(K, V) bool) bool {
	for i := c.items[0].next; i != 0; i = c.items[i].next {
		if f(c.items[i].key, c.items[i].val) {
			return true
		}
	}
	return false
}

// prune removes the entries for which drop is true, keeping the order of
// the others. When most slots are then free it rebuilds the cache smaller
// (a Go map never shrinks by itself).
func (c *lru[K, V]) prune(drop func(K, V) bool) {
	for i := c.items[0].next; i != 0; {
		next := c.items[i].next
		if drop(c.items[i].key, c.items[i].val) {
			c.remove(i)
			var zero lruItem[K, V]
			c.items[i] = zero
			c.free = append(c.free, i)
		}
		i = next
	}
	if len(c.free) > 64 && len(c.free) > c.n {
		c.compact()
	}
}

// compact rebuilds the cache with only its entries, most recent first.
func (c *lru[K, V]) compact() {
	out := newLRU[K, V](c.size)
	out.index = make(map[uint64]int32, c.n)
	out.items = make([]lruItem[K, V], 1, c.n+1)
	// Walk from the least recent, so that each insert makes its entry the most recent.
	for i := c.items[0].prev; i != 0; i = c.items[i].prev {
		it := &c.items[i]
		out.items[out.insert(it.key, it.hash)].val = it.val
	}
	*c = *out
}
