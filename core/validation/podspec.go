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
func validatePodTemplateSpec(t *api.PodTemplateSpec, p *path) field.ErrorList {
	lp, ap, sp := p.child("labels"), p.child("annotations"), p.child("spec")
	errs := validateLabels(t.Labels, &lp)
	errs = append(errs, validateAnnotations(t.Annotations, &ap)...)
	errs = append(errs, validatePodSpecificAnnotations(t.Annotations, &ap)...)
	return append(errs, validatePodSpec(&t.Spec, &sp, podOptions{})...)
}

// validatePodSpecificAnnotations checks the annotations kube gives meaning to
// on pods; of those Converge knows controller.kubernetes.io/pod-deletion-cost.
func validatePodSpecificAnnotations(a map[string]string, p *path) field.ErrorList {
	if v, ok := a[api.PodDeletionCostAnnotation]; ok && !isValidDeletionCost(v) {
		return field.ErrorList{p.keyAt(api.PodDeletionCostAnnotation).invalid(v, "must be a 32bit integer")}
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
// topologySpreadConstraints, imagePullSecrets ...) are not validated, except
// volumes and volume mounts, whose names are.
func validatePodSpec(s *api.PodSpec, p *path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if s.TerminationGracePeriodSeconds == nil {
		errs = append(errs, p.child("terminationGracePeriodSeconds").required(""))
	}
	vp, cp, ip, np, tp := p.child("volumes"), p.child("containers"), p.child("initContainers"), p.child("nodeSelector"), p.child("tolerations")
	vols, volErrs := validateVolumes(s.Volumes, &vp)
	errs = append(errs, volErrs...)
	errs = append(errs, validateContainers(s.Containers, vols, s.TerminationGracePeriodSeconds, &cp)...)
	errs = append(errs, validateInitContainers(s.InitContainers, s.Containers, vols, &ip)...)
	errs = append(errs, validateHostNetworkPorts(s, &cp, opts)...)
	errs = append(errs, validateEnum(s.RestartPolicy, restartPolicies, p, "restartPolicy")...)
	errs = append(errs, validateEnum(s.DNSPolicy, dnsPolicies, p, "dnsPolicy")...)
	errs = append(errs, validateLabels(s.NodeSelector, &np)...)
	if s.DNSPolicy == "None" {
		// Converge does not model dnsConfig, which dnsPolicy None requires.
		errs = append(errs, p.child("dnsConfig").required("must provide `dnsConfig` when `dnsPolicy` is None"))
	}
	errs = append(errs, validateNameField(s.ServiceAccountName, p, "serviceAccountName")...)
	errs = append(errs, validateNameField(s.NodeName, p, "nodeName")...)
	if s.ActiveDeadlineSeconds != nil {
		if v := *s.ActiveDeadlineSeconds; v < 1 || v > math.MaxInt32 {
			errs = append(errs, p.child("activeDeadlineSeconds").invalid(v, inclusiveRangeError(1, math.MaxInt32)))
		}
	}
	errs = append(errs, validateDNS1123LabelField(s.Hostname, p, "hostname")...)
	errs = append(errs, validateDNS1123LabelField(s.Subdomain, p, "subdomain")...)
	errs = append(errs, validateTolerations(s.Tolerations, &tp)...)
	errs = append(errs, validateNameField(s.PriorityClassName, p, "priorityClassName")...)
	if s.PreemptionPolicy != nil {
		errs = append(errs, validateEnum(*s.PreemptionPolicy, preemptionPolicies, p, "preemptionPolicy")...)
	}
	return errs
}

// validateEnum is kube's pattern for a defaulted enum at p's child name:
// Required when empty, Unsupported when not one of the values.
func validateEnum(v string, supported []string, p *path, name string) field.ErrorList {
	for _, s := range supported {
		if v == s {
			return nil
		}
	}
	if v == "" {
		return field.ErrorList{p.child(name).required("")}
	}
	return field.ErrorList{p.child(name).notSupported(v, supported)}
}

// validateNameField checks an optional reference to an object whose name is a
// DNS subdomain (node, service account, priority class).
func validateNameField(v string, p *path, name string) field.ErrorList {
	if v == "" {
		return nil
	}
	var errs field.ErrorList
	for _, msg := range nameIsDNSSubdomain(v, false) {
		errs = append(errs, p.child(name).invalid(v, msg))
	}
	return errs
}

// validateDNS1123LabelField checks an optional DNS label field.
func validateDNS1123LabelField(v string, p *path, name string) field.ErrorList {
	if v == "" {
		return nil
	}
	c := p.child(name)
	return validateDNS1123Label(v, &c)
}

func validateDNS1123Label(v string, p *path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range labels.IsDNS1123Label(v) {
		errs = append(errs, p.invalid(v, msg))
	}
	return errs
}

// validateHostNetworkPorts is validatePodHostNetworkDeps: with hostNetwork a
// hostPort must equal its containerPort. In templates 0 is allowed (it is
// defaulted when the pod is made); Converge does not default hostPort on
// pods either, so 0 is allowed there too.
func validateHostNetworkPorts(s *api.PodSpec, containers *path, _ podOptions) field.ErrorList {
	if !s.HostNetwork {
		return nil
	}
	var errs field.ErrorList
	for i, c := range s.Containers {
		for j, port := range c.Ports {
			if port.HostPort != 0 && port.HostPort != port.ContainerPort {
				cp := containers.at(i)
				pp := cp.child("ports")
				hp := pp.at(j)
				errs = append(errs, hp.child("hostPort").invalid(port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}
