package store

import (
	"slices"

	"converge/core/api"
)

// A podIndex lists the positions of the pods by one key of theirs (the
// node they are bound to, the uid of their controller), as an informer's
// indexer does, so that a reader looks at the pods of one key instead of
// all. It belongs to the version of the store that built it (a clone
// builds its own on first use) and is kept up to date by the store's
// writes: a new pod is appended to its key's list, a pod whose key
// changes is appended to the new key's list, and the entries of pods
// removed or moved to another key are dropped when the list is read.
type podIndex struct {
	keyOf func(*api.Pod) string
	lists map[string]*posList
}

// posList is one key's positions; sorted is false once a position was
// appended out of creation order (a pod that moved to this key).
type posList struct {
	pos    []int32
	sorted bool
}

// nodeOf and controllerOf are the keys of the two indexes.
func nodeOf(p *api.Pod) string { return p.Spec.NodeName }

func controllerOf(p *api.Pod) string {
	if r := api.GetControllerOf(&p.ObjectMeta); r != nil {
		return r.UID
	}
	return ""
}

// newPodIndex indexes the pods of c by keyOf.
func newPodIndex(c *collection, keyOf func(*api.Pod) string) *podIndex {
	x := &podIndex{keyOf: keyOf, lists: map[string]*posList{}}
	for pos := 0; pos < c.n; pos++ {
		if p, ok := c.at(pos).(*api.Pod); ok {
			x.append(keyOf(p), int32(pos))
		}
	}
	return x
}

func (x *podIndex) append(key string, pos int32) {
	l := x.lists[key]
	if l == nil {
		l = &posList{sorted: true}
		x.lists[key] = l
	}
	if n := len(l.pos); n > 0 && l.pos[n-1] >= pos {
		l.sorted = false
	}
	l.pos = append(l.pos, pos)
}

// wrote notes that the pod at pos is now p (nil: removed), old before.
func (x *podIndex) wrote(pos int32, old, p *api.Pod) {
	if p == nil {
		return // dropped when its list is read
	}
	if k := x.keyOf(p); old == nil || x.keyOf(old) != k {
		x.append(k, pos)
	}
}

// remap moves the positions after a compaction (moved: old position to
// new, -1 for a hole); the order of creation is kept.
func (x *podIndex) remap(moved []int32) {
	for _, l := range x.lists {
		kept := l.pos[:0]
		for _, pos := range l.pos {
			if p := moved[pos]; p >= 0 {
				kept = append(kept, p)
			}
		}
		l.pos = kept
	}
}

// pods returns the pods whose key is k, in creation order, dropping the
// entries that no longer hold.
func (x *podIndex) pods(c *collection, k string) []*api.Pod {
	l := x.lists[k]
	if l == nil {
		return nil
	}
	if !l.sorted {
		slices.Sort(l.pos)
		l.pos = slices.Compact(l.pos)
		l.sorted = true
	}
	var out []*api.Pod
	kept := l.pos[:0]
	for _, pos := range l.pos {
		if p, ok := c.at(int(pos)).(*api.Pod); ok && x.keyOf(p) == k {
			kept = append(kept, pos)
			out = append(out, p)
		}
	}
	l.pos = kept
	if len(kept) == 0 {
		delete(x.lists, k)
	}
	return out
}

// podIndexes are the indexes a collection of pods keeps, built on first use.
type podIndexes struct {
	byNode, byOwner *podIndex
}

func (ix *podIndexes) wrote(pos int, old, obj api.Object) {
	if ix.byNode == nil && ix.byOwner == nil {
		return
	}
	o, _ := old.(*api.Pod)
	p, _ := obj.(*api.Pod)
	for _, x := range []*podIndex{ix.byNode, ix.byOwner} {
		if x != nil {
			x.wrote(int32(pos), o, p)
		}
	}
}

func (ix *podIndexes) remap(moved []int32) {
	for _, x := range []*podIndex{ix.byNode, ix.byOwner} {
		if x != nil {
			x.remap(moved)
		}
	}
}

// UnboundPods returns the pods without a node (spec.nodeName empty), in
// creation order (shared: do not modify): the scheduler's queue. It costs
// the pods that were unbound since the last call, not all pods.
func (s *Store) UnboundPods() []*api.Pod { return s.PodsOnNode("") }

// PodsOnNode returns the pods bound to a node, in creation order (shared:
// do not modify), from an index of the pods by node that the store keeps
// (a clone builds its own once, on first use).
func (s *Store) PodsOnNode(node string) []*api.Pod {
	c := s.kinds[api.KindPod]
	if c.podIx.byNode == nil {
		c.podIx.byNode = newPodIndex(c, nodeOf)
	}
	return c.podIx.byNode.pods(c, node)
}

// PodsControlledBy returns the pods whose controller (the ownerReference
// with controller: true) has the uid, in creation order; "" gives the pods
// without a controller (the orphans a ReplicaSet may adopt). Shared: do
// not modify. Like PodsOnNode, it reads an index the store keeps.
func (s *Store) PodsControlledBy(uid string) []*api.Pod {
	c := s.kinds[api.KindPod]
	if c.podIx.byOwner == nil {
		c.podIx.byOwner = newPodIndex(c, controllerOf)
	}
	return c.podIx.byOwner.pods(c, uid)
}
