package store

// lru is a least-recently-used cache of at most size entries, as
// k8s.io/utils/lru: get and put make an entry the most recent, and a put
// beyond the size evicts the least recent one. It is deterministic and
// copies cheaply (clone), for checkpoints.
type lru[K comparable, V any] struct {
	size  int
	index map[K]int32
	// items[0] is the sentinel of the ring, items[0].next the most recent.
	items []lruItem[K, V]
	// free holds the slots of pruned entries, for reuse.
	free []int32
}

type lruItem[K comparable, V any] struct {
	key        K
	val        V
	prev, next int32
}

func newLRU[K comparable, V any](size int) *lru[K, V] {
	return &lru[K, V]{size: size, index: map[K]int32{}, items: make([]lruItem[K, V], 1, 8)}
}

// put sets the entry for k, the most recent, evicting the least recent
// entry when the cache is full.
func (c *lru[K, V]) put(k K, v V) {
	p, _ := c.upsert(k)
	*p = v
}

// upsert returns the entry for k, the most recent, and whether it was
// there; a missing one is added (zero), evicting the least recent entry
// when the cache is full. The pointer is good until the next change of the
// cache.
func (c *lru[K, V]) upsert(k K) (*V, bool) {
	if i, ok := c.index[k]; ok {
		c.toFront(i)
		return &c.items[i].val, true
	}
	var i int32
	if n := len(c.free); n > 0 {
		i, c.free = c.free[n-1], c.free[:n-1]
	} else if len(c.index) >= c.size {
		i = c.items[0].prev // the least recent
		c.unlink(i)
		delete(c.index, c.items[i].key)
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
	c.items[i] = lruItem[K, V]{key: k}
	c.index[k] = i
	c.link(i)
	return &c.items[i].val, false
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
	out := &lru[K, V]{size: c.size, index: make(map[K]int32, len(c.index)), items: make([]lruItem[K, V], len(c.items), cap(c.items)),
		free: append([]int32(nil), c.free...)}
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
			c.unlink(i)
			delete(c.index, c.items[i].key)
			var zero lruItem[K, V]
			c.items[i] = zero
			c.free = append(c.free, i)
		}
		i = next
	}
	if len(c.free) > 64 && len(c.free) > len(c.index) {
		c.compact()
	}
}

// compact rebuilds the cache with only its entries, most recent first.
func (c *lru[K, V]) compact() {
	out := newLRU[K, V](c.size)
	out.index = make(map[K]int32, len(c.index))
	out.items = make([]lruItem[K, V], 1, len(c.index)+1)
	// Walk from the least recent, so that each put makes its entry the most recent.
	for i := c.items[0].prev; i != 0; i = c.items[i].prev {
		out.put(c.items[i].key, c.items[i].val)
	}
	*c = *out
}
