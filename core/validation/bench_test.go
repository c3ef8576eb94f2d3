package validation_test

import (
	"testing"

	"converge/core/api"
	"converge/core/validation"
)

// BenchmarkValidatePodCreate measures what every pod a ReplicaSet creates
// costs the simulated API server.
func BenchmarkValidatePodCreate(b *testing.B) {
	p := pod(func(p *api.Pod) {
		p.Labels["pod-template-hash"] = "5d9c7b8f4"
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d9c7b8f4", UID: "u", Controller: api.Bool(true)}}
		p.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeNotReady, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64(300)},
			{Key: api.TaintNodeUnreachable, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64(300)}}
		c := &p.Spec.Containers[0]
		c.Ports = []api.ContainerPort{{ContainerPort: 80, Protocol: "TCP"}}
		c.Resources.Requests = api.ResourceList{"cpu": api.MustQuantity("100m"), "memory": api.MustQuantity("128Mi")}
		c.ReadinessProbe = &api.Probe{HTTPGet: api.Raw(`{"path":"/","port":80}`), TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
	})
	b.ReportAllocs()
	for b.Loop() {
		if errs := validation.ValidatePod(p, nil); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}
