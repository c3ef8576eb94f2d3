package api

// Node is v1 Node.
type Node struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       NodeSpec   `json:"spec"`
	Status     NodeStatus `json:"status"`
}

// NodeSpec is v1 NodeSpec.
type NodeSpec struct {
	Unschedulable bool    `json:"unschedulable,omitempty"`
	Taints        []Taint `json:"taints,omitempty"`
}

// Taint effects.
const (
	TaintEffectNoSchedule       = "NoSchedule"
	TaintEffectPreferNoSchedule = "PreferNoSchedule"
	TaintEffectNoExecute        = "NoExecute"
)

// Well-known taint keys.
const (
	TaintNodeNotReady      = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable   = "node.kubernetes.io/unreachable"
	TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"
	// TaintNodeOutOfService marks a node that is shut down for good (the
	// non-graceful node shutdown): its terminating pods are force-deleted.
	TaintNodeOutOfService = "node.kubernetes.io/out-of-service"
)

// Taint is v1 Taint.
type Taint struct {
	Key       string `json:"key"`
	Value     string `json:"value,omitempty"`
	Effect    string `json:"effect"`
	TimeAdded *Time  `json:"timeAdded,omitempty"`
}

// MatchTaint is v1 Taint.MatchTaint: the same key and effect.
func (t Taint) MatchTaint(o Taint) bool { return t.Key == o.Key && t.Effect == o.Effect }

// ToString is v1 Taint.ToString: key=value:effect, without the parts that
// are empty.
func (t Taint) ToString() string {
	switch {
	case t.Effect == "" && t.Value == "":
		return t.Key
	case t.Effect == "":
		return t.Key + "=" + t.Value + ":"
	case t.Value == "":
		return t.Key + ":" + t.Effect
	}
	return t.Key + "=" + t.Value + ":" + t.Effect
}

// NodeStatus is v1 NodeStatus.
type NodeStatus struct {
	Capacity    ResourceList    `json:"capacity,omitempty"`
	Allocatable ResourceList    `json:"allocatable,omitempty"`
	Conditions  []NodeCondition `json:"conditions,omitempty"`
	Addresses   []NodeAddress   `json:"addresses,omitempty"`
}

// NodeAddress is v1 NodeAddress.
type NodeAddress struct {
	Type    string `json:"type"`
	Address string `json:"address"`
}

// Node condition type Ready.
const NodeReady = "Ready"

