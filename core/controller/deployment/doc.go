// Package deployment is kube-controller-manager's Deployment controller,
// ported rule for rule from kubernetes/kubernetes pkg/controller/deployment:
// claiming ReplicaSets through controller references, one new ReplicaSet per
// pod template (named <deployment>-<pod-template-hash>), revisions and
// revision history, rolling updates bounded by maxSurge and maxUnavailable,
// Recreate, proportional scaling, pause and resume, the legacy rollback
// annotation, revisionHistoryLimit cleanup, and the status with its
// Available, Progressing and ReplicaFailure conditions.
//
// The files follow Kubernetes' split: controller.go dispatches
// (syncDeployment), sync.go scales and writes status, rolling.go,
// recreate.go and rollback.go hold the strategies, progress.go the
// conditions and the progress deadline, history.go the revisions, and
// math.go and hash.go the pure helpers (ResolveFenceposts, NewRSNewReplicas,
// DeploymentComplete, ComputeHash, EqualIgnoreHash ...) with their rules and
// worked examples in their doc comments. record.go explains every pass in a
// controller.SyncRecord.
//
// The controller is level-based and stateless: each Sync reads everything
// from the store, and a pass with nothing to change writes nothing. Time
// comes only from the store's clock.
package deployment
