package store

import (
	"slices"

	"converge/core/api"
)

// Propagation policies of DeleteOptions.
const (
	DeletePropagationBackground = "Background"
	DeletePropagationOrphan     = "Orphan"
	DeletePropagationForeground = "Foreground"
)

// DeleteOptions are the options of a delete call.
type DeleteOptions struct {
	// GracePeriodSeconds overrides a pod's terminationGracePeriodSeconds; 0 deletes at once.
	GracePeriodSeconds *int64
	// PropagationPolicy is Background (the default: the object goes, and the
	// garbage collector deletes its dependents afterwards), Orphan (its
	// dependents lose their ownerReference to it and live on) or Foreground
	// (it stays, with a deletionTimestamp and the foregroundDeletion
	// finalizer, until the garbage collector has deleted the dependents that
	// block it).
	PropagationPolicy string
}

// Delete deletes an object as the API server's registry does
// (genericregistry.Store.Delete):
//
//   - A pod that is bound to a node and still running is deleted gracefully:
//     it gets a deletionTimestamp (now + grace period) and stays, Terminating,
//     until its kubelet stops it and deletes it again with grace 0. Deleting a
//     terminating pod only shortens its grace period.
//   - Foreground puts the foregroundDeletion finalizer on the object; Orphan
//     strips every dependent's ownerReference to it in the same call (the
//     API server's orphan finalizer and the collector's work, at once).
//   - An object with finalizers is not removed: it gets a deletionTimestamp
//     (and deletionGracePeriodSeconds 0) and stays until an update removes
//     its last finalizer (see update). Other objects go at once.
//
// Deleting an object that is already being deleted changes nothing, except
// a pod's shorter grace period, a finalizer its propagation policy asks for,
// and the final delete of a pod whose grace period has run out.
func (s *Store) Delete(kind, namespace, name string, opts DeleteOptions) error {
	c, err := s.coll(kind)
	if err != nil {
		return err
	}
	if kind == api.KindNode {
		namespace = ""
	} else if namespace == "" {
		namespace = api.NamespaceDefault
	}
	k := key(namespace, name)
	obj, ok := c.get(k)
	if !ok {
		return notFound(kind, name)
	}
	grace := int64(0)
	if p, isPod := obj.(*api.Pod); isPod {
		grace = api.Deref64(p.Spec.TerminationGracePeriodSeconds, api.DefaultTerminationGracePeriodSeconds)
		if opts.GracePeriodSeconds != nil {
			grace = *opts.GracePeriodSeconds
		}
		if p.Spec.NodeName == "" || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			grace = 0
		}
	}
	m := obj.GetObjectMeta()
	finalizers := finalizersFor(m.Finalizers, opts.PropagationPolicy)
	if orphans(m, opts.PropagationPolicy) {
		s.orphanDependents(m.UID)
	}
	if m.DeletionTimestamp != nil {
		return s.deleteAgain(kind, c, k, obj, grace, finalizers)
	}
	if grace > 0 || len(finalizers) > 0 {
		s.markDeleted(c, k, obj, api.NewTime(s.clock.Now().Add(secondsDur(grace))), grace, finalizers)
		return nil
	}
	s.remove(kind, c, k, obj)
	return nil
}

// finalizersFor is deletionFinalizersForGarbageCollection: the object's
// finalizers without the collector's two, plus foregroundDeletion when the
// delete is in the foreground (Foreground, or no policy and the object
// already asks for it). Orphaning needs no finalizer in Converge: Delete
// orphans the dependents at once (see orphans).
func finalizersFor(have []string, policy string) []string {
	var out []string
	foreground := policy == DeletePropagationForeground
	for _, f := range have {
		switch f {
		case api.FinalizerDeleteDependents:
			foreground = foreground || policy == ""
		case api.FinalizerOrphanDependents:
		default:
			out = append(out, f)
		}
	}
	if foreground {
		out = append(out, api.FinalizerDeleteDependents)
	}
	return out
}

// orphans is shouldOrphanDependents: Orphan, or no policy and the object's
// own orphan finalizer.
func orphans(m *api.ObjectMeta, policy string) bool {
	return policy == DeletePropagationOrphan || policy == "" && m.HasFinalizer(api.FinalizerOrphanDependents)
}

