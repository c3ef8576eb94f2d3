package store_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/simtest"
	"converge/core/store"
)

func populate(t *testing.T, s *store.Store) {
	t.Helper()
	simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
	d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 2, "nginx"))
	for i := 0; i < 3; i++ {
		simtest.MustCreate(t, s, simtest.NewPod("p-"+strconv.Itoa(i), simtest.WithPodOwner(d)))
	}
	s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "Scaled up")
}

// snapshot renders what a store holds, in order.
func snapshot(s *store.Store) []string {
	var out []string
	for _, r := range api.Resources() {
		for _, o := range s.List(r.Kind) {
			m := o.GetObjectMeta()
			out = append(out, r.Kind+"/"+m.Name+"@"+m.ResourceVersion)
		}
	}
	return append(out, "rv="+strconv.FormatInt(s.ResourceVersion(), 10), "writes="+strconv.FormatInt(s.Writes(), 10))
}

func TestCloneIsIndependent(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	populate(t, s)
	before := snapshot(s)
	c := s.Clone(clock.New(api.Epoch))

	assert.Equal(t, before, snapshot(c), "the clone starts equal")

	// Write to the clone in every way.
	simtest.MustCreate(t, c, simtest.NewPod("new"))
	d, _ := c.GetDeployment("", "web")
	edit := d.DeepCopy()
	edit.Spec.Replicas = api.Int32(5)
	_, err := c.Update(edit)
	require.NoError(t, err)
	st := d.DeepCopy()
	st.Status.Replicas = 3
	_, err = c.UpdateStatus(st)
	assert.True(t, errors.Is(err, store.ErrConflict), "the update above moved the resourceVersion")
	_, err = c.Bind("", "p-0", "node-1")
	require.NoError(t, err)
	require.NoError(t, c.Delete(api.KindPod, "", "p-1", store.DeleteOptions{}))
	require.NoError(t, c.Delete(api.KindPod, "", "p-0", store.DeleteOptions{}), "graceful: p-0 is bound now")
	c.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "Scaled up")
	require.NoError(t, c.Delete(api.KindDeployment, "", "web", store.DeleteOptions{PropagationPolicy: store.DeletePropagationOrphan}))
	_, err = c.Patch(api.KindNode, "", "node-1", []byte(`{"spec":{"unschedulable":true}}`), false)
	require.NoError(t, err)

	assert.Equal(t, before, snapshot(s), "nothing written to the clone shows in the original")
	orig, _ := s.GetDeployment("", "web")
	assert.Equal(t, int32(2), *orig.Spec.Replicas)
	p0, _ := s.GetPod("", "p-0")
	assert.Empty(t, p0.Spec.NodeName)
	assert.Nil(t, p0.DeletionTimestamp)
	assert.Equal(t, int32(1), s.Events()[0].Count)
	assert.Equal(t, 3, s.Count(api.KindPod))

	// And the other way round.
	cloned := snapshot(c)
	simtest.MustCreate(t, s, simtest.NewPod("only-in-original"))
	require.NoError(t, s.Delete(api.KindPod, "", "p-2", store.DeleteOptions{}))
	assert.Equal(t, cloned, snapshot(c))
}

func TestCloneContinuesDeterministically(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	populate(t, s)
	c := s.Clone(s.Clock().Clone())
	a, b := generated(t, s, 5), generated(t, c, 5)
	assert.Equal(t, a, b, "the clone draws the same names")
	pa := simtest.MustCreate(t, s, simtest.NewPod("x"))
	pb := simtest.MustCreate(t, c, simtest.NewPod("x"))
	assert.Equal(t, pa.UID, pb.UID, "and the same uids")
	assert.Equal(t, pa.ResourceVersion, pb.ResourceVersion)
}

func TestCloneUsesItsClock(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	later := clock.New(api.Epoch.Add(time.Hour))
	c := s.Clone(later)
	assert.Same(t, later, c.Clock())
	p := simtest.MustCreate(t, c, simtest.NewPod("p"))
	assert.True(t, p.CreationTimestamp.Equal(api.NewTime(api.Epoch.Add(time.Hour))))
	assert.True(t, s.Now().Equal(api.NewTime(api.Epoch)))
}

func TestCloneDuringAndAfterCompaction(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < 150; i++ {
		simtest.MustCreate(t, s, simtest.NewPod("p-"+strconv.Itoa(i)))
	}
	for i := 0; i < 100; i++ {
		require.NoError(t, s.Delete(api.KindPod, "", "p-"+strconv.Itoa(i), store.DeleteOptions{}))
	}
	c := s.Clone(clock.New(api.Epoch))
	for i := 100; i < 150; i++ {
		require.NoError(t, c.Delete(api.KindPod, "", "p-"+strconv.Itoa(i), store.DeleteOptions{}))
	}
	assert.Len(t, s.Pods(), 50)
	assert.Empty(t, c.Pods())
	_, err := s.GetPod("", "p-149")
	assert.NoError(t, err)
}
