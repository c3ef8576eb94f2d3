package kubelet

import (
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// Sync runs one pass of every node's kubelet at ctx.Now(): it posts each
// up node's heartbeat, then compares every pod bound to the node with what
// its containers are doing, takes the steps that are due (pull, create,
// start, probe, crash, restart, stop, remove) and writes the pod's status
// when it differs from the stored one. A pod that is unchanged and has
// nothing due costs one map lookup.
func (k *Controller) Sync(ctx *controller.Context) {
	s := ctx.Store
	now := ctx.Now()
	k.epoch++
	nodes := s.Nodes()
	same := len(nodes) == len(k.byNode)
	for i, n := range nodes {
		ns := k.nodes[n.Name]
		if ns == nil {
			ns = newNodeState(n.Name)
			k.nodes[n.Name] = ns
		}
		if ns.index == 0 {
			k.seq++
			ns.index = k.seq
		}
		same = same && ns.epoch == k.epoch-1 && ns.pos == i
		ns.epoch, ns.pos = k.epoch, i
		ns.hostIP = hostIP(n, ns.index)
	}
	// Nothing but this kubelet wrote since its last Sync: the pods are the
	// ones it grouped then (it kept their entries up to date).
	reuse := same && k.reuse && s.Writes() == k.lastWrites
	stale := false
	if !reuse {
		stale = k.groupPods(s, len(nodes)) != len(k.pods)
	}
	k.reuse = true
	for i, n := range nodes {
		k.syncNode(ctx, n, k.nodes[n.Name], k.byNode[i], now, reuse)
	}
	if stale {
		k.dropGone()
	}
	k.lastWrites = s.Writes()
}

// boundPod is a pod of this Sync with the kubelet's state of it (nil when new).
type boundPod struct {
	p  *api.Pod
	ps *podState
}

// groupPods sorts this Sync's bound pods by node, in creation order, and
// marks every pod's state as seen. It returns how many states it saw.
//
// The states of the last Sync are kept in the store's order, so a pod
// usually finds its state by comparing one uid; only after a deletion or
// for a newly bound pod does it take a map lookup.
func (k *Controller) groupPods(s *store.Store, n int) int {
	if cap(k.byNode) < n {
		k.byNode = make([][]boundPod, n)
	}
	k.byNode = k.byNode[:n]
	for i := range k.byNode {
		clear(k.byNode[i])
		k.byNode[i] = k.byNode[i][:0]
	}
	old := k.order
	next := k.spare[:0]
	j := 0
	s.EachPod(func(p *api.Pod) bool {
		if p.Spec.NodeName == "" {
			return true
		}
		var ps *podState
		for j < len(old) && old[j].gone {
			j++
		}
		if j < len(old) && old[j].uid == p.UID {
			ps = old[j]
			j++
		} else if ps = k.pods[p.UID]; ps != nil && ps.pos >= j && ps.pos < len(old) && old[ps.pos] == ps {
			j = ps.pos + 1
		}
		var ns *nodeState
		if ps != nil {
			ps.seen = k.epoch
			ps.pos = len(next)
			next = append(next, ps)
			ns = ps.node
		} else {
			ns = k.nodes[p.Spec.NodeName]
		}
		if ns != nil && ns.epoch == k.epoch {
			k.byNode[ns.pos] = append(k.byNode[ns.pos], boundPod{p, ps})
		}
		return true
	})
	clear(old)
	k.order, k.spare = next, old[:0]
	return len(next)
}

// dropGone forgets the pods that no longer exist and frees their IPs.
func (k *Controller) dropGone() {
	for uid, p := range k.pods {
		if p.seen != k.epoch {
			k.forget(uid, p)
		}
	}
}

func (k *Controller) forget(uid string, p *podState) {
	p.gone = true
	k.reuse = false
	if p.node != nil && p.ipHost > 0 {
		p.node.used[p.ipHost] = false
	}
	delete(k.byName, p.namespace+"/"+p.name)
	delete(k.pods, uid)
}

// syncNode is one kubelet's pass over its node and pods. When its pods are
// the ones of its last pass and none has a step due, it only repeats that
// pass's summary.
func (k *Controller) syncNode(ctx *controller.Context, n *api.Node, ns *nodeState, pods []boundPod, now time.Time, reuse bool) {
	log := nodeLog{ns: ns}
	if ns.down {
		k.recordDown(ctx, ns, pods)
		return
	}
	k.heartbeat(ctx, n, ns, now, &log)
	if reuse && ns.cached && !ns.dirty && (ns.due.IsZero() || now.Before(ns.due)) {
		actions, nAct := log.actions, log.nAct
		log = ns.log
		log.actions, log.nAct = actions, nAct
		k.record(ctx, &log, now)
		return
	}
	ns.dirty, ns.due = false, time.Time{}
	for j := range pods {
		p, ps := pods[j].p, pods[j].ps
		if ps == nil || ps.rv != p.ResourceVersion || ps.force || (!ps.due.IsZero() && !now.Before(ps.due)) {
			ps, p = k.syncPod(ctx, ns, p, ps, now, &log)
			pods[j] = boundPod{p, ps}
		}
		if ps == nil {
			continue
		}
		log.count(ps)
		if !ps.due.IsZero() && (ns.due.IsZero() || ps.due.Before(ns.due)) {
			ns.due = ps.due
		}
	}
	ns.log, ns.cached = log, true
	ns.log.actions, ns.log.nAct = nil, 0
	k.record(ctx, &log, now)
}

// syncPod compares one pod with its containers, takes the steps due and
// writes the status when it changed. It returns the pod's state (nil once
// the pod is removed) and the pod as stored now.
func (k *Controller) syncPod(ctx *controller.Context, ns *nodeState, p *api.Pod, ps *podState, now time.Time, log *nodeLog) (*podState, *api.Pod) {
	if p.DeletionTimestamp != nil {
		return k.terminate(ctx, p, ps, now, log)
	}
	if ps == nil || len(ps.ctrs) != len(p.Spec.Containers) {
		if ps != nil {
			k.forget(p.UID, ps)
		}
		ps = k.admit(ns, p, now)
	}
	ps.force = false
	if ps.ipHost == 0 && !k.sandbox(ctx, ns, p, ps, now) {
		ps.rv = p.ResourceVersion
		ps.computeDue()
		return ps, p
	}
	if k.advance(ctx, ps, p, now, log) || ps.rv != p.ResourceVersion {
		p = k.writeStatus(ctx, ps, p, now)
	}
	ps.computeDue()
	return ps, p
}

// admit starts tracking a pod newly bound to the node.
func (k *Controller) admit(ns *nodeState, p *api.Pod, now time.Time) *podState {
	ps := &podState{uid: p.UID, name: p.Name, namespace: p.Namespace, node: ns, startTime: now, seen: k.epoch, pos: -1,
		ctrs: make([]ctr, len(p.Spec.Containers))}
	for i, c := range p.Spec.Containers {
		ps.ctrs[i] = ctr{name: c.Name, image: c.Image}
	}
	k.pods[p.UID] = ps
	k.byName[p.Namespace+"/"+p.Name] = p.UID
	return ps
}

// sandbox gives the pod its IP; it reports false when none is free.
func (k *Controller) sandbox(ctx *controller.Context, ns *nodeState, p *api.Pod, ps *podState, now time.Time) bool {
	if h := ns.allocIP(); h > 0 {
		ps.ipHost, ps.ip, ps.noIP = h, podIP(ns.index, h), false
		return true
	}
	if !ps.noIP {
		ctx.EventOnHost(p, Component, ns.name, api.EventTypeWarning, ReasonSandboxFailed, msgNoIPs(ns.name, ns.index))
	}
	ps.noIP, ps.noIPAt = true, now.Add(sandboxRetry)
	return false
}

// terminate stops a pod that has a deletionTimestamp and removes it. The
// first pass kills each running container (Killing, the preStop hook,
// SIGTERM, SIGKILL at the grace period's end: see kill); later passes end
// the kills that are due. Once every container has stopped the pod gets its
// terminal phase and is removed with grace 0 one second later. A pod with
// nothing running is removed in the same pass.
func (k *Controller) terminate(ctx *controller.Context, p *api.Pod, ps *podState, now time.Time, log *nodeLog) (*podState, *api.Pod) {
	if ps != nil && !ps.killed {
		changed := false
		switch {
		case !ps.terminating:
			changed = k.startTermination(ctx, ps, p, now, log)
		case killGrace(p, nil, killDelete) < ps.grace:
			ps.grace = killGrace(p, nil, killDelete)
			for i := range ps.ctrs {
				if c := &ps.ctrs[i]; c.ph == phKilling {
					c.shortenKill(ps.grace, now)
				}
			}
		}
		killing := false
		for i := range ps.ctrs {
			c := &ps.ctrs[i]
			if c.ph != phKilling {
				continue
			}
			if now.Before(c.at) {
				killing = true
				continue
			}
			k.killDone(ctx, ps, p, i, now, log)
			changed = true
		}
		ps.force = false
		if !killing {
			// The status manager deletes the pod once its terminal status is
			// written: a second later. A pod whose deletionTimestamp had passed
			// before its kubelet could stop it (the node was down) goes at once.
			ps.killed = true
			ps.removeAt = now
			if changed && p.DeletionTimestamp.After(ps.termStart) {
				ps.removeAt = now.Add(time.Second)
			}
		}
		if ps.removeAt.After(now) || !ps.killed {
			if changed || ps.rv != p.ResourceVersion {
				p = k.writeStatus(ctx, ps, p, now)
			}
			ps.rv = p.ResourceVersion
			ps.computeDue()
			return ps, p
		}
	}
	if ps != nil && ps.removeAt.After(now) {
		ps.rv = p.ResourceVersion
		return ps, p
	}
	err := ctx.Store.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{GracePeriodSeconds: api.Int64(0)})
	if err == nil {
		log.act("remove terminated pod " + p.Name)
	}
	if ps != nil {
		k.forget(p.UID, ps)
	}
	k.reuse = false
	return nil, p
}
