package k8scase

import (
	"encoding/json"
	"fmt"

	"converge/core/api"
)

// Controllers a Case can run.
const (
	// DeploymentController runs one syncDeployment of the case's Deployment.
	DeploymentController = "deployment"
	// ReplicaSetController runs one syncReplicaSet of every ReplicaSet, in
	// creation order.
	ReplicaSetController = "replicaset"
)

// Namespace is where every object of a case lives.
const Namespace = api.NamespaceDefault

// Case is one input of the differential test: the objects of one
// Deployment at one instant, and the controller whose single sync is
// compared. Times are whole seconds relative to the sync's "now" (0):
// -30 is half a minute ago.
type Case struct {
	// Name names a regression case; generated cases carry their seed index.
	Name string `json:"name,omitempty"`
	// Controller is DeploymentController or ReplicaSetController.
	Controller string `json:"controller"`
	// CreateLimit, when set, is how many pod creates the API server accepts
	// in this sync; every later create fails (as a quota would refuse it).
	// It exercises slow-start batching.
	CreateLimit *int `json:"createLimit,omitempty"`
	State
}

// State is what the API server holds: one Deployment, its ReplicaSets and
// their pods. Both sides turn their stores back into a State after the
// sync, and Writes compares the two States.
type State struct {
	Deployment  *Deployment  `json:"deployment"`
	ReplicaSets []ReplicaSet `json:"replicaSets,omitempty"`
	Pods        []Pod        `json:"pods,omitempty"`
}

// Deployment is an apps/v1 Deployment whose pod template is one container
// "app" running Image, with labels and selector app=<Name>.
type Deployment struct {
	Name     string `json:"name"`
	Replicas int32  `json:"replicas"`
	Image    string `json:"image"`
	// Template is the rest of the pod template (nil: none of it).
	Template *Template `json:"template,omitempty"`
	// Strategy is RollingUpdate or Recreate; the rolling parameters are
	// taken as written (nil ones get the apps/v1 defaults).
	Strategy                string           `json:"strategy"`
	MaxSurge                *api.IntOrString `json:"maxSurge,omitempty"`
	MaxUnavailable          *api.IntOrString `json:"maxUnavailable,omitempty"`
	MinReadySeconds         int32            `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit    *int32           `json:"revisionHistoryLimit,omitempty"`
	ProgressDeadlineSeconds *int32           `json:"progressDeadlineSeconds,omitempty"`
	Paused                  bool             `json:"paused,omitempty"`
	Created                 int64            `json:"created"`
	// Generation is metadata.generation (at least 1).
	Generation  int64             `json:"generation"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Status      DeploymentStatus  `json:"status"`
}

// DeploymentStatus is apps/v1 DeploymentStatus.
type DeploymentStatus struct {
	ObservedGeneration  int64       `json:"observedGeneration,omitempty"`
	Replicas            int32       `json:"replicas,omitempty"`
	UpdatedReplicas     int32       `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32       `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32       `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32       `json:"unavailableReplicas,omitempty"`
	TerminatingReplicas *int32      `json:"terminatingReplicas,omitempty"`
	CollisionCount      *int32      `json:"collisionCount,omitempty"`
	Conditions          []Condition `json:"conditions,omitempty"`
}

// Condition is a Deployment or ReplicaSet condition; a ReplicaSet's has no
// lastUpdateTime (LastUpdate is 0 there).
type Condition struct {
	Type           string `json:"type"`
	Status         string `json:"status"`
	Reason         string `json:"reason,omitempty"`
	Message        string `json:"message,omitempty"`
	LastUpdate     int64  `json:"lastUpdate,omitempty"`
	LastTransition int64  `json:"lastTransition,omitempty"`
}

// ReplicaSet is an apps/v1 ReplicaSet of the Deployment: selector and
// template labels app=<deployment>, pod-template-hash=<Hash>, template
// image Image.
type ReplicaSet struct {
	Name  string `json:"name"`
	Hash  string `json:"hash"`
	Image string `json:"image"`
	// Template is the rest of the pod template (nil: none of it).
	Template        *Template `json:"template,omitempty"`
	Replicas        int32     `json:"replicas"`
	MinReadySeconds int32     `json:"minReadySeconds,omitempty"`
	Created         int64     `json:"created"`
	// Orphan: no controller reference (the Deployment may adopt it).
	Orphan bool `json:"orphan,omitempty"`
	// Unmatched: its labels no longer match the Deployment's selector
	// (an owned one is released).
	Unmatched   bool              `json:"unmatched,omitempty"`
	Generation  int64             `json:"generation"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Status      ReplicaSetStatus  `json:"status"`
}

