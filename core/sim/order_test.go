package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/scenarios"
)

func names(cs []Component) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

func TestTickOrderIsTheOrderTheEngineRuns(t *testing.T) {
	t.Parallel()
	order := TickOrder()
	assert.Equal(t, []string{"gitops", "node-controller", "garbage-collector-controller", "resourcequota-controller", "replicaset-controller",
		"horizontal-pod-autoscaler", "deployment-controller", "disruption-controller", "default-scheduler", "endpoint-controller", "kubelet",
		"metrics-server"}, names(order))
	require.Len(t, order, 12)
	for _, c := range order[:len(order)-2] {
		assert.Equal(t, ControlPlane, c.Stage, c.Name)
	}
	assert.Equal(t, Nodes, order[len(order)-2].Stage)
	assert.Equal(t, Metrics, order[len(order)-1].Stage)

	s, err := New(parse(t, gitopsAndHPA), Options{})
	require.NoError(t, err)
	var ran []Component
	for _, c := range s.state.plane {
		ran = append(ran, Component{Name: c.Name(), Stage: ControlPlane})
	}
	ran = append(ran, Component{Name: s.state.kubelet.Name(), Stage: Nodes}, Component{Name: s.state.metrics.Name(), Stage: Metrics})
	assert.Equal(t, order, ran, "the components a simulation runs, by their own Name(), in the order runTick calls them")

	plain, err := New(load(t, scenarios.FS, "basic-loop.yaml"), Options{})
	require.NoError(t, err)
	require.Len(t, plain.state.plane, len(order)-3, "without cluster.gitops there is no GitOps reconciler")
	assert.Equal(t, "node-controller", plain.state.plane[0].Name())
}

// gitopsAndHPA has every component: a GitOps repo, an HPA and a load.
const gitopsAndHPA = `name: gitops-and-hpa
duration: 60s
cluster:
  gitops:
    interval: 30s
    repo:
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 2
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
            - name: web
              image: nginx:1.27
              resources: {requests: {cpu: 100m}}
objects:
- apiVersion: autoscaling/v2
  kind: HorizontalPodAutoscaler
  metadata: {name: web}
  spec:
    scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
    maxReplicas: 5
    metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
steps:
- at: 5s
  load: deployment/web cpu=300m
`

func TestTickOrderNamesEverySyncRecordsController(t *testing.T) {
	t.Parallel()
	known := map[string]bool{}
	for _, c := range TickOrder() {
		known[c.Name] = true
	}
	seen := map[string]bool{}
	// Between them these scenarios make every component keep a record.
	for _, scn := range []*scenario.Scenario{
		load(t, scenarios.FS, "basic-loop.yaml"),
		load(t, scenarios.FS, "node-lost.yaml"),
		load(t, scenarios.FS, "quota-blocks-rollout.yaml"),
		load(t, scenarios.FS, "pdb-drain.yaml"),
		parse(t, cascadingDelete),
		parse(t, gitopsAndHPA),
	} {
		name := scn.Name
		s, err := New(scn, Options{})
		require.NoError(t, err)
		for {
			for _, r := range s.Tick().Syncs {
				assert.True(t, known[r.Controller], "%s at %ds: a record of %q, which is not in TickOrder", name, s.T(), r.Controller)
				seen[r.Controller] = true
			}
			if s.T() >= int64(s.Duration().Seconds()) {
				break
			}
			s.Step(1)
		}
	}
	assert.Equal(t, known, seen, "every component in TickOrder keeps records under its name")
}

// cascadingDelete deletes a Deployment behind a Service: the garbage
// collector deletes its ReplicaSet and pods, the endpoints controller
// follows.
const cascadingDelete = `name: cascading-delete
duration: 20s
objects:
- apiVersion: v1
  kind: Service
  metadata: {name: web}
  spec:
    selector: {app: web}
    ports: [{port: 80}]
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: web, image: nginx:1.27}]
steps:
- at: 10s
  kubectl: delete deployment web
`

func TestTickOrderIsTheCallersOwn(t *testing.T) {
	t.Parallel()
	a := TickOrder()
	a[0].Name = "changed"
	assert.Equal(t, "gitops", TickOrder()[0].Name)
}
