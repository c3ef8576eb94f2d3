package store_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/simtest"
	"converge/core/store"
)

func TestPodLimit(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	base := simtest.NewPod("p")
	for i := 0; i < store.MaxPods; i++ {
		p := base.DeepCopy()
		p.Name = "p-" + strconv.Itoa(i)
		_, err := s.Create(p)
		require.NoError(t, err)
	}
	rv := s.ResourceVersion()
	_, err := s.Create(simtest.NewPod("one-too-many"))
	require.Error(t, err)
	assert.Equal(t, `pods "one-too-many" is forbidden: exceeded the simulation's limit of 10000 pods (a Converge limit, not a Kubernetes one)`, err.Error())
	assert.True(t, errors.Is(err, store.ErrForbidden))
	assert.Equal(t, rv, s.ResourceVersion())

	require.NoError(t, s.Delete(api.KindPod, "", "p-0", store.DeleteOptions{}))
	_, err = s.Create(simtest.NewPod("room-again"))
	assert.NoError(t, err, "a deleted pod frees its place")
	_, err = s.Create(simtest.NewDeployment("web", 1, "nginx"))
	assert.NoError(t, err, "the limit is on pods only")
}

func TestNodeLimit(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for i := 0; i < store.MaxNodes; i++ {
		simtest.MustCreate(t, s, simtest.NewNode("node-"+strconv.Itoa(i), "4", "8Gi", 110))
	}
	_, err := s.Create(simtest.NewNode("node-x", "4", "8Gi", 110))
	assert.EqualError(t, err, `nodes "node-x" is forbidden: exceeded the simulation's limit of 500 nodes (a Converge limit, not a Kubernetes one)`)
}

func TestReplicasLimit(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	_, err := s.Create(simtest.NewDeployment("web", store.MaxReplicas, "nginx"))
	assert.NoError(t, err, "10000 is allowed")
	_, err = s.Create(simtest.NewDeployment("big", store.MaxReplicas+1, "nginx"))
	assert.EqualError(t, err, `Deployment.apps "big" is invalid: spec.replicas: Invalid value: 10001: must be less than or equal to 10000 in Converge (a simulation limit, not a Kubernetes one)`)
	assert.True(t, errors.Is(err, store.ErrInvalid))
	_, err = s.Create(simtest.NewReplicaSet("big", store.MaxReplicas+1, "nginx"))
	assert.EqualError(t, err, `ReplicaSet.apps "big" is invalid: spec.replicas: Invalid value: 10001: must be less than or equal to 10000 in Converge (a simulation limit, not a Kubernetes one)`)
}

func TestDefaultTolerationSeconds(t *testing.T) {
	t.Parallel()
	notReady := func(secs int64) api.Toleration {
		return api.Toleration{Key: api.TaintNodeNotReady, Operator: "Exists", Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Int64(secs)}
	}
	unreachable := func(secs int64) api.Toleration {
		return api.Toleration{Key: api.TaintNodeUnreachable, Operator: "Exists", Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Int64(secs)}
	}
	tests := []struct {
		name    string
		seconds int64 // the store option; 0 is the default
		own     []api.Toleration
		want    []api.Toleration
	}{
		{"both added with 300 s", 0, nil, []api.Toleration{notReady(300), unreachable(300)}},
		{"configured seconds", 60, nil, []api.Toleration{notReady(60), unreachable(60)}},
		{"an own not-ready toleration is kept", 0, []api.Toleration{notReady(10)}, []api.Toleration{notReady(10), unreachable(300)}},
		{"a toleration without effect counts", 0, []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: "Exists"}},
			[]api.Toleration{{Key: api.TaintNodeUnreachable, Operator: "Exists"}, notReady(300)}},
		{"tolerate everything", 0, []api.Toleration{{Operator: "Exists"}}, []api.Toleration{{Operator: "Exists"}}},
		{"NoSchedule does not count", 0, []api.Toleration{{Key: api.TaintNodeNotReady, Operator: "Exists", Effect: api.TaintEffectNoSchedule}},
			[]api.Toleration{{Key: api.TaintNodeNotReady, Operator: "Exists", Effect: api.TaintEffectNoSchedule}, notReady(300), unreachable(300)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 1, DefaultTolerationSeconds: tc.seconds})
			p := simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodTolerations(tc.own...)))
			assert.Equal(t, tc.want, p.Spec.Tolerations)
		})
	}
	t.Run("only on create", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		p := simtest.MustCreate(t, s, simtest.NewPod("p"))
		edit := p.DeepCopy()
		edit.Labels = map[string]string{"a": "b"}
		out, err := s.Update(edit)
		require.NoError(t, err)
		assert.Len(t, out.(*api.Pod).Spec.Tolerations, 2)
	})
}
