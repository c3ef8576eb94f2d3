// Package controller is the contract every simulated component follows
// (the controllers, the scheduler, the kubelets and the metrics server:
// sim.TickOrder lists them, in the order a tick runs them), and the two
// things they share: the event recorder and the sync log.
//
// Controllers are level-based, as in Kubernetes: each tick the simulation
// calls Sync once, and the controller compares the desired state of every
// object it owns with what it observes in the store and takes the steps the
// real controller would take in one sync. A controller never imports another;
// they talk only through objects in the store.
package controller

import (
	"time"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/store"
)

// Controller is one component of the simulated cluster.
type Controller interface {
	// Name is the component's one name, its package's Component constant,
	// which its events and sync records carry, e.g. "deployment-controller".
	Name() string
	// Sync runs one pass of the control loop at ctx.Now().
	Sync(ctx *Context)
	// Clone returns an independent copy of the controller's own state (for
	// checkpoints); a controller without state returns itself.
	Clone() Controller
}

// Context is what a controller gets for one Sync.
type Context struct {
	Store *store.Store
	// Log collects the sync records of this tick.
	Log *SyncLog
	// Emitted collects the events of this tick, as the recorder wrote them
	// (aggregated, or dropped by its spam filter; see store.RecordEvent).
	Emitted []store.EmittedEvent
	// KeepCalls makes Calls collect every event the controllers asked for,
	// before the recorder's correlation: what a FakeRecorder sees, which the
	// differential tests compare (core/k8scase).
	KeepCalls bool
	// Calls are the events asked for, when KeepCalls is set.
	Calls []store.EmittedEvent
	// Metrics is the resource metrics API (metrics.k8s.io, served by the
	// metrics server); nil when the cluster runs none.
	Metrics MetricsAPI
	// Pace, when set, is called between the units of a long pass (Yield):
	// an open in slices (sim.Options.Pace) parks there. nil in every
	// other tick.
	Pace func()
}

// Yield marks the end of one unit of a long pass (a pod scheduled,
// created or deleted, a pod's or a node's kubelet pass), where the
// caller's Pace may park before the next.
// It changes nothing: the pass is the same with or without it.
func (c *Context) Yield() {
	if c.Pace != nil {
		c.Pace()
	}
}

// MetricsAPI is the resource metrics API as the HPA reads it: the last
// sample of every pod in a namespace that sel matches and that has one,
// sorted by name.
type MetricsAPI interface {
	PodMetrics(namespace string, sel labels.Selector) []PodMetrics
}

// PodMetrics is metrics.k8s.io/v1beta1 PodMetrics, summed over the pod's
// containers: its usage in milli-units over Window, ending at Timestamp.
type PodMetrics struct {
	Namespace, Name string
	Timestamp       time.Time
	Window          time.Duration
	// CPU is in millicores, Memory in milli-bytes (as Quantity.MilliValue).
	CPU, Memory int64
}

// NodeMetrics is metrics.k8s.io/v1beta1 NodeMetrics: a node's usage over
// the window ending at the last scrape, in milli-units as PodMetrics.
type NodeMetrics struct {
	Name        string
	CPU, Memory int64
}

// Now returns the simulated time.
func (c *Context) Now() time.Time { return c.Store.Clock().Now() }

// Event records an event about obj from component and keeps its short form for this tick's trace line.
func (c *Context) Event(obj api.Object, component, eventType, reason, message string) {
	c.EventOnHost(obj, component, "", eventType, reason, message)
}

// EventOnHost is Event with the source host set (kubelet events carry the
// node name). An event that the recorder's spam filter drops is not kept.
func (c *Context) EventOnHost(obj api.Object, component, host, eventType, reason, message string) {
	if c.KeepCalls {
		c.Calls = append(c.Calls, store.EmittedEvent{Type: eventType, Reason: reason, Message: message, Source: component})
	}
	if e, ok := c.Store.RecordEvent(obj, component, host, eventType, reason, message); ok {
		c.Emitted = append(c.Emitted, e)
	}
}

