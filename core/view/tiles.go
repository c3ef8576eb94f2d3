package view

import (
	"strings"
	"time"

	"converge/core/api"
	"converge/core/humanize"
	"converge/core/kubectl"
	"converge/core/sim"
)

// State is what a pod tile shows: the pod's place in its lifecycle, in the
// words of `kubectl get pods` (its STATUS column, see Tile.Status), with
// kubectl's Running split three ways (not ready, ready, available), as the
// rollout counts them.
type State string

// The states of a pod tile, from just created to gone.
const (
	// StatePending: kubectl says Pending: not yet bound to a node (waiting
	// for the scheduler, or unschedulable), or bound with no container
	// status yet.
	StatePending State = "Pending"
	// StateContainerCreating: bound; the image is being pulled or the
	// container is starting (also PodInitializing, Init:...).
	StateContainerCreating State = "ContainerCreating"
	// StateRunning: kubectl says Running (or NotReady) but the readiness
	// probe has not passed.
	StateRunning State = "Running"
	// StateReady: Running and Ready, but not for minReadySeconds yet, so
	// not available.
	StateReady State = "Ready"
	// StateAvailable: Running and Ready for at least minReadySeconds;
	// counts toward availableReplicas.
	StateAvailable State = "Available"
	// StateTerminating: being deleted (graceful termination), also when a
	// taint or a budget-checked eviction asked for it.
	StateTerminating State = "Terminating"
	// StateError: the container exited with a failure and has not
	// restarted yet (kubectl: Error, OOMKilled, ExitCode:N ...).
	StateError State = "Error"
	// StateCompleted: the container exited 0 (kubectl: Completed): a
	// drained or deleted pod that shut down cleanly, or a probe restart.
	StateCompleted State = "Completed"
	// StateCrashLoop: the container keeps exiting; restarts back off.
	StateCrashLoop State = "CrashLoopBackOff"
	// StateErrImagePull: the last pull of the image failed.
	StateErrImagePull State = "ErrImagePull"
	// StateImagePull: the image cannot be pulled and the kubelet backs off
	// (ImagePullBackOff).
	StateImagePull State = "ImagePullBackOff"
	// StateInvalidImage: the image reference does not parse
	// (InvalidImageName); drawn as StateImagePull, and not in the legend.
	StateInvalidImage State = "InvalidImageName"
	// StateEvicted: kubectl says Evicted: a Failed pod with reason Evicted
	// (node pressure).
	StateEvicted State = "Evicted"
	// StateUnknown: kubectl says Unknown: a pod of a lost node being
	// deleted, whose kubelet cannot confirm it.
	StateUnknown State = "Unknown"
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
	ShapeHollow   Shape = "hollow"   // Failed, Unknown: an empty outline
	ShapeBar      Shape = "bar"      // Error: an outline with an upright bar
	ShapeDone     Shape = "done"     // Completed: an outline with a flat bar
	// ShapeGone draws a pod created and deleted within the second
	// (Column.Gone): a faded dotted outline, struck through.
	ShapeGone Shape = "gone"
)

// Tile is one pod as the page draws it. Key is the pod's uid: the element
// lives as long as the pod.
type Tile struct {
	Key   string
	Name  string
	State State
	// Status is the pod's STATUS column in `kubectl get pods`, word for
	// word (kubectl.PodStatus): what the tile's name and hover say.
	Status string
	Shape  Shape
	// Label is the short text on or beside the tile: the pod's random
	// suffix ("x2kq").
	Label string
	// Node is the node the pod is bound to, "" when pending.
	Node string
	// New is set for pods of the Deployment's new ReplicaSet.
	New bool
	// Restarts is the sum of its containers' restartCount.
	Restarts int32
}

// AccessibleName is what a screen reader says for the tile, kubectl's
// words first: "pod web-5d9c-x2kq, Running, 2 restarts, on node-2".
func (t *Tile) AccessibleName() string {
	var b strings.Builder
	b.WriteString("pod ")
	b.WriteString(t.Name)
	b.WriteString(", ")
	b.WriteString(statusWords(t.State, t.Status))
	b.WriteString(", ")
	b.WriteString(plural(int64(t.Restarts), "restart"))
	if t.Node != "" {
		b.WriteString(", on ")
		b.WriteString(t.Node)
	} else {
		b.WriteString(", no node")
	}
	return b.String()
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
		{StateError, ShapeBar, "container exited with an error"},
		{StateCompleted, ShapeDone, "container exited 0 (drained, deleted)"},
		{StateCrashLoop, ShapeCross, "container keeps crashing"},
		{StateImagePull, ShapeTriangle, "image cannot be pulled"},
		{StateEvicted, ShapeSlash, "evicted by the kubelet"},
	}
}

