package store

import "converge/core/api"

// admitPod runs the admission plugins that change a pod on create. Only
// DefaultTolerationSeconds is simulated: every pod that does not already
// tolerate them gets NoExecute tolerations for node.kubernetes.io/not-ready
// and node.kubernetes.io/unreachable for the configured seconds (300 by
// default), which is how long its pods survive on a lost node.
func (s *Store) admitPod(p *api.Pod) {
	secs := s.tolerationSeconds
	for _, key := range []string{api.TaintNodeNotReady, api.TaintNodeUnreachable} {
		if toleratesNoExecute(p.Spec.Tolerations, key) {
			continue
		}
		p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: key, Operator: "Exists",
			Effect: api.TaintEffectNoExecute, TolerationSeconds: api.Int64(secs)})
	}
}

func toleratesNoExecute(ts []api.Toleration, key string) bool {
	for _, t := range ts {
		if (t.Key == key || t.Key == "" && t.Operator == "Exists") && (t.Effect == "" || t.Effect == api.TaintEffectNoExecute) {
			return true
		}
	}
	return false
}
