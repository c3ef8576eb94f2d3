package k8sdiff

import (
	"fmt"
	"maps"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"converge/core/k8scase"
)

// applyTemplate writes a case's template into a pod template whose labels
// and container are already set (core/k8scase's applyTemplate, on
// Kubernetes' types).
func applyTemplate(t *k8scase.Template, pt *v1.PodTemplateSpec) {
	if t == nil {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(t.Labels)) {
		pt.Labels[k] = t.Labels[k]
	}
	pt.Annotations = copyMap(t.Annotations)
	c := &pt.Spec.Containers[0]
	for _, e := range t.Env {
		c.Env = append(c.Env, v1.EnvVar{Name: e.Name, Value: e.Value})
	}
	c.Resources.Requests, c.Resources.Limits = resourceList(t.Requests), resourceList(t.Limits)
	c.ImagePullPolicy = v1.PullPolicy(t.PullPolicy)
	if t.Grace != nil {
		g := *t.Grace
		pt.Spec.TerminationGracePeriodSeconds = &g
	}
}

// resourceList parses quantities the generator wrote (always valid).
func resourceList(m map[string]string) v1.ResourceList {
	if len(m) == 0 {
		return nil
	}
	out := v1.ResourceList{}
	for k, v := range m {
		q, err := resource.ParseQuantity(v)
		if err != nil {
			panic(fmt.Sprintf("k8sdiff: quantity %q: %v", v, err))
		}
		out[v1.ResourceName(k)] = q
	}
	return out
}

// templateOf reads a template back (core/k8scase.TemplateOf).
func templateOf(pt *v1.PodTemplateSpec) *k8scase.Template {
	t := &k8scase.Template{Annotations: copyMap(pt.Annotations)}
	for k, v := range pt.Labels {
		if k != "app" && k != "pod-template-hash" {
			if t.Labels == nil {
				t.Labels = map[string]string{}
			}
			t.Labels[k] = v
		}
	}
	if len(pt.Spec.Containers) > 0 {
		c := &pt.Spec.Containers[0]
		for _, e := range c.Env {
			t.Env = append(t.Env, k8scase.EnvVar{Name: e.Name, Value: e.Value})
		}
		t.Requests, t.Limits = quantities(c.Resources.Requests), quantities(c.Resources.Limits)
		t.PullPolicy = string(c.ImagePullPolicy)
	}
	if g := pt.Spec.TerminationGracePeriodSeconds; g != nil {
		v := *g
		t.Grace = &v
	}
	return t
}

func quantities(l v1.ResourceList) map[string]string {
	if len(l) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, q := range l {
		out[string(k)] = q.String()
	}
	return out
}
