package kubelet

import (
	"strconv"
	"time"

	"converge/core/api"
	"converge/core/controller"
)

// Node condition types a kubelet posts besides Ready, with the status,
// reason and message of a healthy node (pkg/kubelet/nodestatus/setters.go).
var pressureConditions = [...]api.NodeCondition{
	{Type: "MemoryPressure", Status: api.ConditionFalse, Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"},
	{Type: "DiskPressure", Status: api.ConditionFalse, Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure"},
	{Type: "PIDPressure", Status: api.ConditionFalse, Reason: "KubeletHasSufficientPID", Message: "kubelet has sufficient PID available"},
}

// heartbeat posts the node's status every NodeStatusUpdateFrequency, and at
// once when its Ready condition is not True (the kubelet is back after the
// node lifecycle controller marked the node Unknown). The kubelet reports
// MemoryPressure, DiskPressure and PIDPressure False and Ready True;
// capacity and allocatable stay as the node object has them.
func (k *Controller) heartbeat(ctx *controller.Context, n *api.Node, ns *nodeState, now time.Time, log *nodeLog) {
	ready := api.GetNodeCondition(&n.Status, api.NodeReady)
	missing := 0
	for _, pc := range pressureConditions {
		if api.GetNodeCondition(&n.Status, pc.Type) == nil {
			missing++
		}
	}
	if ready != nil && ready.Status == api.ConditionTrue && missing == 0 && now.Sub(ready.LastHeartbeatTime.Time) < NodeStatusUpdateFrequency {
		return
	}
	hb := api.NewTime(now)
	size := len(n.Status.Conditions) + missing
	if ready == nil {
		size++
	}
	conds := make([]api.NodeCondition, 0, size)
	if missing > 0 {
		for _, pc := range pressureConditions {
			if api.GetNodeCondition(&n.Status, pc.Type) == nil {
				pc.LastHeartbeatTime, pc.LastTransitionTime = hb, hb
				conds = append(conds, pc)
			}
		}
	}
	for _, c := range n.Status.Conditions {
		want := c
		switch c.Type {
		case api.NodeReady:
			want.Status, want.Reason, want.Message = api.ConditionTrue, ReasonKubeletReady, messageKubeletReady
		default:
			for _, pc := range pressureConditions {
				if pc.Type == c.Type {
					want.Status, want.Reason, want.Message = pc.Status, pc.Reason, pc.Message
				}
			}
		}
		if want.Status != c.Status || want.LastTransitionTime.IsZero() {
			want.LastTransitionTime = hb
		}
		want.LastHeartbeatTime = hb
		conds = append(conds, want)
	}
	if ready == nil {
		conds = append(conds, api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue, Reason: ReasonKubeletReady,
			Message: messageKubeletReady, LastHeartbeatTime: hb, LastTransitionTime: hb})
	}
	x := *n
	x.Status.Conditions = conds
	if _, err := ctx.Store.UpdateStatus(&x); err != nil {
		return
	}
	if ready == nil || ready.Status != api.ConditionTrue {
		ctx.EventOnHost(n, Component, n.Name, api.EventTypeNormal, ReasonNodeReady, msgNodeReady(n.Name))
		log.act("post node status: Ready")
	}
}

// hasImage reports whether the node holds the image; a pull that ended
// counts even when no pod was left to see it end.
func (n *nodeState) hasImage(image string, now time.Time) bool {
	if n.present[image] {
		return true
	}
	if end, ok := n.pulls[image]; ok && !end.After(now) {
		delete(n.pulls, image)
		n.present[image] = true
		return true
	}
	return false
}

// allocIP hands out the next free address of the node's /24, after the
// one handed out last, as the host-local IPAM plugin does (.2 to .254;
// .1 is the bridge). It returns 0 when all are taken.
func (n *nodeState) allocIP() int {
	for i := 0; i < 253; i++ {
		h := 2 + (n.next-1+i)%253
		if !n.used[h] {
			n.used[h] = true
			n.next = h
			return h
		}
	}
	return 0
}

// nodeSubnet is the first three octets of a node's pod range: node 1 has
// 10.244.1.0/24, node 256 has 10.245.0.0/24.
func nodeSubnet(index int) string {
	return "10." + strconv.Itoa(244+index/256) + "." + strconv.Itoa(index%256)
}

func podIP(index, host int) string { return nodeSubnet(index) + "." + strconv.Itoa(host) }

// hostIP is the node's InternalIP, or a deterministic 172.18.0.x address.
func hostIP(n *api.Node, index int) string {
	for _, a := range n.Status.Addresses {
		if a.Type == "InternalIP" {
			return a.Address
		}
	}
	return "172.18." + strconv.Itoa((index+1)/256) + "." + strconv.Itoa((index+1)%256)
}
