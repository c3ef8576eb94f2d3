package store_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/simtest"
	"converge/core/store"
)

// sortedPods is the store's pods sorted by namespace and name, the way the
// trace lists them, computed without the store's order cache.
func sortedPods(s *store.Store) []*api.Pod {
	pods := s.Pods()
	slices.SortStableFunc(pods, func(a, b *api.Pod) int {
		if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return pods
}

func requireListIsMarshal(t *testing.T, s *store.Store, what string) {
	t.Helper()
	want, err := json.Marshal(sortedPods(s))
	require.NoError(t, err)
	var got bytes.Buffer
	require.NoError(t, s.WriteJSONList(&got, api.KindPod, nil))
	require.Equal(t, string(want), got.String(), what)
	byName := s.ByName(api.KindPod)
	require.Len(t, byName, s.Count(api.KindPod), what)
	for i, p := range sortedPods(s) {
		require.Same(t, p, byName[i], "%s: ByName[%d]", what, i)
	}
}

// TestWriteJSONListIsJSONMarshal writes the pods of a store with several
// chunks' worth of them, in namespace and name order, through creations,
// updates, deletions, a compaction and a clone, and compares each time with
// json.Marshal of the sorted list.
func TestWriteJSONListIsJSONMarshal(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	var empty bytes.Buffer
	require.NoError(t, s.WriteJSONList(&empty, api.KindPod, nil))
	assert.Equal(t, "[]", empty.String())
	// Names out of creation order, in two namespaces, one a prefix of the other.
	for i := 0; i < 300; i++ {
		p := simtest.NewPod(fmt.Sprintf("p-%03d", (i*7919)%300))
		p.Namespace = []string{"default", "def", "default-x"}[i%3]
		simtest.MustCreate(t, s, p)
	}
	requireListIsMarshal(t, s, "created")
	requireListIsMarshal(t, s, "again, from the caches")
	for _, p := range s.Pods()[:50] {
		x := p.DeepCopy()
		x.Status.Phase = api.PodRunning
		_, err := s.UpdateStatus(x)
		require.NoError(t, err)
	}
	requireListIsMarshal(t, s, "50 updated")
	for i, p := range s.Pods() {
		if i%3 != 0 {
			require.NoError(t, s.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{}))
		}
	}
	requireListIsMarshal(t, s, "two thirds deleted (compacted)")
	for i := 0; i < 40; i++ {
		simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("a-%02d", 40-i)))
	}
	requireListIsMarshal(t, s, "more created")
	c := s.Clone(clock.New(api.Epoch))
	requireListIsMarshal(t, c, "a clone, without the caches")
	require.NoError(t, c.Delete(api.KindPod, "default", "a-01", store.DeleteOptions{}))
	requireListIsMarshal(t, c, "the clone after a delete")
	requireListIsMarshal(t, s, "the original after the clone's delete")
}

func TestEncodedJSONIsKeptPerVersion(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewPod("web"))
	a, err := s.EncodedJSON(api.KindPod, "", "web")
	require.NoError(t, err)
	b, err := s.EncodedJSON(api.KindPod, "default", "web")
	require.NoError(t, err)
	assert.Same(t, &a[0], &b[0], "the second call returns the cached bytes")
	p := simtest.GetPod(t, s, "web").DeepCopy()
	p.Status.Phase = api.PodRunning
	_, err = s.UpdateStatus(p)
	require.NoError(t, err)
	c, err := s.EncodedJSON(api.KindPod, "", "web")
	require.NoError(t, err)
	want, _ := json.Marshal(simtest.GetPod(t, s, "web"))
	assert.Equal(t, string(want), string(c), "a new version is encoded again")
	_, err = s.EncodedJSON(api.KindPod, "", "nope")
	assert.ErrorIs(t, err, store.ErrNotFound)
	_, err = s.EncodedJSON("Widget", "", "x")
	assert.Error(t, err)
}

// TestUnsharedBytes: a clone shares everything with its source; a write
// costs the object and the pieces it copied, not the store.
func TestUnsharedBytes(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < 1000; i++ {
		simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("p-%d", i)))
	}
	whole := s.UnsharedBytes(nil)
	assert.Greater(t, whole, int64(1000*store.ObjectBytes(simtest.GetPod(t, s, "p-0"))))
	c := s.Clone(clock.New(api.Epoch))
	assert.Zero(t, c.UnsharedBytes(s), "a clone shares everything")
	p := simtest.GetPod(t, c, "p-500").DeepCopy()
	p.Status.Phase = api.PodRunning
	_, err := c.UpdateStatus(p)
	require.NoError(t, err)
	one := c.UnsharedBytes(s)
	assert.Greater(t, one, store.ObjectBytes(p), "the new version and its chunk")
	assert.Less(t, one, whole/20, "but not the rest")
	assert.Zero(t, s.UnsharedBytes(s))
}