// Record adds a sync record to this tick's log.
func (c *Context) Record(r SyncRecord) {
	if c.Log != nil {
		c.Log.Records = append(c.Log.Records, r)
	}
}

// SyncLog is the list of sync records of one tick, in the order the
// controllers ran.
type SyncLog struct {
	Records []SyncRecord
}

// SyncRecord is what one controller saw and did for one object in one sync,
// in words a Kubernetes user reads. Exactly one of Action, Waiting and InSync
// describes the outcome: the step it took, what it waits for, or nothing to do.
type SyncRecord struct {
	Controller string `json:"controller"`
	Object     string `json:"object"`             // deployment/web, replicaset/web-5d9c7b8f4, node/node-1, pod/...
	Observed   string `json:"observed,omitempty"` // "2 pods (2 ready)"
	Desired    string `json:"desired,omitempty"`  // "3 pods"
	Action     string `json:"action,omitempty"`   // "create pod web-5d9c7b8f4-x2kq"
	Waiting    string `json:"waiting,omitempty"`  // "at surge cap 13/13: waiting for new pods to become available"
	InSync     bool   `json:"inSync,omitempty"`
	// Rollout is set on the Deployment controller's records of a rolling or
	// recreate Deployment: its budgets and why it waits.
	Rollout *RolloutRecord `json:"rollout,omitempty"`
	// Queue is set while the object's key is in the controller's work
	// queue after a failed sync (see core/controller/workqueue): how often
	// it was requeued and with what back-off, or that it was dropped.
	Queue *QueueRecord `json:"queue,omitempty"`
}

// QueueRecord is the work queue's state of a key whose last sync failed.
type QueueRecord struct {
	// Requeues is how often the key was requeued since its last successful
	// sync (the queue's NumRequeues).
	Requeues int `json:"requeues"`
	// MaxRetries is the controller's limit before it drops a key (15 for
	// the deployment controller); omitted when there is none.
	MaxRetries int `json:"maxRetries,omitempty"`
	// Backoff is the delay of the last requeue, as Go prints a duration:
	// "5ms", "1.28s", "16m40s".
	Backoff string `json:"backoff,omitempty"`
	// Dropped is set once the controller gave up on the key: it is synced
	// again only when an object it watches changes.
	Dropped bool `json:"dropped,omitempty"`
}

// RolloutRecord is the arithmetic behind one Deployment sync: what the
// surge and unavailability budgets are, how much of each is in use, and
// which bound blocks the next step.
type RolloutRecord struct {
	Strategy        string `json:"strategy"`
	Replicas        int32  `json:"replicas"`
	MaxSurge        string `json:"maxSurge,omitempty"`       // as written: "25%"
	Surge           int32  `json:"surge"`                    // resolved
	SurgeMath       string `json:"surgeMath,omitempty"`      // "maxSurge 25% of 10 = 2.5, rounded up to 3"
	MaxUnavailable  string `json:"maxUnavailable,omitempty"` // as written
	Unavailable     int32  `json:"unavailable"`              // resolved
	UnavailableMath string `json:"unavailableMath,omitempty"`
	// SurgeUsed is Σ spec.replicas over all ReplicaSets minus replicas.
	SurgeUsed int32 `json:"surgeUsed"`
	// UnavailableUsed is replicas minus available pods (at least 0).
	UnavailableUsed int32  `json:"unavailableUsed"`
	NewReplicaSet   string `json:"newReplicaSet,omitempty"`
	// Blocking names the bound that stops the next step: "surge",
	// "unavailable", "paused", "progress-deadline", or "" when not blocked.
	Blocking string `json:"blocking,omitempty"`
	// ProgressDeadlineIn is the seconds left before ProgressDeadlineExceeded, -1 when none applies.
	ProgressDeadlineIn int64 `json:"progressDeadlineIn"`
}
