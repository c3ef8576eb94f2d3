// Package replicaset is the ReplicaSet controller of kube-controller-manager
// (pkg/controller/replicaset): it keeps the number of active pods a
// ReplicaSet controls equal to spec.replicas and reports what it sees in
// status.
//
// One Sync handles every ReplicaSet in creation order, each the way
// syncReplicaSet does:
//
//  1. claim pods (controller_ref_manager.go): adopt active orphan pods that
//     the selector matches, release owned pods that it no longer matches,
//     never touch pods another controller owns;
//  2. manageReplicas: create missing pods in slow-start batches 1, 2, 4, ...
//     or delete surplus pods in ActivePodsWithRanks order, at most
//     BurstReplicas of either per sync;
//  3. calculateStatus from the pods claimed at the start of the sync, written
//     only when it changed.
//
// Kubernetes' expectations (waiting until earlier creates and deletes are
// observed) are not needed: the store is read after every write, so each
// sync sees the result of the previous one. The controller keeps no state;
// a failed create is retried at most once per simulated second, which stands
// in for the work queue's rate-limited requeue.
package replicaset
