package endpoints

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"converge/core/api"
)

// entry is one pod address before it becomes an api.EndpointAddress. It
// holds no pointer, so that sorting 5,000 of them moves plain words.
type entry struct {
	key   uint64 // ipOrderKey of the pod IP
	i     int32  // index of the pod in the slice being sorted
	ready bool
}

// ipOrderKey packs an address of at most 15 characters made of digits and
// dots into 60 bits that order as the string's bytes do: each character is
// a 4-bit code ('.' is 1, '0' to '9' are 2 to 11) and a shorter string is
// padded with 0, which comes before every character. Any other string
// reports false.
//
// Example: "10.244.1.10" < "10.244.1.9", as strings and as keys.
func ipOrderKey(ip string) (uint64, bool) {
	if len(ip) > 15 {
		return 0, false
	}
	var k uint64
	for i := 0; i < 15; i++ {
		var c uint64
		if i < len(ip) {
			switch b := ip[i]; {
			case b == '.':
				c = 1
			case b >= '0' && b <= '9':
				c = uint64(b-'0') + 2
			default:
				return 0, false
			}
		}
		k = k<<4 | c
	}
	return k, true
}

// sortEntries sorts as LessEndpointAddress does: by IP bytes, then by uid.
// IPv4 addresses (the kubelet's) take a radix sort on their keys; anything
// else, or two pods with one IP, the comparison sort.
func (c *Controller) sortEntries(es []entry, pods []*api.Pod, st *svcState) []entry {
	if st.keys(es, pods) && len(es) > 1 {
		if cap(c.tmp) < len(es) {
			c.tmp = make([]entry, len(es))
		}
		sorted := radixSort(es, c.tmp[:len(es)])
		unique := true
		for j := 1; j < len(sorted); j++ {
			if sorted[j].key == sorted[j-1].key {
				unique = false
				break
			}
		}
		if unique {
			if &sorted[0] != &es[0] {
				copy(es, sorted)
			}
			return es
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		pa, pb := pods[a.i], pods[b.i]
		if c := strings.Compare(pa.Status.PodIP, pb.Status.PodIP); c != 0 {
			return c
		}
		return strings.Compare(pa.UID, pb.UID)
	})
	return es
}

// radixSort sorts es by key, least significant byte first, skipping the
// bytes all keys share. It returns es or tmp, whichever ends up sorted.
func radixSort(es, tmp []entry) []entry {
	for shift := uint(0); shift < 64; shift += 8 {
		var count [256]int
		for _, e := range es {
			count[byte(e.key>>shift)]++
		}
		if count[byte(es[0].key>>shift)] == len(es) {
			continue
		}
		pos := 0
		for b, n := range count {
			count[b] = pos
			pos += n
		}
		for _, e := range es {
			b := byte(e.key >> shift)
			tmp[count[b]] = e
			count[b]++
		}
		es, tmp = tmp, es
	}
	return es
}

// findPort is podutil.FindPort: a numeric targetPort is used as is; a named
// one is looked up among the pod's container ports with the same protocol.
func findPort(p *api.Pod, sp *api.ServicePort) (int32, bool) {
	tp := api.FromInt(sp.Port)
	if sp.TargetPort != nil {
		tp = *sp.TargetPort
	}
	if !tp.IsString {
		return tp.IntVal, true
	}
	proto := sp.Protocol
	if proto == "" {
		proto = "TCP"
	}
	for _, c := range p.Spec.Containers {
		for _, cp := range c.Ports {
			cpProto := cp.Protocol
			if cpProto == "" {
				cpProto = "TCP"
			}
			if cp.Name == tp.StrVal && cpProto == proto {
				return cp.ContainerPort, true
			}
		}
	}
	return 0, false
}

