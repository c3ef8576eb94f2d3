package api

import (
	"math"
	"strings"
)

// Default values of apps/v1 and v1, as the API server applies them on every write.
const (
	DefaultRevisionHistoryLimit          = 10
	DefaultProgressDeadlineSeconds       = 600
	DefaultTerminationGracePeriodSeconds = 30
	DefaultTolerationSeconds             = 300
	// NoProgressDeadline (math.MaxInt32) means the Deployment never times out.
	NoProgressDeadline = math.MaxInt32
)

// SetDefaultsDeployment is apps/v1 SetDefaults_Deployment plus the pod
// template defaults: replicas 1, strategy RollingUpdate with 25%/25% (each
// field on its own; Recreate gets no rollingUpdate block), revisionHistoryLimit
// 10, progressDeadlineSeconds 600.
func SetDefaultsDeployment(d *Deployment) {
	d.APIVersion, d.Kind = GroupVersionApps, KindDeployment
	if d.Namespace == "" {
		d.Namespace = NamespaceDefault
	}
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = Int32(1)
	}
	st := &d.Spec.Strategy
	if st.Type == "" {
		st.Type = RollingUpdateDeploymentStrategyType
	}
	if st.Type == RollingUpdateDeploymentStrategyType {
		if st.RollingUpdate == nil {
			st.RollingUpdate = &RollingUpdateDeployment{}
		}
		if st.RollingUpdate.MaxUnavailable == nil {
			st.RollingUpdate.MaxUnavailable = IntOrStringPtr(FromString("25%"))
		}
		if st.RollingUpdate.MaxSurge == nil {
			st.RollingUpdate.MaxSurge = IntOrStringPtr(FromString("25%"))
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = Int32(DefaultRevisionHistoryLimit)
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = Int32(DefaultProgressDeadlineSeconds)
	}
	SetDefaultsPodSpec(&d.Spec.Template.Spec)
}

// SetDefaultsReplicaSet is apps/v1 SetDefaults_ReplicaSet: replicas 1.
func SetDefaultsReplicaSet(rs *ReplicaSet) {
	rs.APIVersion, rs.Kind = GroupVersionApps, KindReplicaSet
	if rs.Namespace == "" {
		rs.Namespace = NamespaceDefault
	}
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = Int32(1)
	}
	SetDefaultsPodSpec(&rs.Spec.Template.Spec)
}

// SetDefaultsPod defaults a pod's spec and metadata.
func SetDefaultsPod(p *Pod) {
	p.APIVersion, p.Kind = GroupVersionCore, KindPod
	if p.Namespace == "" {
		p.Namespace = NamespaceDefault
	}
	SetDefaultsPodSpec(&p.Spec)
}

// SetDefaultsPodSpec applies v1 pod defaults: restartPolicy Always,
// terminationGracePeriodSeconds 30, dnsPolicy ClusterFirst, schedulerName
// default-scheduler, an empty securityContext, and per container
// terminationMessagePath/Policy, imagePullPolicy (Always for :latest or
// untagged images, else IfNotPresent), port protocol TCP and probe timings.
func SetDefaultsPodSpec(s *PodSpec) {
	if s.RestartPolicy == "" {
		s.RestartPolicy = RestartPolicyAlways
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = Int64(DefaultTerminationGracePeriodSeconds)
	}
	if s.DNSPolicy == "" {
		s.DNSPolicy = "ClusterFirst"
	}
	if s.SchedulerName == "" {
		s.SchedulerName = "default-scheduler"
	}
	if len(s.SecurityContext) == 0 {
		s.SecurityContext = Raw("{}")
	}
	for i := range s.InitContainers {
		setDefaultsContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		setDefaultsContainer(&s.Containers[i])
	}
}

func setDefaultsContainer(c *Container) {
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = "/dev/termination-log"
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = "File"
	}
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = defaultPullPolicy(c.Image)
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = "TCP"
		}
	}
	for _, p := range []*Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		setDefaultsProbe(p)
	}
}

func setDefaultsProbe(p *Probe) {
	if p == nil {
		return
	}
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
}

// defaultPullPolicy is Always for an image tagged :latest or not tagged at all
// (a digest counts as a tag), IfNotPresent otherwise.
func defaultPullPolicy(image string) string {
	if strings.Contains(image, "@") {
		return "IfNotPresent"
	}
	name := image
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	tag := ""
	if i := strings.LastIndex(name, ":"); i >= 0 {
		tag = name[i+1:]
	}
	if tag == "" || tag == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// SetDefaultsService applies v1 Service defaults: type ClusterIP,
// sessionAffinity None, port protocol TCP and targetPort = port.
func SetDefaultsService(s *Service) {
	s.APIVersion, s.Kind = GroupVersionCore, KindService
	if s.Namespace == "" {
		s.Namespace = NamespaceDefault
	}
	if s.Spec.Type == "" {
		s.Spec.Type = "ClusterIP"
	}
	if s.Spec.SessionAffinity == "" {
		s.Spec.SessionAffinity = "None"
	}
	for i := range s.Spec.Ports {
		p := &s.Spec.Ports[i]
		if p.Protocol == "" {
			p.Protocol = "TCP"
		}
		if p.TargetPort == nil {
			p.TargetPort = IntOrStringPtr(FromInt(p.Port))
		}
	}
}

// SetDefaultsConfigMap sets apiVersion, kind and namespace.
func SetDefaultsConfigMap(c *ConfigMap) {
	c.APIVersion, c.Kind = GroupVersionCore, KindConfigMap
	if c.Namespace == "" {
		c.Namespace = NamespaceDefault
	}
}

// SetDefaultsNode sets apiVersion and kind; nodes are cluster-scoped.
func SetDefaultsNode(n *Node) {
	n.APIVersion, n.Kind = GroupVersionCore, KindNode
	n.Namespace = ""
	if n.Status.Allocatable == nil && n.Status.Capacity != nil {
		n.Status.Allocatable = n.Status.Capacity.DeepCopy()
	}
}

// SetDefaults applies the defaults of obj's kind.
func SetDefaults(obj Object) {
	switch o := obj.(type) {
	case *Deployment:
		SetDefaultsDeployment(o)
	case *ReplicaSet:
		SetDefaultsReplicaSet(o)
	case *Pod:
		SetDefaultsPod(o)
	case *Service:
		SetDefaultsService(o)
	case *ConfigMap:
		SetDefaultsConfigMap(o)
	case *Node:
		SetDefaultsNode(o)
	case *HorizontalPodAutoscaler:
		SetDefaultsHorizontalPodAutoscaler(o)
	case *ResourceQuota:
		SetDefaultsResourceQuota(o)
	case *PodDisruptionBudget:
		SetDefaultsPodDisruptionBudget(o)
	case *Endpoints:
		o.APIVersion, o.Kind = GroupVersionCore, KindEndpoints
		if o.Namespace == "" {
			o.Namespace = NamespaceDefault
		}
	case *Event:
		o.APIVersion, o.Kind = GroupVersionCore, KindEvent
		if o.Namespace == "" {
			o.Namespace = NamespaceDefault
		}
	}
}
