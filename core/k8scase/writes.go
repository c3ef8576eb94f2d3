package k8scase

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"converge/core/controller"
)

// Outcome is what one sync did, as either side reports it: the state
// after the sync and the events the controller sent.
type Outcome struct {
	// Rejected is the API server's error when the case's objects are
	// invalid (a Deployment with maxSurge and maxUnavailable both 0, say):
	// the sync never runs.
	Rejected string  `json:"rejected,omitempty"`
	After    State   `json:"after"`
	Events   []Event `json:"events,omitempty"`
	// Records are the sync records the controller wrote (the Deployment
	// controller's carry its rollout record: the progress deadline's
	// countdown, which tools/k8sdiff compares with upstream's requeue).
	Records []controller.SyncRecord `json:"-"`
}

// Event is one event a controller sent.
type Event struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Write is one normalized effect of a sync: what changed on which object.
type Write struct {
	// Object is "deployment/web", "replicaset/web-1", "pod/web-1-a" or
	// "event"; a ReplicaSet the sync created is "replicaset/<deployment>-{new}".
	Object string
	// Field names what changed: "created", "deleted", "spec.replicas",
	// "status.availableReplicas", "annotations[deployment.kubernetes.io/revision]",
	// "pods created", or an event's reason.
	Field string
	// Value is the change, "5 -> 3", or what was created.
	Value string
}

// String renders the write as one report line.
func (w Write) String() string { return w.Object + " " + w.Field + ": " + w.Value }

// Key is what differences are grouped by: the object's kind and the field,
// without names or values.
func (w Write) Key() string {
	kind, _, _ := strings.Cut(w.Object, "/")
	return kind + " " + w.Field
}

// NewSuffix names what a sync created: a ReplicaSet "<deployment>-{new}",
// a pod "<replicaset>-{new}". The two sides name them differently by design
// (Converge hashes the template its own way, and generated pod names are
// random), so Writes renames them.
const NewSuffix = "{new}"

// Writes compares the state before a sync (the case) with the outcome and
// returns every change, sorted, with the names of created objects
// normalized: the list both sides must agree on. Generation and
// resourceVersion are not compared (the API server, not the controller,
// sets them), and neither are the error texts of refused pod creates (the
// refusal is simulated differently on each side).
func Writes(c *Case, o *Outcome) []Write {
	dname := c.Deployment.Name
	if o.Rejected != "" {
		return []Write{{Object: "deployment/" + dname, Field: "rejected", Value: o.Rejected}}
	}
	n := newNormalizer(c, o)
	var ws []Write
	ws = append(ws, deploymentWrites(c.Deployment, o.After.Deployment, n)...)
	for i := range o.After.ReplicaSets {
		after := &o.After.ReplicaSets[i]
		ws = append(ws, replicaSetWrites(c.ReplicaSet(after.Name), after, n)...)
	}
	for i := range c.ReplicaSets {
		if o.After.ReplicaSet(c.ReplicaSets[i].Name) == nil {
			ws = append(ws, Write{Object: "replicaset/" + c.ReplicaSets[i].Name, Field: "deleted", Value: "yes"})
		}
	}
	ws = append(ws, podWrites(c, o, n)...)
	for _, e := range o.Events {
		msg := n.text(e.Message)
		if e.Reason == "FailedCreate" {
			msg = "Error creating: {error}"
		}
		ws = append(ws, Write{Object: "event", Field: e.Reason, Value: e.Type + " " + strconv.Quote(msg)})
	}
	slices.SortFunc(ws, func(a, b Write) int { return strings.Compare(a.String(), b.String()) })
	return ws
}

// normalizer renames created objects in names and texts.
type normalizer struct {
	names map[string]string // actual name -> normalized
	order []string          // actual names, longest first, for text replacement
}

