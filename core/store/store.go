// Package store is Converge's in-memory API server: create, get, list,
// update, status update, JSON merge patch and delete for every kind in
// core/api, with defaulting and validation on every user write, generation
// and resourceVersion bookkeeping, deterministic uids and generated names,
// graceful pod deletion and owner-reference bookkeeping for the garbage
// collector.
//
// Ownership rules, as with client-go listers: objects returned by Get, List
// and the Each* iterators are shared and must never be modified; DeepCopy
// first. Create and Update take ownership of the object passed in: do not
// modify it afterwards, use the returned one.
//
// The store is single-threaded like the rest of the simulation.
package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"strconv"
	"time"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/persist"
	"converge/core/validation"
	"converge/core/validation/field"
)

// Limits of one simulation, checked on create so that no input can make it
// hang. They are defined here only: the scenario loader checks the same
// numbers at load time, and kubectl clamps scale requests with them.
const (
	// MaxPods bounds the pods that exist at once.
	MaxPods = 10000
	// MaxNodes bounds the nodes.
	MaxNodes = 500
	// MaxReplicas bounds spec.replicas of a Deployment or ReplicaSet.
	MaxReplicas = MaxPods
)

// Options configures a Store.
type Options struct {
	// Clock is the simulated clock; required.
	Clock *clock.Clock
	// Seed seeds the generator of pod name suffixes.
	Seed uint64
	// DefaultTolerationSeconds is what the DefaultTolerationSeconds admission
	// plugin gives pods for the not-ready and unreachable taints; 0 means 300.
	DefaultTolerationSeconds int64
	// EventTTL is kube-apiserver's --event-ttl, how long an event is kept
	// after its last write; 0 means DefaultEventTTL (1h).
	EventTTL time.Duration
}

// Store is the API server's storage.
type Store struct {
	clock *clock.Clock
	pcg   *rand.PCG
	rng   *rand.Rand
	rv    int64
	uids  uint64
	kinds map[string]*collection
	// own is the owner of this version's uidIx buckets (package persist).
	own   *persist.Owner
	uidIx persist.Map[uidRef] // uid -> where the object is, for owner lookups
	pods  int                 // live (not removed) pods, for the limit
	evSeq int64
	// The events' correlators (one per source) and their expiry.
	correlators map[eventSource]*correlator
	lastSrc     eventSource // the source of the last event, and its correlator
	lastCorr    *correlator
	lastRef     shortRef // the object of the last event
	evExpiry    []eventExpiry
	evTTL       time.Duration
	evPruned    time.Time

	tolerationSeconds int64
	// writes counts writes other than events, so that the engine can tell
	// whether a control-plane round changed anything.
	writes int64
	// serviceIPs counts the ClusterIPs handed out.
	serviceIPs int64
	// id is this store's identity for caches (Identity); membership is the
	// resourceVersion of the latest create or delete of anything but an
	// event (Membership).
	id         *Identity
	membership int64
	// writer is who writes now; managed holds each object's managedFields
	// and field history by uid (managed.go).
	writer  Writer
	managed map[string]*managed
	// applying is the applied configuration of the write Apply is making.
	applying api.Object
	// encoded is the objects' JSON by identity, shared with every clone
	// (encode.go).
	encoded *encodings
}

// uidRef is where the object with a uid is stored.
type uidRef struct{ kind, key string }

// New returns an empty store.
func New(o Options) *Store {
	s := &Store{clock: o.Clock, kinds: map[string]*collection{}, own: persist.NewOwner(), tolerationSeconds: o.DefaultTolerationSeconds,
		id: &Identity{}, evTTL: o.EventTTL, encoded: &encodings{m: map[api.Object][]byte{}}}
	if s.tolerationSeconds <= 0 {
		s.tolerationSeconds = api.DefaultTolerationSeconds
	}
	s.pcg = rand.NewPCG(o.Seed, 0x636f6e7665726765) // "converge"
	s.rng = rand.New(s.pcg)
	for _, r := range api.Resources() {
		s.kinds[r.Kind] = newCollection(r.Kind)
	}
	return s
}

