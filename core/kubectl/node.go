package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

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
	w := &drainRun{cmd: c, ns: x.ns, timeout: c.timeoutFlag()}
	for _, in := range infos {
		w.nodes = append(w.nodes, in.name())
	}
	if w.run(x) {
		return w.end(x)
	}
	// Pods are left to evict or to wait for: drain goes on (drainRun).
	x.wait = w
	return nil
}

// drainRun is kubectl's RunDrain from the first node to the last, as a
// Waiter: the nodes one after another; for each, the pods that drain may
// remove (GetPodsForDeletion, listed when its turn comes) announced with
// "evicting pod NS/NAME" and evicted through the Eviction API; a refusal
// with 429 (a PodDisruptionBudget's) printed with "will retry after 5s"
// and tried again 5 seconds later (EvictErrorRetryDelay), announced again;
// each accepted pod waited for (waitForDelete, polled each second) until
// it is gone, when "pod/NAME evicted" is printed; then "node/NAME drained".
// --timeout (0: none) bounds each node's evictions and waits, as the
// context of evictPods does. With --disable-eviction the pods are deleted
// and waited for alike ("pod/NAME deleted"). runDrain runs it as far as it
// gets at once; the simulation polls the rest once a simulated second.
// Lines kubectl writes to stderr on the way (the retry lines) are output;
// a node's failure ("unable to drain node ...") is the command's error,
// with the pending nodes listed, when it ends.
type drainRun struct {
	cmd     *Command
	ns      string
	timeout time.Duration
	nodes   []string
	next    int // the node being drained
	// The node being drained: its pods once listed, its deadline, the
	// errors of its pods.
	listed   bool
	pods     []drainPod
	deadline time.Time
	errs     []error
	// Over all nodes: the failures and the nodes left undrained.
	failed    []string // "error: unable to drain node ..." lines, and the pending pods'
	fatal     []error
	remaining []string
}

// drainPod is one pod drain removes.
type drainPod struct {
	ns, name, uid string
	// accepted: the eviction (or deletion) went through; drain waits for
	// the pod to be gone. Until then a refused eviction is tried again
	// at retryAt.
	accepted bool
	retryAt  time.Time
	done     bool
}

var _ Waiter = (*drainRun)(nil)

func (w *drainRun) Clone() Waiter {
	x := *w
	x.nodes = append([]string(nil), w.nodes...)
	x.pods = append([]drainPod(nil), w.pods...)
	x.errs = append([]error(nil), w.errs...)
	x.failed = append([]string(nil), w.failed...)
	x.fatal = append([]error(nil), w.fatal...)
	x.remaining = append([]string(nil), w.remaining...)
	return &x
}

func (w *drainRun) Poll(env *Env) Poll {
	x := &execCtx{env: env, cmd: w.cmd, st: env.Store, ns: w.ns}
	if !w.run(x) {
		return Poll{Output: trimNL(x.out.String())}
	}
	p := Poll{Done: true}
	if err := w.end(x); err != nil && err != errSilent {
		x.errText(renderError(err))
	}
	p.Output, p.Error = trimNL(x.out.String()), trimNL(x.errw.String())
	return p
}

// run goes on draining and reports whether every node has had its turn.
func (w *drainRun) run(x *execCtx) bool {
	nodeType := api.ResourceFor(api.KindNode)
	for w.next < len(w.nodes) {
		name := w.nodes[w.next]
		if !w.listed {
			w.listed = true
			w.deadline = deadlineOf(x.now().Time, w.timeout)
			if err := w.start(x, name); err != nil {
				w.nodeFailed(x, name, err)
				continue
			}
		}
		if !w.step(x) {
			return false
		}
		if len(w.errs) > 0 {
			w.nodeFailed(x, name, aggregate(w.errs))
			continue
		}
		x.printName(nodeType, name, "drained")
		w.nextNode()
	}
	return true
}

