package k8scase

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"converge/core/api"
)

// Template is what a pod template holds beside its labels app and
// pod-template-hash and its container's image: the fields a template
// change can touch (kubectl set env, set resources, rollout restart's
// annotation, an edited label) and two fields the API server defaults.
// A nil Template sets none of them.
type Template struct {
	// Labels are template labels beside app and pod-template-hash.
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations are template annotations (kubectl.kubernetes.io/restartedAt, ...).
	Annotations map[string]string `json:"annotations,omitempty"`
	Env         []EnvVar          `json:"env,omitempty"`
	// Requests and Limits are the container's resources, quantities as
	// written ("500m", "0.5", "1Gi").
	Requests map[string]string `json:"requests,omitempty"`
	Limits   map[string]string `json:"limits,omitempty"`
	// PullPolicy is imagePullPolicy ("" is defaulted).
	PullPolicy string `json:"pullPolicy,omitempty"`
	// Grace is terminationGracePeriodSeconds (nil is defaulted).
	Grace *int64 `json:"grace,omitempty"`
}

// EnvVar is one environment variable of the container.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// String renders the template for a write, in a fixed order; "" for nil.
func (t *Template) String() string {
	if t == nil {
		return ""
	}
	var parts []string
	kv := func(what string, m map[string]string) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, fmt.Sprintf("%s[%s]=%q", what, k, m[k]))
		}
	}
	kv("label", t.Labels)
	kv("annotation", t.Annotations)
	for _, e := range t.Env {
		parts = append(parts, fmt.Sprintf("env[%s]=%q", e.Name, e.Value))
	}
	kv("requests", t.Requests)
	kv("limits", t.Limits)
	if t.PullPolicy != "" {
		parts = append(parts, "pullPolicy="+t.PullPolicy)
	}
	if t.Grace != nil {
		parts = append(parts, fmt.Sprintf("grace=%d", *t.Grace))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// applyTemplate writes t into a Converge pod template whose labels and
// container are already set.
func applyTemplate(t *Template, pt *api.PodTemplateSpec) error {
	if t == nil {
		return nil
	}
	for k, v := range t.Labels {
		pt.Labels = withEntry(pt.Labels, k, v)
	}
	pt.Annotations = api.CopyStringMap(t.Annotations)
	c := &pt.Spec.Containers[0]
	for _, e := range t.Env {
		c.Env = append(c.Env, api.EnvVar{Name: e.Name, Value: e.Value})
	}
	var err error
	if c.Resources.Requests, err = resourceList(t.Requests); err != nil {
		return err
	}
	if c.Resources.Limits, err = resourceList(t.Limits); err != nil {
		return err
	}
	c.ImagePullPolicy = t.PullPolicy
	if t.Grace != nil {
		g := *t.Grace
		pt.Spec.TerminationGracePeriodSeconds = &g
	}
	return nil
}

func resourceList(m map[string]string) (api.ResourceList, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := api.ResourceList{}
	for k, v := range m {
		q, err := api.ParseQuantity(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = q
	}
	return out, nil
}

// TemplateOf reads a template back from a pod template: what Dump records
// (labels beside app and pod-template-hash, quantities in their canonical
// form, the defaulted fields as they are).
func TemplateOf(pt *api.PodTemplateSpec) *Template {
	t := &Template{Annotations: api.CopyStringMap(pt.Annotations)}
	for k, v := range pt.Labels {
		if k != "app" && k != api.DefaultDeploymentUniqueLabelKey {
			t.Labels = withEntry(t.Labels, k, v)
		}
	}
	if len(pt.Spec.Containers) > 0 {
		c := &pt.Spec.Containers[0]
		for _, e := range c.Env {
			t.Env = append(t.Env, EnvVar{Name: e.Name, Value: e.Value})
		}
		t.Requests, t.Limits = quantities(c.Resources.Requests), quantities(c.Resources.Limits)
		t.PullPolicy = c.ImagePullPolicy
	}
	if g := pt.Spec.TerminationGracePeriodSeconds; g != nil {
		v := *g
		t.Grace = &v
	}
	return t
}

func quantities(l api.ResourceList) map[string]string {
	if len(l) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, q := range l {
		out[k] = q.CanonicalString()
	}
	return out
}

// StoredTemplate returns the Deployment's pod template as the store holds
// it once created (defaulted): what the deployment controller hashes.
func StoredTemplate(cd *Deployment) (*api.PodTemplateSpec, error) {
	d := DeploymentObject(cd)
	if err := applyTemplate(cd.Template, &d.Spec.Template); err != nil {
		return nil, err
	}
	api.SetDefaultsDeployment(d)
	return &d.Spec.Template, nil
}
