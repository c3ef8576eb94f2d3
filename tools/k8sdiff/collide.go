package k8sdiff

import (
	"encoding/json"
	"strings"
	"time"

	"k8s.io/kubernetes/pkg/controller"

	"converge/core/controller/deployment"
	"converge/core/k8scase"
)

// Collide stands, in a case's names and labels, for the pod-template-hash
// each side computes for the Deployment's template (with its
// collisionCount): a ReplicaSet named "web-{collide}" takes the name the
// sync would give the new ReplicaSet, on each side, as a real hash
// collision does. The two sides hash differently by design (Converge
// hashes the JSON of the template, Kubernetes a spew dump of its Go
// struct; see core/controller/deployment's ComputeHash), so each side
// gets the case with its own hash, and the writes name it {collide} again.
const Collide = "{collide}"

func usesCollide(c *k8scase.Case) bool {
	for _, rs := range c.ReplicaSets {
		if strings.Contains(rs.Name, Collide) {
			return true
		}
	}
	return false
}

// collideHashes returns the hash each side computes for the case's
// Deployment template.
func collideHashes(c *k8scase.Case) (convHash, kubeHash string, err error) {
	t, err := k8scase.StoredTemplate(c.Deployment)
	if err != nil {
		return "", "", err
	}
	d := (&kube{c: c, base: time.Now().UTC()}).deployment()
	return deployment.ComputeHash(t, c.Deployment.Status.CollisionCount), controller.ComputeHash(&d.Spec.Template, d.Status.CollisionCount), nil
}

// resolveCollide returns the case with {collide} replaced by hash.
func resolveCollide(c *k8scase.Case, hash string) *k8scase.Case {
	b, _ := json.Marshal(c) // a case always marshals
	var out k8scase.Case
	_ = json.Unmarshal([]byte(strings.ReplaceAll(string(b), Collide, hash)), &out)
	return &out
}

// unresolve names a side's hash {collide} again in its writes.
func unresolve(ws []k8scase.Write, hash string) []k8scase.Write {
	if hash == "" {
		return ws
	}
	for i := range ws {
		ws[i].Object = strings.ReplaceAll(ws[i].Object, hash, Collide)
		ws[i].Value = strings.ReplaceAll(ws[i].Value, hash, Collide)
	}
	return ws
}
