package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/store"
)

// nodeInfos resolves cordon, uncordon and drain's arguments: node names
// (or node/NAME), or -l over all nodes.
func (x *execCtx) nodeInfos() ([]info, error) {
	c := x.cmd
	use := strings.Join(c.Path, " ") + " NODE"
	if len(c.Args) == 0 && !c.changed("selector") {
		return nil, &usageError{path: c.path(), msg: fmt.Sprintf(msgDrainUsage, use)}
	}
	if len(c.Args) > 0 && c.str("selector") != "" {
		return nil, &usageError{path: c.path(), msg: msgDrainBoth}
	}
	nodeType := api.ResourceFor(api.KindNode)
	if len(c.Args) == 0 {
		sel, err := x.selector()
		if err != nil {
			return nil, err
		}
		return x.list(nodeType, sel, true), nil
	}
	var infos []info
	for _, a := range c.Args {
		name := a
		if t, n, ok := strings.Cut(a, "/"); ok {
			rt, err := resolveType(t)
			if err != nil {
				return nil, err
			}
			if rt.Kind != api.KindNode {
				return nil, &plainError{msg: fmt.Sprintf(msgDrainExpectedNode, rt.Plural)}
			}
			name = n
		}
		o, err := x.st.Get(api.KindNode, "", name)
		if err != nil {
			return nil, err
		}
		infos = append(infos, info{rt: nodeType, obj: o})
	}
	return infos, nil
}

func runCordon(x *execCtx) error   { return x.cordonNodes(true) }
func runUncordon(x *execCtx) error { return x.cordonNodes(false) }

func (x *execCtx) cordonNodes(desired bool) error {
	infos, err := x.nodeInfos()
	if err != nil {
		return err
	}
	x.setUnschedulable(infos, desired)
	return nil
}

// setUnschedulable is RunCordonOrUncordon: "node/node-1 cordoned", or
// "already cordoned" when there is nothing to change.
func (x *execCtx) setUnschedulable(infos []info, desired bool) {
	word := "cordon"
	if !desired {
		word = "uncordon"
	}
	for _, in := range infos {
		n := in.obj.(*api.Node)
		if n.Spec.Unschedulable == desired {
			x.printName(in.rt, n.Name, "already "+word+"ed")
			continue
		}
		next := n.DeepCopy()
		next.Spec.Unschedulable = desired
		if _, err := x.st.Update(next); err != nil {
			x.errText(fmt.Sprintf("error: unable to %s node %q: %v", word, n.Name, err))
			continue
		}
		x.printName(in.rt, n.Name, word+"ed")
	}
}

// podDeleteStatus is one pod's verdict in drain's filters.
type podDeleteStatus struct {
	pod     *api.Pod
	delete  bool
	warning string
	err     string
}

// runDrain is `kubectl drain NODE`: cordon, check the node's pods against
// drain's filters, evict (or delete) them, and report "node/NODE drained".
// kubectl then waits for the pods to go; here they are left terminating.
func runDrain(x *execCtx) error {
	c := x.cmd
	if ps := c.str("pod-selector"); ps != "" {
		if _, err := labels.Parse(ps); err != nil {
			return &plainError{msg: msgPodSelectorInvalid}
		}
	}
	infos, err := x.nodeInfos()
	if err != nil {
		return err
	}
	x.setUnschedulable(infos, true)
	var fatal []error
	var remaining []string
	for _, in := range infos {
		if err := x.drainNode(in.obj.(*api.Node)); err != nil {
			if err == errDrainNoWait {
				// kubectl is still retrying here, not failing.
				x.errText(msgDrainNoWait)
				fatal = append(fatal, errSilent)
				continue
			}
			x.errText(fmt.Sprintf(msgDrainUnable, in.name(), err.Error()))
			fatal = append(fatal, err)
			remaining = append(remaining, in.name())
			continue
		}
		x.printName(in.rt, in.name(), "drained")
	}
	if len(remaining) > 0 {
		x.errText(msgDrainPendingNodes)
		for _, n := range remaining {
			x.errText(" " + n)
		}
	}
	var errs aggregate
	for _, err := range fatal {
		if err != errSilent {
			errs = append(errs, err)
		}
	}
	switch {
	case len(errs) > 0:
		return errs
	case len(fatal) > 0:
		return errSilent
	}
	return nil
}

func (x *execCtx) drainNode(n *api.Node) error {
	list := x.podsForDeletion(n.Name)
	var warnings, errOrder []string
	warned, failed := map[string][]string{}, map[string][]string{}
	for _, s := range list {
		ref := s.pod.Namespace + "/" + s.pod.Name
		if s.err != "" {
			if _, ok := failed[s.err]; !ok {
				errOrder = append(errOrder, s.err)
			}
			failed[s.err] = append(failed[s.err], ref)
		}
		if s.warning != "" {
			if _, ok := warned[s.warning]; !ok {
				warnings = append(warnings, s.warning)
			}
			warned[s.warning] = append(warned[s.warning], ref)
		}
	}
	if len(errOrder) > 0 {
		var errs aggregate
		for _, msg := range errOrder {
			pods := strings.Join(failed[msg], ", ")
			if strings.HasPrefix(strings.ToLower(msg), "cannot delete") {
				errs = append(errs, fmt.Errorf("%s: %s", msg, pods))
			} else {
				errs = append(errs, fmt.Errorf(msgDrainCannotDelete, msg, pods))
			}
		}
		return errs
	}
	if len(warnings) > 0 {
		parts := make([]string, len(warnings))
		for i, w := range warnings {
			parts[i] = w + ": " + strings.Join(warned[w], ", ")
		}
		x.warn(strings.Join(parts, "; "))
	}
	var pods []*api.Pod
	for _, s := range list {
		if s.delete {
			pods = append(pods, s.pod)
		}
	}
	return x.evict(pods)
}

