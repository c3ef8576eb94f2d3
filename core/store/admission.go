package store

import (
	"fmt"

	"converge/core/api"
	"converge/core/quota"
)

// admitQuota is the ResourceQuota admission plugin on create: when obj
// fits every quota of its namespace that counts it, their status.used goes
// up by what it uses (as the plugin writes it before the object is
// stored); otherwise the create is refused, Forbidden, with the plugin's
// text (quota.Admit), and nothing changes.
func (s *Store) admitQuota(kind string, obj api.Object) error {
	c := s.kinds[api.KindResourceQuota]
	if c.len() == 0 {
		return nil
	}
	quotas := make([]*api.ResourceQuota, 0, c.len())
	c.each(func(o api.Object) bool {
		quotas = append(quotas, o.(*api.ResourceQuota))
		return true
	})
	changed, err := quota.Admit(quotas, obj, s.clock.Now())
	if err != nil {
		return NewForbidden(kind, obj.GetObjectMeta().Name, err.Error())
	}
	for _, q := range changed {
		if _, err := s.UpdateStatus(q); err != nil {
			return err
		}
	}
	return nil
}

// admitPod runs the admission plugins that change a pod on create.
//
// Priority: a pod without a priorityClassName gets the priority and
// preemption policy of a cluster without a default PriorityClass,
// priority 0 and PreemptLowerPriority (plugin/pkg/admission/priority,
// getDefaultPriority), as `kubectl describe pod` shows ("Priority: 0").
// PriorityClasses are not simulated: a pod that names one, or that sets
// its own priority, is left as it is (the real plugin resolves the class,
// and refuses a priority or policy the class does not give).
//
// DefaultTolerationSeconds: every pod that does not already tolerate them
// gets NoExecute tolerations for node.kubernetes.io/not-ready and
// node.kubernetes.io/unreachable for the configured seconds (300 by
// default), which is how long its pods survive on a lost node.
func (s *Store) admitPod(p *api.Pod) {
	if p.Spec.PriorityClassName == "" {
		if p.Spec.Priority == nil {
			p.Spec.Priority = api.Int32(0)
		}
		if p.Spec.PreemptionPolicy == nil {
			policy := "PreemptLowerPriority"
			p.Spec.PreemptionPolicy = &policy
		}
	}
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
		p.Status.QOSClass = api.QOSClass(&p.Spec)
	}
}

// prepareServiceForCreate allocates a ClusterIP-type Service's address from
// the service range 10.96.0.0/12 (in creation order, skipping 10.96.0.1, the
// kubernetes Service's) and fills the single-stack IPv4 fields the API
// server sets.
func (s *Store) prepareServiceForCreate(svc *api.Service) {
	if svc.Spec.Type != "ClusterIP" && svc.Spec.Type != "NodePort" && svc.Spec.Type != "LoadBalancer" {
		return
	}
	if svc.Spec.ClusterIP == "" {
		s.serviceIPs++
		n := s.serviceIPs
		svc.Spec.ClusterIP = fmt.Sprintf("10.96.%d.%d", (n/254)%256, n%254+1)
	}
	if svc.Spec.ClusterIP != "None" && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	if len(svc.Spec.IPFamilies) == 0 {
		svc.Spec.IPFamilies = []string{"IPv4"}
	}
	if svc.Spec.IPFamilyPolicy == "" {
		svc.Spec.IPFamilyPolicy = "SingleStack"
	}
	if svc.Spec.InternalTrafficPolicy == "" {
		svc.Spec.InternalTrafficPolicy = "Cluster"
	}
}