// Clone returns an independent store with the same contents, sharing the
// (immutable) objects and, until one of the two writes there, the pieces
// of the collections that hold them (package persist): a clone costs about
// one pointer per 64 objects, and each store's writes afterwards copy only
// the pieces they touch. The clone uses the given clock, and shares the
// objects' JSON (WriteJSONList).
func (s *Store) Clone(c *clock.Clock) *Store {
	out := &Store{clock: c, rv: s.rv, uids: s.uids, kinds: map[string]*collection{}, own: persist.NewOwner(), uidIx: s.uidIx.Clone(),
		pods: s.pods, evSeq: s.evSeq, tolerationSeconds: s.tolerationSeconds, writes: s.writes, serviceIPs: s.serviceIPs,
		id: &Identity{}, membership: s.membership,
		writer: s.writer, managed: maps.Clone(s.managed), correlators: s.freezeCorrelators(),
		evExpiry: s.evExpiry[:len(s.evExpiry):len(s.evExpiry)], evTTL: s.evTTL, evPruned: s.evPruned, encoded: s.encoded}
	s.own = persist.NewOwner()
	pcg := *s.pcg
	out.pcg = &pcg
	out.rng = rand.New(out.pcg)
	for k, c := range s.kinds {
		out.kinds[k] = c.clone()
	}
	return out
}

// Now returns the simulated time.
func (s *Store) Now() api.Time { return api.NewTime(s.clock.Now()) }

// Clock returns the store's clock.
func (s *Store) Clock() *clock.Clock { return s.clock }

// Rand returns the store's seeded generator; every random choice in the
// simulation draws from it, in a fixed order.
func (s *Store) Rand() *rand.Rand { return s.rng }

// ResourceVersion returns the latest resourceVersion handed out; it grows
// with every write, so a reader can tell whether anything changed.
func (s *Store) ResourceVersion() int64 { return s.rv }

func key(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

func (s *Store) coll(kind string) (*collection, error) {
	c, ok := s.kinds[kind]
	if !ok {
		return nil, NewBadRequest(fmt.Sprintf("the server doesn't have a resource type %q", kind))
	}
	return c, nil
}

// Writes counts every write except events; it only grows.
func (s *Store) Writes() int64 { return s.writes }

func (s *Store) nextRV() string {
	s.writes++
	s.rv++
	return strconv.FormatInt(s.rv, 10)
}

// newUID returns a deterministic RFC 4122-shaped uid.
func (s *Store) newUID() string {
	s.uids++
	x := s.uids * 0x9e3779b97f4a7c15
	y := (s.uids + 0x5bd1e995) * 0xbf58476d1ce4e5b9
	var b [36]byte
	hexInto(b[0:8], uint64(uint32(x>>32)))
	b[8] = '-'
	hexInto(b[9:13], uint64(uint16(x>>16)))
	b[13] = '-'
	b[14] = '4'
	hexInto(b[15:18], uint64(uint16(x)&0xfff))
	b[18] = '-'
	b[19] = '8'
	hexInto(b[20:23], uint64(uint16(y>>48)&0xfff))
	b[23] = '-'
	hexInto(b[24:36], y&0xffffffffffff)
	return string(b[:])
}

// hexInto writes v as zero-padded lower-case hex filling dst.
func hexInto(dst []byte, v uint64) {
	const digits = "0123456789abcdef"
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = digits[v&0xf]
		v >>= 4
	}
}

// nameAlphabet is apimachinery's rand alphabet: no vowels, no 0, 1 or 3.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// RandomSuffix returns n characters from Kubernetes' name alphabet, drawn from the store's generator.
func (s *Store) RandomSuffix(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = nameAlphabet[s.rng.IntN(len(nameAlphabet))]
	}
	return string(b)
}

// Get returns the stored object (shared: do not modify).
func (s *Store) Get(kind, namespace, name string) (api.Object, error) {
	c, err := s.coll(kind)
	if err != nil {
		return nil, err
	}
	if kind == api.KindNode {
		namespace = ""
	} else if namespace == "" {
		namespace = api.NamespaceDefault
	}
	o, ok := c.get(key(namespace, name))
	if !ok {
		return nil, notFound(kind, name)
	}
	return o, nil
}

