package api

import "time"

// PodTemplateSpec is v1 PodTemplateSpec: the metadata and spec of pods to create.
type PodTemplateSpec struct {
	ObjectMeta `json:"metadata,omitzero"`
	Spec       PodSpec `json:"spec"`
}

// IsZero reports whether the template metadata is empty (for omitzero).
func (m ObjectMeta) IsZero() bool {
	return m.Name == "" && m.GenerateName == "" && m.Namespace == "" && m.UID == "" && m.ResourceVersion == "" &&
		m.Generation == 0 && m.CreationTimestamp.IsZero() && m.DeletionTimestamp == nil && m.DeletionGracePeriodSeconds == nil &&
		m.Labels == nil && m.Annotations == nil && m.OwnerReferences == nil && m.Finalizers == nil
}

// DeepCopy returns a copy of t.
func (t PodTemplateSpec) DeepCopy() PodTemplateSpec {
	return PodTemplateSpec{ObjectMeta: t.ObjectMeta.DeepCopy(), Spec: t.Spec.DeepCopy()}
}

// PodSpec is v1 PodSpec: the fields Converge simulates, plus pass-through ones
// that manifests and `kubectl get -o yaml` commonly carry.
type PodSpec struct {
	Containers                    []Container       `json:"containers"`
	InitContainers                []Container       `json:"initContainers,omitempty"`
	RestartPolicy                 string            `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64            `json:"terminationGracePeriodSeconds,omitempty"`
	ActiveDeadlineSeconds         *int64            `json:"activeDeadlineSeconds,omitempty"`
	DNSPolicy                     string            `json:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string `json:"nodeSelector,omitempty"`
	ServiceAccountName            string            `json:"serviceAccountName,omitempty"`
	DeprecatedServiceAccount      string            `json:"serviceAccount,omitempty"`
	NodeName                      string            `json:"nodeName,omitempty"`
	HostNetwork                   bool              `json:"hostNetwork,omitempty"`
	SecurityContext               Raw               `json:"securityContext,omitempty"`
	ImagePullSecrets              Raw               `json:"imagePullSecrets,omitempty"`
	Hostname                      string            `json:"hostname,omitempty"`
	Subdomain                     string            `json:"subdomain,omitempty"`
	Affinity                      Raw               `json:"affinity,omitempty"`
	SchedulerName                 string            `json:"schedulerName,omitempty"`
	Tolerations                   []Toleration      `json:"tolerations,omitempty"`
	PriorityClassName             string            `json:"priorityClassName,omitempty"`
	Priority                      *int32            `json:"priority,omitempty"`
	TopologySpreadConstraints     Raw               `json:"topologySpreadConstraints,omitempty"`
	Volumes                       Raw               `json:"volumes,omitempty"`
	EnableServiceLinks            *bool             `json:"enableServiceLinks,omitempty"`
	PreemptionPolicy              *string           `json:"preemptionPolicy,omitempty"`
}

// Restart policies.
const (
	RestartPolicyAlways    = "Always"
	RestartPolicyOnFailure = "OnFailure"
	RestartPolicyNever     = "Never"
)

// DeepCopy returns a copy of s. Raw parts are immutable and shared.
func (s PodSpec) DeepCopy() PodSpec {
	out := s
	out.Containers = copyContainers(s.Containers)
	out.InitContainers = copyContainers(s.InitContainers)
	out.TerminationGracePeriodSeconds = copyInt64(s.TerminationGracePeriodSeconds)
	out.ActiveDeadlineSeconds = copyInt64(s.ActiveDeadlineSeconds)
	out.NodeSelector = CopyStringMap(s.NodeSelector)
	if s.Tolerations != nil {
		out.Tolerations = make([]Toleration, len(s.Tolerations))
		for i, t := range s.Tolerations {
			t.TolerationSeconds = copyInt64(t.TolerationSeconds)
			out.Tolerations[i] = t
		}
	}
	out.Priority = copyInt32(s.Priority)
	out.EnableServiceLinks = copyBool(s.EnableServiceLinks)
	if s.PreemptionPolicy != nil {
		v := *s.PreemptionPolicy
		out.PreemptionPolicy = &v
	}
	return out
}

func copyContainers(cs []Container) []Container {
	if cs == nil {
		return nil
	}
	out := make([]Container, len(cs))
	for i, c := range cs {
		out[i] = c.DeepCopy()
	}
	return out
}

