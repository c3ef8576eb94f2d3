package api_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

func newDeployment() *api.Deployment {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web"}}
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "nginx:1.27", Ports: []api.ContainerPort{{ContainerPort: 80}}}}
	return d
}

// The JSON shape of a defaulted Deployment, as `kubectl get -o json` shows a
// new one (docs/kubernetes-rules.md §1).
func TestDefaultedDeploymentJSON(t *testing.T) {
	t.Parallel()
	d := newDeployment()
	api.SetDefaultsDeployment(d)
	b, err := json.Marshal(d)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": {"name": "web", "namespace": "default"},
		"spec": {
			"replicas": 1,
			"selector": {"matchLabels": {"app": "web"}},
			"template": {
				"metadata": {"labels": {"app": "web"}},
				"spec": {
					"containers": [{"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80, "protocol": "TCP"}],
						"terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File", "imagePullPolicy": "IfNotPresent"}],
					"restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
					"securityContext": {}, "schedulerName": "default-scheduler"
				}
			},
			"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
			"revisionHistoryLimit": 10,
			"progressDeadlineSeconds": 600
		},
		"status": {}
	}`, string(b))

	var back api.Deployment
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, d, &back, "the defaulted object reads back unchanged")
}

// The rows of docs/kubernetes-rules.md §1's defaults table.
func TestSetDefaultsDeployment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tweak func(*api.Deployment)
		check func(*testing.T, *api.Deployment)
	}{
		{"replicas 1", nil, func(t *testing.T, d *api.Deployment) { assert.Equal(t, int32(1), *d.Spec.Replicas) }},
		{"explicit 0 replicas kept", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(0) },
			func(t *testing.T, d *api.Deployment) { assert.Equal(t, int32(0), *d.Spec.Replicas) }},
		{"strategy RollingUpdate 25%/25%", nil, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, api.RollingUpdateDeploymentStrategyType, d.Spec.Strategy.Type)
			assert.Equal(t, api.FromString("25%"), *d.Spec.Strategy.RollingUpdate.MaxSurge)
			assert.Equal(t, api.FromString("25%"), *d.Spec.Strategy.RollingUpdate.MaxUnavailable)
		}},
		{"only maxSurge 0 still gives maxUnavailable 25%", func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: num(0)}
		}, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, api.FromInt(0), *d.Spec.Strategy.RollingUpdate.MaxSurge)
			assert.Equal(t, api.FromString("25%"), *d.Spec.Strategy.RollingUpdate.MaxUnavailable)
		}},
		{"only maxUnavailable set", func(d *api.Deployment) {
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType, RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: num(2)}}
		}, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, api.FromString("25%"), *d.Spec.Strategy.RollingUpdate.MaxSurge)
			assert.Equal(t, api.FromInt(2), *d.Spec.Strategy.RollingUpdate.MaxUnavailable)
		}},
		{"Recreate gets no rollingUpdate block", func(d *api.Deployment) {
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
		}, func(t *testing.T, d *api.Deployment) { assert.Nil(t, d.Spec.Strategy.RollingUpdate) }},
		{"an unknown type is left alone", func(d *api.Deployment) { d.Spec.Strategy.Type = "Foo" },
			func(t *testing.T, d *api.Deployment) {
				assert.Equal(t, api.DeploymentStrategy{Type: "Foo"}, d.Spec.Strategy)
			}},
		{"revisionHistoryLimit 10 and progressDeadlineSeconds 600", nil, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, int32(10), *d.Spec.RevisionHistoryLimit)
			assert.Equal(t, int32(600), *d.Spec.ProgressDeadlineSeconds)
			assert.Equal(t, int32(0), d.Spec.MinReadySeconds)
			assert.False(t, d.Spec.Paused)
		}},
		{"explicit values kept", func(d *api.Deployment) {
			d.Spec.RevisionHistoryLimit = api.Int32(0)
			d.Spec.ProgressDeadlineSeconds = api.Int32(api.NoProgressDeadline)
		}, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, int32(0), *d.Spec.RevisionHistoryLimit)
			assert.Equal(t, int32(2147483647), *d.Spec.ProgressDeadlineSeconds)
		}},
		{"namespace and type", func(d *api.Deployment) { d.Namespace = "prod" }, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, "prod", d.Namespace)
			assert.Equal(t, api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, d.TypeMeta)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDeployment()
			if tc.tweak != nil {
				tc.tweak(d)
			}
			api.SetDefaultsDeployment(d)
			tc.check(t, d)
			again := d.DeepCopy()
			api.SetDefaultsDeployment(again)
			assert.Equal(t, d, again, "defaulting twice changes nothing")
		})
	}
}

func TestDefaultPullPolicy(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"nginx":                         "Always",
		"nginx:latest":                  "Always",
		"nginx:1.27":                    "IfNotPresent",
		"myrepo/web:2.0":                "IfNotPresent",
		"registry:5000/web":             "Always",
		"registry:5000/web:1.2":         "IfNotPresent",
		"registry:5000/web:latest":      "Always",
		"nginx@sha256:0123456789abcdef": "IfNotPresent",
		"":                              "Always",
	}
	for image, want := range tests {
		t.Run(image, func(t *testing.T) {
			t.Parallel()
			p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: image}}}}
			api.SetDefaultsPod(p)
			assert.Equal(t, want, p.Spec.Containers[0].ImagePullPolicy)
		})
	}
}

func TestSetDefaultsPodSpec(t *testing.T) {
	t.Parallel()
	p := &api.Pod{Spec: api.PodSpec{
		InitContainers: []api.Container{{Name: "init", Image: "busybox", ImagePullPolicy: "Never"}},
		Containers: []api.Container{{Name: "web", Image: "nginx:1.27",
			ReadinessProbe: &api.Probe{HTTPGet: api.Raw(`{"port":80}`)},
			LivenessProbe:  &api.Probe{TimeoutSeconds: 5, PeriodSeconds: 2, SuccessThreshold: 1, FailureThreshold: 9}}},
		RestartPolicy: api.RestartPolicyNever,
	}}
	api.SetDefaultsPod(p)
	assert.Equal(t, api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, p.TypeMeta)
	assert.Equal(t, "default", p.Namespace)
	assert.Equal(t, api.RestartPolicyNever, p.Spec.RestartPolicy, "an explicit policy is kept")
	assert.Equal(t, int64(30), *p.Spec.TerminationGracePeriodSeconds)
	assert.Equal(t, "ClusterFirst", p.Spec.DNSPolicy)
	assert.Equal(t, "default-scheduler", p.Spec.SchedulerName)
	assert.Equal(t, `{}`, string(p.Spec.SecurityContext))
	assert.Equal(t, "Never", p.Spec.InitContainers[0].ImagePullPolicy)
	assert.Equal(t, "File", p.Spec.InitContainers[0].TerminationMessagePolicy)
	c := p.Spec.Containers[0]
	assert.Equal(t, "/dev/termination-log", c.TerminationMessagePath)
	assert.Equal(t, api.Probe{HTTPGet: api.Raw(`{"port":80}`), TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}, *c.ReadinessProbe)
	assert.Equal(t, api.Probe{TimeoutSeconds: 5, PeriodSeconds: 2, SuccessThreshold: 1, FailureThreshold: 9}, *c.LivenessProbe)
	assert.Nil(t, c.StartupProbe)
}

func TestSetDefaultsOtherKinds(t *testing.T) {
	t.Parallel()
	rs := &api.ReplicaSet{}
	api.SetDefaults(rs)
	assert.Equal(t, int32(1), *rs.Spec.Replicas)
	assert.Equal(t, "apps/v1", rs.APIVersion)
	assert.Equal(t, "default", rs.Namespace)

	s := &api.Service{Spec: api.ServiceSpec{Ports: []api.ServicePort{{Port: 80}, {Port: 443, Protocol: "UDP", TargetPort: pct("https")}}}}
	api.SetDefaults(s)
	assert.Equal(t, "ClusterIP", s.Spec.Type)
	assert.Equal(t, "None", s.Spec.SessionAffinity)
	assert.Equal(t, api.ServicePort{Port: 80, Protocol: "TCP", TargetPort: num(80)}, s.Spec.Ports[0])
	assert.Equal(t, api.ServicePort{Port: 443, Protocol: "UDP", TargetPort: pct("https")}, s.Spec.Ports[1])

	c := &api.ConfigMap{}
	api.SetDefaults(c)
	assert.Equal(t, api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, c.TypeMeta)
	assert.Equal(t, "default", c.Namespace)

	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Namespace: "default"}, Status: api.NodeStatus{Capacity: api.ResourceList{"cpu": api.MustQuantity("4")}}}
	api.SetDefaults(n)
	assert.Empty(t, n.Namespace, "nodes are cluster-scoped")
	assert.Equal(t, "4", n.Status.Allocatable["cpu"].String(), "allocatable defaults to capacity")
	n.Status.Capacity["cpu"] = api.MustQuantity("8")
	assert.Equal(t, "4", n.Status.Allocatable["cpu"].String(), "a copy, not the same map")

	e, ep := &api.Event{}, &api.Endpoints{}
	api.SetDefaults(e)
	api.SetDefaults(ep)
	assert.Equal(t, api.TypeMeta{APIVersion: "v1", Kind: "Event"}, e.TypeMeta)
	assert.Equal(t, api.TypeMeta{APIVersion: "v1", Kind: "Endpoints"}, ep.TypeMeta)
	assert.Equal(t, "default", e.Namespace)
	assert.Equal(t, "default", ep.Namespace)
}