// NodeCondition is one entry of node status.conditions.
type NodeCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastHeartbeatTime  Time   `json:"lastHeartbeatTime,omitzero"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitzero"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// DeepCopy returns a copy of n.
func (n *Node) DeepCopy() *Node {
	if n == nil {
		return nil
	}
	out := &Node{TypeMeta: n.TypeMeta, ObjectMeta: n.ObjectMeta.DeepCopy(), Spec: n.Spec}
	if n.Spec.Taints != nil {
		out.Spec.Taints = make([]Taint, len(n.Spec.Taints))
		for i, t := range n.Spec.Taints {
			t.TimeAdded = copyTime(t.TimeAdded)
			out.Spec.Taints[i] = t
		}
	}
	out.Status.Capacity = n.Status.Capacity.DeepCopy()
	out.Status.Allocatable = n.Status.Allocatable.DeepCopy()
	if n.Status.Conditions != nil {
		out.Status.Conditions = append([]NodeCondition(nil), n.Status.Conditions...)
	}
	if n.Status.Addresses != nil {
		out.Status.Addresses = append([]NodeAddress(nil), n.Status.Addresses...)
	}
	return out
}

// DeepCopyObject implements Object.
func (n *Node) DeepCopyObject() Object { return n.DeepCopy() }

// GetNodeCondition returns the condition of type t, or nil.
func GetNodeCondition(s *NodeStatus, t string) *NodeCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// IsNodeReady reports whether the node's Ready condition is True.
func IsNodeReady(n *Node) bool {
	c := GetNodeCondition(&n.Status, NodeReady)
	return c != nil && c.Status == ConditionTrue
}

// ConfigMap is v1 ConfigMap.
type ConfigMap struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Data       map[string]string `json:"data,omitempty"`
	BinaryData map[string]string `json:"binaryData,omitempty"`
	Immutable  *bool             `json:"immutable,omitempty"`
}

// DeepCopy returns a copy of c.
func (c *ConfigMap) DeepCopy() *ConfigMap {
	if c == nil {
		return nil
	}
	return &ConfigMap{TypeMeta: c.TypeMeta, ObjectMeta: c.ObjectMeta.DeepCopy(), Data: CopyStringMap(c.Data),
		BinaryData: CopyStringMap(c.BinaryData), Immutable: copyBool(c.Immutable)}
}

// DeepCopyObject implements Object.
func (c *ConfigMap) DeepCopyObject() Object { return c.DeepCopy() }

// Service is v1 Service.
type Service struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       ServiceSpec   `json:"spec"`
	Status     ServiceStatus `json:"status,omitzero"`
}

// ServiceSpec is v1 ServiceSpec.
type ServiceSpec struct {
	Type                  string            `json:"type,omitempty"`
	Selector              map[string]string `json:"selector,omitempty"`
	Ports                 []ServicePort     `json:"ports,omitempty"`
	ClusterIP             string            `json:"clusterIP,omitempty"`
	ClusterIPs            []string          `json:"clusterIPs,omitempty"`
	SessionAffinity       string            `json:"sessionAffinity,omitempty"`
	IPFamilies            []string          `json:"ipFamilies,omitempty"`
	IPFamilyPolicy        string            `json:"ipFamilyPolicy,omitempty"`
	InternalTrafficPolicy string            `json:"internalTrafficPolicy,omitempty"`
}

// ServicePort is v1 ServicePort.
type ServicePort struct {
	Name       string       `json:"name,omitempty"`
	Protocol   string       `json:"protocol,omitempty"`
	Port       int32        `json:"port"`
	TargetPort *IntOrString `json:"targetPort,omitempty"`
	NodePort   int32        `json:"nodePort,omitempty"`
}

// ServiceStatus is v1 ServiceStatus; Converge keeps it empty.
type ServiceStatus struct {
	LoadBalancer Raw `json:"loadBalancer,omitempty"`
}

// IsZero reports whether the status is empty.
func (s ServiceStatus) IsZero() bool { return len(s.LoadBalancer) == 0 }

// DeepCopy returns a copy of s.
func (s *Service) DeepCopy() *Service {
	if s == nil {
		return nil
	}
	out := &Service{TypeMeta: s.TypeMeta, ObjectMeta: s.ObjectMeta.DeepCopy(), Spec: s.Spec, Status: s.Status}
	out.Spec.Selector = CopyStringMap(s.Spec.Selector)
	if s.Spec.Ports != nil {
		out.Spec.Ports = make([]ServicePort, len(s.Spec.Ports))
		for i, p := range s.Spec.Ports {
			if p.TargetPort != nil {
				v := *p.TargetPort
				p.TargetPort = &v
			}
			out.Spec.Ports[i] = p
		}
	}
	out.Spec.ClusterIPs = copyStrings(s.Spec.ClusterIPs)
	out.Spec.IPFamilies = copyStrings(s.Spec.IPFamilies)
	return out
}

// DeepCopyObject implements Object.
func (s *Service) DeepCopyObject() Object { return s.DeepCopy() }

// Endpoints is v1 Endpoints, maintained by the endpoints controller: the
// ready pods a Service's selector matches (ready addresses) and the matching
// pods that are not ready.
type Endpoints struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Subsets    []EndpointSubset `json:"subsets,omitempty"`
}

// EndpointSubset is v1 EndpointSubset.
type EndpointSubset struct {
	Addresses         []EndpointAddress `json:"addresses,omitempty"`
	NotReadyAddresses []EndpointAddress `json:"notReadyAddresses,omitempty"`
	Ports             []EndpointPort    `json:"ports,omitempty"`
}

// EndpointAddress is one pod behind a Service.
type EndpointAddress struct {
	IP        string           `json:"ip"`
	NodeName  string           `json:"nodeName,omitempty"`
	TargetRef *ObjectReference `json:"targetRef,omitempty"`
}

// EndpointPort is v1 EndpointPort.
type EndpointPort struct {
	Name     string `json:"name,omitempty"`
	Port     int32  `json:"port"`
	Protocol string `json:"protocol,omitempty"`
}

// ObjectReference is v1 ObjectReference.
type ObjectReference struct {
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	UID       string `json:"uid,omitempty"`
}

// DeepCopy returns a copy of e.
func (e *Endpoints) DeepCopy() *Endpoints {
	if e == nil {
		return nil
	}
	out := &Endpoints{TypeMeta: e.TypeMeta, ObjectMeta: e.ObjectMeta.DeepCopy()}
	if e.Subsets != nil {
		out.Subsets = make([]EndpointSubset, len(e.Subsets))
		for i, s := range e.Subsets {
			out.Subsets[i] = EndpointSubset{Addresses: copyAddrs(s.Addresses), NotReadyAddresses: copyAddrs(s.NotReadyAddresses),
				Ports: append([]EndpointPort(nil), s.Ports...)}
		}
	}
	return out
}

func copyAddrs(a []EndpointAddress) []EndpointAddress {
	if a == nil {
		return nil
	}
	out := make([]EndpointAddress, len(a))
	for i, x := range a {
		if x.TargetRef != nil {
			r := *x.TargetRef
			x.TargetRef = &r
		}
		out[i] = x
	}
	return out
}

// DeepCopyObject implements Object.
func (e *Endpoints) DeepCopyObject() Object { return e.DeepCopy() }

// Event types.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// Event is v1 Event (core/v1, as `kubectl get events` shows it).
type Event struct {
	TypeMeta       `json:",inline"`
	ObjectMeta     `json:"metadata"`
	InvolvedObject ObjectReference `json:"involvedObject"`
	Reason         string          `json:"reason,omitempty"`
	Message        string          `json:"message,omitempty"`
	Source         EventSource     `json:"source,omitzero"`
	FirstTimestamp Time            `json:"firstTimestamp,omitzero"`
	LastTimestamp  Time            `json:"lastTimestamp,omitzero"`
	Count          int32           `json:"count,omitempty"`
	Type           string          `json:"type,omitempty"`
}

// EventSource names the component that emitted an event.
type EventSource struct {
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

// IsZero reports whether the source is empty.
func (s EventSource) IsZero() bool { return s.Component == "" && s.Host == "" }

// DeepCopy returns a copy of e.
func (e *Event) DeepCopy() *Event {
	if e == nil {
		return nil
	}
	out := *e
	out.ObjectMeta = e.ObjectMeta.DeepCopy()
	return &out
}

// DeepCopyObject implements Object.
func (e *Event) DeepCopyObject() Object { return e.DeepCopy() }

// Compile-time checks that every kind is an Object.
var (
	_ Object = (*Deployment)(nil)
	_ Object = (*ReplicaSet)(nil)
	_ Object = (*Pod)(nil)
	_ Object = (*Node)(nil)
	_ Object = (*ConfigMap)(nil)
	_ Object = (*Service)(nil)
	_ Object = (*Endpoints)(nil)
	_ Object = (*Event)(nil)
)
