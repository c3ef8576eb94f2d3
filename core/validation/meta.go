package validation

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/validation/field"
)

// totalAnnotationSizeLimit is apimachinery's TotalAnnotationSizeLimitB: keys
// plus values may not exceed 256 KiB.
const totalAnnotationSizeLimit = 256 * (1 << 10)

// Finalizers of the garbage collector and the namespace controller; other
// finalizer names must be fully qualified (contain a '/').
var standardFinalizers = map[string]bool{"kubernetes": true, "orphan": true, "foregroundDeletion": true}

// validateObjectMeta is ValidateObjectMeta on create (core's, with the
// finalizer-name check): generateName and name, namespace, generation,
// labels, annotations, ownerReferences and finalizers.
func validateObjectMeta(m *api.ObjectMeta, namespaced bool, nameFn nameFunc, p *path) field.ErrorList {
	var errs field.ErrorList
	if m.GenerateName != "" {
		for _, msg := range nameFn(m.GenerateName, true) {
			errs = append(errs, p.child("generateName").invalid(m.GenerateName, msg))
		}
	}
	if m.Name == "" {
		errs = append(errs, p.child("name").required("name or generateName is required"))
	} else {
		for _, msg := range nameFn(m.Name, false) {
			errs = append(errs, p.child("name").invalid(m.Name, msg))
		}
	}
	if namespaced {
		if m.Namespace == "" {
			errs = append(errs, p.child("namespace").required(""))
		} else {
			for _, msg := range nameIsDNSLabel(m.Namespace, false) {
				errs = append(errs, p.child("namespace").invalid(m.Namespace, msg))
			}
		}
	} else if m.Namespace != "" {
		errs = append(errs, p.child("namespace").forbidden("not allowed on this type"))
	}
	if m.Generation < 0 {
		errs = append(errs, p.child("generation").invalid(m.Generation, isNegativeErrorMsg))
	}
	return append(errs, validateMetaCommon(m, p)...)
}

// validateMetaCommon holds the checks shared by create and update: labels,
// annotations, ownerReferences and finalizers.
func validateMetaCommon(m *api.ObjectMeta, p *path) field.ErrorList {
	lp, ap, op, fp := p.child("labels"), p.child("annotations"), p.child("ownerReferences"), p.child("finalizers")
	errs := validateLabels(m.Labels, &lp)
	errs = append(errs, validateAnnotations(m.Annotations, &ap)...)
	errs = append(errs, validateOwnerReferences(m.OwnerReferences, &op)...)
	errs = append(errs, validateFinalizers(m.Finalizers, &fp)...)
	for i, f := range m.Finalizers {
		ip := fp.at(i)
		errs = append(errs, validateKubeFinalizerName(f, &ip)...)
	}
	return errs
}

// validateObjectMetaUpdate is ValidateObjectMetaUpdate. The check that an
// update carries a resourceVersion is left out: in Converge an empty
// resourceVersion means an unconditional write (see store.Update).
func validateObjectMetaUpdate(m, old *api.ObjectMeta, p *path) field.ErrorList {
	var errs field.ErrorList
	if old.DeletionTimestamp != nil {
		errs = append(errs, validateNoNewFinalizers(m.Finalizers, old.Finalizers, p.child("finalizers"))...)
	}
	if m.Generation < old.Generation {
		errs = append(errs, p.child("generation").invalid(m.Generation, "must not be decremented"))
	}
	if m.Name != old.Name {
		errs = append(errs, p.child("name").invalid(m.Name, fieldImmutableMsg))
	}
	if m.Namespace != old.Namespace {
		errs = append(errs, p.child("namespace").invalid(m.Namespace, fieldImmutableMsg))
	}
	if m.UID != old.UID {
		errs = append(errs, p.child("uid").invalid(m.UID, fieldImmutableMsg))
	}
	if !m.CreationTimestamp.Equal(old.CreationTimestamp) {
		errs = append(errs, p.child("creationTimestamp").invalid(m.CreationTimestamp, fieldImmutableMsg))
	}
	if !equalTimePtr(m.DeletionTimestamp, old.DeletionTimestamp) {
		errs = append(errs, p.child("deletionTimestamp").invalid(m.DeletionTimestamp, fieldImmutableMsg))
	}
	if !equalInt64Ptr(m.DeletionGracePeriodSeconds, old.DeletionGracePeriodSeconds) {
		errs = append(errs, p.child("deletionGracePeriodSeconds").invalid(m.DeletionGracePeriodSeconds, fieldImmutableMsg))
	}
	return append(errs, validateMetaCommon(m, p)...)
}

func equalInt64Ptr(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func equalTimePtr(a, b *api.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// validateLabels is ValidateLabels: every key a qualified name, every value a
// label value. Errors are at the map's path, in key order.
func validateLabels(m map[string]string, p *path) field.ErrorList {
	bad := false
	for k, v := range m {
		if labels.IsQualifiedName(k) != nil || labels.IsValidLabelValue(v) != nil {
			bad = true
			break
		}
	}
	if !bad {
		return nil
	}
	var errs field.ErrorList
	for _, k := range sortedKeys(m) {
		errs = append(errs, validateLabelName(k, p)...)
		for _, msg := range labels.IsValidLabelValue(m[k]) {
			errs = append(errs, p.invalid(m[k], msg))
		}
	}
	return errs
}

func validateLabelName(k string, p *path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range labels.IsQualifiedName(k) {
		errs = append(errs, p.invalid(k, msg))
	}
	return errs
}

// validateAnnotations is ValidateAnnotations: keys are qualified names
// (case-insensitive) and keys plus values total at most 256 KiB.
func validateAnnotations(m map[string]string, p *path) field.ErrorList {
	if len(m) == 0 {
		return nil
	}
	var errs field.ErrorList
	total := 0
	for _, k := range sortedKeys(m) {
		for _, msg := range labels.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, p.invalid(k, msg))
		}
		total += len(k) + len(m[k])
	}
	if total > totalAnnotationSizeLimit {
		errs = append(errs, p.tooLong("", totalAnnotationSizeLimit))
	}
	return errs
}