// start lists node's pods (printing drain's warnings) and starts evicting
// or deleting them; a pod that drain may not remove fails the node.
func (w *drainRun) start(x *execCtx, node string) error {
	pods, err := x.drainList(node)
	if err != nil {
		return err
	}
	if x.dry != "" {
		return x.evictOnce(pods)
	}
	for _, p := range pods {
		w.pods = append(w.pods, drainPod{ns: p.Namespace, name: p.Name, uid: p.UID})
	}
	if x.cmd.boolean("disable-eviction") {
		// deletePods: every pod deleted at once, the first error ends it.
		for i := range w.pods {
			dp := &w.pods[i]
			if err := x.st.Delete(api.KindPod, dp.ns, dp.name, x.drainDeleteOptions()); err != nil && !isNotFound(err) {
				return err
			}
			dp.accepted = true
		}
		return nil
	}
	for _, dp := range w.pods {
		x.printf(msgEvicting+"\n", dp.ns, dp.name)
	}
	for i := range w.pods {
		w.evict(x, &w.pods[i])
	}
	return nil
}

// evict tries one pod's eviction now (evictPods' loop body).
func (w *drainRun) evict(x *execCtx, dp *drainPod) {
	err := x.st.Evict(dp.ns, dp.name, x.drainDeleteOptions())
	switch {
	case err == nil:
		dp.accepted = true
	case isNotFound(err):
		dp.done = true
	case store.ReasonOf(err) == store.ReasonTooManyRequests:
		x.printf(msgEvictRetry+"\n", dp.name, dp.ns, err)
		dp.retryAt = x.now().Add(drainRetryDelay)
	default:
		w.errs = append(w.errs, fmt.Errorf(msgEvictFailed, dp.name, dp.ns, err))
		dp.done = true
	}
}

// drainRetryDelay is kubectl drain's EvictErrorRetryDelay.
const drainRetryDelay = 5 * time.Second

// step moves each of the node's pods on (a due retry, a check that an
// accepted one is gone) and reports whether all are done.
func (w *drainRun) step(x *execCtx) bool {
	now := x.now().Time
	usingEviction := !x.cmd.boolean("disable-eviction")
	skipWait := x.cmd.integer("skip-wait-for-delete-timeout")
	all := true
	for i := range w.pods {
		dp := &w.pods[i]
		if !dp.done && !dp.accepted && !now.Before(dp.retryAt) {
			x.printf(msgEvicting+"\n", dp.ns, dp.name)
			if expired(w.deadline, now) {
				w.errs = append(w.errs, fmt.Errorf(msgEvictTimeout, dp.name, dp.ns, w.timeout))
				dp.done = true
				continue
			}
			w.evict(x, dp)
		}
		if dp.accepted && !dp.done {
			p, err := x.st.GetPod(dp.ns, dp.name)
			switch {
			case err != nil || p.UID != dp.uid:
				verb := "evicted"
				if !usingEviction {
					verb = "deleted"
				}
				x.printName(api.ResourceFor(api.KindPod), dp.name, verb)
				dp.done = true
			case skipWait > 0 && p.DeletionTimestamp != nil && int64(now.Sub(p.DeletionTimestamp.Time).Seconds()) > skipWait:
				x.printf(msgDrainSkipPod+"\n", dp.name, skipWait)
				dp.done = true
			case expired(w.deadline, now):
				if usingEviction {
					w.errs = append(w.errs, fmt.Errorf(msgDrainWaitFailed, dp.name, dp.ns, errDeadlineExceeded))
				} else if len(w.errs) == 0 {
					w.errs = append(w.errs, errDeadlineExceeded)
				}
				dp.done = true
			}
		}
		all = all && dp.done
	}
	return all
}

// errDeadlineExceeded is context.DeadlineExceeded's text, what
// waitForDelete returns when drain's --timeout runs out.
var errDeadlineExceeded = errors.New("context deadline exceeded")