// TestCloneSharesUntilWritten: writes on either side after a clone, in
// every chunk, never show on the other.
func TestCloneSharesUntilWritten(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < 200; i++ {
		simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("p-%d", i)))
	}
	c := s.Clone(clock.New(api.Epoch))
	for i := 0; i < 200; i += 10 {
		p := simtest.GetPod(t, c, fmt.Sprintf("p-%d", i)).DeepCopy()
		p.Status.Phase = api.PodRunning
		_, err := c.UpdateStatus(p)
		require.NoError(t, err)
		q := simtest.GetPod(t, s, fmt.Sprintf("p-%d", i+1)).DeepCopy()
		q.Status.Phase = api.PodFailed
		_, err = s.UpdateStatus(q)
		require.NoError(t, err)
	}
	simtest.MustCreate(t, c, simtest.NewPod("only-in-clone"))
	require.NoError(t, s.Delete(api.KindPod, "", "p-199", store.DeleteOptions{}))
	for i := 0; i < 199; i++ {
		name := fmt.Sprintf("p-%d", i)
		orig, clone := simtest.GetPod(t, s, name), simtest.GetPod(t, c, name)
		switch i % 10 {
		case 0:
			assert.Equal(t, api.PodRunning, clone.Status.Phase, name)
			assert.Equal(t, api.PodPending, orig.Status.Phase, name)
		case 1:
			assert.Equal(t, api.PodFailed, orig.Status.Phase, name)
			assert.Equal(t, api.PodPending, clone.Status.Phase, name)
		}
	}
	_, err := s.GetPod("", "only-in-clone")
	assert.ErrorIs(t, err, store.ErrNotFound)
	assert.Equal(t, 201, c.Count(api.KindPod))
	assert.Equal(t, 199, s.Count(api.KindPod))
}

// TestClonesShareEncodings: a clone and its source share the JSON of the
// objects they both hold, whichever encoded it first, even after the
// source moved on; an object either side replaced is encoded anew.
func TestClonesShareEncodings(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < 100; i++ {
		simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("p-%02d", i)))
	}
	c := s.Clone(clock.New(api.Epoch))
	p := simtest.GetPod(t, s, "p-10").DeepCopy()
	p.Status.Phase = api.PodRunning
	_, err := s.UpdateStatus(p)
	require.NoError(t, err)
	requireListIsMarshal(t, s, "the source after a write, encoded")
	q := simtest.GetPod(t, c, "p-20").DeepCopy()
	q.Status.Phase = api.PodFailed
	_, err = c.UpdateStatus(q)
	require.NoError(t, err)
	requireListIsMarshal(t, c, "the clone, with the source's encodings")
	a, err := c.EncodedJSON(api.KindPod, "", "p-30")
	require.NoError(t, err)
	b, err := s.EncodedJSON(api.KindPod, "", "p-30")
	require.NoError(t, err)
	assert.Same(t, &a[0], &b[0], "an object both hold shares its JSON")
	d := c.Clone(clock.New(api.Epoch))
	requireListIsMarshal(t, d, "a clone of the clone")
	e, err := d.EncodedJSON(api.KindPod, "", "p-20")
	require.NoError(t, err)
	f, err := c.EncodedJSON(api.KindPod, "", "p-20")
	require.NoError(t, err)
	assert.Same(t, &e[0], &f[0], "the clone's own version, shared with its clone")
	g, err := s.EncodedJSON(api.KindPod, "", "p-20")
	require.NoError(t, err)
	assert.NotEqual(t, string(g), string(f), "the source's version is its own")
}

// TestUnsharedBytesCountsTheEventRecorders: a clone shares the event
// recorders' caches and the events' expiry list with its source until it
// records an event; then it holds its own copy of that source's caches,
// which the estimate counts.
func TestUnsharedBytesCountsTheEventRecorders(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < 300; i++ {
		p := simtest.MustCreate(t, s, simtest.NewPod(fmt.Sprintf("p-%d", i)))
		_, ok := s.RecordEvent(p, "default-scheduler", "", api.EventTypeNormal, "Scheduled", "Successfully assigned default/"+p.Name+" to node-1")
		require.True(t, ok)
	}
	c := s.Clone(clock.New(api.Epoch))
	assert.Zero(t, c.UnsharedBytes(s), "a clone shares the recorders and the expiry list")
	p := simtest.GetPod(t, c, "p-0")
	_, ok := c.RecordEvent(p, "default-scheduler", "", api.EventTypeNormal, "Scheduled", "again")
	require.True(t, ok)
	assert.Greater(t, c.UnsharedBytes(s), int64(300*100), "its own copy of the scheduler's caches: 300 entries each")
	assert.Zero(t, s.UnsharedBytes(s))
}
