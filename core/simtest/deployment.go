package simtest

import "converge/core/api"

// Deployment options for the Deployment controller's tests.

// WithRevisionHistoryLimit sets spec.revisionHistoryLimit.
func WithRevisionHistoryLimit(n int32) DeploymentOption {
	return func(d *api.Deployment) { d.Spec.RevisionHistoryLimit = api.Int32(n) }
}

// WithProgressDeadlineSeconds sets spec.progressDeadlineSeconds
// (api.NoProgressDeadline means none).
func WithProgressDeadlineSeconds(s int32) DeploymentOption {
	return func(d *api.Deployment) { d.Spec.ProgressDeadlineSeconds = api.Int32(s) }
}

// WithPaused sets spec.paused.
func WithPaused() DeploymentOption {
	return func(d *api.Deployment) { d.Spec.Paused = true }
}

// WithDeploymentAnnotations sets metadata.annotations.
func WithDeploymentAnnotations(a map[string]string) DeploymentOption {
	return func(d *api.Deployment) { d.Annotations = api.CopyStringMap(a) }
}

// WithDeploymentLabels sets the selector's matchLabels and the template labels.
func WithDeploymentLabels(l map[string]string) DeploymentOption {
	return func(d *api.Deployment) {
		d.Spec.Selector = &api.LabelSelector{MatchLabels: api.CopyStringMap(l)}
		d.Spec.Template.Labels = api.CopyStringMap(l)
	}
}
