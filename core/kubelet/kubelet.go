package kubelet

import (
	"errors"
	"fmt"
	"maps"
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// Image is how a simulated image behaves (the scenario's cluster.images,
// documented in docs/scenarios.md). The zero value of a field means its
// default.
type Image struct {
	// PullSeconds is how long a pull takes (default 2; a negative value means 0).
	PullSeconds int32
	// StartSeconds is the time from "Container created" to running (default 1; negative means 0).
	StartSeconds int32
	// ReadySeconds is how long the app needs after starting before it
	// answers requests and passes any probe (default 0): until then it
	// refuses connections.
	ReadySeconds int32
	// CrashAfterSeconds makes the container exit with code 1 that many
	// seconds after every start (0: never).
	CrashAfterSeconds int32
	// PullFail makes every pull fail: ErrImagePull, then ImagePullBackOff.
	PullFail bool
	// PullFailures makes each node's first PullFailures pulls of the image
	// fail (a registry that times out); the next one succeeds.
	PullFailures int32
	// NeverReady makes the readiness probe fail forever, and the app never
	// answer a request.
	NeverReady bool
	// UnreadyAfterSeconds makes the readiness endpoint (and the app's
	// answers to requests) fail from that long after each start (0: never).
	UnreadyAfterSeconds int32
	// ReadinessFlapSeconds makes the warm app's readiness endpoint pass for
	// that long, then fail for that long, and so on (0: it does not flap).
	ReadinessFlapSeconds int32
	// LivenessFailAfterSeconds makes the app hang that long after each
	// start: liveness and readiness probes and requests time out (0: never).
	LivenessFailAfterSeconds int32
	// ShutdownSeconds is how long the app takes to exit after SIGTERM (0: at once).
	ShutdownSeconds int32
	// ExitCode is the code the app exits with after SIGTERM (default 0).
	ExitCode int32
}

const (
	defaultPullSeconds  = 2
	defaultStartSeconds = 1
)

func (im Image) pull() time.Duration  { return secs(im.PullSeconds, defaultPullSeconds) }
func (im Image) start() time.Duration { return secs(im.StartSeconds, defaultStartSeconds) }
func (im Image) ready() time.Duration { return secs(im.ReadySeconds, 0) }

func secs(v, def int32) time.Duration {
	switch {
	case v == 0:
		v = def
	case v < 0:
		v = 0
	}
	return time.Duration(v) * time.Second
}

// Options configures the kubelets.
type Options struct {
	// Images maps an image reference, exactly as pods write it, to its
	// behaviour. An image not listed is healthy with the defaults.
	Images map[string]Image
}

// Timings of the kubelet (kubelet configuration defaults).
const (
	// NodeStatusUpdateFrequency is how often a kubelet posts its Ready
	// condition's heartbeat.
	NodeStatusUpdateFrequency = 10 * time.Second
	// sandboxRetry is how soon a failed sandbox (no pod IP) or a missing
	// image with pull policy Never is tried again.
	sandboxRetry = 10 * time.Second
)

// Controller runs every node's kubelet.
type Controller struct {
	images map[string]Image      // immutable after New; shared by clones
	infos  map[string]*imageInfo // derived from image references (entries immutable)
	nodes  map[string]*nodeState // by node name
	pods   map[string]*podState  // by pod uid
	byName map[string]string     // namespace/name -> uid, for the crash fault
	seq    int                   // node indexes handed out
	epoch  uint64                // Syncs run

	order  []*podState  // the states of the last Sync's pods, in the store's order
	spare  []*podState  // the buffer the next order is built in
	byNode [][]boundPod // scratch of one Sync: its pods per node (not state, not cloned)
	// reuse says byNode still holds the store's bound pods as of the end of
	// the last Sync, whose write count was lastWrites.
	reuse      bool
	lastWrites int64
}

var _ controller.Controller = (*Controller)(nil)

// New returns the kubelets of a cluster.
func New(o Options) *Controller {
	images := make(map[string]Image, len(o.Images))
	for k, v := range o.Images {
		images[k] = v
	}
	return &Controller{images: images, nodes: map[string]*nodeState{}, pods: map[string]*podState{}, byName: map[string]string{}}
}

// Name implements controller.Controller.
func (k *Controller) Name() string { return Component }

// Clone implements controller.Controller: a deep copy of the runtime state.
func (k *Controller) Clone() controller.Controller {
	out := &Controller{images: k.images, nodes: make(map[string]*nodeState, len(k.nodes)),
		pods: make(map[string]*podState, len(k.pods)), byName: maps.Clone(k.byName), seq: k.seq, epoch: k.epoch}
	for name, n := range k.nodes {
		out.nodes[name] = n.clone()
	}
	for uid, p := range k.pods {
		out.pods[uid] = p.clone(out.nodes)
	}
	out.infos = maps.Clone(k.infos)
	for _, p := range k.order {
		if q := out.pods[p.uid]; q != nil && !p.gone {
			out.order = append(out.order, q)
		} else {
			out.order = append(out.order, &podState{uid: p.uid, gone: true})
		}
	}
	return out
}

func (k *Controller) image(ref string) Image { return k.images[ref] }

// imageInfo is what the runtime reports about an image, derived from its
// reference once.
type imageInfo struct {
	ref, id, pullErr, transientErr string
	// invalid is the kubelet's message for a reference it cannot parse
	// (InvalidImageName); empty for a valid one.
	invalid string
	size    int64
}

func (k *Controller) info(image string) *imageInfo {
	in := k.infos[image]
	if in == nil {
		in = &imageInfo{ref: normalizeImage(image), id: imageID(image), pullErr: pullError(image),
			transientErr: pullTimeoutError(image), invalid: invalidImageMessage(image), size: imageSize(image)}
		if k.infos == nil {
			k.infos = map[string]*imageInfo{}
		}
		k.infos[image] = in
	}
	return in
}

// Errors of the faults, for errors.Is.
var (
	ErrNodeNotFound = errors.New("node not found")
	ErrPodNotFound  = errors.New("pod not found")
	ErrNotRunning   = errors.New("pod is not running")
)

// SetNodeDown stops (down) or restarts a node's kubelet: the node-down and
// node-up faults. A down kubelet does nothing at all: no heartbeats, no pod
// status, no termination. Once it runs again it posts Ready, catches up on
// its pods and kills and removes those deleted meanwhile. Once the kubelets
// have synced, an unknown node is an error.
func (k *Controller) SetNodeDown(name string, down bool) error {
	n := k.nodes[name]
	if n == nil {
		if k.epoch > 0 || name == "" {
			return fmt.Errorf("node %q: %w", name, ErrNodeNotFound)
		}
		n = newNodeState(name)
		k.nodes[name] = n
	}
	n.down, n.dirty = down, true
	return nil
}

// NodeDown reports whether the node's kubelet is stopped.
func (k *Controller) NodeDown(name string) bool {
	n := k.nodes[name]
	return n != nil && n.down
}

// CrashPod makes every running container of the pod exit with code 1 at the
// next Sync (the crash pod/NAME fault). It is an error when the kubelet has
// no running container for the pod.
func (k *Controller) CrashPod(namespace, name string) error {
	if namespace == "" {
		namespace = api.NamespaceDefault
	}
	p := k.pods[k.byName[namespace+"/"+name]]
	if p == nil {
		return fmt.Errorf("pod %q: %w", name, ErrPodNotFound)
	}
	crashed := false
	for i := range p.ctrs {
		if c := &p.ctrs[i]; c.ph == phRunning {
			c.crashReq = true
			crashed = true
		}
	}
	if !crashed || p.killed {
		return fmt.Errorf("pod %q: %w", name, ErrNotRunning)
	}
	p.force = true
	if p.node != nil {
		p.node.dirty = true
	}
	return nil
}

// Serving reports whether the pod's app would answer a request at now: it is
// bound to a node whose kubelet is up and every container's app answers
// (it is warm, not hung, and its readiness endpoint passes: see answers).
// A container being stopped still serves while its preStop hook runs, and
// stops at SIGTERM. It does not look at the Ready condition: without a
// readiness probe a pod is Ready while its app still warms up.
func (k *Controller) Serving(p *api.Pod, now time.Time) bool {
	if p == nil {
		return false
	}
	ps := k.pods[p.UID]
	if ps == nil || ps.killed || ps.node == nil || ps.node.down || ps.node.name != p.Spec.NodeName || len(ps.ctrs) == 0 ||
		p.DeletionTimestamp != nil && !ps.terminating {
		return false
	}
	for i := range ps.ctrs {
		c := &ps.ctrs[i]
		switch {
		case c.ph == phKilling && !now.Before(c.sigtermAt):
			return false
		case c.ph != phRunning && c.ph != phKilling, c.crashReq, !k.image(c.image).serves(now.Sub(c.startedAt)):
			return false
		}
	}
	return true
}