// Container is v1 Container.
type Container struct {
	Name                     string               `json:"name"`
	Image                    string               `json:"image,omitempty"`
	Command                  []string             `json:"command,omitempty"`
	Args                     []string             `json:"args,omitempty"`
	WorkingDir               string               `json:"workingDir,omitempty"`
	Ports                    []ContainerPort      `json:"ports,omitempty"`
	EnvFrom                  Raw                  `json:"envFrom,omitempty"`
	Env                      []EnvVar             `json:"env,omitempty"`
	Resources                ResourceRequirements `json:"resources,omitzero"`
	VolumeMounts             Raw                  `json:"volumeMounts,omitempty"`
	LivenessProbe            *Probe               `json:"livenessProbe,omitempty"`
	ReadinessProbe           *Probe               `json:"readinessProbe,omitempty"`
	StartupProbe             *Probe               `json:"startupProbe,omitempty"`
	Lifecycle                *Lifecycle           `json:"lifecycle,omitempty"`
	TerminationMessagePath   string               `json:"terminationMessagePath,omitempty"`
	TerminationMessagePolicy string               `json:"terminationMessagePolicy,omitempty"`
	ImagePullPolicy          string               `json:"imagePullPolicy,omitempty"`
	SecurityContext          Raw                  `json:"securityContext,omitempty"`
	Stdin                    bool                 `json:"stdin,omitempty"`
	TTY                      bool                 `json:"tty,omitempty"`
}

// DeepCopy returns a copy of c.
func (c Container) DeepCopy() Container {
	out := c
	out.Command = copyStrings(c.Command)
	out.Args = copyStrings(c.Args)
	if c.Ports != nil {
		out.Ports = append([]ContainerPort(nil), c.Ports...)
	}
	if c.Env != nil {
		out.Env = append([]EnvVar(nil), c.Env...)
	}
	out.Resources = ResourceRequirements{Limits: c.Resources.Limits.DeepCopy(), Requests: c.Resources.Requests.DeepCopy()}
	out.LivenessProbe = c.LivenessProbe.DeepCopy()
	out.ReadinessProbe = c.ReadinessProbe.DeepCopy()
	out.StartupProbe = c.StartupProbe.DeepCopy()
	out.Lifecycle = c.Lifecycle.DeepCopy()
	return out
}

// ContainerPort is v1 ContainerPort.
type ContainerPort struct {
	Name          string `json:"name,omitempty"`
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol,omitempty"`
	HostPort      int32  `json:"hostPort,omitempty"`
}

// EnvVar is v1 EnvVar; valueFrom (a ConfigMap or Secret reference) is kept raw.
type EnvVar struct {
	Name      string `json:"name"`
	Value     string `json:"value,omitempty"`
	ValueFrom Raw    `json:"valueFrom,omitempty"`
}

// ResourceRequirements holds requests and limits.
type ResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}

// IsZero reports whether no requests or limits are set.
func (r ResourceRequirements) IsZero() bool { return len(r.Limits) == 0 && len(r.Requests) == 0 }

// Probe is v1 Probe. The handler (httpGet, tcpSocket, exec, grpc) only has to
// be present; whether it passes comes from the image's simulated behaviour.
type Probe struct {
	Exec                          Raw    `json:"exec,omitempty"`
	HTTPGet                       Raw    `json:"httpGet,omitempty"`
	TCPSocket                     Raw    `json:"tcpSocket,omitempty"`
	GRPC                          Raw    `json:"grpc,omitempty"`
	InitialDelaySeconds           int32  `json:"initialDelaySeconds,omitempty"`
	TimeoutSeconds                int32  `json:"timeoutSeconds,omitempty"`
	PeriodSeconds                 int32  `json:"periodSeconds,omitempty"`
	SuccessThreshold              int32  `json:"successThreshold,omitempty"`
	FailureThreshold              int32  `json:"failureThreshold,omitempty"`
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
}

// DeepCopy returns a copy of p (nil stays nil).
func (p *Probe) DeepCopy() *Probe {
	if p == nil {
		return nil
	}
	out := *p
	out.TerminationGracePeriodSeconds = copyInt64(p.TerminationGracePeriodSeconds)
	return &out
}

