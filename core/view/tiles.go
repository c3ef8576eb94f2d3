package view

import (
	"strings"
	"time"

	"converge/core/api"
	"converge/core/humanize"
	"converge/core/sim"
)

// State is what a pod tile shows: the pod's place in its lifecycle, in the
// words of `kubectl get pods` where they exist.
type State string

// The states of a pod tile, from just created to gone.
const (
	// StatePending: not yet bound to a node (waiting for the scheduler, or
	// unschedulable).
	StatePending State = "Pending"
	// StateContainerCreating: bound; the image is being pulled or the
	// container is starting.
	StateContainerCreating State = "ContainerCreating"
	// StateRunning: the container runs but the readiness probe has not
	// passed (Running, not ready).
	StateRunning State = "Running"
	// StateReady: Ready, but not for minReadySeconds yet, so not available.
	StateReady State = "Ready"
	// StateAvailable: Ready for at least minReadySeconds; counts toward
	// availableReplicas.
	StateAvailable State = "Available"
	// StateTerminating: being deleted (graceful termination).
	StateTerminating State = "Terminating"
	// StateCrashLoop: the container keeps exiting; restarts back off.
	StateCrashLoop State = "CrashLoopBackOff"
	// StateImagePull: the image cannot be pulled (ErrImagePull, then
	// ImagePullBackOff).
	StateImagePull State = "ImagePullBackOff"
	// StateInvalidImage: the image reference does not parse
	// (InvalidImageName); drawn as StateImagePull, and not in the legend.
	StateInvalidImage State = "InvalidImageName"
	// StateEvicted: evicted from its node (taint eviction after the node
	// was lost, or a Failed pod with reason Evicted).
	StateEvicted State = "Evicted"
	// StateFailed: the pod ended (Failed or Succeeded) for another reason.
	StateFailed State = "Failed"
)

// Shape is the drawing of a state, so that state is never told by colour
// alone: the page's CSS draws each shape (an outline, a fill, a pattern).
type Shape string

// Shapes, one per state.
const (
	ShapeDashed   Shape = "dashed"   // Pending: a dashed outline, empty
	ShapeHalf     Shape = "half"     // ContainerCreating: half filled
	ShapeRing     Shape = "ring"     // Running, not ready: a ring
	ShapeDot      Shape = "dot"      // Ready, not yet available: a ring with a dot
	ShapeSolid    Shape = "solid"    // Available: filled
	ShapeStriped  Shape = "striped"  // Terminating: diagonal stripes
	ShapeCross    Shape = "cross"    // CrashLoopBackOff: a cross
	ShapeTriangle Shape = "triangle" // ImagePullBackOff: a warning triangle
	ShapeSlash    Shape = "slash"    // Evicted: struck through
	ShapeHollow   Shape = "hollow"   // Failed: an empty outline
)

// Tile is one pod as the page draws it. Key is the pod's uid: the element
// lives as long as the pod.
type Tile struct {
	Key   string
	Name  string
	State State
	Shape Shape
	// Label is the short text on or beside the tile: the pod's random
	// suffix ("x2kq").
	Label string
	// Node is the node the pod is bound to, "" when pending.
	Node string
	// New is set for pods of the Deployment's new ReplicaSet.
	New bool
}

// LegendItem explains one state in the legend.
type LegendItem struct {
	State   State
	Shape   Shape
	Meaning string
}

// Legend lists every state with its shape and meaning, in lifecycle order.
func Legend() []LegendItem {
	return []LegendItem{
		{StatePending, ShapeDashed, "waiting for a node"},
		{StateContainerCreating, ShapeHalf, "pulling the image, starting"},
		{StateRunning, ShapeRing, "running, readiness probe not passed"},
		{StateReady, ShapeDot, "ready, minReadySeconds not over"},
		{StateAvailable, ShapeSolid, "available: counts for the rollout"},
		{StateTerminating, ShapeStriped, "shutting down"},
		{StateCrashLoop, ShapeCross, "container keeps crashing"},
		{StateImagePull, ShapeTriangle, "image cannot be pulled"},
		{StateEvicted, ShapeSlash, "evicted from a lost node"},
	}
}

var shapes = map[State]Shape{
	StatePending: ShapeDashed, StateContainerCreating: ShapeHalf, StateRunning: ShapeRing, StateReady: ShapeDot,
	StateAvailable: ShapeSolid, StateTerminating: ShapeStriped, StateCrashLoop: ShapeCross, StateImagePull: ShapeTriangle,
	StateInvalidImage: ShapeTriangle, StateEvicted: ShapeSlash, StateFailed: ShapeHollow,
}

// ShapeOf returns the shape that draws s.
func ShapeOf(s State) Shape {
	if sh, ok := shapes[s]; ok {
		return sh
	}
	return ShapeHollow
}

