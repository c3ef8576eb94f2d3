package kubelet

import (
	"maps"
	"time"

	"converge/core/persist"
)

// phase is where one container is in its life, as the kubelet's runtime
// sees it.
type phase uint8

const (
	phNew          phase = iota // not started yet: the next step makes sure the image is there
	phPulling                   // image pull in progress until at
	phPullFailed                // the pull failed (ErrImagePull); the back-off shows from at
	phPullBackOff               // ImagePullBackOff until the retry at at
	phNeverPull                 // image absent with imagePullPolicy Never; retried at at
	phCreating                  // "Container created"; running at at
	phRunning                   // running; at is the next probe or the crash
	phKilling                   // running, being stopped (preStop, SIGTERM, SIGKILL); it exits at at
	phExited                    // exited (Error); CrashLoopBackOff shows from at
	phBackOff                   // CrashLoopBackOff until the restart at at
	phStopped                   // exited for good (restartPolicy Never), or stopped by pod termination
	phInvalidImage              // the image reference does not parse (InvalidImageName); retried at at
)

// killReason is why a container is being stopped (kuberuntime's
// containerKillReason).
type killReason uint8

const (
	killDelete   killReason = iota // the pod is being deleted
	killLiveness                   // it failed its liveness probe
	killStartup                    // it failed its startup probe
)

// result is a probe result as the prober's results manager holds it.
type result int8

const (
	resultUnknown result = iota
	resultSuccess
	resultFailure
)

// prober is one probe worker's state (pkg/kubelet/prober/worker.go): when it
// runs next, the run of equal results it has seen, the result it set, and
// whether it is on hold until the container restarts.
type prober struct {
	next   time.Time // zero: not scheduled
	base   time.Time // startedAt + initialDelaySeconds: the probes run at base + k*period
	period time.Duration
	last   result // lastResult
	run    int32  // resultRun
	result result
	hold   bool
}

// backoff is client-go's flowcontrol.Backoff for one key, as the kubelet
// configures it (initial 10s, max 300s, no jitter).
type backoff struct {
	has     bool
	d       time.Duration
	updated time.Time
}

const (
	backoffInitial = 10 * time.Second
	backoffMax     = 300 * time.Second
)

// expired is flowcontrol's hasExpired: the entry is stale when the event is
// more than twice the maximum after its last update (600s).
func (b *backoff) expired(event time.Time) bool { return event.Sub(b.updated) > 2*backoffMax }

// inBackOffSince is IsInBackOffSince: whether now is still within the
// back-off that started at event.
func (b *backoff) inBackOffSince(event, now time.Time) bool {
	if !b.has || b.expired(event) {
		return false
	}
	return now.Sub(event) < b.d
}

// next is Next: start at 10s, then double up to 300s.
func (b *backoff) next(event, now time.Time) {
	if !b.has || b.expired(event) {
		b.d = backoffInitial
	} else {
		b.d = min(2*b.d, backoffMax)
	}
	b.has = true
	b.updated = now
}

// term is one finished run of a container.
type term struct {
	valid     bool
	exitCode  int32
	reason    string
	startedAt time.Time
	finished  time.Time
	id        string
}

// ctr is the runtime state of one container (spec order).
type ctr struct {
	name  string
	image string
	ph    phase
	at    time.Time // when the current phase's next step is due; zero: nothing due

	pullStart    time.Time
	pullFailed   bool   // a pull of this container failed before (the waiting reason stays ImagePullBackOff while retrying)
	pullWillFail bool   // the pull in progress is one of the image's pullFailures
	pullErr      string // the error of the last failed pull
	pullBO       backoff
	retryAt      time.Time

	runs      int32  // how many times it was started
	id        string // the container id of the current (or last) run
	startedAt time.Time
	crashAt   time.Time // zero: never crashes by itself
	crashReq  bool      // the crash fault asked for an exit
	cur, prev term      // the last finished run and the one before it
	restartAt time.Time
	crashBO   backoff

	ready   bool              // the readiness the kubelet reports
	started bool              // the startup probe passed (or there is none)
	probes  [numProbes]prober // startup, liveness, readiness; unused when the spec has none

	// A container being stopped (phKilling): why, when SIGTERM comes (after
	// the preStop hook), and how it exits.
	kill      killReason
	killAt    time.Time
	sigtermAt time.Time
	exitCode  int32
	sigkill   bool // the exit is a SIGKILL at the end of the grace period
}