// evict is DeleteOrEvictPods: evictPods through the Eviction API (each pod
// announced with "evicting pod NS/NAME"), or with --disable-eviction
// deletePods; each pod is then reported "evicted" (or "deleted"). A
// PodDisruptionBudget's refusal (429) gets kubectl's "will retry after 5s"
// line; kubectl would then retry every 5 seconds, which a step cannot do
// yet, so drain stops with that refusal and Converge says so
// (msgDrainNoWait). Any other eviction error fails the pod.
func (x *execCtx) evict(pods []*api.Pod) error {
	c := x.cmd
	opts := store.DeleteOptions{}
	if g := c.integer("grace-period"); g >= 0 {
		opts.GracePeriodSeconds = &g
	}
	evicting := !c.boolean("disable-eviction")
	if x.dry == "client" {
		for _, p := range pods {
			x.printf(msgEvictingDryRun+"\n", p.Namespace, p.Name)
		}
		return nil
	}
	podType := api.ResourceFor(api.KindPod)
	if !evicting {
		var errs []error
		for _, p := range pods {
			if err := x.st.Delete(api.KindPod, p.Namespace, p.Name, opts); err != nil && !isNotFound(err) {
				errs = append(errs, err)
				continue
			}
			x.printName(podType, p.Name, "deleted")
		}
		return newAggregate(errs)
	}
	announce := msgEvicting
	if x.dry == "server" {
		announce = msgEvictingServerDry
	}
	for _, p := range pods {
		x.printf(announce+"\n", p.Namespace, p.Name)
	}
	var errs []error
	refused := false
	for _, p := range pods {
		err := x.st.Evict(p.Namespace, p.Name, opts)
		switch {
		case err == nil:
			if x.dry != "server" {
				x.printName(podType, p.Name, "evicted")
			}
		case isNotFound(err):
		case store.ReasonOf(err) == store.ReasonTooManyRequests:
			x.errText(fmt.Sprintf(msgEvictRetry, p.Name, p.Namespace, err))
			refused = true
		default:
			errs = append(errs, fmt.Errorf(msgEvictFailed, p.Name, p.Namespace, err))
		}
	}
	if refused {
		errs = append(errs, errDrainNoWait)
	}
	return newAggregate(errs)
}

// errDrainNoWait stands for the evictions drain would keep retrying.
var errDrainNoWait = &plainError{msg: msgDrainNoWait}

// podsForDeletion is GetPodsForDeletion: the node's pods (all namespaces, by
// namespace and name) through drain's filters: mirror pods skipped, pods with
// emptyDir need --delete-emptydir-data, pods without a controller need
// --force; finished pods always go.
func (x *execCtx) podsForDeletion(node string) []podDeleteStatus {
	c := x.cmd
	podSel := everything()
	if ps := c.str("pod-selector"); ps != "" {
		podSel, _ = labels.Parse(ps)
	}
	var pods []*api.Pod
	x.st.EachPod(func(p *api.Pod) bool {
		if p.Spec.NodeName == node && podSel.Matches(p.Labels) {
			pods = append(pods, p)
		}
		return true
	})
	sort.SliceStable(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	skipWait := c.integer("skip-wait-for-delete-timeout")
	var out []podDeleteStatus
	for _, p := range pods {
		finished := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
		s := podDeleteStatus{pod: p, delete: true}
		ref := api.GetControllerOf(&p.ObjectMeta)
		switch {
		case skipWait > 0 && p.DeletionTimestamp != nil && int64(x.now().Sub(p.DeletionTimestamp.Time).Seconds()) > skipWait:
			s.delete = false
		case ref != nil && ref.Kind == "DaemonSet" && !finished:
			missing := fmt.Sprintf("daemonsets.apps %q not found", ref.Name)
			if c.boolean("force") {
				s.warning = missing
			} else {
				s.delete, s.err = false, missing
			}
		case p.Annotations["kubernetes.io/config.mirror"] != "":
			s.delete = false
		default:
			if hasLocalStorage(p) && !finished {
				if !c.boolean("delete-emptydir-data") && !c.boolean("delete-local-data") {
					s.delete, s.err = false, msgDrainLocalStorage
					break
				}
				s.warning = msgDrainLocalWarn
			}
			if ref == nil && !finished {
				if c.boolean("force") {
					s.warning = msgDrainUnmanagedWarn
				} else {
					s.delete, s.err, s.warning = false, msgDrainUnmanaged, ""
				}
			}
		}
		out = append(out, s)
	}
	return out
}