// ByUID returns the object with the given uid, if it still exists.
func (s *Store) ByUID(uid string) (api.Object, bool) {
	r, ok := s.uidIx.Get(uid)
	if !ok {
		return nil, false
	}
	return s.kinds[r.kind].get(r.key)
}

// Exists reports whether an object with this uid is stored.
func (s *Store) Exists(uid string) bool { _, ok := s.uidIx.Get(uid); return ok }

// List returns every object of a kind in creation order (shared: do not modify).
func (s *Store) List(kind string) []api.Object {
	c, err := s.coll(kind)
	if err != nil {
		return nil
	}
	out := make([]api.Object, 0, c.len())
	c.each(func(o api.Object) bool {
		out = append(out, o)
		return true
	})
	return out
}

// Count returns how many objects of a kind are stored.
func (s *Store) Count(kind string) int {
	c, err := s.coll(kind)
	if err != nil {
		return 0
	}
	return c.len()
}

// Create stores a new object: defaulting, validation, generated name, uid,
// resourceVersion, creationTimestamp, generation 1. Status given by the
// caller is kept (controllers and the scenario's initial objects set it;
// kubectl clears it before calling).
func (s *Store) Create(obj api.Object) (api.Object, error) {
	kind := api.KindOf(obj)
	c, err := s.coll(kind)
	if err != nil {
		return nil, err
	}
	api.SetDefaults(obj)
	m := obj.GetObjectMeta()
	if m.Name == "" && m.GenerateName != "" {
		m.Name = s.generateName(c, m)
	}
	if p, ok := obj.(*api.Pod); ok {
		s.admitPod(p)
		preparePodForCreate(p)
	}
	if svc, ok := obj.(*api.Service); ok {
		s.prepareServiceForCreate(svc)
	}
	if kind != api.KindEvent {
		if errs := validation.ValidateObject(obj, nil); len(errs) > 0 {
			return nil, NewInvalid(kind, m.Name, errs)
		}
		if err := s.checkLimits(kind, obj); err != nil {
			return nil, err
		}
	}
	k := key(m.Namespace, m.Name)
	if _, exists := c.get(k); exists {
		return nil, alreadyExists(kind, m.Name)
	}
	if kind != api.KindEvent {
		if err := s.admitQuota(kind, obj); err != nil {
			return nil, err
		}
	}
	m.UID = s.newUID()
	m.ResourceVersion = s.nextRV()
	m.CreationTimestamp = s.Now()
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	switch kind {
	case api.KindDeployment, api.KindReplicaSet, api.KindPodDisruptionBudget:
		m.Generation = 1
	default:
		m.Generation = 0
	}
	c.add(k, obj)
	s.uidIx.Add(s.own, m.UID, uidRef{kind, k})
	s.trackWrite(kind, nil, obj, "", s.applying)
	if kind == api.KindPod {
		s.pods++
	}
	s.changed(c, changeMembers)
	return obj, nil
}

func (s *Store) generateName(c *collection, m *api.ObjectMeta) string {
	base := m.GenerateName
	if len(base) > 58 {
		base = base[:58]
	}
	for {
		n := base + s.RandomSuffix(5)
		if _, taken := c.get(key(m.Namespace, n)); !taken {
			return n
		}
	}
}

func (s *Store) checkLimits(kind string, obj api.Object) error {
	m := obj.GetObjectMeta()
	switch kind {
	case api.KindPod:
		if s.pods >= MaxPods {
			return NewForbidden(kind, m.Name, fmt.Sprintf("exceeded the simulation's limit of %d pods (a Converge limit, not a Kubernetes one)", MaxPods))
		}
	case api.KindNode:
		if s.kinds[api.KindNode].len() >= MaxNodes {
			return NewForbidden(kind, m.Name, fmt.Sprintf("exceeded the simulation's limit of %d nodes (a Converge limit, not a Kubernetes one)", MaxNodes))
		}
	}
	return checkReplicas(kind, obj)
}

