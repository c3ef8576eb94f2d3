package api_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

func TestTimeJSON(t *testing.T) {
	t.Parallel()
	type holder struct {
		T api.Time `json:"t,omitzero"`
	}
	at := api.NewTime(time.Date(2026, 1, 1, 1, 2, 3, 500, time.FixedZone("X", 3600)))
	b, err := json.Marshal(holder{T: at})
	require.NoError(t, err)
	assert.Equal(t, `{"t":"2026-01-01T00:02:03Z"}`, string(b), "UTC, whole seconds")

	b, err = json.Marshal(holder{})
	require.NoError(t, err)
	assert.Equal(t, `{}`, string(b))
	b, err = json.Marshal(api.Time{})
	require.NoError(t, err)
	assert.Equal(t, `null`, string(b))

	var h holder
	require.NoError(t, json.Unmarshal([]byte(`{"t":"2026-01-01T02:00:00+02:00"}`), &h))
	assert.True(t, h.T.Equal(api.NewTime(api.Epoch)))
	assert.Equal(t, time.UTC, h.T.Location())
	for _, empty := range []string{`{"t":null}`, `{"t":""}`} {
		h := holder{T: at}
		require.NoError(t, json.Unmarshal([]byte(empty), &h))
		assert.True(t, h.T.IsZero(), empty)
	}
	assert.EqualError(t, json.Unmarshal([]byte(`{"t":5}`), &h), "timestamp must be a string in RFC 3339 form")
	assert.EqualError(t, json.Unmarshal([]byte(`{"t":"yesterday"}`), &h), `invalid timestamp "yesterday": want RFC 3339, e.g. 2026-01-01T00:00:00Z`)
	assert.Equal(t, at.Time, api.NewTimePtr(at.Time).Time)
}

func TestOwnerReferences(t *testing.T) {
	t.Parallel()
	d := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: api.ObjectMeta{Name: "web", UID: "d-1"}}
	ref := api.NewControllerRef(d)
	assert.Equal(t, api.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "d-1", Controller: api.Bool(true), BlockOwnerDeletion: api.Bool(true)}, ref)

	m := &api.ObjectMeta{OwnerReferences: []api.OwnerReference{{Kind: "ConfigMap", UID: "c-1"}, ref}}
	require.NotNil(t, api.GetControllerOf(m))
	assert.Equal(t, "d-1", api.GetControllerOf(m).UID)
	assert.True(t, api.IsControlledBy(m, "d-1"))
	assert.False(t, api.IsControlledBy(m, "c-1"))
	assert.Nil(t, api.GetControllerOf(&api.ObjectMeta{OwnerReferences: []api.OwnerReference{{UID: "x", Controller: api.Bool(false)}}}))
	assert.False(t, api.IsControlledBy(&api.ObjectMeta{}, ""))

	c := ref.DeepCopy()
	*c.Controller = false
	assert.True(t, *ref.Controller)
}

func TestMetaHelpers(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "default/web", (&api.ObjectMeta{Name: "web", Namespace: "default"}).Key())
	assert.Equal(t, "node-1", (&api.ObjectMeta{Name: "node-1"}).Key())
	assert.Equal(t, "apps/v1", api.APIVersionFor(api.KindDeployment))
	assert.Equal(t, "apps/v1", api.APIVersionFor(api.KindReplicaSet))
	assert.Equal(t, "v1", api.APIVersionFor(api.KindPod))
	assert.Equal(t, int32(7), api.Deref(nil, 7))
	assert.Equal(t, int32(2), api.Deref(api.Int32(2), 7))
	assert.Equal(t, int64(7), api.Deref64(nil, 7))
	assert.Equal(t, int64(2), api.Deref64(api.Int64(2), 7))
	assert.Nil(t, api.CopyStringMap(nil))
	assert.True(t, api.ObjectMeta{}.IsZero())
	assert.False(t, api.ObjectMeta{Labels: map[string]string{}}.IsZero())
	var nilSel *api.LabelSelector
	assert.Nil(t, nilSel.DeepCopy())
}