// PodState classifies a pod at now. minReadySeconds is its ReplicaSet's
// (a pod is available once Ready for that long, as the ReplicaSet
// controller counts it: api.IsAvailable).
func PodState(p *api.Pod, now time.Time, minReadySeconds int32) State {
	if isEvicted(p) {
		return StateEvicted
	}
	if p.DeletionTimestamp != nil {
		return StateTerminating
	}
	if p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded {
		return StateFailed
	}
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil {
			switch w.Reason {
			case "CrashLoopBackOff":
				return StateCrashLoop
			case "ImagePullBackOff", "ErrImagePull":
				return StateImagePull
			case "InvalidImageName":
				return StateInvalidImage
			}
		}
	}
	if p.Spec.NodeName == "" {
		return StatePending
	}
	ready := api.GetPodCondition(&p.Status, api.PodReady)
	if ready != nil && ready.Status == api.ConditionTrue {
		if api.IsAvailable(ready, minReadySeconds, now) {
			return StateAvailable
		}
		return StateReady
	}
	if p.Status.Phase == api.PodRunning && anyRunning(p) {
		return StateRunning
	}
	return StateContainerCreating
}

func isEvicted(p *api.Pod) bool {
	if p.Status.Reason == "Evicted" {
		return true
	}
	c := api.GetPodCondition(&p.Status, api.DisruptionTarget)
	return c != nil && c.Status == api.ConditionTrue
}

func anyRunning(p *api.Pod) bool {
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Running != nil {
			return true
		}
	}
	return false
}

// NewTile builds the tile of p at now. It allocates nothing beyond the
// tile: its hover text is computed on demand (PodTitle), since a page of a
// thousand tiles redraws many times a second.
func NewTile(p *api.Pod, now time.Time, minReadySeconds int32) Tile {
	st := PodState(p, now, minReadySeconds)
	return Tile{Key: p.UID, Name: p.Name, State: st, Shape: ShapeOf(st), Label: shortName(p), Node: p.Spec.NodeName}
}

// PodTitle is the hover text of the pod named name now (the tile's title):
// "web-5d9c-x2kq: Running, not ready · on node-2 · 3 restarts · back-off
// 20s restarting failed container"; "" when there is no such pod.
func PodTitle(s *sim.Sim, name string) string {
	p, err := s.Store().GetPod(api.NamespaceDefault, name)
	if err != nil {
		return ""
	}
	var minReady int32
	if ref := api.GetControllerOf(&p.ObjectMeta); ref != nil {
		if o, ok := s.Store().ByUID(ref.UID); ok {
			if rs, ok := o.(*api.ReplicaSet); ok {
				minReady = rs.Spec.MinReadySeconds
			}
		}
	}
	return tileTitle(p, PodState(p, s.Now(), minReady))
}

// shortName is the pod's random suffix: what follows its generateName, or
// after the last '-'.
func shortName(p *api.Pod) string {
	if p.GenerateName != "" && strings.HasPrefix(p.Name, p.GenerateName) && len(p.Name) > len(p.GenerateName) {
		return p.Name[len(p.GenerateName):]
	}
	if i := strings.LastIndexByte(p.Name, '-'); i >= 0 && i < len(p.Name)-1 {
		return p.Name[i+1:]
	}
	return p.Name
}

// tileTitle is "web-5d9c-x2kq: Running, not ready · on node-2 · 3 restarts · back-off 20s restarting failed container".
func tileTitle(p *api.Pod, st State) string {
	var b strings.Builder
	b.WriteString(p.Name)
	b.WriteString(": ")
	b.WriteString(stateWords(st))
	if p.Spec.NodeName != "" {
		b.WriteString(" · on ")
		b.WriteString(p.Spec.NodeName)
	}
	var restarts int32
	for _, cs := range p.Status.ContainerStatuses {
		restarts += cs.RestartCount
	}
	if restarts > 0 {
		b.WriteString(" · ")
		b.WriteString(plural(int64(restarts), "restart"))
	}
	if msg := reasonMessage(p); msg != "" {
		b.WriteString(" · ")
		b.WriteString(msg)
	}
	return b.String()
}

// stateWords is the state as the legend says it.
func stateWords(st State) string {
	switch st {
	case StateRunning:
		return "Running, not ready"
	case StateReady:
		return "Ready, not yet available"
	}
	return string(st)
}

// reasonMessage is the first container waiting message, or the pod's
// scheduling failure.
func reasonMessage(p *api.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && w.Message != "" {
			return w.Message
		}
	}
	if c := api.GetPodCondition(&p.Status, api.PodScheduled); c != nil && c.Status == api.ConditionFalse && c.Message != "" {
		return c.Message
	}
	return ""
}

// plural is "1 pod" or "3 pods".
var plural = humanize.Count[int64]
