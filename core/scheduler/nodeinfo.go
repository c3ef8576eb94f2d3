package scheduler

import (
	"unsafe"

	"converge/core/api"
	"converge/core/store"
)

// Requests the scheduler assumes for a container that sets none, when
// scoring (schedutil.DefaultMilliCPURequest, DefaultMemoryRequest).
const (
	DefaultMilliCPURequest int64 = 100
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024
)

// Well-known node labels of the default topology spread constraints.
const (
	LabelHostname = "kubernetes.io/hostname"
	LabelZone     = "topology.kubernetes.io/zone"
)

// resources is a pod's or a node's cpu (milli-units) and memory (bytes),
// both as requested and with the scoring defaults for containers that
// request nothing (the NonZeroRequested of a NodeInfo).
type resources struct {
	cpu, mem     int64
	nzCPU, nzMem int64
}

func (r *resources) add(o resources) {
	r.cpu += o.cpu
	r.mem += o.mem
	r.nzCPU += o.nzCPU
	r.nzMem += o.nzMem
}

// podRequests is resourcehelper.PodRequests: the sum over containers, or the
// largest init container when that is more. A container with limits but no
// requests requests its limits, as API defaulting would have set them.
func podRequests(p *api.Pod) resources {
	var sum resources
	for i := range p.Spec.Containers {
		sum.add(containerRequests(&p.Spec.Containers[i]))
	}
	for i := range p.Spec.InitContainers {
		c := containerRequests(&p.Spec.InitContainers[i])
		sum.cpu, sum.mem = max(sum.cpu, c.cpu), max(sum.mem, c.mem)
		sum.nzCPU, sum.nzMem = max(sum.nzCPU, c.nzCPU), max(sum.nzMem, c.nzMem)
	}
	return sum
}

func containerRequests(c *api.Container) resources {
	var r resources
	cpu, ok := request(c, api.ResourceCPU)
	r.cpu, r.nzCPU = cpu.MilliValue(), cpu.MilliValue()
	if !ok {
		r.nzCPU = DefaultMilliCPURequest
	}
	mem, ok := request(c, api.ResourceMemory)
	r.mem, r.nzMem = mem.Value(), mem.Value()
	if !ok {
		r.nzMem = DefaultMemoryRequest
	}
	return r
}

func request(c *api.Container, name string) (api.Quantity, bool) {
	if q, ok := c.Resources.Requests[name]; ok {
		return q, true
	}
	q, ok := c.Resources.Limits[name]
	return q, ok
}

// requestsMemo is podRequests for one pass over the pods, remembering the
// last result by the pod's container arrays: the pods one ReplicaSet sync
// creates share their (never modified) containers, so consecutive pods of a
// batch cost a pointer compare instead of a map lookup per resource.
type requestsMemo struct {
	containers, init *api.Container
	n, nInit         int
	r                resources
	ok               bool
}

func (m *requestsMemo) of(p *api.Pod) resources {
	c, i := unsafe.SliceData(p.Spec.Containers), unsafe.SliceData(p.Spec.InitContainers)
	if !m.ok || c != m.containers || i != m.init || len(p.Spec.Containers) != m.n || len(p.Spec.InitContainers) != m.nInit {
		*m = requestsMemo{containers: c, init: i, n: len(p.Spec.Containers), nInit: len(p.Spec.InitContainers), r: podRequests(p), ok: c != nil}
	}
	return m.r
}

// hostPort is a port a pod claims on its node.
type hostPort struct {
	protocol string
	port     int32
}

func podHostPorts(p *api.Pod) []hostPort {
	var out []hostPort
	for _, c := range p.Spec.Containers {
		for _, cp := range c.Ports {
			if cp.HostPort > 0 {
				proto := cp.Protocol
				if proto == "" {
					proto = "TCP"
				}
				out = append(out, hostPort{protocol: proto, port: cp.HostPort})
			}
		}
	}
	return out
}

// nodeInfo is a node with what the bound pods already take of it.
type nodeInfo struct {
	node      *api.Node
	name      string
	allocCPU  int64
	allocMem  int64
	allocPods int64
	used      resources
	pods      int64
	ports     []hostPort
	// minPriority is the lowest priority of the node's pods (when pods >
	// 0): preemption's potential victims have a lower one than the pod.
	minPriority int32
	// hasHostname, zone and hasZone are the node's topology labels.
	hasHostname bool
	zone        string
	hasZone     bool
}