func TestPodHelpers(t *testing.T) {
	t.Parallel()
	p := &api.Pod{Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}}
	assert.True(t, api.IsPodReady(p))
	assert.True(t, api.IsPodActive(p))
	assert.Nil(t, api.GetPodCondition(&p.Status, api.PodScheduled))
	p.Status.Conditions[0].Status = api.ConditionFalse
	assert.False(t, api.IsPodReady(p))
	for _, phase := range []string{api.PodSucceeded, api.PodFailed} {
		q := &api.Pod{Status: api.PodStatus{Phase: phase}}
		assert.False(t, api.IsPodActive(q), phase)
	}
	q := &api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: api.NewTimePtr(api.Epoch)}}
	assert.False(t, api.IsPodActive(q), "terminating")

	n := &api.Node{Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}}
	assert.True(t, api.IsNodeReady(n))
	assert.False(t, api.IsNodeReady(&api.Node{}))
}

// TestDeepCopyIndependence writes to every mutable part of a copy and checks
// the original did not change.
func TestDeepCopyIndependence(t *testing.T) {
	t.Parallel()
	now := api.NewTimePtr(api.Epoch)
	meta := api.ObjectMeta{Name: "x", Namespace: "default", Labels: map[string]string{"a": "1"}, Annotations: map[string]string{"b": "2"},
		OwnerReferences: []api.OwnerReference{{UID: "u", Controller: api.Bool(true), BlockOwnerDeletion: api.Bool(true)}},
		Finalizers:      []string{"f"}, DeletionTimestamp: now, DeletionGracePeriodSeconds: api.Int64(30)}
	container := api.Container{Name: "c", Command: []string{"a"}, Args: []string{"b"}, Ports: []api.ContainerPort{{ContainerPort: 80}},
		Env: []api.EnvVar{{Name: "E"}}, Resources: api.ResourceRequirements{Limits: api.ResourceList{"cpu": api.MustQuantity("1")}, Requests: api.ResourceList{"cpu": api.MustQuantity("1")}},
		LivenessProbe: &api.Probe{TerminationGracePeriodSeconds: api.Int64(1)}, ReadinessProbe: &api.Probe{PeriodSeconds: 1}, StartupProbe: &api.Probe{PeriodSeconds: 1}}
	spec := api.PodSpec{Containers: []api.Container{container}, InitContainers: []api.Container{container},
		TerminationGracePeriodSeconds: api.Int64(30), ActiveDeadlineSeconds: api.Int64(5), NodeSelector: map[string]string{"n": "1"},
		Tolerations: []api.Toleration{{Key: "k", TolerationSeconds: api.Int64(300)}}, Priority: api.Int32(1), EnableServiceLinks: api.Bool(true)}
	pp := "Never"
	spec.PreemptionPolicy = &pp
	mutateMeta := func(m *api.ObjectMeta) {
		m.Labels["a"] = "changed"
		m.Annotations["b"] = "changed"
		*m.OwnerReferences[0].Controller = false
		*m.OwnerReferences[0].BlockOwnerDeletion = false
		m.Finalizers[0] = "changed"
		m.DeletionTimestamp.Time = m.DeletionTimestamp.Add(time.Hour)
		*m.DeletionGracePeriodSeconds = 1
	}
	mutateSpec := func(s *api.PodSpec) {
		for _, cs := range [][]api.Container{s.Containers, s.InitContainers} {
			c := &cs[0]
			c.Command[0], c.Args[0] = "x", "x"
			c.Ports[0].ContainerPort = 1
			c.Env[0].Name = "x"
			c.Resources.Limits["cpu"] = api.MustQuantity("9")
			c.Resources.Requests["cpu"] = api.MustQuantity("9")
			*c.LivenessProbe.TerminationGracePeriodSeconds = 9
			c.ReadinessProbe.PeriodSeconds = 9
			c.StartupProbe.PeriodSeconds = 9
		}
		*s.TerminationGracePeriodSeconds = 1
		*s.ActiveDeadlineSeconds = 1
		s.NodeSelector["n"] = "x"
		*s.Tolerations[0].TolerationSeconds = 1
		*s.Priority = 9
		*s.EnableServiceLinks = false
		*s.PreemptionPolicy = "x"
	}

	t.Run("deployment", func(t *testing.T) {
		t.Parallel()
		d := &api.Deployment{ObjectMeta: meta.DeepCopy()}
		d.Spec = api.DeploymentSpec{Replicas: api.Int32(3), Selector: &api.LabelSelector{MatchLabels: map[string]string{"a": "1"},
			MatchExpressions: []api.LabelSelectorRequirement{{Key: "k", Operator: "In", Values: []string{"v"}}}},
			Template:             api.PodTemplateSpec{ObjectMeta: meta.DeepCopy(), Spec: spec.DeepCopy()},
			Strategy:             api.DeploymentStrategy{Type: "RollingUpdate", RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: num(1), MaxUnavailable: num(1)}},
			RevisionHistoryLimit: api.Int32(10), ProgressDeadlineSeconds: api.Int32(600)}
		d.Status = api.DeploymentStatus{TerminatingReplicas: api.Int32(1), CollisionCount: api.Int32(1), Conditions: []api.DeploymentCondition{{Type: "Available"}}}
		want, err := json.Marshal(d)
		require.NoError(t, err)
		c := d.DeepCopyObject().(*api.Deployment)
		mutateMeta(&c.ObjectMeta)
		mutateMeta(&c.Spec.Template.ObjectMeta)
		mutateSpec(&c.Spec.Template.Spec)
		*c.Spec.Replicas = 9
		c.Spec.Selector.MatchLabels["a"] = "x"
		c.Spec.Selector.MatchExpressions[0].Values[0] = "x"
		c.Spec.Strategy.RollingUpdate.MaxSurge.IntVal = 9
		c.Spec.Strategy.RollingUpdate.MaxUnavailable.IntVal = 9
		*c.Spec.RevisionHistoryLimit, *c.Spec.ProgressDeadlineSeconds = 9, 9
		*c.Status.TerminatingReplicas, *c.Status.CollisionCount = 9, 9
		c.Status.Conditions[0].Type = "x"
		got, err := json.Marshal(d)
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got))
		assert.Nil(t, (*api.Deployment)(nil).DeepCopy())
	})
	t.Run("replicaset", func(t *testing.T) {
		t.Parallel()
		rs := &api.ReplicaSet{ObjectMeta: meta.DeepCopy(), Spec: api.ReplicaSetSpec{Replicas: api.Int32(1), Selector: &api.LabelSelector{MatchLabels: map[string]string{"a": "1"}},
			Template: api.PodTemplateSpec{ObjectMeta: meta.DeepCopy(), Spec: spec.DeepCopy()}},
			Status: api.ReplicaSetStatus{TerminatingReplicas: api.Int32(1), Conditions: []api.ReplicaSetCondition{{Type: "x"}}}}
		want, _ := json.Marshal(rs)
		c := rs.DeepCopyObject().(*api.ReplicaSet)
		mutateMeta(&c.ObjectMeta)
		mutateSpec(&c.Spec.Template.Spec)
		*c.Spec.Replicas = 5
		c.Spec.Selector.MatchLabels["a"] = "x"
		*c.Status.TerminatingReplicas = 5
		c.Status.Conditions[0].Type = "y"
		got, _ := json.Marshal(rs)
		assert.JSONEq(t, string(want), string(got))
		assert.Nil(t, (*api.ReplicaSet)(nil).DeepCopy())
	})
	t.Run("pod", func(t *testing.T) {
		t.Parallel()
		p := &api.Pod{ObjectMeta: meta.DeepCopy(), Spec: spec.DeepCopy(), Status: api.PodStatus{Conditions: []api.PodCondition{{Type: "Ready"}}, StartTime: now,
			ContainerStatuses: []api.ContainerStatus{{Name: "c", Started: api.Bool(true), State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "r"},
				Running: &api.ContainerStateRunning{}, Terminated: &api.ContainerStateTerminated{ExitCode: 1}}}}}}
		want, _ := json.Marshal(p)
		c := p.DeepCopyObject().(*api.Pod)
		mutateMeta(&c.ObjectMeta)
		mutateSpec(&c.Spec)
		c.Status.Conditions[0].Type = "x"
		c.Status.StartTime.Time = c.Status.StartTime.Add(time.Hour)
		cs := &c.Status.ContainerStatuses[0]
		*cs.Started = false
		cs.State.Waiting.Reason = "x"
		cs.State.Running.StartedAt = api.NewTime(api.Epoch)
		cs.State.Terminated.ExitCode = 9
		got, _ := json.Marshal(p)
		assert.JSONEq(t, string(want), string(got))
		assert.Nil(t, (*api.Pod)(nil).DeepCopy())
	})
	t.Run("node, service, configmap, endpoints, event", func(t *testing.T) {
		t.Parallel()
		n := &api.Node{ObjectMeta: meta.DeepCopy(), Spec: api.NodeSpec{Taints: []api.Taint{{Key: "k", TimeAdded: now}}},
			Status: api.NodeStatus{Capacity: api.ResourceList{"cpu": api.MustQuantity("1")}, Allocatable: api.ResourceList{"cpu": api.MustQuantity("1")},
				Conditions: []api.NodeCondition{{Type: "Ready"}}, Addresses: []api.NodeAddress{{Address: "a"}}}}
		s := &api.Service{ObjectMeta: meta.DeepCopy(), Spec: api.ServiceSpec{Selector: map[string]string{"a": "1"}, Ports: []api.ServicePort{{Port: 80, TargetPort: num(80)}},
			ClusterIPs: []string{"10.0.0.1"}, IPFamilies: []string{"IPv4"}}}
		cm := &api.ConfigMap{ObjectMeta: meta.DeepCopy(), Data: map[string]string{"a": "1"}, BinaryData: map[string]string{"b": "AA=="}, Immutable: api.Bool(true)}
		ep := &api.Endpoints{ObjectMeta: meta.DeepCopy(), Subsets: []api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1", TargetRef: &api.ObjectReference{Name: "p"}}},
			NotReadyAddresses: []api.EndpointAddress{{IP: "2"}}, Ports: []api.EndpointPort{{Port: 80}}}}}
		ev := &api.Event{ObjectMeta: meta.DeepCopy(), Reason: "r"}
		var want [][]byte
		for _, o := range []any{n, s, cm, ep, ev} {
			b, _ := json.Marshal(o)
			want = append(want, b)
		}
		nc := n.DeepCopyObject().(*api.Node)
		mutateMeta(&nc.ObjectMeta)
		nc.Spec.Taints[0].TimeAdded.Time = nc.Spec.Taints[0].TimeAdded.Add(time.Hour)
		nc.Status.Capacity["cpu"], nc.Status.Allocatable["cpu"] = api.MustQuantity("9"), api.MustQuantity("9")
		nc.Status.Conditions[0].Type, nc.Status.Addresses[0].Address = "x", "x"
		sc := s.DeepCopyObject().(*api.Service)
		mutateMeta(&sc.ObjectMeta)
		sc.Spec.Selector["a"] = "x"
		sc.Spec.Ports[0].TargetPort.IntVal = 9
		sc.Spec.ClusterIPs[0], sc.Spec.IPFamilies[0] = "x", "x"
		cc := cm.DeepCopyObject().(*api.ConfigMap)
		mutateMeta(&cc.ObjectMeta)
		cc.Data["a"], cc.BinaryData["b"], *cc.Immutable = "x", "x", false
		ec := ep.DeepCopyObject().(*api.Endpoints)
		mutateMeta(&ec.ObjectMeta)
		ec.Subsets[0].Addresses[0].TargetRef.Name = "x"
		ec.Subsets[0].NotReadyAddresses[0].IP = "x"
		ec.Subsets[0].Ports[0].Port = 9
		evc := ev.DeepCopyObject().(*api.Event)
		mutateMeta(&evc.ObjectMeta)
		evc.Reason = "x"
		for i, o := range []any{n, s, cm, ep, ev} {
			b, _ := json.Marshal(o)
			assert.JSONEq(t, string(want[i]), string(b), "%T", o)
		}
		assert.Nil(t, (*api.Node)(nil).DeepCopy())
		assert.Nil(t, (*api.Service)(nil).DeepCopy())
		assert.Nil(t, (*api.ConfigMap)(nil).DeepCopy())
		assert.Nil(t, (*api.Endpoints)(nil).DeepCopy())
		assert.Nil(t, (*api.Event)(nil).DeepCopy())
	})
}

func TestRawJSON(t *testing.T) {
	t.Parallel()
	var r api.Raw
	require.NoError(t, json.Unmarshal([]byte(`{ "b": 1, "a": [1, 2] }`), &r))
	assert.Equal(t, `{"a":[1,2],"b":1}`, string(r), "compacted with sorted keys")
	b, err := json.Marshal(api.Raw(nil))
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))
	assert.Error(t, r.UnmarshalJSON([]byte(`{`)))
}