// deleteAgain is a delete of an object that already has a deletionTimestamp:
// a pod's grace period only gets shorter (what is left of it is its
// deletionTimestamp minus now), the finalizers follow the new policy, and
// the object goes once no finalizer is left and, for a pod, no grace.
func (s *Store) deleteAgain(kind string, c *collection, k string, obj api.Object, grace int64, finalizers []string) error {
	m := obj.GetObjectMeta()
	_, isPod := obj.(*api.Pod)
	left, shorter := int64(0), false
	if isPod {
		left = max(0, int64(m.DeletionTimestamp.Sub(s.clock.Now()).Seconds()))
		if m.DeletionGracePeriodSeconds != nil && *m.DeletionGracePeriodSeconds == 0 {
			left = 0
		}
		if grace < left {
			left, shorter = grace, true
		}
	}
	if len(finalizers) == 0 && left == 0 {
		s.remove(kind, c, k, obj)
		return nil
	}
	if !shorter && slices.Equal(finalizers, m.Finalizers) {
		return nil
	}
	at := *m.DeletionTimestamp
	if shorter {
		at = api.NewTime(s.clock.Now().Add(secondsDur(left)))
	}
	s.markDeleted(c, k, obj, at, left, finalizers)
	return nil
}

// markDeleted stores a copy of obj with the given deletionTimestamp,
// deletionGracePeriodSeconds and finalizers.
func (s *Store) markDeleted(c *collection, k string, obj api.Object, at api.Time, grace int64, finalizers []string) {
	next := withStatus(obj, obj)
	nm := next.GetObjectMeta()
	*nm = obj.GetObjectMeta().DeepCopy()
	nm.DeletionTimestamp = &at
	nm.DeletionGracePeriodSeconds = api.Int64(grace)
	nm.Finalizers = finalizers
	nm.ResourceVersion = s.nextRV()
	c.replace(k, next)
	s.changed(c, changeMeta)
}

func (s *Store) remove(kind string, c *collection, k string, obj api.Object) {
	c.remove(k)
	s.uidIx.Delete(s.own, obj.GetObjectMeta().UID)
	s.forgetManaged(obj.GetObjectMeta().UID)
	if kind == api.KindPod {
		s.pods--
	}
	s.rv++
	if kind != api.KindEvent {
		s.writes++
	}
	s.changed(c, changeMembers)
}

// orphanDependents removes every ownerReference to uid, as the garbage
// collector's orphan finalizer does.
func (s *Store) orphanDependents(uid string) {
	for _, kind := range []string{api.KindReplicaSet, api.KindPod} {
		c := s.kinds[kind]
		for pos := 0; pos < c.n; pos++ {
			o := c.at(pos)
			if o == nil {
				continue
			}
			m := o.GetObjectMeta()
			if !hasOwner(m, uid) {
				continue
			}
			next := withStatus(o, o)
			nm := next.GetObjectMeta()
			*nm = m.DeepCopy()
			refs := nm.OwnerReferences[:0]
			for _, r := range nm.OwnerReferences {
				if r.UID != uid {
					refs = append(refs, r)
				}
			}
			if len(refs) == 0 {
				refs = nil
			}
			nm.OwnerReferences = refs
			nm.ResourceVersion = s.nextRV()
			c.set(pos, next)
			s.changed(c, changeMeta)
		}
	}
}

func hasOwner(m *api.ObjectMeta, uid string) bool {
	for _, r := range m.OwnerReferences {
		if r.UID == uid {
			return true
		}
	}
	return false
}

// Bind sets a pending pod's spec.nodeName, as the binding subresource does.
func (s *Store) Bind(namespace, name, nodeName string) (*api.Pod, error) {
	c := s.kinds[api.KindPod]
	if namespace == "" {
		namespace = api.NamespaceDefault
	}
	k := key(namespace, name)
	o, ok := c.get(k)
	if !ok {
		return nil, notFound(api.KindPod, name)
	}
	p := o.(*api.Pod)
	if p.Spec.NodeName != "" {
		return nil, conflict(api.KindPod, name)
	}
	x := *p
	x.Spec.NodeName = nodeName
	x.ResourceVersion = s.nextRV()
	c.replace(k, &x)
	s.changed(c, changeMeta)
	return &x, nil
}
