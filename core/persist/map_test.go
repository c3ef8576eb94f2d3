package persist

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func filled(own *Owner, n int) Map[int] {
	var m Map[int]
	for i := range n {
		m.Set(own, "k"+strconv.Itoa(i), i)
	}
	return m
}

func TestMapBasics(t *testing.T) {
	t.Parallel()
	own := NewOwner()
	var m Map[int]
	_, ok := m.Get("a")
	assert.False(t, ok, "the zero Map is empty")
	m.Set(own, "a", 1)
	m.Add(own, "b", 2)
	m.Set(own, "a", 3)
	v, ok := m.Get("a")
	assert.True(t, ok)
	assert.Equal(t, 3, v)
	assert.Equal(t, 2, m.Len())
	m.Delete(own, "a")
	m.Delete(own, "nope")
	_, ok = m.Get("a")
	assert.False(t, ok)
	assert.Equal(t, 1, m.Len())
}

func TestMapCloneIsIndependent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		write func(m *Map[int], own *Owner)
	}{
		{"set an existing key", func(m *Map[int], own *Owner) { m.Set(own, "k7", -7) }},
		{"add a key", func(m *Map[int], own *Owner) { m.Set(own, "new", 1) }},
		{"delete a key", func(m *Map[int], own *Owner) { m.Delete(own, "k3") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := filled(NewOwner(), 500)
			b := a.Clone()
			ownA, ownB := NewOwner(), NewOwner()
			tc.write(&b, ownB)
			want := filled(NewOwner(), 500)
			assert.Equal(t, want.entries(), a.entries(), "the original does not see the clone's write")
			tc.write(&a, ownA)
			assert.Equal(t, a.entries(), b.entries(), "the same write gives the same map")
		})
	}
}

func TestMapWriteCopiesOneBucket(t *testing.T) {
	t.Parallel()
	a := filled(NewOwner(), 6400)
	b := a.Clone()
	assert.Zero(t, b.Unshared(&a, nil), "a clone shares everything")
	own := NewOwner()
	b.Set(own, "k1", 1)
	assert.Zero(t, b.Unshared(&a, nil), "setting the value a key has copies nothing")
	b.Set(own, "k1", -1)
	b.Set(own, "k1", -2) // a second write to the bucket it owns copies nothing more
	shared := b.Unshared(&a, nil)
	assert.Greater(t, shared, int64(0))
	assert.Less(t, shared, int64(6400*EntryBytes/16), "one bucket of 64, about 100 entries, was copied")
	assert.Equal(t, int64(EntryBytes*len(b.b[bucketOf("k1")].m)+100), b.Unshared(&a, func(int) int64 { return 100 }),
		"size counts the one value that differs")
	assert.Equal(t, int64(6400*EntryBytes), b.Unshared(nil, nil), "without prev everything counts")
}

func TestMapRangeVisitsEveryEntry(t *testing.T) {
	t.Parallel()
	m := filled(NewOwner(), 300)
	var got []int
	m.Range(func(_ string, v int) bool {
		got = append(got, v)
		return true
	})
	slices.Sort(got)
	require.Len(t, got, 300)
	for i, v := range got {
		assert.Equal(t, i, v)
	}
	n := 0
	m.Range(func(string, int) bool { n++; return n < 10 })
	assert.Equal(t, 10, n, "Range stops when f returns false")
}

// entries is m as a plain map, for comparisons.
func (m *Map[V]) entries() map[string]V {
	out := map[string]V{}
	m.Range(func(k string, v V) bool {
		out[k] = v
		return true
	})
	return out
}
