package store

import (
	"reflect"

	"converge/core/api"
	"converge/core/persist"
)

// The engine keeps checkpoints (clones) within a memory budget, so it
// needs to know what a clone costs beyond the state it shares structure
// with. The figures are estimates of the Go heap, from the structures'
// shapes and a few slice lengths: cheap enough to compute at every
// checkpoint, and on the high side rather than the low.

// Estimated heap bytes of the pieces of a collection, beyond the objects.
const (
	chunkBytes = chunkLen*16 + 48 // a chunk's interfaces and header
	mapEntry   = 48               // a labels or annotations entry with its strings
	strBytes   = 32               // a short string the object owns (name, uid, resourceVersion)
)

// UnsharedBytes estimates the heap that s holds and prev does not: the
// objects, chunks and index buckets of s that are not the same as prev's
// (package persist). With prev nil it is the whole store. The work is
// proportional to what differs: the pieces s shares with prev cost a
// pointer comparison each.
func (s *Store) UnsharedBytes(prev *Store) int64 {
	var n int64
	var pu *persist.Map[uidRef]
	if prev != nil {
		pu = &prev.uidIx
	}
	n += s.uidIx.Unshared(pu, nil)
	for kind, c := range s.kinds {
		var pc *collection
		if prev != nil {
			pc = prev.kinds[kind]
		}
		n += c.unsharedBytes(pc)
	}
	return n
}

func (c *collection) unsharedBytes(prev *collection) int64 {
	var pi *persist.Map[int32]
	if prev != nil {
		pi = &prev.index
	}
	n := c.index.Unshared(pi, nil)
	for i, ch := range c.chunks {
		var old *chunk
		if prev != nil && i < len(prev.chunks) {
			old = prev.chunks[i]
		}
		if ch == old {
			continue
		}
		n += chunkBytes
		for j, o := range ch.objs {
			if o == nil || (old != nil && j < len(old.objs) && old.objs[j] == o) {
				continue
			}
			n += ObjectBytes(o)
		}
	}
	return n
}

// ObjectBytes estimates the heap one stored object holds: its struct, its
// metadata's maps and references, and the lists of its spec and status,
// from their lengths (strings are counted at a flat size).
func ObjectBytes(o api.Object) int64 {
	m := o.GetObjectMeta()
	n := int64(reflect.TypeOf(o).Elem().Size()) + 3*strBytes +
		int64(len(m.Labels)+len(m.Annotations))*mapEntry + int64(len(m.OwnerReferences))*ownerRefBytes
	switch x := o.(type) {
	case *api.Pod:
		n += int64(len(x.Spec.Containers))*containerBytes + int64(len(x.Spec.Tolerations))*tolerationBytes +
			int64(len(x.Status.Conditions))*podConditionBytes + int64(len(x.Status.ContainerStatuses))*containerStatusBytes
	case *api.ReplicaSet:
		n += templateBytes(&x.Spec.Template)
	case *api.Deployment:
		n += templateBytes(&x.Spec.Template) + int64(len(x.Status.Conditions))*deploymentConditionBytes
	case *api.Node:
		n += int64(len(x.Status.Capacity)+len(x.Status.Allocatable))*mapEntry +
			int64(len(x.Status.Conditions))*nodeConditionBytes + int64(len(x.Spec.Taints))*taintBytes
	case *api.Endpoints:
		for _, ss := range x.Subsets {
			n += int64(len(ss.Addresses)+len(ss.NotReadyAddresses))*endpointAddressBytes + int64(len(ss.Ports))*strBytes*2
		}
	case *api.ConfigMap:
		for k, v := range x.Data {
			n += mapEntry + int64(len(k)+len(v))
		}
	case *api.Event:
		n += int64(len(x.Message)) + 2*strBytes
	}
	return n
}

func templateBytes(t *api.PodTemplateSpec) int64 {
	return int64(len(t.Labels)+len(t.Annotations))*mapEntry + int64(len(t.Spec.Containers))*containerBytes
}

// Sizes of the parts of objects, each with the strings and pointers it
// usually owns.
var (
	ownerRefBytes            = sizeOf[api.OwnerReference]() + 3*strBytes
	containerBytes           = sizeOf[api.Container]() + 4*strBytes + 2*mapEntry
	tolerationBytes          = sizeOf[api.Toleration]() + 2*strBytes
	podConditionBytes        = sizeOf[api.PodCondition]() + strBytes
	containerStatusBytes     = sizeOf[api.ContainerStatus]() + 4*strBytes + 64
	deploymentConditionBytes = sizeOf[api.DeploymentCondition]() + 2*strBytes
	nodeConditionBytes       = sizeOf[api.NodeCondition]()
	taintBytes               = sizeOf[api.Taint]() + 2*strBytes
	endpointAddressBytes     = sizeOf[api.EndpointAddress]() + 2*strBytes
)

func sizeOf[T any]() int64 { return int64(reflect.TypeFor[T]().Size()) }
