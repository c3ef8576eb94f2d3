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

var known = []simplification{}

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
