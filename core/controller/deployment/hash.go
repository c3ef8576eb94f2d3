package deployment

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"converge/core/api"
)

// This file holds the pure helpers that identify a pod template: the
// pod-template-hash and the "is this the same template" test that finds the
// new ReplicaSet (deployment_util.go, controller_utils.go ComputeHash,
// apimachinery rand.SafeEncodeString).

// hashAlphabet is apimachinery's name alphabet: no vowels, no 0, 1 or 3.
const hashAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// SafeEncodeString maps every byte b of s to hashAlphabet[b % 27], as
// apimachinery's rand.SafeEncodeString does. Applied to decimal digits it
// gives '0'→4, '1'→5, … '5'→9, '6'→b, '7'→c, '8'→d, '9'→f, so a
// pod-template-hash only uses 4-9, b, c, d and f.
//
// Example: "1234567890" → "56789bcdf4".
func SafeEncodeString(s string) string {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		b[i] = hashAlphabet[int(s[i])%len(hashAlphabet)]
	}
	return string(b)
}

// ComputeHash returns the pod-template-hash of a template: FNV-32a over the
// JSON encoding of the template with any pod-template-hash label removed,
// then, when collisionCount is set, its value as 8 little-endian bytes (the
// low 4 carry it), and the uint32 sum printed in decimal and mapped through
// SafeEncodeString. Kubernetes hashes a spew dump of the Go struct instead of
// JSON, so the strings differ from a real cluster's, but they have the same
// shape (usually 10 characters such as 66b6c48dd5) and the same behaviour:
// equal templates get equal hashes and a bumped collisionCount a new one.
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	t := *template
	if _, ok := t.Labels[api.DefaultDeploymentUniqueLabelKey]; ok {
		t.Labels = withoutLabel(t.Labels, api.DefaultDeploymentUniqueLabelKey)
	}
	h := fnv.New32a()
	b, _ := json.Marshal(t) // a PodTemplateSpec always marshals
	h.Write(b)
	if collisionCount != nil {
		cc := make([]byte, 8)
		binary.LittleEndian.PutUint32(cc, uint32(*collisionCount))
		h.Write(cc)
	}
	return SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

func withoutLabel(m map[string]string, key string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func withLabel(m map[string]string, key, value string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	out[key] = value
	return out
}

// EqualIgnoreHash reports whether two pod templates are semantically equal
// once the pod-template-hash label is removed from both: nil and empty
// maps or lists are equal, and quantities compare by value (apimachinery's
// equality.Semantic). Any other difference (another label, an annotation,
// the name, nodeName, an image) makes them different.
//
// Example: templates whose only difference is pod-template-hash=value-1
// versus value-2, or where one lacks the label, are equal; {something: else}
// versus {pod-template-hash: value-2} are not.
func EqualIgnoreHash(t1, t2 *api.PodTemplateSpec) bool {
	if !labelsEqualIgnoring(t1.Labels, t2.Labels, api.DefaultDeploymentUniqueLabelKey) {
		return false
	}
	a, b := t1.ObjectMeta, t2.ObjectMeta
	a.Labels, b.Labels = nil, nil
	return semanticEqual(reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem()) &&
		semanticEqual(reflect.ValueOf(&t1.Spec).Elem(), reflect.ValueOf(&t2.Spec).Elem())
}

func labelsEqualIgnoring(a, b map[string]string, key string) bool {
	n := 0
	for k, v := range a {
		if k == key {
			continue
		}
		if w, ok := b[k]; !ok || w != v {
			return false
		}
		n++
	}
	m := len(b)
	if _, ok := b[key]; ok {
		m--
	}
	return n == m
}

var (
	quantityType = reflect.TypeOf(api.Quantity{})
	timeType     = reflect.TypeOf(api.Time{})
)

// semanticEqual is equality.Semantic.DeepEqual for api types: nil and empty
// maps and slices are equal, quantities compare by value, times by instant.
func semanticEqual(a, b reflect.Value) bool {
	switch a.Type() {
	case quantityType:
		qa, qb := a.Interface().(api.Quantity), b.Interface().(api.Quantity)
		return qa.IsZero() == qb.IsZero() && qa.MilliValue() == qb.MilliValue()
	case timeType:
		return a.Interface().(api.Time).Equal(b.Interface().(api.Time))
	}
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !semanticEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return semanticEqual(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return string(a.Bytes()) == string(b.Bytes())
		}
		for i := 0; i < a.Len(); i++ {
			if !semanticEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		iter := a.MapRange()
		for iter.Next() {
			w := b.MapIndex(iter.Key())
			if !w.IsValid() || !semanticEqual(iter.Value(), w) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// byCreation orders ReplicaSets by creationTimestamp, then name
// (controller.ReplicaSetsByCreationTimestamp).
func byCreation(a, b *api.ReplicaSet) int {
	if !a.CreationTimestamp.Equal(b.CreationTimestamp) {
		if a.CreationTimestamp.Before(b.CreationTimestamp.Time) {
			return -1
		}
		return 1
	}
	return strings.Compare(a.Name, b.Name)
}

// sortedOldestFirst returns a copy of rss sorted by creation, oldest first.
func sortedOldestFirst(rss []*api.ReplicaSet) []*api.ReplicaSet {
	out := slices.Clone(rss)
	slices.SortFunc(out, byCreation)
	return out
}

// sortedNewestFirst returns a copy of rss sorted by creation, newest first.
func sortedNewestFirst(rss []*api.ReplicaSet) []*api.ReplicaSet {
	out := slices.Clone(rss)
	slices.SortFunc(out, func(a, b *api.ReplicaSet) int { return byCreation(b, a) })
	return out
}

// FindNewReplicaSet returns the ReplicaSet whose template equals the
// Deployment's (EqualIgnoreHash), or nil. In rare cases several match (e.g.
// after cluster upgrades, kubernetes#40415): we deterministically choose the
// oldest, by creationTimestamp and then name. The hash is not used to find it.
func FindNewReplicaSet(d *api.Deployment, rsList []*api.ReplicaSet) *api.ReplicaSet {
	var found *api.ReplicaSet
	for _, rs := range rsList {
		if (found == nil || byCreation(rs, found) < 0) && EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			found = rs
		}
	}
	return found
}

// FindOldReplicaSets returns the ReplicaSets that are not the new one: first
// those with spec.replicas > 0, then all of them, in rsList order.
func FindOldReplicaSets(d *api.Deployment, rsList []*api.ReplicaSet) (required, all []*api.ReplicaSet) {
	newRS := FindNewReplicaSet(d, rsList)
	for _, rs := range rsList {
		if newRS != nil && rs.UID == newRS.UID {
			continue
		}
		all = append(all, rs)
		if rsReplicas(rs) != 0 {
			required = append(required, rs)
		}
	}
	return required, all
}
