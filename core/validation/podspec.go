package validation

import (
	"math"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

// podOptions are the parts of kube's PodValidationOptions that matter here.
type podOptions struct {
	// resourceIsPod is set when the spec is a Pod's own, not a template's.
	resourceIsPod bool
}

// validatePodTemplateSpec is ValidatePodTemplateSpec. Note kube's paths: the
// template's labels and annotations are reported at <template>.labels and
// <template>.annotations (without "metadata"), unlike the selector mismatch.
func validatePodTemplateSpec(t *api.PodTemplateSpec, p *field.Path) field.ErrorList {
	errs := validateLabels(t.Labels, p.Child("labels"))
	errs = append(errs, validateAnnotations(t.Annotations, p.Child("annotations"))...)
	errs = append(errs, validatePodSpecificAnnotations(t.Annotations, p.Child("annotations"))...)
	return append(errs, validatePodSpec(&t.Spec, p.Child("spec"), podOptions{})...)
}

// validatePodSpecificAnnotations checks the annotations kube gives meaning to
// on pods; of those Converge knows controller.kubernetes.io/pod-deletion-cost.
func validatePodSpecificAnnotations(a map[string]string, p *field.Path) field.ErrorList {
	if v, ok := a[api.PodDeletionCostAnnotation]; ok && !isValidDeletionCost(v) {
		return field.ErrorList{field.Invalid(p.Key(api.PodDeletionCostAnnotation), v, "must be a 32bit integer")}
	}
	return nil
}

var (
	restartPolicies    = []string{api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}
	dnsPolicies        = []string{"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}
	preemptionPolicies = []string{"PreemptLowerPriority", "Never"}
)

// validatePodSpec is ValidatePodSpec for the fields Converge models. The
// pass-through fields kept as raw JSON (securityContext, affinity,
// topologySpreadConstraints, imagePullSecrets, lifecycle hooks ...) are not
// validated, except volumes and volume mounts, whose names are.
func validatePodSpec(s *api.PodSpec, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if s.TerminationGracePeriodSeconds == nil {
		errs = append(errs, field.Required(p.Child("terminationGracePeriodSeconds"), ""))
	}
	vols, volErrs := validateVolumes(s.Volumes, p.Child("volumes"))
	errs = append(errs, volErrs...)
	errs = append(errs, validateContainers(s.Containers, vols, p.Child("containers"))...)
	errs = append(errs, validateInitContainers(s.InitContainers, s.Containers, vols, p.Child("initContainers"))...)
	errs = append(errs, validateHostNetworkPorts(s, p, opts)...)
	errs = append(errs, validateEnum(s.RestartPolicy, restartPolicies, p.Child("restartPolicy"))...)
	errs = append(errs, validateEnum(s.DNSPolicy, dnsPolicies, p.Child("dnsPolicy"))...)
	errs = append(errs, validateLabels(s.NodeSelector, p.Child("nodeSelector"))...)
	if s.DNSPolicy == "None" {
		// Converge does not model dnsConfig, which dnsPolicy None requires.
		errs = append(errs, field.Required(p.Child("dnsConfig"), "must provide `dnsConfig` when `dnsPolicy` is None"))
	}
	errs = append(errs, validateNameField(s.ServiceAccountName, p.Child("serviceAccountName"))...)
	errs = append(errs, validateNameField(s.NodeName, p.Child("nodeName"))...)
	if s.ActiveDeadlineSeconds != nil {
		if v := *s.ActiveDeadlineSeconds; v < 1 || v > math.MaxInt32 {
			errs = append(errs, field.Invalid(p.Child("activeDeadlineSeconds"), v, inclusiveRangeError(1, math.MaxInt32)))
		}
	}
	errs = append(errs, validateDNS1123LabelField(s.Hostname, p.Child("hostname"))...)
	errs = append(errs, validateDNS1123LabelField(s.Subdomain, p.Child("subdomain"))...)
	errs = append(errs, validateTolerations(s.Tolerations, p.Child("tolerations"))...)
	errs = append(errs, validateNameField(s.PriorityClassName, p.Child("priorityClassName"))...)
	if s.PreemptionPolicy != nil {
		errs = append(errs, validateEnum(*s.PreemptionPolicy, preemptionPolicies, p.Child("preemptionPolicy"))...)
	}
	return errs
}

// validateEnum is kube's pattern for a defaulted enum: Required when empty,
// Unsupported when not one of the values.
func validateEnum(v string, supported []string, p *field.Path) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	for _, s := range supported {
		if v == s {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(p, v, supported)}
}

// validateNameField checks an optional reference to an object whose name is a
// DNS subdomain (node, service account, priority class).
func validateNameField(v string, p *field.Path) field.ErrorList {
	if v == "" {
		return nil
	}
	var errs field.ErrorList
	for _, msg := range nameIsDNSSubdomain(v, false) {
		errs = append(errs, field.Invalid(p, v, msg))
	}
	return errs
}

// validateDNS1123LabelField checks an optional DNS label field.
func validateDNS1123LabelField(v string, p *field.Path) field.ErrorList {
	if v == "" {
		return nil
	}
	return validateDNS1123Label(v, p)
}

func validateDNS1123Label(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range labels.IsDNS1123Label(v) {
		errs = append(errs, field.Invalid(p, v, msg))
	}
	return errs
}

// validateHostNetworkPorts is validatePodHostNetworkDeps: with hostNetwork a
// hostPort must equal its containerPort. In templates 0 is allowed (it is
// defaulted when the pod is made); Converge does not default hostPort on
// pods either, so 0 is allowed there too.
func validateHostNetworkPorts(s *api.PodSpec, p *field.Path, _ podOptions) field.ErrorList {
	if !s.HostNetwork {
		return nil
	}
	var errs field.ErrorList
	for i, c := range s.Containers {
		for j, port := range c.Ports {
			if port.HostPort != 0 && port.HostPort != port.ContainerPort {
				errs = append(errs, field.Invalid(p.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"),
					port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}
