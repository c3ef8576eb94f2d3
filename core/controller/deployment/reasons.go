package deployment

// Component is the Deployment controller's name, the one its events and
// sync records carry (sim.TickOrder lists every component's).
const Component = "deployment-controller"

// Condition reasons of a Deployment, with Kubernetes' strings
// (pkg/controller/deployment/util/deployment_util.go).
const (
	// ReplicaSetUpdatedReason: one of the Deployment's ReplicaSets was updated
	// as part of the rollout and progress was seen.
	ReplicaSetUpdatedReason = "ReplicaSetUpdated"
	// FailedRSCreateReason: the new ReplicaSet could not be created.
	FailedRSCreateReason = "ReplicaSetCreateError"
	// NewReplicaSetReason: the controller just created the new ReplicaSet.
	NewReplicaSetReason = "NewReplicaSetCreated"
	// FoundNewRSReason: a new ReplicaSet exists but the Deployment had no
	// Progressing condition yet.
	FoundNewRSReason = "FoundNewReplicaSet"
	// NewRSAvailableReason: the rollout is complete.
	NewRSAvailableReason = "NewReplicaSetAvailable"
	// TimedOutReason: no progress within progressDeadlineSeconds.
	TimedOutReason = "ProgressDeadlineExceeded"
	// PausedDeployReason: spec.paused is set; progress is not estimated.
	PausedDeployReason = "DeploymentPaused"
	// ResumedDeployReason: the Deployment was resumed; the deadline clock restarts.
	ResumedDeployReason = "DeploymentResumed"
	// MinimumReplicasAvailable: availableReplicas ≥ replicas − maxUnavailable.
	MinimumReplicasAvailable = "MinimumReplicasAvailable"
	// MinimumReplicasUnavailable: availableReplicas < replicas − maxUnavailable.
	MinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// Event reasons of the Deployment controller.
const (
	ScalingReplicaSetReason   = "ScalingReplicaSet"
	SelectingAllReason        = "SelectingAll"
	RollbackRevisionNotFound  = "DeploymentRollbackRevisionNotFound"
	RollbackTemplateUnchanged = "DeploymentRollbackTemplateUnchanged"
	RollbackDone              = "DeploymentRollback"
)

// Event types.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// Fixed user-visible texts.
const (
	selectingAllMessage         = "This deployment is selecting all pods. A non-empty selector is required."
	minAvailableMessage         = "Deployment has minimum availability."
	minUnavailableMessage       = "Deployment does not have minimum availability."
	pausedMessage               = "Deployment is paused"
	resumedMessage              = "Deployment is resumed"
	lastRevisionNotFoundMsg     = "Unable to find last revision."
	rollbackRevisionNotFoundMsg = "Unable to find the revision to rollback to."
)

// maxRevHistoryLengthInChars caps the revision-history annotation (about 100 entries).
const maxRevHistoryLengthInChars = 2000
