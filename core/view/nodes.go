package view

import (
	"fmt"
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/sim"
)

// NodeCard is one node: its pods, its Ready condition, taints and how much
// of what it can allocate its pods request.
type NodeCard struct {
	// Key is the node's name.
	Key string
	// Ready is the Ready condition's status (True, False, Unknown, or ""
	// before the first heartbeat); ReadyText is "Ready", "NotReady" or
	// "Unknown (kubelet stopped posting node status)".
	Ready     string
	ReadyText string
	// Cordoned is spec.unschedulable.
	Cordoned bool
	// Taints are "node.kubernetes.io/unreachable:NoExecute".
	Taints []string
	// CPU, Memory and Pods are the requests of the node's pods against its
	// allocatable resources.
	CPU, Memory, Pods Usage
	Tiles             []Tile
}

// Usage is one resource of a node.
type Usage struct {
	// Text is "1.5 of 4 CPU", "768Mi of 8Gi", "12 of 110 pods".
	Text string
	// Percent is used/allocatable in whole percent, at most 100.
	Percent int
}

// Nodes returns one card per node, in the cluster's order.
func Nodes(s *sim.Sim) []NodeCard {
	st := s.Store()
	now := s.Now()
	nodes := st.Nodes()
	index := make(map[string]int, len(nodes))
	cards := make([]NodeCard, len(nodes))
	type used struct{ cpu, mem, pods int64 }
	use := make([]used, len(nodes))
	for i, n := range nodes {
		index[n.Name] = i
		cards[i] = nodeCard(n)
	}
	minReady := minReadyByRS(s)
	st.EachPod(func(p *api.Pod) bool {
		i, ok := index[p.Spec.NodeName]
		if !ok {
			return true
		}
		mr := int32(0)
		if ref := api.GetControllerOf(&p.ObjectMeta); ref != nil {
			mr = minReady[ref.UID]
		}
		cards[i].Tiles = append(cards[i].Tiles, NewTile(p, now, mr))
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			return true
		}
		use[i].pods++
		for _, c := range p.Spec.Containers {
			if q, ok := c.Resources.Requests[api.ResourceCPU]; ok {
				use[i].cpu += q.MilliValue()
			}
			if q, ok := c.Resources.Requests[api.ResourceMemory]; ok {
				use[i].mem += q.Value()
			}
		}
		return true
	})
	for i, n := range nodes {
		a := n.Status.Allocatable
		cpu, mem, pods := a[api.ResourceCPU], a[api.ResourceMemory], a[api.ResourcePods]
		cards[i].CPU = usage(use[i].cpu, cpu.MilliValue(), milliText(use[i].cpu)+" of "+milliText(cpu.MilliValue())+" CPU")
		cards[i].Memory = usage(use[i].mem, mem.Value(), bytesText(use[i].mem)+" of "+bytesText(mem.Value())+" memory")
		cards[i].Pods = usage(use[i].pods, pods.Value(), fmt.Sprintf("%d of %d pods", use[i].pods, pods.Value()))
	}
	return cards
}

// minReadyByRS maps each ReplicaSet's uid to its minReadySeconds.
func minReadyByRS(s *sim.Sim) map[string]int32 {
	out := map[string]int32{}
	for _, rs := range s.Store().ReplicaSets() {
		if rs.Spec.MinReadySeconds > 0 {
			out[rs.UID] = rs.Spec.MinReadySeconds
		}
	}
	return out
}

func nodeCard(n *api.Node) NodeCard {
	c := NodeCard{Key: n.Name, Cordoned: n.Spec.Unschedulable}
	cond := api.GetNodeCondition(&n.Status, api.NodeReady)
	switch {
	case cond == nil:
		c.ReadyText = "no status yet"
	case cond.Status == api.ConditionTrue:
		c.Ready, c.ReadyText = cond.Status, "Ready"
	case cond.Status == api.ConditionFalse:
		c.Ready, c.ReadyText = cond.Status, "NotReady"
	default:
		c.Ready, c.ReadyText = cond.Status, "Unknown"
	}
	if cond != nil && cond.Status != api.ConditionTrue && cond.Message != "" {
		c.ReadyText += " (" + cond.Message + ")"
	}
	if c.Cordoned {
		c.ReadyText += ", SchedulingDisabled"
	}
	for _, t := range n.Spec.Taints {
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		c.Taints = append(c.Taints, s+":"+t.Effect)
	}
	return c
}

func usage(used, total int64, text string) Usage {
	u := Usage{Text: text}
	if total > 0 {
		u.Percent = int(min(used*100/total, 100))
	}
	return u
}

// milliText renders milli-units as a decimal: 1500 → "1.5", 100 → "0.1", 4000 → "4".
func milliText(m int64) string {
	s := strconv.FormatInt(m/1000, 10)
	if frac := m % 1000; frac != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%03d", frac), "0")
	}
	return s
}

// bytesText renders bytes in binary units: 8589934592 → "8Gi", 805306368 → "768Mi".
func bytesText(b int64) string {
	const ki, mi, gi = 1 << 10, 1 << 20, 1 << 30
	switch {
	case b == 0:
		return "0"
	case b%gi == 0:
		return strconv.FormatInt(b/gi, 10) + "Gi"
	case b >= gi:
		return milliText(b*1000/gi) + "Gi"
	case b%mi == 0 || b >= mi:
		return strconv.FormatInt(b/mi, 10) + "Mi"
	case b >= ki:
		return strconv.FormatInt(b/ki, 10) + "Ki"
	}
	return strconv.FormatInt(b, 10)
}
