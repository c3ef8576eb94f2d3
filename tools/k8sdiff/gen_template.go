package k8sdiff

import (
	"maps"
	"slices"

	"converge/core/api"
	"converge/core/k8scase"
)

// Template cases (the "template" family): single syncs of the deployment
// controller where templates differ by more than the image. Every
// ReplicaSet's template is the Deployment's exactly, spelled differently
// but equal (a quantity written another way, a defaulted field written
// out), or different in one field a template change touches (an
// environment variable, a label, an annotation such as rollout restart's
// kubectl.kubernetes.io/restartedAt, a request or limit, the pull policy,
// the grace period); and in some cases a ReplicaSet already holds the
// name the sync would give the new one (collide.go), with another
// template or an equal one, owned, orphaned or no longer matching, with
// or without a collisionCount.

// templateCase draws one template case.
func (g *gen) templateCase(name string) *k8scase.Case {
	c := &k8scase.Case{Name: name, Controller: k8scase.DeploymentController}
	c.Deployment = g.deployment()
	g.replicaSets(c)
	d := c.Deployment
	d.Template = g.template()
	for i := range c.ReplicaSets {
		rs := &c.ReplicaSets[i]
		if rs.Image == d.Image {
			rs.Template = g.variant(d.Template)
		} else {
			rs.Template = g.variant(g.template())
		}
	}
	if g.chance(0.35) {
		g.collision(c)
	}
	g.deploymentStatus(c)
	if g.chance(0.3) {
		d.Status.CollisionCount = ptr32(g.n32(0, 3))
	}
	g.pods(c)
	return c
}

var (
	envNames = []string{"MODE", "LOG_LEVEL", "FEATURE_X"}
	// respellings are quantities and an equal quantity written otherwise.
	respellings = map[string]string{"100m": "0.1", "250m": "0.25", "500m": "0.5", "1": "1000m", "2": "2000m",
		"64Mi": "65536Ki", "128Mi": "131072Ki", "1Gi": "1024Mi", "2Gi": "2048Mi"}
)

// template draws a template (nil now and then: image and labels only).
func (g *gen) template() *k8scase.Template {
	if g.chance(0.15) {
		return nil
	}
	t := &k8scase.Template{}
	if g.chance(0.3) {
		t.Labels = map[string]string{"tier": g.pick("web", "api")}
	}
	if g.chance(0.3) {
		t.Annotations = map[string]string{api.RestartedAtAnnotation: g.pick("2026-01-01T00:00:00Z", "2026-01-02T10:00:00Z")}
	}
	if g.chance(0.15) {
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations["prometheus.io/scrape"] = "true"
	}
	for i := range g.n(0, 2) {
		t.Env = append(t.Env, k8scase.EnvVar{Name: envNames[i], Value: g.pick("a", "b", "")})
	}
	if g.chance(0.4) {
		t.Requests = map[string]string{"cpu": g.pick("100m", "250m", "500m", "1")}
		if g.chance(0.5) {
			t.Requests["memory"] = g.pick("64Mi", "128Mi", "1Gi")
		}
	}
	if g.chance(0.2) {
		t.Limits = map[string]string{"cpu": g.pick("1", "2"), "memory": "2Gi"}
	}
	if g.chance(0.2) {
		t.PullPolicy = g.pick("Always", "IfNotPresent", "Never")
	}
	if g.chance(0.2) {
		t.Grace = ptr64(int64(g.pick3(30, 10, 0)))
	}
	return t
}

func (g *gen) pick3(a, b, c int) int { return []int{a, b, c}[g.r.IntN(3)] }

func ptr64(v int64) *int64 { return &v }

// variant returns t as it is (40%), equal but spelled otherwise (30%) or
// different in one field (30%).
func (g *gen) variant(t *k8scase.Template) *k8scase.Template {
	out := cloneTemplate(t)
	switch x := g.r.IntN(10); {
	case x < 4:
		return out
	case x < 7:
		return g.equalVariant(out)
	}
	return g.differentVariant(out)
}

