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
	reuse := same && k.reuse && s.Identity() == k.lastStore && s.Changes(api.KindPod).Any() == k.lastPods
	stale := false
	if !reuse {
		stale = k.groupPods(s, len(nodes)) != k.pods.Len()
	}
	k.reuse = true
	for i, n := range nodes {
		k.syncNode(ctx, n, k.nodes[n.Name], k.byNode[i], now, reuse)
		ctx.Yield()
	}
	if stale {
		k.dropGone(s)
	}
	k.lastStore, k.lastPods = s.Identity(), s.Changes(api.KindPod).Any()
}

// boundPod is a pod of this Sync with the kubelet's state of it (nil when new).
type boundPod struct {
	p  *api.Pod
	ps *podState
}

// groupPods sorts this Sync's bound pods by node, in creation order, with
// the kubelet's state of each (nil for a pod it has not admitted yet). It
// returns how many states it found.
func (k *Controller) groupPods(s *store.Store, n int) int {
	if cap(k.byNode) < n {
		k.byNode = make([][]boundPod, n)
	}
	k.byNode = k.byNode[:n]
	for i := range k.byNode {
		clear(k.byNode[i])
		k.byNode[i] = k.byNode[i][:0]
	}
	found := 0
	s.EachPod(func(p *api.Pod) bool {
		if p.Spec.NodeName == "" {
			return true
		}
		ps, _ := k.pods.Get(p.UID)
		if ps != nil {
			found++
		}
		if ns := k.nodes[p.Spec.NodeName]; ns != nil && ns.epoch == k.epoch {
			k.byNode[ns.pos] = append(k.byNode[ns.pos], boundPod{p, ps})
		}
		return true
	})
	return found
}

// dropGone forgets the pods that no longer exist and frees their IPs.
func (k *Controller) dropGone(s *store.Store) {
	var gone []*podState
	k.pods.Range(func(uid string, p *podState) bool {
		if !s.Exists(uid) {
			gone = append(gone, p)
		}
		return true
	})
	for _, p := range gone {
		k.forget(p)
	}
}

// forget drops a pod's state and frees its IP (the state itself may live
// on in a clone).
func (k *Controller) forget(p *podState) {
	k.reuse = false
	if n := k.node(p); n != nil && p.ipHost > 0 {
		n.used[p.ipHost] = false
	}
	k.byName.Delete(k.own, p.namespace+"/"+p.name)
	k.pods.Delete(k.own, p.uid)
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
			ctx.Yield()
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
	if ps != nil {
		ps = k.writable(ps)
	}
	if p.DeletionTimestamp != nil {
		return k.terminate(ctx, p, ps, now, log)
	}
	if ps == nil || len(ps.ctrs) != len(p.Spec.Containers) {
		if ps != nil {
			k.forget(ps)
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
	ps := &podState{own: k.own, uid: p.UID, name: p.Name, namespace: p.Namespace, nodeName: ns.name, startTime: now,
		ctrs: make([]ctr, len(p.Spec.Containers))}
	for i, c := range p.Spec.Containers {
		ps.ctrs[i] = ctr{name: c.Name, image: c.Image}
	}
	k.pods.Set(k.own, p.UID, ps)
	k.byName.Set(k.own, p.Namespace+"/"+p.Name, p.UID)
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
		k.forget(ps)
	}
	k.reuse = false
	return nil, p
}