func checkReplicas(kind string, obj api.Object) error {
	var r *int32
	switch o := obj.(type) {
	case *api.Deployment:
		r = o.Spec.Replicas
	case *api.ReplicaSet:
		r = o.Spec.Replicas
	}
	if r != nil && *r > MaxReplicas {
		return TooManyReplicas(kind, obj.GetObjectMeta().Name, int64(*r))
	}
	return nil
}

// TooManyReplicas is the Invalid error of a Deployment or ReplicaSet of
// kind asking for replicas beyond MaxReplicas, with the value as asked for
// (kubectl scale checks it so, before the value is narrowed to int32).
func TooManyReplicas(kind, name string, replicas int64) error {
	errs := field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), replicas,
		fmt.Sprintf("must be less than or equal to %d in Converge (a simulation limit, not a Kubernetes one)", MaxReplicas))}
	return NewInvalid(kind, name, errs)
}

// Update replaces an object's metadata and spec (the main resource). Status
// sent by the caller is ignored and the stored status kept; server-set
// metadata (uid, creationTimestamp, deletionTimestamp, generation) is kept.
// An update that removes the last finalizer of an object being deleted
// removes the object (and returns it as it was last).
// A non-empty resourceVersion that is not the stored one is a Conflict.
// generation goes up when the spec changes, and for Deployments also when
// annotations change, as the registry strategies do.
func (s *Store) Update(obj api.Object) (api.Object, error) {
	return s.update(obj, "")
}

// UpdateStatus replaces an object's status (the status subresource); the
// caller's metadata and spec are ignored.
func (s *Store) UpdateStatus(obj api.Object) (api.Object, error) {
	return s.update(obj, SubresourceStatus)
}

// update writes obj through sub: "" (the main resource), "status" or
// "scale" (which Update's rules cover, spec.replicas being all it changes).
func (s *Store) update(obj api.Object, sub string) (api.Object, error) {
	status := sub == SubresourceStatus
	kind := api.KindOf(obj)
	c, err := s.coll(kind)
	if err != nil {
		return nil, err
	}
	m := obj.GetObjectMeta()
	if m.Namespace == "" && kind != api.KindNode {
		m.Namespace = api.NamespaceDefault
	}
	k := key(m.Namespace, m.Name)
	old, ok := c.get(k)
	if !ok {
		return nil, notFound(kind, m.Name)
	}
	om := old.GetObjectMeta()
	if m.ResourceVersion != "" && m.ResourceVersion != om.ResourceVersion {
		return nil, conflict(kind, m.Name)
	}
	var next api.Object
	if status {
		next = statusOnto(obj, old)
	} else {
		api.SetDefaults(obj)
		if n, ok := obj.(*api.Node); ok {
			s.stampNoExecuteTaints(n, old.(*api.Node))
		}
		next = withStatus(obj, old)
		nm := next.GetObjectMeta()
		nm.UID, nm.CreationTimestamp, nm.Generation = om.UID, om.CreationTimestamp, om.Generation
		nm.DeletionTimestamp, nm.DeletionGracePeriodSeconds = om.DeletionTimestamp, om.DeletionGracePeriodSeconds
		if kind != api.KindEvent {
			if errs := validation.ValidateObject(next, old); len(errs) > 0 {
				return nil, NewInvalid(kind, m.Name, errs)
			}
			if err := checkReplicas(kind, next); err != nil {
				return nil, err
			}
		}
		if specChanged(old, next) {
			nm.Generation = om.Generation + 1
		}
		if shouldDeleteDuringUpdate(om, nm) {
			nm.ResourceVersion = strconv.FormatInt(s.rv+1, 10)
			s.remove(kind, c, k, old)
			return next, nil
		}
	}
	next.GetObjectMeta().ResourceVersion = s.nextRV()
	c.replace(k, next)
	if status {
		s.changed(c, changeStatus)
	} else {
		s.changed(c, changeMeta)
	}
	s.trackWrite(kind, old, next, sub, s.applying)
	return next, nil
}