// Lifecycle is v1 Lifecycle: the hooks the kubelet runs after a container
// starts and before it is stopped. Converge runs preStop (see
// docs/scenarios.md); postStart is kept and validated.
type Lifecycle struct {
	PostStart *LifecycleHandler `json:"postStart,omitempty"`
	PreStop   *LifecycleHandler `json:"preStop,omitempty"`
}

// LifecycleHandler is v1 LifecycleHandler: exactly one of exec, httpGet,
// tcpSocket and sleep. httpGet and tcpSocket are kept raw, as in Probe.
type LifecycleHandler struct {
	Exec      *ExecAction  `json:"exec,omitempty"`
	HTTPGet   Raw          `json:"httpGet,omitempty"`
	TCPSocket Raw          `json:"tcpSocket,omitempty"`
	Sleep     *SleepAction `json:"sleep,omitempty"`
}

// ExecAction is v1 ExecAction: a command run in the container.
type ExecAction struct {
	Command []string `json:"command,omitempty"`
}

// SleepAction is v1 SleepAction: the kubelet waits that many seconds.
type SleepAction struct {
	Seconds int64 `json:"seconds"`
}

// DeepCopy returns a copy of l (nil stays nil).
func (l *Lifecycle) DeepCopy() *Lifecycle {
	if l == nil {
		return nil
	}
	return &Lifecycle{PostStart: l.PostStart.DeepCopy(), PreStop: l.PreStop.DeepCopy()}
}

// DeepCopy returns a copy of h (nil stays nil). Raw parts are immutable and shared.
func (h *LifecycleHandler) DeepCopy() *LifecycleHandler {
	if h == nil {
		return nil
	}
	out := *h
	if h.Exec != nil {
		out.Exec = &ExecAction{Command: copyStrings(h.Exec.Command)}
	}
	if h.Sleep != nil {
		s := *h.Sleep
		out.Sleep = &s
	}
	return &out
}

// Toleration is v1 Toleration.
type Toleration struct {
	Key               string `json:"key,omitempty"`
	Operator          string `json:"operator,omitempty"`
	Value             string `json:"value,omitempty"`
	Effect            string `json:"effect,omitempty"`
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// Pod is v1 Pod.
type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       PodSpec   `json:"spec"`
	Status     PodStatus `json:"status"`
}

// DeepCopy returns a copy of p.
func (p *Pod) DeepCopy() *Pod {
	if p == nil {
		return nil
	}
	return &Pod{TypeMeta: p.TypeMeta, ObjectMeta: p.ObjectMeta.DeepCopy(), Spec: p.Spec.DeepCopy(), Status: p.Status.DeepCopy()}
}

// DeepCopyObject implements Object.
func (p *Pod) DeepCopyObject() Object { return p.DeepCopy() }

// Pod phases.
const (
	PodPending   = "Pending"
	PodRunning   = "Running"
	PodSucceeded = "Succeeded"
	PodFailed    = "Failed"
	PodUnknown   = "Unknown"
)

// Pod condition types.
const (
	PodScheduled              = "PodScheduled"
	PodInitialized            = "Initialized"
	ContainersReady           = "ContainersReady"
	PodReady                  = "Ready"
	PodReadyToStartContainers = "PodReadyToStartContainers"
	DisruptionTarget          = "DisruptionTarget"
)

// PodStatus is v1 PodStatus.
type PodStatus struct {
	Phase             string            `json:"phase,omitempty"`
	Conditions        []PodCondition    `json:"conditions,omitempty"`
	Message           string            `json:"message,omitempty"`
	Reason            string            `json:"reason,omitempty"`
	HostIP            string            `json:"hostIP,omitempty"`
	PodIP             string            `json:"podIP,omitempty"`
	StartTime         *Time             `json:"startTime,omitempty"`
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty"`
	QOSClass          string            `json:"qosClass,omitempty"`
}

// DeepCopy returns a copy of s.
func (s PodStatus) DeepCopy() PodStatus {
	out := s
	if s.Conditions != nil {
		out.Conditions = append([]PodCondition(nil), s.Conditions...)
	}
	out.StartTime = copyTime(s.StartTime)
	if s.ContainerStatuses != nil {
		out.ContainerStatuses = make([]ContainerStatus, len(s.ContainerStatuses))
		for i, c := range s.ContainerStatuses {
			out.ContainerStatuses[i] = c.DeepCopy()
		}
	}
	return out
}

