package validation

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"converge/core/api"
	"converge/core/validation/field"
)

// updatablePodSpecFields is what kube's pod update error lists.
var updatablePodSpecFields = []string{
	"`spec.containers[*].image`",
	"`spec.initContainers[*].image`",
	"`spec.activeDeadlineSeconds`",
	"`spec.tolerations` (only additions to existing tolerations)",
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
}

// ValidatePod validates a v1 Pod on create (old == nil) or update
// (ValidatePodCreate / ValidatePodUpdate). On update the whole pod is
// validated again, and the spec may only change in the container images,
// activeDeadlineSeconds (set, or lowered), added tolerations (existing ones
// may only change tolerationSeconds) and a negative
// terminationGracePeriodSeconds raised to 1; anything else is
//
//	spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,...
//
// followed by a diff of the changed fields. Binding a pod to a node is the
// store's Bind, which does not go through validation.
func ValidatePod(pod, old *api.Pod) field.ErrorList {
	if old == nil {
		return validatePodMetadataAndSpec(pod)
	}
	meta := root("metadata")
	errs := validateObjectMetaUpdate(&pod.ObjectMeta, &old.ObjectMeta, &meta)
	errs = append(errs, validatePodMetadataAndSpec(pod)...)
	return append(errs, validatePodSpecUpdate(pod, old)...)
}

// validatePodMetadataAndSpec is validatePodMetadataAndSpec.
func validatePodMetadataAndSpec(pod *api.Pod) field.ErrorList {
	meta, spec := root("metadata"), root("spec")
	ap, cp, ip := meta.child("annotations"), spec.child("containers"), spec.child("initContainers")
	errs := validateObjectMeta(&pod.ObjectMeta, true, nameIsDNSSubdomain, &meta)
	errs = append(errs, validatePodSpecificAnnotations(pod.Annotations, &ap)...)
	errs = append(errs, validatePodSpec(&pod.Spec, &spec, podOptions{resourceIsPod: true})...)
	errs = append(errs, validateContainersOnlyForPod(pod.Spec.Containers, &cp)...)
	return append(errs, validateContainersOnlyForPod(pod.Spec.InitContainers, &ip)...)
}

func validatePodSpecUpdate(pod, old *api.Pod) field.ErrorList {
	spec := root("spec")
	cp, ip, adsPath, tp := spec.child("containers"), spec.child("initContainers"), spec.child("activeDeadlineSeconds"), spec.child("tolerations")
	errs, stop := validateContainerUpdates(pod.Spec.Containers, old.Spec.Containers, &cp)
	if stop {
		return errs
	}
	initErrs, stop := validateContainerUpdates(pod.Spec.InitContainers, old.Spec.InitContainers, &ip)
	errs = append(errs, initErrs...)
	if stop {
		return errs
	}
	if ads := pod.Spec.ActiveDeadlineSeconds; ads != nil {
		if *ads < 0 || *ads > math.MaxInt32 {
			return append(errs, adsPath.invalid(*ads, inclusiveRangeError(0, math.MaxInt32)))
		}
		if o := old.Spec.ActiveDeadlineSeconds; o != nil && *o < *ads {
			return append(errs, adsPath.invalid(*ads, "must be less than or equal to previous value"))
		}
	} else if old.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, adsPath.invalid(pod.Spec.ActiveDeadlineSeconds, "must not update from a positive integer to nil value"))
	}
	errs = append(errs, validateOnlyAddedTolerations(pod.Spec.Tolerations, old.Spec.Tolerations, &tp)...)
	if semanticEqual(pod.Spec, old.Spec) {
		return errs
	}
	if oldQ, newQ := podQOS(old), computePodQOS(&pod.Spec); oldQ != newQ {
		// kube reports this at "metadata", with the (unchanged) status value.
		errs = append(errs, root("metadata").invalid(pod.Status.QOSClass, "Pod QoS is immutable"))
	}
	munged := mungePodSpec(pod.Spec, old.Spec)
	if !semanticEqual(munged, old.Spec) {
		errs = append(errs, spec.forbidden(fmt.Sprintf("pod updates may not change fields other than %s\n%s",
			strings.Join(updatablePodSpecFields, ","), podSpecDiff(old.Spec, munged))))
	}
	return errs
}