var shapes = map[State]Shape{
	StatePending: ShapeDashed, StateContainerCreating: ShapeHalf, StateRunning: ShapeRing, StateReady: ShapeDot,
	StateAvailable: ShapeSolid, StateTerminating: ShapeStriped, StateCrashLoop: ShapeCross, StateImagePull: ShapeTriangle,
	StateInvalidImage: ShapeTriangle, StateEvicted: ShapeSlash, StateFailed: ShapeHollow,
	StateErrImagePull: ShapeTriangle, StateError: ShapeBar, StateCompleted: ShapeDone, StateUnknown: ShapeHollow,
}

// ShapeOf returns the shape that draws s.
func ShapeOf(s State) Shape {
	if sh, ok := shapes[s]; ok {
		return sh
	}
	return ShapeHollow
}

// PodState classifies a pod at now from kubectl's STATUS for it
// (kubectl.PodStatus), so a tile never says what kubectl contradicts:
// Running is split by readiness and minReadySeconds (its ReplicaSet's: a
// pod is available once Ready for that long, as the ReplicaSet controller
// counts it, api.IsAvailable).
func PodState(p *api.Pod, now time.Time, minReadySeconds int32) State {
	return stateOf(p, kubectl.PodStatus(p), now, minReadySeconds)
}

func stateOf(p *api.Pod, status string, now time.Time, minReadySeconds int32) State {
	switch status {
	case "Running", "NotReady":
		ready := api.GetPodCondition(&p.Status, api.PodReady)
		if ready != nil && ready.Status == api.ConditionTrue {
			if api.IsAvailable(ready, minReadySeconds, now) {
				return StateAvailable
			}
			return StateReady
		}
		return StateRunning
	case "Pending", "SchedulingGated":
		return StatePending
	case "ContainerCreating", "PodInitializing":
		return StateContainerCreating
	case "Terminating":
		return StateTerminating
	case "Completed":
		return StateCompleted
	case "CrashLoopBackOff":
		return StateCrashLoop
	case "ImagePullBackOff":
		return StateImagePull
	case "ErrImagePull":
		return StateErrImagePull
	case "InvalidImageName":
		return StateInvalidImage
	case "Evicted":
		return StateEvicted
	case "Unknown":
		return StateUnknown
	case "Failed", "Succeeded":
		return StateFailed
	}
	if strings.HasPrefix(status, "Init:") {
		return StateContainerCreating
	}
	// Error, OOMKilled, ExitCode:N, Signal:N, ContainerCannotRun...: a
	// container that ended and was not restarted yet.
	return StateError
}

func isEvicted(p *api.Pod) bool {
	if p.Status.Reason == "Evicted" {
		return true
	}
	c := api.GetPodCondition(&p.Status, api.DisruptionTarget)
	return c != nil && c.Status == api.ConditionTrue
}

// NewTile builds the tile of p at now. It allocates nothing beyond the
// tile: its hover text is computed on demand (PodTitle), since a page of a
// thousand tiles redraws many times a second.
func NewTile(p *api.Pod, now time.Time, minReadySeconds int32) Tile {
	status := kubectl.PodStatus(p)
	st := stateOf(p, status, now, minReadySeconds)
	var restarts int32
	for i := range p.Status.ContainerStatuses {
		restarts += p.Status.ContainerStatuses[i].RestartCount
	}
	return Tile{Key: p.UID, Name: p.Name, State: st, Status: status, Shape: ShapeOf(st), Label: shortName(p), Node: p.Spec.NodeName,
		Restarts: restarts}
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
	status := kubectl.PodStatus(p)
	return tileTitle(p, stateOf(p, status, s.Now(), minReady), status)
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
func tileTitle(p *api.Pod, st State, status string) string {
	var b strings.Builder
	b.WriteString(p.Name)
	b.WriteString(": ")
	b.WriteString(statusWords(st, status))
	if isEvicted(p) && status != string(StateEvicted) {
		b.WriteString(" (evicted")
		if c := api.GetPodCondition(&p.Status, api.DisruptionTarget); c != nil && c.Reason != "" {
			b.WriteString(": " + c.Reason)
		}
		b.WriteString(")")
	}
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

// statusWords is kubectl's STATUS, with Running told apart as the legend
// does: "Running, not ready", "Running, ready, not yet available".
func statusWords(st State, status string) string {
	switch st {
	case StateRunning:
		return status + ", not ready"
	case StateReady:
		return status + ", ready, not yet available"
	case StateAvailable:
		return status + ", available"
	}
	return status
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