// category summarises a pod for the sync record.
type category uint8

const (
	catPending category = iota
	catPulling
	catPullBackOff
	catStarting
	catRunning
	catRunningReady
	catCrashLoop
	catTerminating
	catInvalidImage
	numCategories
)

var categoryWords = [numCategories]string{"pending", "pulling", "image pull back-off", "starting", "running", "running", "crash-looping",
	"terminating", "invalid image name"}

// podState is the kubelet's runtime state of one pod. A clone of the
// Controller shares it until one of the two writes it: whoever does
// writes a copy (Controller.writable), so checkpoints cost the pods that
// changed.
type podState struct {
	// own is the Controller version that may write it in place.
	own                  *persist.Owner
	uid, name, namespace string
	nodeName             string
	ipHost               int // last octet of the pod IP; 0 while the sandbox has no IP
	ip                   string
	startTime            time.Time
	ctrs                 []ctr

	rv    string    // resourceVersion last seen or written
	due   time.Time // earliest step due; zero: none
	force bool      // process at the next Sync (the crash fault)
	// terminating: the pod is being deleted and its containers are being
	// stopped; killed: they all stopped, the pod is removed at removeAt.
	terminating bool
	grace       int64     // the grace period the containers are being stopped with
	termStart   time.Time // when the kubelet began to stop them
	killed      bool
	removeAt    time.Time
	noIP        bool      // sandbox creation failed for want of an IP; FailedCreatePodSandBox sent
	noIPAt      time.Time // when the sandbox is tried again

	// The summary for the sync record, kept up to date by computeDue.
	cat     category
	waitAt  time.Time // when the wait shown in the record ends; zero: none
	waitCtr int       // the container that waits; -1: the pod
}

// nodeState is the kubelet's runtime state of one node.
type nodeState struct {
	name    string
	index   int // 1-based, in order of first sight; 0: not assigned yet
	down    bool
	present map[string]bool      // images on the node
	pulls   map[string]time.Time // image -> end of the pull in progress
	tries   map[string]int32     // image -> pulls started, for the image's pullFailures
	used    [256]bool            // pod IPs in use (last octet)
	next    int                  // last octet handed out last
	hostIP  string
	epoch   uint64 // Sync in which the node was last listed
	pos     int    // its position in that Sync's node list
	ref     string // node/NAME

	lastCats  [numCategories]int // the counts behind lastText
	lastReady int
	lastText  string

	// The summary of the last full pass over the node's pods, repeated
	// while nothing is due (valid while cached; not carried into clones).
	log    nodeLog
	cached bool
	due    time.Time // the earliest step due on the node's pods
	dirty  bool      // a fault touched the node or one of its pods
}

func newNodeState(name string) *nodeState {
	return &nodeState{name: name, ref: "node/" + name, present: map[string]bool{}, pulls: map[string]time.Time{}, tries: map[string]int32{}, next: 1}
}

func (n *nodeState) clone() *nodeState {
	x := *n
	x.log, x.cached = nodeLog{}, false
	x.present = make(map[string]bool, len(n.present))
	for k, v := range n.present {
		x.present[k] = v
	}
	x.pulls = make(map[string]time.Time, len(n.pulls))
	for k, v := range n.pulls {
		x.pulls[k] = v
	}
	x.tries = maps.Clone(n.tries)
	return &x
}

// copyFor returns a copy of p that own may write.
func (p *podState) copyFor(own *persist.Owner) *podState {
	x := *p
	x.own = own
	x.ctrs = append([]ctr(nil), p.ctrs...)
	return &x
}

// computeDue sets p.due to the earliest step due.
func (p *podState) computeDue() {
	var due time.Time
	add := func(t time.Time) {
		if !t.IsZero() && (due.IsZero() || t.Before(due)) {
			due = t
		}
	}
	switch {
	case p.killed:
		add(p.removeAt)
	case p.noIP:
		add(p.noIPAt)
	default:
		for i := range p.ctrs {
			add(p.ctrs[i].at)
		}
	}
	p.due = due
	p.cat, p.waitAt, p.waitCtr = p.summary()
}
