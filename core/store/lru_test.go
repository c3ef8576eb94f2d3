package store

import (
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLRU(t *testing.T) {
	t.Parallel()
	// As k8s.io/utils/lru: a get refreshes an entry, a put beyond the size
	// evicts the least recently used one.
	c := newLRU[string, int](3)
	c.put("a", 1)
	c.put("b", 2)
	c.put("c", 3)
	_, _ = c.get("a") // a is now the most recent; b the least
	c.put("d", 4)
	_, ok := c.get("b")
	assert.False(t, ok, "b was evicted")
	for k, want := range map[string]int{"a": 1, "c": 3, "d": 4} {
		got, ok := c.get(k)
		assert.True(t, ok, k)
		assert.Equal(t, want, got, k)
	}
	assert.Equal(t, 3, c.len())
	c.put("c", 30) // an update refreshes too
	c.put("e", 5)  // evicts the least recent of a and d
	assert.Equal(t, 3, c.len())
	v, ok := c.get("c")
	assert.True(t, ok)
	assert.Equal(t, 30, v)

	d := c.clone()
	d.put("f", 6)
	assert.Equal(t, 3, d.len())
	_, ok = c.get("f")
	assert.False(t, ok, "the clone is independent")
}

func TestLRUEvictsInOrder(t *testing.T) {
	t.Parallel()
	c := newLRU[int, int](100)
	for i := 0; i < 1000; i++ {
		c.put(i, i)
	}
	assert.Equal(t, 100, c.len())
	for i := 0; i < 900; i++ {
		_, ok := c.get(i)
		assert.False(t, ok, i)
	}
	for i := 900; i < 1000; i++ {
		_, ok := c.get(i)
		assert.True(t, ok, i)
	}
}

func TestLRUPrune(t *testing.T) {
	t.Parallel()
	c := newLRU[int, int](1000)
	for i := 0; i < 500; i++ {
		c.put(i, i)
	}
	_, _ = c.get(1) // 1 is now the most recent
	c.prune(func(k, _ int) bool { return k%5 != 1 })
	assert.Equal(t, 100, c.len())
	assert.Less(t, cap(c.items), 200, "rebuilt smaller")
	for i := 0; i < 500; i++ {
		assert.Equal(t, i%5 == 1, c.find(i, testHash(i)) != 0, i)
	}
	// The order survives: filling up evicts the least recent (6), not 1.
	for i := 1000; i < 1900; i++ {
		c.put(i, i)
	}
	c.put(5000, 0)
	_, ok := c.get(6)
	assert.False(t, ok)
	_, ok = c.get(1)
	assert.True(t, ok)
	assert.Equal(t, 1000, c.len())
}

// Only the tests read an entry back, put one by its key alone or count
// them; the store upserts with its own hashes.

var testSeed = maphash.MakeSeed()

func testHash[K comparable](k K) uint64 { return maphash.Comparable(testSeed, k) }

// len returns the number of entries.
func (c *lru[K, V]) len() int { return c.n }

// put sets the entry for k, the most recent.
func (c *lru[K, V]) put(k K, v V) {
	p, _ := c.upsert(k, testHash(k))
	*p = v
}

// get returns the entry for k and makes it the most recent.
func (c *lru[K, V]) get(k K) (V, bool) {
	i := c.find(k, testHash(k))
	if i == 0 {
		var zero V
		return zero, false
	}
	c.toFront(i)
	return c.items[i].val, true
}

// TestLRUCollidingHashes checks that keys whose hashes collide are told
// apart: random upserts and prunes with a hash of only three values give
// the same entries, in the same order, as a plain list.
func TestLRUCollidingHashes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	c := newLRU[int, int](50)
	var ref []int // keys, most recent first
	vals := map[int]int{}
	for step := range 20000 {
		if step%997 == 0 {
			m := rng.IntN(4) + 2
			c.prune(func(k, _ int) bool { return k%m == 0 })
			ref = slices.DeleteFunc(ref, func(k int) bool { return k%m == 0 })
		}
		k := rng.IntN(120)
		p, seen := c.upsert(k, uint64(k%3))
		at := slices.Index(ref, k)
		require.Equal(t, at >= 0, seen, "step %d key %d", step, k)
		if seen {
			require.Equal(t, vals[k], *p, "step %d key %d", step, k)
			ref = slices.Delete(ref, at, at+1)
		} else if len(ref) == 50 {
			ref = ref[:49]
		}
		ref = slices.Insert(ref, 0, k)
		*p = step
		vals[k] = step
		require.Equal(t, len(ref), c.len())
	}
	var got []int
	for i := c.items[0].next; i != 0; i = c.items[i].next {
		got = append(got, c.items[i].key)
	}
	assert.Equal(t, ref, got)
}
