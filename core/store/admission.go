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

// preparePodForCreate is the pod registry strategy's PrepareForCreate: a new
// pod starts in phase Pending with its QoS class. (The real API server
// clears any status sent on create; Converge keeps a status that tests and
// checkpoints set, and only fills what is missing.)
func preparePodForCreate(p *api.Pod) {
	if p.Status.Phase == "" {
		p.Status.Phase = api.PodPending
	}
	if p.Status.QOSClass == "" {
		p.Status.QOSClass = qosClass(&p.Spec)
	}
}

// qosClass is the pod's QoS class: Guaranteed when every container has cpu
// and memory limits equal to its requests, BestEffort when none has any
// request or limit, Burstable otherwise.
func qosClass(s *api.PodSpec) string {
	set, guaranteed := false, true
	for _, c := range append(append([]api.Container(nil), s.InitContainers...), s.Containers...) {
		for _, r := range []string{api.ResourceCPU, api.ResourceMemory} {
			req, hasReq := c.Resources.Requests[r]
			lim, hasLim := c.Resources.Limits[r]
			if hasReq && !req.IsZero() || hasLim && !lim.IsZero() {
				set = true
			}
			if !hasLim {
				guaranteed = false
				continue
			}
			if hasReq && req.MilliValue() != lim.MilliValue() {
				guaranteed = false
			}
		}
	}
	switch {
	case !set:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}
