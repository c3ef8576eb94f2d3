// Package api holds the Kubernetes-shaped objects that Converge simulates:
// apps/v1 Deployment and ReplicaSet, v1 Pod, Node, ConfigMap, Service,
// Endpoints and Event. Field names and JSON shapes are Kubernetes' own, so a
// manifest or `kubectl get -o yaml` output decodes as is and a trace line reads
// like the real API. Only the fields the simulation uses, or that users commonly
// write, are modelled; anything else a manifest may carry in a pod spec that we
// do not simulate is kept verbatim as Raw JSON.
//
// Objects held by the store are immutable: the store hands out shared pointers
// and every writer works on a DeepCopy. Never modify an object you did not
// copy.
//
// The package imports only the standard library.
package api