// statusOnto returns what withStatus(old, obj) returns, old with obj's
// status, built in obj itself (the store owns it): a status write makes
// one new object version, not two.
func statusOnto(obj, old api.Object) api.Object {
	if obj == old {
		// A caller that broke the rules and sent the stored object itself
		// still gets a new version.
		return withStatus(old, obj)
	}
	switch o := obj.(type) {
	case *api.Pod:
		st := o.Status
		*o = *old.(*api.Pod)
		o.Status = st
	case *api.Node:
		st := o.Status
		*o = *old.(*api.Node)
		o.Status = st
	case *api.ReplicaSet:
		st := o.Status
		*o = *old.(*api.ReplicaSet)
		o.Status = st
	case *api.Deployment:
		st := o.Status
		*o = *old.(*api.Deployment)
		o.Status = st
	default:
		return withStatus(old, obj)
	}
	return obj
}

// stampNoExecuteTaints gives a NoExecute taint written without timeAdded
// the time of this write (or of the same taint in old), which is when the
// taint eviction controller first sees it and starts the pods'
// tolerationSeconds. Converge's controllers keep no memory between syncs,
// so the time lives on the taint (see docs/fidelity.md).
func (s *Store) stampNoExecuteTaints(n, old *api.Node) {
	for i := range n.Spec.Taints {
		t := &n.Spec.Taints[i]
		if t.Effect != api.TaintEffectNoExecute || t.TimeAdded != nil {
			continue
		}
		at := s.Now()
		if old != nil {
			for _, o := range old.Spec.Taints {
				if o.MatchTaint(*t) && o.TimeAdded != nil {
					at = *o.TimeAdded
				}
			}
		}
		t.TimeAdded = &at
	}
}

// shouldDeleteDuringUpdate is the registry's rule: an update that takes
// the last finalizer off an object being deleted (with no grace period
// left, as every object but a terminating pod) removes it.
func shouldDeleteDuringUpdate(old, next *api.ObjectMeta) bool {
	return old.DeletionTimestamp != nil && len(next.Finalizers) == 0 &&
		(old.DeletionGracePeriodSeconds == nil || *old.DeletionGracePeriodSeconds == 0)
}

// withStatus returns a shallow copy of main whose status is taken from statusFrom.
func withStatus(main, statusFrom api.Object) api.Object {
	switch m := main.(type) {
	case *api.Deployment:
		x := *m
		x.Status = statusFrom.(*api.Deployment).Status
		return &x
	case *api.ReplicaSet:
		x := *m
		x.Status = statusFrom.(*api.ReplicaSet).Status
		return &x
	case *api.Pod:
		x := *m
		x.Status = statusFrom.(*api.Pod).Status
		return &x
	case *api.Node:
		x := *m
		x.Status = statusFrom.(*api.Node).Status
		return &x
	case *api.Service:
		x := *m
		x.Status = statusFrom.(*api.Service).Status
		return &x
	case *api.HorizontalPodAutoscaler:
		x := *m
		x.Status = statusFrom.(*api.HorizontalPodAutoscaler).Status
		return &x
	case *api.ResourceQuota:
		x := *m
		x.Status = statusFrom.(*api.ResourceQuota).Status
		return &x
	case *api.PodDisruptionBudget:
		x := *m
		x.Status = statusFrom.(*api.PodDisruptionBudget).Status
		return &x
	case *api.ConfigMap:
		x := *m
		return &x
	case *api.Endpoints:
		x := *m
		return &x
	case *api.Event:
		x := *m
		return &x
	}
	return main
}

func specChanged(old, next api.Object) bool {
	switch o := old.(type) {
	case *api.Deployment:
		n := next.(*api.Deployment)
		return !reflect.DeepEqual(o.Spec, n.Spec) || !reflect.DeepEqual(o.Annotations, n.Annotations)
	case *api.ReplicaSet:
		return !reflect.DeepEqual(o.Spec, next.(*api.ReplicaSet).Spec)
	case *api.PodDisruptionBudget:
		return !reflect.DeepEqual(o.Spec, next.(*api.PodDisruptionBudget).Spec)
	}
	return false
}
