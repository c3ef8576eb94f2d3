// Package k8scase is Converge's side of the differential tests against
// Kubernetes' own controllers (tools/k8sdiff, a module of its own that
// builds k8s.io/kubernetes).
//
// A Case is a small JSON document: one Deployment, its ReplicaSets with
// their status, and their pods with phase, readiness (and so availability)
// and whether they are terminating, all times in seconds relative to the
// sync's "now". Run loads a case into a core/store, runs one sync of
// Converge's deployment or replicaset controller, and reads the store back
// as a State. Writes turns the state before and after (and the events) into
// a sorted list of normalized changes; the harness builds the same list
// from Kubernetes' controller run on the same case, and the two lists must
// be equal.
//
// Names of objects a sync creates differ by design (Converge hashes pod
// templates its own way, and pod names are random), so Writes renames them
// "<deployment>-{new}" and "<replicaset>-{new}".
package k8scase
