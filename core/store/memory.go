package store

import (
	"reflect"
	"sort"

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
	n += s.uidIx.Unshared(pu, nil) + s.eventsBytes(prev)
	// Each clone has its own map of managedFields (their values are shared).
	n += int64(len(s.managed)) * 64
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

// eventsBytes estimates the heap of the store's event bookkeeping that prev
// does not share: each event recorder's caches (a clone shares them until
// its first event from that source, which copies them), and the events'
// expiry list (a clone's next event copies it).
func (s *Store) eventsBytes(prev *Store) int64 {
	n := expiryBytes(s.evExpiry, prevExpiry(prev))
	for src, c := range s.correlators {
		if prev != nil && prev.correlators[src] == c {
			continue
		}
		n += c.bytes()
	}
	return n
}

// bytes estimates the heap of one recorder's caches: their slots, their
// maps' entries, and the message strings the aggregator keeps.
func (c *correlator) bytes() int64 {
	n := lruBytes(c.aggregates) + lruBytes(c.logged) + lruBytes(c.spam)
	for i := range c.aggregates.items {
		n += int64(cap(c.aggregates.items[i].val.more)) * 16
	}
	return n
}

// lruBytes is an LRU's slots and index: each index entry is its key's
// hash and slot number plus a map's overhead (about 16 bytes an entry).
func lruBytes[K comparable, V any](l *lru[K, V]) int64 {
	return int64(cap(l.items))*sizeOf[lruItem[K, V]]() + int64(len(l.index))*(8+4+16) + int64(cap(l.free))*4
}

var eventExpiryBytes = sizeOf[eventExpiry]()

func prevExpiry(prev *Store) []eventExpiry {
	if prev == nil {
		return nil
	}
	return prev.evExpiry
}

// expiryBytes is the heap of the expiry list l beyond what prev holds: a
// clone's list is a window of the same array as its original's until an
// append outgrows it, and expiry only drops entries from the front, so when
// l's first entry is one of prev's, only l's entries past prev's end are
// l's own.
func expiryBytes(l, prev []eventExpiry) int64 {
	if len(l) == 0 {
		return int64(cap(l)) * eventExpiryBytes
	}
	i := sort.Search(len(prev), func(i int) bool { return !prev[i].at.Before(l[0].at) })
	for ; i < len(prev) && prev[i].at.Equal(l[0].at); i++ {
		if &prev[i] == &l[0] {
			return int64(max(0, len(l)-(len(prev)-i))) * eventExpiryBytes
		}
	}
	return int64(cap(l)) * eventExpiryBytes
}
