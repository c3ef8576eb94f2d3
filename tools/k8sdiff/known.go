package k8sdiff

import (
	"regexp"
	"slices"

	"converge/core/k8scase"
)

// simplification is a known, accepted difference: apply rewrites
// Kubernetes' writes of one case into Converge's form where the difference
// shows, and reports whether it did. Keep this list short; every entry is
// also in docs/fidelity.md ("Differential tests").
type simplification struct {
	name   string
	reason string
	apply  func(c *k8scase.Case, r *Result) bool
}

var known = []simplification{
	{
		name: "creation event text",
		reason: "Kubernetes 1.35 says \"Scaled up replica set X from 0 to N\" when it creates the new ReplicaSet; " +
			"Converge says \"Scaled up replica set X to N\" (the text of 1.31 and earlier). The fix is one line in " +
			"core/controller/deployment but changes the golden traces under core/sim/testdata, so it waits for the coordinator.",
		apply: rewriteKube(regexp.MustCompile(`^(Normal "Scaled up replica set [^ ]+-\{new\}) from 0 (to \d+")$`), "event ScalingReplicaSet", "$1 $2"),
	},
	{
		name: "deployment terminatingReplicas",
		reason: "Kubernetes 1.35 writes the Deployment's status.terminatingReplicas, the sum of its ReplicaSets' " +
			"(DeploymentReplicaSetTerminatingReplicas, beta and on by default); Converge's Deployment controller " +
			"leaves it unset. The fix (deployment.TerminatingReplicas in calculateStatus) changes the golden traces " +
			"under core/sim/testdata, so it waits for the coordinator.",
		apply: dropKey("deployment status.terminatingReplicas"),
	},
}

// dropKey returns an apply that leaves the writes with the given key out
// of the comparison, on both sides, when they differ.
func dropKey(key string) func(*k8scase.Case, *Result) bool {
	return func(_ *k8scase.Case, r *Result) bool {
		drop := func(ws []k8scase.Write) []k8scase.Write {
			return slices.DeleteFunc(ws, func(w k8scase.Write) bool { return w.Key() == key })
		}
		kube, conv := drop(slices.Clone(r.Kube)), drop(slices.Clone(r.Converge))
		if len(kube) == len(r.Kube) && len(conv) == len(r.Converge) {
			return false
		}
		before := r.Lines()
		r2 := &Result{Kube: kube, Converge: conv}
		if slices.Equal(before, r2.Lines()) {
			return false // the key was not part of the difference
		}
		r.Kube, r.Converge = kube, conv
		return true
	}
}

// rewriteKube returns an apply that rewrites the values of Kubernetes'
// writes with the given key that match re.
func rewriteKube(re *regexp.Regexp, key, repl string) func(*k8scase.Case, *Result) bool {
	return func(_ *k8scase.Case, r *Result) bool {
		applied := false
		for i, w := range r.Kube {
			if w.Key() == key && re.MatchString(w.Value) {
				r.Kube[i].Value = re.ReplaceAllString(w.Value, repl)
				applied = true
			}
		}
		if applied {
			r.sort()
		}
		return applied
	}
}
