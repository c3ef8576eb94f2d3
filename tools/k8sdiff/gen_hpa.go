package k8sdiff

import (
	"fmt"

	"converge/core/api"
	"converge/core/k8scase"
)

// hpaCase generates one HPA case: 0 to 12 pods (requests of 100m to 2 cpu
// and 64Mi to 1Gi, sometimes none; Running mostly, some Pending, Failed or
// being deleted; Ready True, False or no condition, since a random time;
// started 0 to 10 minutes ago, or not at all); one or two Resource metrics
// (cpu or memory, Utilization 10 to 200% or an AverageValue); minReplicas
// 1 to 3 (or unset), maxReplicas up to 20 (below the current count at
// times); no behavior or a random one (windows, Pods and Percent policies,
// Max, Min or Disabled, tolerances); and 1 to 8 syncs 15 to 120 s apart,
// each with samples for a random subset of the pods (a few for pods that
// do not exist), of random age and window, and sometimes a kubectl scale
// before it.
func (g *gen) hpaCase(name string) *k8scase.HPACase {
	c := &k8scase.HPACase{Name: name, Replicas: g.n32(0, 20), MaxReplicas: g.n32(1, 20)}
	c.StatusReplicas = c.Replicas
	if g.chance(0.3) {
		c.StatusReplicas = g.n32(0, 20)
	}
	if g.chance(0.8) {
		c.MinReplicas = api.Int32(g.n32(1, 3))
		c.MaxReplicas = max(c.MaxReplicas, *c.MinReplicas)
	}
	for range g.n(0, 2) {
		m := k8scase.HPAMetric{Resource: g.pick(api.ResourceCPU, api.ResourceCPU, api.ResourceMemory)}
		if g.chance(0.7) {
			m.Utilization = api.Int32(g.n32(10, 200))
		} else if m.Resource == api.ResourceCPU {
			m.AverageValue = fmt.Sprintf("%dm", g.n(50, 1500))
		} else {
			m.AverageValue = fmt.Sprintf("%dMi", g.n(32, 1024))
		}
		c.Metrics = append(c.Metrics, m)
	}
	if g.chance(0.5) {
		c.Behavior = &api.HorizontalPodAutoscalerBehavior{ScaleUp: g.rules(), ScaleDown: g.rules()}
	}
	nPods := g.n(0, 12)
	for i := range nPods {
		c.Pods = append(c.Pods, g.hpaPod(fmt.Sprintf("web-%d", i)))
	}
	at := int64(0)
	for i := range g.n(1, 8) {
		if i > 0 {
			at += int64(g.n(15, 120))
		}
		sy := k8scase.HPASync{At: at}
		if i > 0 && g.chance(0.15) {
			sy.Replicas = api.Int32(g.n32(0, 20))
		}
		if !g.chance(0.1) {
			for j := range nPods + 2 {
				if !g.chance(0.75) {
					continue
				}
				pod := fmt.Sprintf("web-%d", j)
				if j >= nPods {
					pod = fmt.Sprintf("gone-%d", j)
				}
				sy.Metrics = append(sy.Metrics, k8scase.HPAPodMetric{Pod: pod, CPU: int64(g.n(0, 3000)), Memory: int64(g.n(0, 2048)) << 20 * 1000,
					Age: int64(g.n(0, 60)), Window: int64(15 * g.n(1, 4))})
			}
		}
		c.Syncs = append(c.Syncs, sy)
	}
	return c
}

func (g *gen) hpaPod(name string) k8scase.HPAPod {
	p := k8scase.HPAPod{Name: name, Phase: api.PodRunning}
	if !g.chance(0.05) {
		p.CPU = fmt.Sprintf("%dm", g.n(1, 20)*100)
	}
	if !g.chance(0.05) {
		p.Memory = fmt.Sprintf("%dMi", g.n(1, 16)*64)
	}
	switch g.n(0, 19) {
	case 0:
		p.Phase = api.PodPending
	case 1:
		p.Phase = api.PodFailed
	case 2:
		p.Deleting = true
	}
	switch g.n(0, 9) {
	case 0:
	case 1, 2:
		p.Ready = api.ConditionFalse
	default:
		p.Ready = api.ConditionTrue
	}
	if !g.chance(0.05) {
		s := -int64(g.n(0, 600))
		p.Start = &s
		p.ReadySince = s + int64(g.n(0, 90))
	} else {
		p.ReadySince = -int64(g.n(0, 600))
	}
	return p
}

