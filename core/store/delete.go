package store

import (
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
	// PropagationPolicy is Background (default: the garbage collector deletes
	// dependents afterwards), Orphan (dependents lose their ownerReference to
	// the deleted object and live on) or Foreground (treated as Background).
	PropagationPolicy string
}

// Delete deletes an object. A pod that is bound to a node is deleted
// gracefully: it gets a deletionTimestamp (now + grace period) and stays,
// Terminating, until its kubelet stops it and removes it with grace 0, or at
// once when grace is 0 or it was never scheduled. Deleting an object that
// is already terminating only shortens its grace period. Other kinds go at
// once. With the Orphan policy, every dependent loses its ownerReference to
// the object in the same call; otherwise the garbage collector deletes
// dependents whose owners are all gone.
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
	if p, isPod := obj.(*api.Pod); isPod {
		grace := api.Deref64(p.Spec.TerminationGracePeriodSeconds, api.DefaultTerminationGracePeriodSeconds)
		if opts.GracePeriodSeconds != nil {
			grace = *opts.GracePeriodSeconds
		}
		if grace > 0 && p.Spec.NodeName != "" && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			s.markTerminating(c, k, p, grace)
			return nil
		}
	}
	if opts.PropagationPolicy == DeletePropagationOrphan {
		s.orphanDependents(obj.GetObjectMeta().UID)
	}
	s.remove(kind, c, k, obj)
	return nil
}

func (s *Store) markTerminating(c *collection, k string, p *api.Pod, grace int64) {
	now := s.clock.Now()
	if p.DeletionTimestamp != nil {
		left := int64(p.DeletionTimestamp.Sub(now).Seconds())
		if grace >= left {
			return
		}
	}
	x := *p
	x.ObjectMeta = p.ObjectMeta.DeepCopy()
	t := api.NewTime(now.Add(secondsDur(grace)))
	x.DeletionTimestamp = &t
	x.DeletionGracePeriodSeconds = api.Int64(grace)
	x.ResourceVersion = s.nextRV()
	c.replace(k, &x)
	s.changed(c, changeMeta)
}

func (s *Store) remove(kind string, c *collection, k string, obj api.Object) {
	c.remove(k)
	s.uidIx.Delete(s.own, obj.GetObjectMeta().UID)
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
