// Package k8sdiff runs Kubernetes' own Deployment and ReplicaSet
// controllers (k8s.io/kubernetes v1.35.4) and Converge's on the same cases
// and compares what one sync writes. See TestK8sDiff and docs/fidelity.md.
package k8sdiff
