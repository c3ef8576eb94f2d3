package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

func TestRecordEvent(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 3, "nginx"))
	simtest.Advance(s, 2*time.Second)
	writes, rv := s.Writes(), s.ResourceVersion()
	short, ok := s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set web-5d9c7b8f4 to 3")
	require.True(t, ok)
	assert.Equal(t, store.EmittedEvent{Type: "Normal", Reason: "ScalingReplicaSet", Object: "deployment/web",
		Message: "Scaled up replica set web-5d9c7b8f4 to 3", Source: "deployment-controller"}, short)
	assert.Equal(t, writes, s.Writes(), "events do not count as writes")
	assert.Greater(t, s.ResourceVersion(), rv)

	evs := s.Events()
	require.Len(t, evs, 1)
	e := evs[0]
	now := api.NewTime(api.Epoch.Add(2 * time.Second))
	assert.Equal(t, api.ObjectReference{Kind: "Deployment", Namespace: "default", Name: "web", UID: d.UID}, e.InvolvedObject)
	assert.Equal(t, int32(1), e.Count)
	assert.True(t, e.FirstTimestamp.Equal(now))
	assert.True(t, e.LastTimestamp.Equal(now))
	assert.True(t, e.CreationTimestamp.Equal(now))
	assert.Equal(t, api.EventSource{Component: "deployment-controller"}, e.Source)
	assert.Equal(t, "default", e.Namespace)
	assert.Regexp(t, `^web\.[0-9a-f]+$`, e.Name)
	assert.NotEmpty(t, e.UID)

	simtest.Advance(s, 5*time.Minute)
	s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set web-5d9c7b8f4 to 3")
	evs = s.Events()
	require.Len(t, evs, 1, "an identical event updates the first")
	assert.Equal(t, int32(2), evs[0].Count)
	assert.True(t, evs[0].FirstTimestamp.Equal(now))
	assert.True(t, evs[0].LastTimestamp.Equal(api.NewTime(api.Epoch.Add(5*time.Minute+2*time.Second))))
	assert.Equal(t, int32(1), e.Count, "the event handed out before is not changed")

	s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "Scaled down replica set web-1 from 3 to 2")
	s.RecordEvent(d, "deployment-controller", "", api.EventTypeWarning, "ScalingReplicaSet", "Scaled up replica set web-5d9c7b8f4 to 3")
	s.RecordEvent(d, "other-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set web-5d9c7b8f4 to 3")
	assert.Len(t, s.Events(), 4, "another message, type or source is another event")

	simtest.Advance(s, 10*time.Minute+time.Second)
	s.RecordEvent(d, "deployment-controller", "", api.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set web-5d9c7b8f4 to 3")
	assert.Len(t, s.Events(), 4, "the logger counts identical events without a time limit, as client-go's does")
	assert.Equal(t, int32(3), s.Events()[0].Count)
}

func TestRecordEventAboutObjectsWithoutKind(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-abcde", Namespace: "prod", UID: "u-1"}}
	short, _ := s.RecordEvent(p, "default-scheduler", "", api.EventTypeWarning, "FailedScheduling", "0/3 nodes are available")
	assert.Equal(t, "pod/web-abcde", short.Object)
	e := s.Events()[0]
	assert.Equal(t, "Pod", e.InvolvedObject.Kind)
	assert.Equal(t, "prod", e.Namespace)

	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	s.RecordEvent(n, "node-controller", "", api.EventTypeNormal, "NodeNotReady", "Node node-1 status is now: NodeNotReady")
	assert.Equal(t, "default", s.Events()[1].Namespace, "events about cluster-scoped objects live in default")
	assert.Empty(t, s.Events()[1].InvolvedObject.Namespace)
}

func TestEventNamesAreUnique(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	names := map[string]bool{}
	for i := 0; i < 100; i++ {
		// 100 sources, so that neither aggregation nor the spam filter joins them.
		_, ok := s.RecordEvent(d, fmt.Sprint("c", i), "", api.EventTypeNormal, "R", fmt.Sprint("message ", i))
		require.True(t, ok)
	}
	for _, e := range s.Events() {
		assert.False(t, names[e.Name], e.Name)
		names[e.Name] = true
	}
	assert.Len(t, names, 100)
}