// validateContainerUpdates is ValidateContainerUpdates: the same number of
// containers, each with an image.
func validateContainerUpdates(cs, old []api.Container, p *path) (field.ErrorList, bool) {
	if len(cs) != len(old) {
		return field.ErrorList{p.forbidden("pod updates may not add or remove containers")}, true
	}
	var errs field.ErrorList
	for i, c := range cs {
		cp := p.at(i)
		if c.Image == "" {
			errs = append(errs, cp.child("image").required(""))
		}
		if len(strings.TrimSpace(c.Image)) != len(c.Image) {
			errs = append(errs, cp.child("image").invalid(c.Image, "must not have leading or trailing whitespace"))
		}
	}
	return errs, false
}

// mungePodSpec copies into s the old values of the fields an update may
// change, so that what is left to compare is what may not change.
func mungePodSpec(s, old api.PodSpec) api.PodSpec {
	s = s.DeepCopy()
	for i := range s.Containers {
		s.Containers[i].Image = old.Containers[i].Image
	}
	for i := range s.InitContainers {
		s.InitContainers[i].Image = old.InitContainers[i].Image
	}
	s.ActiveDeadlineSeconds = old.ActiveDeadlineSeconds
	s.Tolerations = old.Tolerations
	if g := old.TerminationGracePeriodSeconds; g != nil && *g < 0 && s.TerminationGracePeriodSeconds != nil && *s.TerminationGracePeriodSeconds == 1 {
		s.TerminationGracePeriodSeconds = g
	}
	return s
}

// podSpecDiff lists the pod spec fields that differ, in the shape of the
// go-cmp diff kube appends (`- \tField: old,` / `+ \tField: new,`), with
// values as JSON. It is a simplification: kube's diff descends into the
// fields and prints Go syntax.
func podSpecDiff(old, s api.PodSpec) string {
	var b strings.Builder
	b.WriteString("  core.PodSpec{\n")
	ov, nv := reflect.ValueOf(old), reflect.ValueOf(s)
	for i := 0; i < ov.NumField(); i++ {
		a, c := ov.Field(i).Interface(), nv.Field(i).Interface()
		if semanticEqual(a, c) {
			continue
		}
		name := ov.Type().Field(i).Name
		fmt.Fprintf(&b, "- \t%s: %s,\n+ \t%s: %s,\n", name, diffValue(a), name, diffValue(c))
	}
	b.WriteString("  }\n")
	return b.String()
}

func diffValue(v any) string {
	if rv := reflect.ValueOf(v); (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Slice || rv.Kind() == reflect.Map) && rv.IsNil() {
		return "nil"
	}
	return field.RenderValue(v)
}

// QoS classes.
const (
	qosGuaranteed = "Guaranteed"
	qosBurstable  = "Burstable"
	qosBestEffort = "BestEffort"
)

// podQOS is qos.GetPodQOS: the status value when set, else computed.
func podQOS(p *api.Pod) string {
	if p.Status.QOSClass != "" {
		return p.Status.QOSClass
	}
	return computePodQOS(&p.Spec)
}

// computePodQOS is qos.ComputePodQOS for cpu and memory: BestEffort without
// any request or limit, Guaranteed when every container limits both and
// requests (if given) equal the limits, Burstable otherwise.
func computePodQOS(s *api.PodSpec) string {
	some, guaranteed := false, true
	for _, cs := range [][]api.Container{s.InitContainers, s.Containers} {
		for _, c := range cs {
			for _, n := range []string{api.ResourceCPU, api.ResourceMemory} {
				req, hasReq := c.Resources.Requests[n]
				lim, hasLim := c.Resources.Limits[n]
				if hasReq && req.Sign() != 0 || hasLim && lim.Sign() != 0 {
					some = true
				}
				if !hasLim || lim.Sign() == 0 || hasReq && req.MilliValue() != lim.MilliValue() {
					guaranteed = false
				}
			}
		}
	}
	switch {
	case !some:
		return qosBestEffort
	case guaranteed:
		return qosGuaranteed
	}
	return qosBurstable
}