func cloneTemplate(t *k8scase.Template) *k8scase.Template {
	if t == nil {
		return nil
	}
	out := *t
	out.Labels, out.Annotations = maps.Clone(t.Labels), maps.Clone(t.Annotations)
	out.Env = slices.Clone(t.Env)
	out.Requests, out.Limits = maps.Clone(t.Requests), maps.Clone(t.Limits)
	if t.Grace != nil {
		out.Grace = ptr64(*t.Grace)
	}
	return &out
}

// equalVariant spells t otherwise without changing it: a quantity in
// another unit, or a defaulted field written out (the images have no tag,
// so the pull policy defaults to Always; the grace period to 30 s), or an
// empty template for none.
func (g *gen) equalVariant(t *k8scase.Template) *k8scase.Template {
	if t == nil {
		return &k8scase.Template{}
	}
	switch g.r.IntN(3) {
	case 0:
		for _, m := range []map[string]string{t.Requests, t.Limits} {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if v, ok := respellings[m[k]]; ok {
					m[k] = v
				}
			}
		}
	case 1:
		if t.PullPolicy == "" {
			t.PullPolicy = "Always"
		}
	default:
		if t.Grace == nil {
			t.Grace = ptr64(30)
		}
	}
	return t
}

// differentVariant changes one field of t.
func (g *gen) differentVariant(t *k8scase.Template) *k8scase.Template {
	if t == nil {
		t = &k8scase.Template{}
	}
	switch g.r.IntN(6) {
	case 0:
		if len(t.Env) > 0 {
			t.Env[0].Value += "x"
		} else {
			t.Env = []k8scase.EnvVar{{Name: "MODE", Value: "x"}}
		}
	case 1:
		if t.Labels == nil {
			t.Labels = map[string]string{}
		}
		t.Labels["track"] = "canary"
	case 2:
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations[api.RestartedAtAnnotation] = "2026-03-03T03:03:03Z"
	case 3:
		if t.Requests == nil {
			t.Requests = map[string]string{}
		}
		t.Requests["cpu"] = "750m"
		delete(t.Limits, "cpu")
	case 4:
		t.PullPolicy = "IfNotPresent"
		if g.chance(0.5) {
			t.PullPolicy = "Never"
		}
	default:
		t.Grace = ptr64(5)
	}
	return t
}

// collision adds a ReplicaSet named as the sync would name the new one.
func (g *gen) collision(c *k8scase.Case) {
	d := c.Deployment
	rs := k8scase.ReplicaSet{Name: d.Name + "-" + Collide, Hash: Collide, Image: d.Image, Generation: 1,
		Replicas: g.n32(0, 4), MinReadySeconds: d.MinReadySeconds, Created: d.Created + int64(g.n(5, 600))}
	equal := !g.chance(0.7)
	if !equal {
		rs.Template = g.differentVariant(cloneTemplate(d.Template))
		if g.chance(0.3) {
			rs.Image = d.Image + "-old" // another image: a different template anyway
			rs.Template = cloneTemplate(d.Template)
		}
	} else {
		rs.Template = g.equalVariant(cloneTemplate(d.Template))
	}
	rs.Orphan = g.chance(0.3)
	// Not one the Deployment owns with the same template whose labels no
	// longer match: the sync releases it and then, its create refused,
	// reads it back from the informer's cache, which upstream's harness
	// (like a real informer a moment after the release) has not updated:
	// upstream takes it for the new ReplicaSet in that sync and bumps
	// collisionCount only in the next, once its cache shows the release;
	// Converge reads its own write and bumps in the first
	// (docs/fidelity.md, "Differential tests").
	rs.Unmatched = g.chance(0.2) && (rs.Orphan || !equal)
	rs.Annotations = g.rsAnnotations(d, len(c.ReplicaSets))
	rs.Status.ObservedGeneration = 1
	g.rsStatus(&rs)
	c.ReplicaSets = append(c.ReplicaSets, rs)
}