// desired is the Endpoints subsets for the Service's pods, as syncService and
// RepackSubsets build them: one subset per distinct set of resolved ports,
// addresses sorted, truncated to MaxCapacity. A Service without ports gets
// addresses only when it is headless.
func (c *Controller) desired(svc *api.Service, pods []*api.Pod, st *svcState) ([]api.EndpointSubset, bool) {
	if len(pods) == 0 || (len(svc.Spec.Ports) == 0 && svc.Spec.ClusterIP != "None") {
		return nil, false
	}
	uniform := true
	for i := range svc.Spec.Ports {
		if tp := svc.Spec.Ports[i].TargetPort; tp != nil && tp.IsString {
			uniform = false
		}
	}
	if !uniform {
		return c.repack(svc, pods, st)
	}
	ports := make([]api.EndpointPort, 0, len(svc.Spec.Ports))
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		n, _ := findPort(nil, sp)
		ports = append(ports, api.EndpointPort{Name: sp.Name, Port: n, Protocol: sp.Protocol})
	}
	sortPorts(ports)
	c.entries = c.entries[:0]
	ready := 0
	for i, p := range pods {
		e := entry{i: int32(i), ready: api.IsPodReady(p)}
		if e.ready {
			ready++
		}
		c.entries = append(c.entries, e)
	}
	es := c.sortEntries(c.entries, pods, st)
	// Truncate before building: keep the first keepReady ready and the first
	// keepNotReady not-ready addresses (truncate's rule for one subset).
	keepReady, keepNotReady := ready, len(es)-ready
	truncated := len(es) > MaxCapacity
	if truncated {
		keepReady = min(ready, MaxCapacity)
		keepNotReady = MaxCapacity - keepReady
	}
	sel := c.sel[:0]
	for _, e := range es {
		switch {
		case e.ready && keepReady > 0:
			keepReady--
		case !e.ready && keepNotReady > 0:
			keepNotReady--
		default:
			continue
		}
		sel = append(sel, e)
	}
	c.sel = sel
	sub := api.EndpointSubset{Ports: ports}
	if len(ports) == 0 {
		sub.Ports = nil
	}
	sub.Addresses, sub.NotReadyAddresses = addresses(sel, pods)
	return []api.EndpointSubset{sub}, truncated
}

// addresses turns sorted entries into the ready and not-ready address lists,
// with one backing array for their targetRefs.
func addresses(es []entry, pods []*api.Pod) (ready, notReady []api.EndpointAddress) {
	refs := make([]api.ObjectReference, len(es))
	nr := 0
	for _, e := range es {
		if e.ready {
			nr++
		}
	}
	if nr > 0 {
		ready = make([]api.EndpointAddress, 0, nr)
	}
	if len(es)-nr > 0 {
		notReady = make([]api.EndpointAddress, 0, len(es)-nr)
	}
	for i, e := range es {
		p := pods[e.i]
		refs[i] = api.ObjectReference{Kind: api.KindPod, Namespace: p.Namespace, Name: p.Name, UID: p.UID}
		a := api.EndpointAddress{IP: p.Status.PodIP, NodeName: p.Spec.NodeName, TargetRef: &refs[i]}
		if e.ready {
			ready = append(ready, a)
		} else {
			notReady = append(notReady, a)
		}
	}
	return ready, notReady
}

