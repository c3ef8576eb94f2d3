package view

import (
	"encoding/json"

	"converge/core/api"
	"converge/core/kubectl/yamlprint"
)

// TemplateYAML renders a pod template as kubectl's YAML printer (-o yaml)
// does, without the pod-template-hash label (which differs between any two
// revisions and is not part of what the user wrote).
func TemplateYAML(t *api.PodTemplateSpec) string {
	c := t.DeepCopy()
	delete(c.Labels, api.DefaultDeploymentUniqueLabelKey)
	b, err := json.Marshal(c)
	if err != nil {
		return ""
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return ""
	}
	return yamlprint.Marshal(v)
}
