package sim

import (
	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/deployment"
	"converge/core/controller/disruption"
	"converge/core/controller/endpoints"
	"converge/core/controller/gc"
	"converge/core/controller/gitops"
	"converge/core/controller/nodelifecycle"
	"converge/core/controller/podautoscaler"
	"converge/core/controller/replicaset"
	"converge/core/controller/resourcequota"
	"converge/core/kubelet"
	"converge/core/metrics"
	"converge/core/scenario"
	"converge/core/scheduler"
	"converge/core/store"
)

// Stage is the part of a tick a component runs in.
type Stage string

const (
	// ControlPlane is the control-plane round: its components run one after
	// the other, and the round repeats while it wrote anything to the store
	// (at most MaxRounds times).
	ControlPlane Stage = "control-plane"
	// Nodes is the kubelets' turn, node by node, once per tick after the
	// control plane.
	Nodes Stage = "nodes"
	// Metrics is the metrics server's turn, once per tick after the
	// kubelets: it accounts the second's usage and scrapes every 15 s.
	Metrics Stage = "metrics"
)

// Component is one component of the simulated cluster as a tick runs it.
type Component struct {
	// Name is the component's one name: the one its sync records (the
	// trace's syncs[].controller) and its events carry, such as
	// "deployment-controller".
	Name  string
	Stage Stage
}

// TickOrder returns the components in the fixed order in which every tick
// runs them (see the package doc):
//
//  1. gitops (the GitOps reconciler, when cluster.gitops is set),
//  2. node-controller (the node lifecycle controller),
//  3. garbage-collector-controller (the garbage collector),
//  4. resourcequota-controller (the resource quota controller),
//  5. replicaset-controller,
//  6. horizontal-pod-autoscaler (the HPA controller),
//  7. deployment-controller,
//  8. disruption-controller (PodDisruptionBudgets' status),
//  9. default-scheduler,
//  10. endpoint-controller (the endpoints controller),
//
// which make the control-plane round, then
//
//  11. kubelet (every node's kubelet),
//  12. metrics-server (the pods' usage; it scrapes every 15 s).
//
// The GitOps reconciler goes first: like kubectl it is a client of the
// API server, and the controllers react to what it applies in the same
// round. The HPA goes before the deployment controller, which then acts on
// the new scale in the same round.
//
// The slice is the caller's own.
func TickOrder() []Component {
	plane := controlPlane()
	out := make([]Component, 0, len(plane)+2)
	for _, p := range plane {
		out = append(out, Component{Name: p.name, Stage: ControlPlane})
	}
	return append(out, Component{Name: kubelet.Component, Stage: Nodes}, Component{Name: metrics.Component, Stage: Metrics})
}

// planePart is one component of the control-plane round: its name, how a
// simulation of a scenario makes it (nil when the scenario has none of it)
// and its field manager.
type planePart struct {
	name    string
	new     func(scn *scenario.Scenario) controller.Controller
	manager string
}

// controlPlane is the control-plane round in its order. The replicaset
// controller goes before the deployment controller, so that a ReplicaSet
// scaled by hand acts before the Deployment scales it back, as the race
// between the two usually ends. The quota controller goes before the
// replicaset controller, so that a quota raised (or pods freed) counts for
// the pods created in the same round.
func controlPlane() []planePart {
	const kcm = store.ManagerControllerManager
	return []planePart{
		{gitops.Component, newGitOps, gitops.FieldManager},
		{nodelifecycle.Component, func(scn *scenario.Scenario) controller.Controller {
			return nodelifecycle.New(nodelifecycle.Options{NodeMonitorGracePeriod: scn.Cluster.Timings.NodeMonitorGracePeriod,
				PodEvictionTimeout: scn.Cluster.Timings.PodEvictionTimeout, NodeMonitorPeriod: scn.Cluster.Timings.NodeMonitorPeriod})
		}, kcm},
		{gc.Component, func(*scenario.Scenario) controller.Controller { return gc.New() }, kcm},
		{resourcequota.Component, func(*scenario.Scenario) controller.Controller { return resourcequota.New() }, kcm},
		{replicaset.Component, func(*scenario.Scenario) controller.Controller { return replicaset.New() }, kcm},
		{podautoscaler.Component, func(*scenario.Scenario) controller.Controller { return podautoscaler.New() }, kcm},
		{deployment.Component, func(*scenario.Scenario) controller.Controller { return deployment.New() }, kcm},
		{disruption.Component, func(*scenario.Scenario) controller.Controller { return disruption.New() }, kcm},
		{scheduler.Component, func(*scenario.Scenario) controller.Controller { return scheduler.New() }, store.ManagerScheduler},
		{endpoints.Component, func(*scenario.Scenario) controller.Controller { return endpoints.New() }, kcm},
	}
}

// newGitOps makes the GitOps reconciler of cluster.gitops, or nil.
func newGitOps(scn *scenario.Scenario) controller.Controller {
	g := scn.Cluster.GitOps
	if g == nil {
		return nil
	}
	repo := make([]api.Object, len(g.Repo))
	for i, d := range g.Repo {
		repo[i] = d.Object
	}
	return gitops.New(gitops.Options{Interval: g.Interval, SelfHeal: g.SelfHeal, Prune: g.Prune, Repo: repo, Start: api.Epoch})
}

// planeMember is one component of a simulation's control plane and the
// writer its writes carry.
type planeMember struct {
	controller.Controller
	writer store.Writer
}

// newPlane makes scn's control plane, in tick order, without the parts the
// scenario does not have.
func newPlane(scn *scenario.Scenario) []planeMember {
	var out []planeMember
	for _, p := range controlPlane() {
		if c := p.new(scn); c != nil {
			out = append(out, planeMember{Controller: c, writer: store.Writer{Manager: p.manager, By: p.name}})
		}
	}
	return out
}