// repack is the general case of RepackSubsets, for Services with named
// target ports that pods may resolve differently (or not at all): each port
// maps to the addresses that offer it, and ports with the same addresses
// share a subset.
func (c *Controller) repack(svc *api.Service, pods []*api.Pod, st *svcState) ([]api.EndpointSubset, bool) {
	type group struct {
		ports []api.EndpointPort
		es    []entry
		sig   string
	}
	byPort := map[api.EndpointPort][]entry{}
	var portOrder []api.EndpointPort
	for pi, p := range pods {
		e := entry{i: int32(pi), ready: api.IsPodReady(p)}
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			n, ok := findPort(p, sp)
			if !ok {
				continue
			}
			ep := api.EndpointPort{Name: sp.Name, Port: n, Protocol: sp.Protocol}
			if _, seen := byPort[ep]; !seen {
				portOrder = append(portOrder, ep)
			}
			byPort[ep] = append(byPort[ep], e)
		}
	}
	var groups []*group
	bySig := map[string]*group{}
	for _, ep := range portOrder {
		es := c.sortEntries(byPort[ep], pods, st)
		var b strings.Builder
		for _, e := range es {
			b.WriteString(pods[e.i].UID)
			b.WriteByte(strconv.FormatBool(e.ready)[0])
		}
		sig := b.String()
		g := bySig[sig]
		if g == nil {
			g = &group{es: es, sig: sig}
			bySig[sig] = g
			groups = append(groups, g)
		}
		g.ports = append(g.ports, ep)
	}
	if len(groups) == 0 {
		return nil, false
	}
	subsets := make([]api.EndpointSubset, 0, len(groups))
	for _, g := range groups {
		sortPorts(g.ports)
		sub := api.EndpointSubset{Ports: g.ports}
		sub.Addresses, sub.NotReadyAddresses = addresses(g.es, pods)
		subsets = append(subsets, sub)
	}
	// sort.SliceStable rather than slices.SortFunc here and in sortPorts:
	// short lists, and each generic instantiation for a struct costs the
	// page's wasm about 20 KB raw (docs/performance.md).
	sort.SliceStable(subsets, func(i, j int) bool { return comparePorts(subsets[i].Ports[0], subsets[j].Ports[0]) < 0 })
	return subsets, truncate(subsets)
}

// sortPorts orders ports by name, port and protocol (kube orders them by a
// hash of their fields; any fixed order compares the same).
func sortPorts(ps []api.EndpointPort) {
	sort.SliceStable(ps, func(i, j int) bool { return comparePorts(ps[i], ps[j]) < 0 })
}

func comparePorts(a, b api.EndpointPort) int {
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Port, b.Port); c != 0 {
		return c
	}
	return strings.Compare(a.Protocol, b.Protocol)
}

// truncate is truncateEndpoints: above MaxCapacity addresses, ready ones are
// kept first; each subset keeps its share, rounded up, of the room left.
// It reports whether it cut anything.
//
// Example: 1,200 ready and 300 not ready addresses in one subset keep the
// first 1,000 ready ones and no not-ready one; 600 ready and 900 not ready
// keep all 600 ready and the first 400 not ready.
func truncate(subsets []api.EndpointSubset) bool {
	ready, notReady := 0, 0
	for _, s := range subsets {
		ready += len(s.Addresses)
		notReady += len(s.NotReadyAddresses)
	}
	if ready+notReady <= MaxCapacity {
		return false
	}
	truncateReady := ready > MaxCapacity
	room, total := MaxCapacity-ready, notReady
	if truncateReady {
		room, total = MaxCapacity, ready
	}
	left := room
	for i := range subsets {
		s := &subsets[i]
		n := len(s.NotReadyAddresses)
		if truncateReady {
			n = len(s.Addresses)
		}
		take := 0
		if total > 0 {
			take = (n*room + total - 1) / total // ceil(n/total * room)
		}
		take = min(take, left, n)
		if truncateReady {
			s.Addresses = s.Addresses[:take]
			s.NotReadyAddresses = nil
			left -= len(s.Addresses)
		} else {
			s.NotReadyAddresses = s.NotReadyAddresses[:take]
			left -= len(s.NotReadyAddresses)
		}
	}
	return true
}

// subsetsEqual compares subsets field by field (targetRefs by value).
func subsetsEqual(a, b []api.EndpointSubset) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !addressesEqual(a[i].Addresses, b[i].Addresses) || !addressesEqual(a[i].NotReadyAddresses, b[i].NotReadyAddresses) ||
			!slices.Equal(a[i].Ports, b[i].Ports) {
			return false
		}
	}
	return true
}

func addressesEqual(a, b []api.EndpointAddress) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.IP != y.IP || x.NodeName != y.NodeName || (x.TargetRef == nil) != (y.TargetRef == nil) ||
			(x.TargetRef != nil && *x.TargetRef != *y.TargetRef) {
			return false
		}
	}
	return true
}