// ReplicaSetStatus is apps/v1 ReplicaSetStatus.
type ReplicaSetStatus struct {
	Replicas             int32       `json:"replicas"`
	FullyLabeledReplicas int32       `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32       `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32       `json:"availableReplicas,omitempty"`
	TerminatingReplicas  *int32      `json:"terminatingReplicas,omitempty"`
	ObservedGeneration   int64       `json:"observedGeneration,omitempty"`
	Conditions           []Condition `json:"conditions,omitempty"`
}

// Pod is a v1 Pod of one ReplicaSet (or an orphan): labels app=<deployment>
// and pod-template-hash=<Hash>, one container "app".
type Pod struct {
	Name string `json:"name"`
	// Owner is the controlling ReplicaSet's name; "" for an orphan.
	Owner string `json:"owner,omitempty"`
	// Hash is the pod-template-hash label (a ReplicaSet only claims pods
	// whose hash matches its own).
	Hash  string `json:"hash"`
	Image string `json:"image"`
	// Node is spec.nodeName; "" while unscheduled.
	Node  string `json:"node,omitempty"`
	Phase string `json:"phase"`
	// Ready is the Ready condition; ReadySince its lastTransitionTime (nil:
	// none recorded).
	Ready       bool   `json:"ready,omitempty"`
	ReadySince  *int64 `json:"readySince,omitempty"`
	Created     int64  `json:"created"`
	Terminating bool   `json:"terminating,omitempty"`
	Restarts    int32  `json:"restarts,omitempty"`
	// DeletionCost is the controller.kubernetes.io/pod-deletion-cost
	// annotation as written (it may be invalid).
	DeletionCost *string `json:"deletionCost,omitempty"`
}

// TerminationGraceSeconds is the grace period of every pod: a terminating
// pod's deletionTimestamp is now + 30s.
const TerminationGraceSeconds = api.DefaultTerminationGracePeriodSeconds

// Selector returns the Deployment's selector and template labels.
func (d *Deployment) Selector() map[string]string { return map[string]string{"app": d.Name} }

// RSLabels returns a ReplicaSet's selector and template labels.
func (c *State) RSLabels(hash string) map[string]string {
	return map[string]string{"app": c.Deployment.Name, api.DefaultDeploymentUniqueLabelKey: hash}
}

// RSMetaLabels returns a ReplicaSet's own labels: its selector's, or
// another app's when Unmatched.
func (c *State) RSMetaLabels(rs *ReplicaSet) map[string]string {
	l := c.RSLabels(rs.Hash)
	if rs.Unmatched {
		l["app"] = c.Deployment.Name + "-other"
	}
	return l
}

// ReplicaSet returns the ReplicaSet named name, or nil.
func (c *State) ReplicaSet(name string) *ReplicaSet {
	for i := range c.ReplicaSets {
		if c.ReplicaSets[i].Name == name {
			return &c.ReplicaSets[i]
		}
	}
	return nil
}

// Pod returns the pod named name, or nil.
func (c *State) Pod(name string) *Pod {
	for i := range c.Pods {
		if c.Pods[i].Name == name {
			return &c.Pods[i]
		}
	}
	return nil
}

// Clone returns a deep copy of c.
func (c *Case) Clone() *Case {
	b, err := json.Marshal(c)
	if err != nil {
		panic(fmt.Sprintf("k8scase: marshal: %v", err)) // plain data always marshals
	}
	var out Case
	if err := json.Unmarshal(b, &out); err != nil {
		panic(fmt.Sprintf("k8scase: unmarshal: %v", err))
	}
	return &out
}

// Check reports a case that no API server could hold: a terminating pod
// must be bound and not Succeeded or Failed (the API server deletes the
// others at once), a Ready pod must have been created before now (a pod is
// not Ready at the instant it is created), and every owner must exist.
func (c *Case) Check() error {
	if c.Deployment == nil {
		return fmt.Errorf("case %q: no deployment", c.Name)
	}
	if c.Controller != DeploymentController && c.Controller != ReplicaSetController {
		return fmt.Errorf("case %q: controller must be %q or %q, not %q", c.Name, DeploymentController, ReplicaSetController, c.Controller)
	}
	for _, p := range c.Pods {
		if p.Owner != "" && c.ReplicaSet(p.Owner) == nil {
			return fmt.Errorf("case %q: pod %s: owner %s does not exist", c.Name, p.Name, p.Owner)
		}
		if p.Terminating && (p.Node == "" || p.Phase == api.PodSucceeded || p.Phase == api.PodFailed) {
			return fmt.Errorf("case %q: pod %s: a terminating pod must be bound and not Succeeded or Failed", c.Name, p.Name)
		}
		if p.Ready && p.Created >= 0 {
			return fmt.Errorf("case %q: pod %s: a Ready pod must have been created before now", c.Name, p.Name)
		}
	}
	return nil
}
