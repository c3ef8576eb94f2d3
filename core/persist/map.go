package persist

import "maps"

// mapBuckets is how many buckets a Map has: a write after a clone copies
// one of them, about 1/64 of the entries.
const mapBuckets = 64

// EntryBytes is the estimated heap cost of one Map entry with a string
// key and a word-sized value (the Go map's slot and control byte, the
// key's header; the key's bytes are shared with the object it names).
const EntryBytes = 40

// Map is a map from strings to values whose copy (Clone) is 64 pointers:
// its entries sit in buckets by a hash of the key, and a write by an owner
// that does not own the bucket copies that bucket alone. The zero Map is
// empty and ready to use.
type Map[V comparable] struct {
	b [mapBuckets]*bucket[V]
	n int
}

type bucket[V comparable] struct {
	own *Owner
	m   map[string]V
}

// bucketOf is FNV-1a of the key, folded to a bucket index.
func bucketOf(k string) int {
	h := uint32(2166136261)
	for i := 0; i < len(k); i++ {
		h ^= uint32(k[i])
		h *= 16777619
	}
	return int((h ^ h>>16) & (mapBuckets - 1))
}

// Clone returns a Map with m's entries, sharing every bucket. Both m's
// holder and the clone's must write with new owners from now on.
func (m *Map[V]) Clone() Map[V] { return *m }

// Len returns the number of entries.
func (m *Map[V]) Len() int { return m.n }

// Get returns the value of k.
func (m *Map[V]) Get(k string) (V, bool) {
	b := m.b[bucketOf(k)]
	if b == nil {
		var zero V
		return zero, false
	}
	v, ok := b.m[k]
	return v, ok
}

// writable returns bucket i, owned by own: a new one, or a copy when
// another owner has it.
func (m *Map[V]) writable(own *Owner, i int) *bucket[V] {
	b := m.b[i]
	switch {
	case b == nil:
		b = &bucket[V]{own: own, m: map[string]V{}}
		m.b[i] = b
	case b.own != own:
		b = &bucket[V]{own: own, m: maps.Clone(b.m)}
		m.b[i] = b
	}
	return b
}

// Set sets k to v, writing as own. Setting the value k already has
// copies nothing.
func (m *Map[V]) Set(own *Owner, k string, v V) {
	i := bucketOf(k)
	if b := m.b[i]; b != nil {
		if cur, ok := b.m[k]; ok && cur == v {
			return
		}
	}
	b := m.writable(own, i)
	if _, ok := b.m[k]; !ok {
		m.n++
	}
	b.m[k] = v
}

// Add sets k, which m does not hold, to v, writing as own: Set without
// looking k up first.
func (m *Map[V]) Add(own *Owner, k string, v V) {
	m.writable(own, bucketOf(k)).m[k] = v
	m.n++
}

// Delete removes k, writing as own; removing an absent key copies nothing.
func (m *Map[V]) Delete(own *Owner, k string) {
	i := bucketOf(k)
	if b := m.b[i]; b == nil {
		return
	} else if _, ok := b.m[k]; !ok {
		return
	}
	delete(m.writable(own, i).m, k)
	m.n--
}

// Range calls f for every entry, in no particular order, until f returns
// false. f must not write to m. Never let the order decide an outcome.
func (m *Map[V]) Range(f func(k string, v V) bool) {
	for _, b := range m.b {
		if b == nil {
			continue
		}
		for k, v := range b.m {
			if !f(k, v) {
				return
			}
		}
	}
}

// Unshared estimates the bytes m holds that prev does not: EntryBytes per
// entry of every bucket m does not share with prev, plus size(v) for each
// of their values that prev does not hold under the same key (size may be
// nil). A bucket m shares costs nothing, so the work is proportional to
// what changed between the two.
func (m *Map[V]) Unshared(prev *Map[V], size func(V) int64) int64 {
	var n int64
	for i, b := range m.b {
		if b == nil || (prev != nil && prev.b[i] == b) {
			continue
		}
		n += int64(len(b.m)) * EntryBytes
		if size == nil {
			continue
		}
		var old map[string]V
		if prev != nil && prev.b[i] != nil {
			old = prev.b[i].m
		}
		for k, v := range b.m {
			if pv, ok := old[k]; !ok || pv != v {
				n += size(v)
			}
		}
	}
	return n
}