func (g *gen) rules() *api.HPAScalingRules {
	if g.chance(0.3) {
		return nil
	}
	r := &api.HPAScalingRules{}
	if g.chance(0.6) {
		r.StabilizationWindowSeconds = api.Int32(g.n32(0, 10) * 30)
	}
	if g.chance(0.6) {
		p := g.pick(api.MaxChangePolicySelect, api.MaxChangePolicySelect, api.MinChangePolicySelect, api.DisabledPolicySelect)
		r.SelectPolicy = &p
	}
	if g.chance(0.7) {
		for range g.n(1, 3) {
			pol := api.HPAScalingPolicy{Type: g.pick(api.PodsScalingPolicy, api.PercentScalingPolicy), PeriodSeconds: g.n32(1, 20) * 15}
			if pol.Type == api.PodsScalingPolicy {
				pol.Value = g.n32(1, 10)
			} else {
				pol.Value = g.n32(1, 40) * 10
			}
			r.Policies = append(r.Policies, pol)
		}
	}
	if g.chance(0.2) {
		q := api.MustQuantity(g.pick("0", "0.01", "0.05", "0.1", "0.25", "0.5", "1"))
		r.Tolerance = &q
	}
	return r
}

// hpaMultiCase is hpaCase with what happens around an HPA: a second HPA
// (its target's selector the same pods, some of them, or none; reconciled
// before or after the first) that makes the pods' control ambiguous, the
// HPA's spec edited between syncs (min, max, metrics, behavior), and pods
// that appear before a sync, as a rescale's new pods do (Pending, or
// Running and not Ready yet, started a moment ago, with or without
// metrics).
func (g *gen) hpaMultiCase(name string) *k8scase.HPACase {
	c := g.hpaCase(name)
	if g.chance(0.6) {
		c.Second = &k8scase.HPASecond{Selector: g.pick("app=web", "tier=front", "app=api"), Replicas: g.n32(0, 10),
			MaxReplicas: g.n32(1, 10), First: g.chance(0.5)}
		for i := range c.Pods {
			c.Pods[i].Tier = g.chance(0.4)
		}
	}
	added := 0
	for i := range c.Syncs {
		sy := &c.Syncs[i]
		if i > 0 && g.chance(0.3) {
			e := &k8scase.HPAEdit{MaxReplicas: g.n32(1, 20)}
			if g.chance(0.8) {
				e.MinReplicas = api.Int32(g.n32(1, 3))
				e.MaxReplicas = max(e.MaxReplicas, *e.MinReplicas)
			}
			if g.chance(0.5) {
				e.Metrics = c.Metrics // the metrics stay, the bounds or behavior change
			} else {
				e.Metrics = g.hpaMetrics()
			}
			if g.chance(0.5) {
				e.Behavior = &api.HorizontalPodAutoscalerBehavior{ScaleUp: g.rules(), ScaleDown: g.rules()}
			}
			sy.Edit = e
		}
		if i > 0 && g.chance(0.4) {
			for range g.n(1, 4) {
				p := g.hpaPod(fmt.Sprintf("new-%d", added))
				added++
				p.Phase, p.Ready, p.Deleting = api.PodPending, "", false
				if g.chance(0.6) {
					p.Phase, p.Ready = api.PodRunning, api.ConditionFalse
					s := sy.At - int64(g.n(0, 40))
					p.Start, p.ReadySince = &s, s
				} else {
					p.Start = nil
				}
				p.Tier = c.Second != nil && g.chance(0.4)
				sy.AddPods = append(sy.AddPods, p)
				if g.chance(0.4) {
					sy.Metrics = append(sy.Metrics, k8scase.HPAPodMetric{Pod: p.Name, CPU: int64(g.n(0, 3000)),
						Memory: int64(g.n(0, 2048)) << 20 * 1000, Age: int64(g.n(0, 20)), Window: 15})
				}
			}
		}
	}
	return c
}

// hpaMetrics draws zero to two Resource metrics.
func (g *gen) hpaMetrics() []k8scase.HPAMetric {
	var out []k8scase.HPAMetric
	for range g.n(0, 2) {
		m := k8scase.HPAMetric{Resource: g.pick(api.ResourceCPU, api.ResourceCPU, api.ResourceMemory)}
		if g.chance(0.7) {
			m.Utilization = api.Int32(g.n32(10, 200))
		} else if m.Resource == api.ResourceCPU {
			m.AverageValue = fmt.Sprintf("%dm", g.n(50, 1500))
		} else {
			m.AverageValue = fmt.Sprintf("%dMi", g.n(32, 1024))
		}
		out = append(out, m)
	}
	return out
}