// PodCondition is one entry of pod status.conditions.
type PodCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastProbeTime      Time   `json:"lastProbeTime"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitzero"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// ContainerStatus is v1 ContainerStatus.
type ContainerStatus struct {
	Name                 string         `json:"name"`
	State                ContainerState `json:"state,omitzero"`
	LastTerminationState ContainerState `json:"lastState,omitzero"`
	Ready                bool           `json:"ready"`
	RestartCount         int32          `json:"restartCount"`
	Image                string         `json:"image"`
	ImageID              string         `json:"imageID"`
	ContainerID          string         `json:"containerID,omitempty"`
	Started              *bool          `json:"started,omitempty"`
}

// DeepCopy returns a copy of c.
func (c ContainerStatus) DeepCopy() ContainerStatus {
	out := c
	out.State = c.State.DeepCopy()
	out.LastTerminationState = c.LastTerminationState.DeepCopy()
	out.Started = copyBool(c.Started)
	return out
}

// ContainerState holds exactly one of waiting, running, terminated (or none).
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// IsZero reports whether no state is set.
func (s ContainerState) IsZero() bool {
	return s.Waiting == nil && s.Running == nil && s.Terminated == nil
}

// DeepCopy returns a copy of s.
func (s ContainerState) DeepCopy() ContainerState {
	var out ContainerState
	if s.Waiting != nil {
		w := *s.Waiting
		out.Waiting = &w
	}
	if s.Running != nil {
		r := *s.Running
		out.Running = &r
	}
	if s.Terminated != nil {
		t := *s.Terminated
		out.Terminated = &t
	}
	return out
}

// ContainerStateWaiting is a waiting container: ContainerCreating,
// ErrImagePull, ImagePullBackOff, CrashLoopBackOff.
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning is a running container.
type ContainerStateRunning struct {
	StartedAt Time `json:"startedAt,omitzero"`
}

// ContainerStateTerminated is a container that exited.
type ContainerStateTerminated struct {
	ExitCode    int32  `json:"exitCode"`
	Signal      int32  `json:"signal,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Message     string `json:"message,omitempty"`
	StartedAt   Time   `json:"startedAt,omitzero"`
	FinishedAt  Time   `json:"finishedAt,omitzero"`
	ContainerID string `json:"containerID,omitempty"`
}

// IsAvailable is podutil.IsPodAvailable for a Ready=True condition: ready
// for minReadySeconds, that is lastTransitionTime + minReadySeconds at or
// before now (any ready pod with minReadySeconds 0). Kubernetes 1.35
// compares with Compare(now) <= 0; 1.28 wanted it strictly before now.
//
// Example: minReadySeconds 10, ready at 00:00:05: not available at 00:00:14,
// available at 00:00:15.
func IsAvailable(ready *PodCondition, minReadySeconds int32, now time.Time) bool {
	if minReadySeconds <= 0 {
		return true
	}
	t := ready.LastTransitionTime
	return !t.IsZero() && !t.Add(time.Duration(minReadySeconds)*time.Second).After(now)
}

// GetPodCondition returns the condition of type t, or nil.
func GetPodCondition(s *PodStatus, t string) *PodCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether the pod's Ready condition is True.
func IsPodReady(p *Pod) bool {
	c := GetPodCondition(&p.Status, PodReady)
	return c != nil && c.Status == ConditionTrue
}

// IsPodActive reports whether a pod counts toward its ReplicaSet: not
// Succeeded, not Failed, and not being deleted.
func IsPodActive(p *Pod) bool {
	return p.Status.Phase != PodSucceeded && p.Status.Phase != PodFailed && p.DeletionTimestamp == nil
}

// UpdatePodCondition is podutil.UpdatePodCondition: it adds c, or updates
// the condition of its type, and reports whether anything changed;
// lastTransitionTime moves to now only when the status changes.
func UpdatePodCondition(s *PodStatus, c PodCondition, now Time) bool {
	c.LastTransitionTime = now
	for i := range s.Conditions {
		old := &s.Conditions[i]
		if old.Type != c.Type {
			continue
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
		if *old == c {
			return false
		}
		*old = c
		return true
	}
	s.Conditions = append(s.Conditions, c)
	return true
}