// ValidateAnnotationsSize is the size half of ValidateAnnotations on an
// object's metadata.annotations: keys plus values total at most 256 KiB.
// core/scenario checks with it the annotations an object will have once
// kubectl apply has added its last-applied-configuration.
func ValidateAnnotationsSize(m map[string]string) field.ErrorList {
	total := 0
	for k, v := range m {
		total += len(k) + len(v)
	}
	if total <= totalAnnotationSizeLimit {
		return nil
	}
	p := root("metadata")
	annotations := p.child("annotations")
	return field.ErrorList{annotations.tooLong("", totalAnnotationSizeLimit)}
}

// validateOwnerReferences is ValidateOwnerReferences.
func validateOwnerReferences(refs []api.OwnerReference, p *path) field.ErrorList {
	var errs field.ErrorList
	first := -1 // the first controller reference
	for i, r := range refs {
		group, version := splitAPIVersion(r.APIVersion)
		if version == "" {
			errs = append(errs, p.child("apiVersion").invalid(r.APIVersion, "version must not be empty"))
		}
		if r.Kind == "" {
			errs = append(errs, p.child("kind").invalid(r.Kind, "must not be empty"))
		}
		if r.Name == "" {
			errs = append(errs, p.child("name").invalid(r.Name, "must not be empty"))
		}
		if r.UID == "" {
			errs = append(errs, p.child("uid").invalid(r.UID, "must not be empty"))
		}
		if group == "" && version == "v1" && r.Kind == api.KindEvent {
			errs = append(errs, p.invalid(r, fmt.Sprintf("%s/%s, Kind=%s is disallowed from being an owner", group, version, r.Kind)))
		}
		if r.Controller != nil && *r.Controller {
			if first >= 0 {
				errs = append(errs, p.invalid(refs,
					fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %s/%s and %s/%s",
						refs[first].Kind, refs[first].Name, r.Kind, r.Name)))
			} else {
				first = i
			}
		}
	}
	return errs
}

// splitAPIVersion is schema.ParseGroupVersion: "v1", "apps/v1"; anything
// else has no group and no version.
func splitAPIVersion(s string) (group, version string) {
	switch strings.Count(s, "/") {
	case 0:
		return "", s
	case 1:
		i := strings.IndexByte(s, '/')
		return s[:i], s[i+1:]
	}
	return "", ""
}

// validateFinalizers is ValidateFinalizers: qualified names, and orphan and
// foregroundDeletion not both.
func validateFinalizers(fs []string, p *path) field.ErrorList {
	var errs field.ErrorList
	orphan, foreground := false, false
	for _, f := range fs {
		errs = append(errs, validateLabelName(f, p)...)
		orphan = orphan || f == "orphan"
		foreground = foreground || f == "foregroundDeletion"
	}
	if orphan && foreground {
		errs = append(errs, p.invalid(fs, "finalizer orphan and foregroundDeletion cannot be both set"))
	}
	return errs
}

// validateKubeFinalizerName adds core's rule: a name without '/' must be a
// standard finalizer.
func validateKubeFinalizerName(f string, p *path) field.ErrorList {
	errs := validateLabelName(f, p)
	if len(errs) == 0 && !strings.Contains(f, "/") && !standardFinalizers[f] {
		errs = append(errs, p.invalid(f, "name is neither a standard finalizer name nor is it fully qualified"))
	}
	return errs
}

func validateNoNewFinalizers(fs, old []string, p path) field.ErrorList {
	had := map[string]bool{}
	for _, f := range old {
		had[f] = true
	}
	extra := map[string]bool{}
	for _, f := range fs {
		if !had[f] {
			extra[f] = true
		}
	}
	if len(extra) == 0 {
		return nil
	}
	list := sortedKeys(extra)
	quoted := make([]string, len(list))
	for i, f := range list {
		quoted[i] = fmt.Sprintf("%q", f)
	}
	return field.ErrorList{p.forbidden(fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers []string{%s}", strings.Join(quoted, ", ")))}
}

// validateNonnegative is ValidateNonnegativeField, at p's child name.
func validateNonnegative(v int64, p *path, name string) field.ErrorList {
	if v < 0 {
		return field.ErrorList{p.child(name).invalid(v, isNegativeErrorMsg)}
	}
	return nil
}

// validateImmutable is ValidateImmutableField: the new value must equal the
// old one semantically (nil and empty maps and lists are equal).
func validateImmutable(v, old any, p path) field.ErrorList {
	if !semanticEqual(v, old) {
		return field.ErrorList{p.invalid(v, fieldImmutableMsg)}
	}
	return nil
}

// semanticEqual is apiequality.Semantic.DeepEqual for API values: equal when
// deeply equal, or when their JSON forms are equal (which treats nil and
// empty maps and lists alike, as the semantic comparison does).
func semanticEqual(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
