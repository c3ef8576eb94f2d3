package sim

import (
	"converge/core/controller"
	"converge/core/controller/deployment"
	"converge/core/controller/disruption"
	"converge/core/controller/endpoints"
	"converge/core/controller/gc"
	"converge/core/controller/nodelifecycle"
	"converge/core/controller/replicaset"
	"converge/core/controller/resourcequota"
	"converge/core/kubelet"
	"converge/core/scenario"
	"converge/core/scheduler"
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
//  1. node-controller (the node lifecycle controller),
//  2. garbage-collector-controller (the garbage collector),
//  3. resourcequota-controller (the resource quota controller),
//  4. replicaset-controller,
//  5. deployment-controller,
//  6. disruption-controller (PodDisruptionBudgets' status),
//  7. default-scheduler,
//  8. endpoint-controller (the endpoints controller),
//
// which make the control-plane round, then
//
//  9. kubelet (every node's kubelet).
//
// The slice is the caller's own.
func TickOrder() []Component {
	plane := controlPlane()
	out := make([]Component, 0, len(plane)+1)
	for _, p := range plane {
		out = append(out, Component{Name: p.name, Stage: ControlPlane})
	}
	return append(out, Component{Name: kubelet.Component, Stage: Nodes})
}

// planePart is one component of the control-plane round: its name and how
// a simulation of a scenario makes it.
type planePart struct {
	name string
	new  func(scn *scenario.Scenario) controller.Controller
}

// controlPlane is the control-plane round in its order. The replicaset
// controller goes before the deployment controller, so that a ReplicaSet
// scaled by hand acts before the Deployment scales it back, as the race
// between the two usually ends. The quota controller goes before the
// replicaset controller, so that a quota raised (or pods freed) counts for
// the pods created in the same round.
func controlPlane() []planePart {
	return []planePart{
		{nodelifecycle.Component, func(scn *scenario.Scenario) controller.Controller {
			return nodelifecycle.New(nodelifecycle.Options{NodeMonitorGracePeriod: scn.Cluster.Timings.NodeMonitorGracePeriod,
				PodEvictionTimeout: scn.Cluster.Timings.PodEvictionTimeout, NodeMonitorPeriod: scn.Cluster.Timings.NodeMonitorPeriod})
		}},
		{gc.Component, func(*scenario.Scenario) controller.Controller { return gc.New() }},
		{resourcequota.Component, func(*scenario.Scenario) controller.Controller { return resourcequota.New() }},
		{replicaset.Component, func(*scenario.Scenario) controller.Controller { return replicaset.New() }},
		{deployment.Component, func(*scenario.Scenario) controller.Controller { return deployment.New() }},
		{disruption.Component, func(*scenario.Scenario) controller.Controller { return disruption.New() }},
		{scheduler.Component, func(*scenario.Scenario) controller.Controller { return scheduler.New() }},
		{endpoints.Component, func(*scenario.Scenario) controller.Controller { return endpoints.New() }},
	}
}

// newPlane makes scn's control plane, in tick order.
func newPlane(scn *scenario.Scenario) []controller.Controller {
	parts := controlPlane()
	out := make([]controller.Controller, len(parts))
	for i, p := range parts {
		out[i] = p.new(scn)
	}
	return out
}