func newNormalizer(c *Case, o *Outcome) *normalizer {
	n := &normalizer{names: map[string]string{}}
	created := 0
	for _, rs := range o.After.ReplicaSets {
		if c.ReplicaSet(rs.Name) == nil {
			name := c.Deployment.Name + "-" + NewSuffix
			if created > 0 {
				name += strconv.Itoa(created + 1)
			}
			created++
			n.names[rs.Name] = name
		}
	}
	for _, p := range o.After.Pods {
		if c.Pod(p.Name) == nil {
			n.names[p.Name] = n.name(p.Owner) + "-" + NewSuffix
		}
	}
	n.order = slices.Collect(maps.Keys(n.names))
	slices.SortFunc(n.order, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return n
}

func (n *normalizer) name(s string) string {
	if v, ok := n.names[s]; ok {
		return v
	}
	return s
}

func (n *normalizer) text(s string) string {
	for _, k := range n.order {
		s = strings.ReplaceAll(s, k, n.names[k])
	}
	return s
}

// changes collects "field: before -> after" writes of one object.
type changes struct {
	object string
	ws     []Write
}

func (ch *changes) add(field, before, after string) {
	if before != after {
		ch.ws = append(ch.ws, Write{Object: ch.object, Field: field, Value: before + " -> " + after})
	}
}

func (ch *changes) int(field string, before, after int64) {
	ch.add(field, strconv.FormatInt(before, 10), strconv.FormatInt(after, 10))
}

func (ch *changes) annotations(before, after map[string]string, n *normalizer) {
	keys := slices.Sorted(maps.Keys(before))
	for k := range after {
		if _, ok := before[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		b, inB := before[k]
		a, inA := after[k]
		ch.add("annotations["+k+"]", optional(b, inB), optional(n.text(a), inA))
	}
}

func optional(v string, ok bool) string {
	if !ok {
		return "(none)"
	}
	return strconv.Quote(v)
}

func ptr32(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(int(*p))
}

// conditions renders a condition list with its times.
func conditions(cs []Condition, n *normalizer) string {
	if len(cs) == 0 {
		return "[]"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		msg := n.text(c.Message)
		if c.Reason == "FailedCreate" {
			msg = "{error}"
		}
		parts[i] = fmt.Sprintf("%s=%s %s %q updated@%d transition@%d", c.Type, c.Status, c.Reason, msg, c.LastUpdate, c.LastTransition)
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

func deploymentWrites(before, after *Deployment, n *normalizer) []Write {
	ch := &changes{object: "deployment/" + before.Name}
	if after == nil {
		return []Write{{Object: ch.object, Field: "deleted", Value: "yes"}}
	}
	ch.add("spec.template.image", before.Image, after.Image)
	ch.annotations(before.Annotations, after.Annotations, n)
	b, a := &before.Status, &after.Status
	ch.int("status.observedGeneration", b.ObservedGeneration, a.ObservedGeneration)
	ch.int("status.replicas", int64(b.Replicas), int64(a.Replicas))
	ch.int("status.updatedReplicas", int64(b.UpdatedReplicas), int64(a.UpdatedReplicas))
	ch.int("status.readyReplicas", int64(b.ReadyReplicas), int64(a.ReadyReplicas))
	ch.int("status.availableReplicas", int64(b.AvailableReplicas), int64(a.AvailableReplicas))
	ch.int("status.unavailableReplicas", int64(b.UnavailableReplicas), int64(a.UnavailableReplicas))
	ch.add("status.terminatingReplicas", ptr32(b.TerminatingReplicas), ptr32(a.TerminatingReplicas))
	ch.add("status.collisionCount", ptr32(b.CollisionCount), ptr32(a.CollisionCount))
	ch.add("status.conditions", conditions(b.Conditions, n), conditions(a.Conditions, n))
	return ch.ws
}

func replicaSetWrites(before, after *ReplicaSet, n *normalizer) []Write {
	ch := &changes{object: "replicaset/" + n.name(after.Name)}
	if before == nil {
		annotations := make([]string, 0, len(after.Annotations))
		for _, k := range slices.Sorted(maps.Keys(after.Annotations)) {
			annotations = append(annotations, k+"="+strconv.Quote(n.text(after.Annotations[k])))
		}
		v := fmt.Sprintf("replicas=%d image=%s minReadySeconds=%d owned=%t annotations={%s} template=%s",
			after.Replicas, after.Image, after.MinReadySeconds, !after.Orphan, strings.Join(annotations, ", "), after.Template)
		ch.ws = append(ch.ws, Write{Object: ch.object, Field: "created", Value: v})
		before = &ReplicaSet{Name: after.Name, Status: ReplicaSetStatus{}}
		before.Status = after.Status // a create's status is not a status write
	} else {
		ch.int("spec.replicas", int64(before.Replicas), int64(after.Replicas))
		ch.int("spec.minReadySeconds", int64(before.MinReadySeconds), int64(after.MinReadySeconds))
		ch.add("spec.template.image", before.Image, after.Image)
		ch.add("owned", strconv.FormatBool(!before.Orphan), strconv.FormatBool(!after.Orphan))
		ch.annotations(before.Annotations, after.Annotations, n)
	}
	b, a := &before.Status, &after.Status
	ch.int("status.replicas", int64(b.Replicas), int64(a.Replicas))
	ch.int("status.fullyLabeledReplicas", int64(b.FullyLabeledReplicas), int64(a.FullyLabeledReplicas))
	ch.int("status.readyReplicas", int64(b.ReadyReplicas), int64(a.ReadyReplicas))
	ch.int("status.availableReplicas", int64(b.AvailableReplicas), int64(a.AvailableReplicas))
	ch.add("status.terminatingReplicas", ptr32(b.TerminatingReplicas), ptr32(a.TerminatingReplicas))
	ch.int("status.observedGeneration", b.ObservedGeneration, a.ObservedGeneration)
	ch.add("status.conditions", conditions(b.Conditions, n), conditions(a.Conditions, n))
	return ch.ws
}

// podWrites reports pods deleted (gone, or newly terminating: the API
// server keeps a bound pod until its kubelet stops it), pods whose
// controller changed (adopted or released), and how many pods each
// ReplicaSet created.
func podWrites(c *Case, o *Outcome, n *normalizer) []Write {
	var ws []Write
	for _, bp := range c.Pods {
		ap := o.After.Pod(bp.Name)
		obj := "pod/" + bp.Name
		switch {
		case ap == nil && !bp.Terminating, ap != nil && ap.Terminating && !bp.Terminating:
			ws = append(ws, Write{Object: obj, Field: "deleted", Value: "yes"})
		case ap != nil && ap.Owner != bp.Owner:
			ws = append(ws, Write{Object: obj, Field: "owner", Value: optional(bp.Owner, bp.Owner != "") + " -> " + optional(n.name(ap.Owner), ap.Owner != "")})
		}
	}
	created := map[string]map[string]int{} // owner -> image -> count
	for _, p := range o.After.Pods {
		if c.Pod(p.Name) != nil {
			continue
		}
		owner := n.name(p.Owner)
		if created[owner] == nil {
			created[owner] = map[string]int{}
		}
		created[owner][p.Image+" hash-matches="+strconv.FormatBool(hashOf(o, p.Owner) == p.Hash)]++
	}
	for _, owner := range slices.Sorted(maps.Keys(created)) {
		for _, what := range slices.Sorted(maps.Keys(created[owner])) {
			ws = append(ws, Write{Object: "replicaset/" + owner, Field: "pods created",
				Value: fmt.Sprintf("%d (image %s)", created[owner][what], what)})
		}
	}
	return ws
}

func hashOf(o *Outcome, rs string) string {
	if r := o.After.ReplicaSet(rs); r != nil {
		return r.Hash
	}
	return ""
}