// nodeFailed records that node could not be drained: the pods still
// pending on it (deleteOrEvictPodsSimple's list, after an eviction error)
// and RunDrain's "unable to drain node" line.
func (w *drainRun) nodeFailed(x *execCtx, node string, err error) {
	if len(w.pods) > 0 {
		if pending, lerr := x.drainPending(node); lerr == nil && len(pending) > 0 {
			w.failed = append(w.failed, fmt.Sprintf(msgDrainPendingPods, node, err.Error()))
			for _, p := range pending {
				w.failed = append(w.failed, "pod/"+p.Name)
			}
		}
	}
	w.failed = append(w.failed, fmt.Sprintf(msgDrainUnable, node, err.Error()))
	w.fatal = append(w.fatal, err)
	w.remaining = append(w.remaining, node)
	w.nextNode()
}

func (w *drainRun) nextNode() {
	w.next++
	w.listed, w.pods, w.errs, w.deadline = false, nil, nil, time.Time{}
}

// end prints what RunDrain prints last (the failures, the pending nodes)
// and returns its error.
func (w *drainRun) end(x *execCtx) error {
	for _, line := range w.failed {
		x.errText(line)
	}
	if len(w.remaining) > 0 {
		x.errText(msgDrainPendingNodes)
		for _, n := range w.remaining {
			x.errText(" " + n)
		}
	}
	if len(w.fatal) == 0 {
		return nil
	}
	// RunDrain's NewAggregate of the nodes' errors (themselves aggregates):
	// kubectl unwraps one level, so a node's errors print one per line.
	return aggregate(w.fatal)
}

// drainList is GetPodsForDeletion for node: the pods to remove, drain's
// warnings printed, or the error of the pods it may not remove.
func (x *execCtx) drainList(node string) ([]*api.Pod, error) {
	list := x.podsForDeletion(node)
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
		return nil, errs
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
	return pods, nil
}

// drainPending is the pods drain would still remove from node.
func (x *execCtx) drainPending(node string) ([]*api.Pod, error) {
	var pods []*api.Pod
	for _, s := range x.podsForDeletion(node) {
		if s.err != "" {
			return nil, errSilent
		}
		if s.delete {
			pods = append(pods, s.pod)
		}
	}
	return pods, nil
}

func (x *execCtx) drainDeleteOptions() store.DeleteOptions {
	opts := store.DeleteOptions{}
	if g := x.cmd.integer("grace-period"); g >= 0 {
		opts.GracePeriodSeconds = &g
	}
	return opts
}

// evictOnce is a dry run's drain of pods: client, each pod announced;
// server, each pod evicted once in the scratch store (nothing to wait for:
// a server dry run deletes nothing). A budget's refusal gets kubectl's
// "will retry after 5s" line, and since kubectl would then retry every 5
// seconds against a cluster the dry run does not change, Converge stops
// there and says so (msgDrainNoWait).
func (x *execCtx) evictOnce(pods []*api.Pod) error {
	if x.dry == "client" {
		for _, p := range pods {
			x.printf(msgEvictingDryRun+"\n", p.Namespace, p.Name)
		}
		return nil
	}
	podType := api.ResourceFor(api.KindPod)
	if x.cmd.boolean("disable-eviction") {
		var errs []error
		for _, p := range pods {
			if err := x.st.Delete(api.KindPod, p.Namespace, p.Name, x.drainDeleteOptions()); err != nil && !isNotFound(err) {
				errs = append(errs, err)
				continue
			}
			x.printName(podType, p.Name, "deleted")
		}
		return newAggregate(errs)
	}
	for _, p := range pods {
		x.printf(msgEvictingServerDry+"\n", p.Namespace, p.Name)
	}
	var errs []error
	refused := false
	for _, p := range pods {
		err := x.st.Evict(p.Namespace, p.Name, x.drainDeleteOptions())
		switch {
		case err == nil, isNotFound(err):
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

// errDrainNoWait stands for the evictions a server dry run's drain would
// keep retrying.
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
