package kubelet

import (
	"encoding/json"
	"sort"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// writeStatus stores the status the kubelet reports for the pod when it
// differs from the stored one (the status manager's needsUpdate), and
// returns the pod as stored now.
func (k *Controller) writeStatus(ctx *controller.Context, ps *podState, p *api.Pod, now time.Time) *api.Pod {
	st := k.podStatus(ps, p, now)
	if statusEqual(&st, &p.Status) {
		ps.rv = p.ResourceVersion
		return p
	}
	x := *p
	x.Status = st
	out, err := ctx.Store.UpdateStatus(&x)
	if err != nil {
		ps.rv = "" // try again at the next Sync
		return p
	}
	ps.rv = out.GetObjectMeta().ResourceVersion
	return out.(*api.Pod)
}

// kubeletConditions are the pod conditions the kubelet owns
// (kubetypes.PodConditionByKubelet); it keeps every other condition as it is.
func kubeletCondition(t string) bool {
	switch t {
	case api.PodScheduled, api.PodReady, api.PodInitialized, api.ContainersReady, api.PodReadyToStartContainers:
		return true
	}
	return false
}

// podStatus is the status the kubelet reports (generateAPIPodStatus).
func (k *Controller) podStatus(ps *podState, p *api.Pod, now time.Time) api.PodStatus {
	st := api.PodStatus{HostIP: k.node(ps).hostIP, PodIP: ps.ip, StartTime: api.NewTimePtr(ps.startTime), QOSClass: api.QOSClass(&p.Spec)}
	st.ContainerStatuses = make([]api.ContainerStatus, len(ps.ctrs))
	var unready []string
	for i := range ps.ctrs {
		st.ContainerStatuses[i] = k.containerStatus(ps, p, i)
		if !ps.ctrs[i].ready {
			unready = append(unready, ps.ctrs[i].name)
		}
	}
	// sort.SliceStable, not slices.SortFunc: one more instantiation of the
	// generic sort for this struct would cost the page's wasm about 20 KB
	// raw, for a list of a few containers (docs/performance.md).
	cs := st.ContainerStatuses
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	st.Phase = podPhase(p.Spec.RestartPolicy, st.ContainerStatuses, ps.killed)

	others := 0
	for _, c := range p.Status.Conditions {
		if !kubeletCondition(c.Type) {
			others++
		}
	}
	conds := make([]api.PodCondition, 0, others+5)
	for _, c := range p.Status.Conditions {
		if !kubeletCondition(c.Type) {
			conds = append(conds, c)
		}
	}
	set := func(t string, ok bool, reason, message string) {
		c := api.PodCondition{Type: t, Status: api.ConditionFalse, Reason: reason, Message: message}
		if ok {
			c.Status, c.Reason, c.Message = api.ConditionTrue, "", ""
		}
		c.LastTransitionTime = api.NewTime(now)
		if old := api.GetPodCondition(&p.Status, t); old != nil && old.Status == c.Status && !old.LastTransitionTime.IsZero() {
			c.LastTransitionTime = old.LastTransitionTime
		}
		conds = append(conds, c)
	}
	notReadyReason, notReadyMsg := reasonContainersNotRdy, ""
	if len(unready) > 0 {
		notReadyMsg = msgUnready(unready) // a ready condition has no message
	}
	initReason := ""
	if st.Phase == api.PodSucceeded {
		notReadyReason, notReadyMsg, initReason = reasonPodCompleted, "", reasonPodCompleted
	}
	set(api.PodReadyToStartContainers, !ps.killed, "", "")
	set(api.PodInitialized, true, "", "")
	if initReason != "" {
		conds[len(conds)-1].Reason = initReason
	}
	set(api.PodReady, len(unready) == 0, notReadyReason, notReadyMsg)
	set(api.ContainersReady, len(unready) == 0, notReadyReason, notReadyMsg)
	set(api.PodScheduled, true, "", "")
	st.Conditions = conds
	return st
}

// containerStatus is one container's status as the runtime reports it.
func (k *Controller) containerStatus(ps *podState, p *api.Pod, i int) api.ContainerStatus {
	c := &ps.ctrs[i]
	running := c.ph == phRunning || c.ph == phKilling
	cs := api.ContainerStatus{Name: c.name, Image: c.image, Ready: c.ready, RestartCount: max(c.runs-1, 0), Started: api.Bool(running && c.started)}
	if c.runs > 0 {
		info := k.info(c.image)
		cs.Image, cs.ImageID = info.ref, info.id
	}
	switch {
	case running:
		cs.State.Running = &api.ContainerStateRunning{StartedAt: api.NewTime(c.startedAt)}
		cs.ContainerID = c.id
		cs.LastTerminationState = terminated(c.cur)
	case c.ph == phBackOff:
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: WaitingCrashLoopBackOff,
			Message: msgCrashBackOffWaiting(c.crashBO.d, c.name, formatPod(p.Name, p.Namespace, p.UID))}
		cs.LastTerminationState = terminated(c.cur)
		cs.ContainerID = c.cur.id
	case c.cur.valid:
		// exited, restarting, or stopped: the last run is the current state
		cs.State = terminated(c.cur)
		cs.LastTerminationState = terminated(c.prev)
		cs.ContainerID = c.cur.id
	default:
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: WaitingContainerCreating}
		switch {
		case c.ph == phPullFailed:
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: WaitingErrImagePull, Message: c.pullErr}
		case c.ph == phInvalidImage:
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: WaitingInvalidImageName, Message: k.info(c.image).invalid}
		case c.ph == phNeverPull:
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: WaitingErrImageNeverPull, Message: msgNeverPull(c.image)}
		case c.pullFailed && (c.ph == phPullBackOff || c.ph == phPulling):
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: WaitingImagePullBackOff,
				Message: msgPullBackOff(c.image) + ": " + WaitingErrImagePull + ": " + c.pullErr}
		}
	}
	return cs
}