// snapshot is the cluster as one Sync sees it.
type snapshot struct {
	nodes []nodeInfo
	index map[string]int
	cache nameCache
	// owners are the owner uids of the pods to schedule; spread[o][n] counts
	// the active pods of owner o on node n.
	owners []string
	spread [][]int64
	// zoned is set when some node has a zone label.
	zoned bool
}

// newSnapshot reads the nodes and adds up the pods bound to them: every pod
// that is not Succeeded or Failed holds its requests and a pod slot (a
// terminating pod still does); the active ones of the given owners count
// for spreading. Host ports are collected only when withPorts is set.
func newSnapshot(s *store.Store, owners []string, withPorts bool) *snapshot {
	nodes := s.Nodes()
	snap := &snapshot{nodes: make([]nodeInfo, len(nodes)), index: make(map[string]int, len(nodes)), owners: owners}
	for i, n := range nodes {
		a := n.Status.Allocatable
		snap.nodes[i] = nodeInfo{node: n, name: n.Name, allocCPU: quantity(a, api.ResourceCPU, true),
			allocMem: quantity(a, api.ResourceMemory, false), allocPods: quantity(a, api.ResourcePods, false)}
		ni := &snap.nodes[i]
		_, ni.hasHostname = n.Labels[LabelHostname]
		ni.zone, ni.hasZone = n.Labels[LabelZone]
		snap.zoned = snap.zoned || ni.hasZone
		snap.index[n.Name] = i
	}
	snap.spread = make([][]int64, len(owners))
	for i := range snap.spread {
		snap.spread[i] = make([]int64, len(nodes))
	}
	var memo requestsMemo
	s.EachPod(func(p *api.Pod) bool {
		if p.Spec.NodeName == "" || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			return true
		}
		i := snap.nodeIndex(p.Spec.NodeName)
		if i < 0 {
			return true
		}
		ni := &snap.nodes[i]
		ni.used.add(memo.of(p))
		ni.addPriority(api.Deref(p.Spec.Priority, 0))
		ni.pods++
		if withPorts {
			ni.ports = append(ni.ports, podHostPorts(p)...)
		}
		if p.DeletionTimestamp == nil && len(p.OwnerReferences) > 0 && len(owners) > 0 {
			if o := snap.ownerIndex(p.OwnerReferences[0].UID); o >= 0 {
				snap.spread[o][i]++
			}
		}
		return true
	})
	return snap
}

func quantity(l api.ResourceList, name string, milli bool) int64 {
	q, ok := l[name]
	if !ok {
		return 0
	}
	if milli {
		return q.MilliValue()
	}
	return q.Value()
}

func (snap *snapshot) ownerIndex(uid string) int {
	for i, o := range snap.owners {
		if o == uid {
			return i
		}
	}
	return -1
}

// nodeIndex returns the index of the named node, or -1.
func (snap *snapshot) nodeIndex(name string) int {
	return snap.cache.lookup(name, func(n string) int {
		if i, ok := snap.index[n]; ok {
			return i
		}
		return -1
	})
}

// nameCache maps node names to indexes for one Sync, keyed by the string's
// memory: a pod's spec.nodeName is the node's own name string when the
// scheduler bound it, so a hit is a pointer compare instead of hashing.
type nameCache [256]struct {
	data *byte
	n    int
	idx  int
}

func (c *nameCache) lookup(s string, slow func(string) int) int {
	d := unsafe.StringData(s)
	e := &c[(uint64(uintptr(unsafe.Pointer(d)))*0x9e3779b97f4a7c15)>>56]
	if e.data != d || e.n != len(s) {
		e.data, e.n, e.idx = d, len(s), slow(s)
	}
	return e.idx
}

// addPriority counts a pod's priority into minPriority; call it before
// pods++.
func (n *nodeInfo) addPriority(p int32) {
	if n.pods == 0 || p < n.minPriority {
		n.minPriority = p
	}
}