func terminated(t term) api.ContainerState {
	if !t.valid {
		return api.ContainerState{}
	}
	return api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: t.exitCode, Reason: t.reason,
		StartedAt: api.NewTime(t.startedAt), FinishedAt: api.NewTime(t.finished), ContainerID: t.id}}
}

// podPhase is the kubelet's getPhase for a pod without init containers: a
// container waiting for its first start keeps the pod Pending; a running one
// makes it Running; when all have stopped, restartPolicy Always keeps it
// Running (it restarts them), otherwise it is Succeeded when all exited 0
// and Failed when one did not. A pod that is being deleted and whose
// containers were stopped gets its terminal phase.
func podPhase(policy string, cs []api.ContainerStatus, killed bool) string {
	waiting, running, stopped, succeeded := 0, 0, 0, 0
	for i := range cs {
		s := &cs[i].State
		switch {
		case s.Running != nil:
			running++
		case s.Terminated != nil:
			stopped++
			if s.Terminated.ExitCode == 0 {
				succeeded++
			}
		case cs[i].LastTerminationState.Terminated != nil:
			stopped++
		default:
			waiting++
		}
	}
	switch {
	case killed && waiting == 0 && running == 0:
		if stopped == succeeded {
			return api.PodSucceeded
		}
		return api.PodFailed
	case waiting > 0:
		return api.PodPending
	case running > 0:
		return api.PodRunning
	case stopped > 0:
		switch {
		case policy == api.RestartPolicyAlways:
			return api.PodRunning
		case stopped == succeeded:
			return api.PodSucceeded
		case policy == api.RestartPolicyNever:
			return api.PodFailed
		}
		return api.PodRunning
	}
	return api.PodPending
}

// statusEqual compares the fields the kubelet writes.
func statusEqual(a, b *api.PodStatus) bool {
	if a.Phase != b.Phase || a.Message != b.Message || a.Reason != b.Reason || a.HostIP != b.HostIP || a.PodIP != b.PodIP ||
		a.QOSClass != b.QOSClass || !timePtrEqual(a.StartTime, b.StartTime) ||
		len(a.Conditions) != len(b.Conditions) || len(a.ContainerStatuses) != len(b.ContainerStatuses) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!x.LastProbeTime.Equal(y.LastProbeTime) || !x.LastTransitionTime.Equal(y.LastTransitionTime) {
			return false
		}
	}
	for i := range a.ContainerStatuses {
		x, y := &a.ContainerStatuses[i], &b.ContainerStatuses[i]
		if x.Name != y.Name || x.Ready != y.Ready || x.RestartCount != y.RestartCount || x.Image != y.Image ||
			x.ImageID != y.ImageID || x.ContainerID != y.ContainerID || !boolPtrEqual(x.Started, y.Started) ||
			!stateEqual(&x.State, &y.State) || !stateEqual(&x.LastTerminationState, &y.LastTerminationState) {
			return false
		}
	}
	return true
}

func stateEqual(a, b *api.ContainerState) bool {
	if (a.Waiting == nil) != (b.Waiting == nil) || (a.Running == nil) != (b.Running == nil) || (a.Terminated == nil) != (b.Terminated == nil) {
		return false
	}
	if a.Waiting != nil && *a.Waiting != *b.Waiting {
		return false
	}
	if a.Running != nil && !a.Running.StartedAt.Equal(b.Running.StartedAt) {
		return false
	}
	if x, y := a.Terminated, b.Terminated; x != nil {
		return x.ExitCode == y.ExitCode && x.Signal == y.Signal && x.Reason == y.Reason && x.Message == y.Message &&
			x.ContainerID == y.ContainerID && x.StartedAt.Equal(y.StartedAt) && x.FinishedAt.Equal(y.FinishedAt)
	}
	return true
}

func timePtrEqual(a, b *api.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

func boolPtrEqual(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// httpGet is the part of a probe handler (httpGet, tcpSocket, grpc) that
// failure messages show.
type httpGet struct {
	Path   string          `json:"path"`
	Port   api.IntOrString `json:"port"`
	Host   string          `json:"host"`
	Scheme string          `json:"scheme"`
}

func parseHTTPGet(raw api.Raw) httpGet {
	var h httpGet
	_ = json.Unmarshal(raw, &h) // a malformed handler just gives a plainer message
	return h
}

func (h httpGet) scheme() string {
	if h.Scheme == "" {
		return "http"
	}
	return strings.ToLower(h.Scheme)
}

func (h httpGet) path() string {
	if !strings.HasPrefix(h.Path, "/") {
		return "/" + h.Path
	}
	return h.Path
}

// parseExec is the command of a raw exec handler.
func parseExec(raw api.Raw) []string {
	var e struct {
		Command []string `json:"command"`
	}
	_ = json.Unmarshal(raw, &e) // a malformed handler just has no command
	return e.Command
}
