package sim

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/gitops"
	"converge/core/kubectl"
	"converge/core/labels"
	"converge/core/metrics"
	"converge/core/scenario"
	"converge/core/store"
)

// runSteps runs the steps due at st.t, in scenario order.
func (s *Sim) runSteps(st *state, ctx *controller.Context) []StepResult {
	var out []StepResult
	due := time.Duration(st.t) * time.Second
	for st.next < len(s.scn.Steps) && s.scn.Steps[st.next].At <= due {
		i := st.next
		st.next++
		r := s.runStep(st, ctx, i)
		out = append(out, r)
		if r.Expect {
			st.expects[i] = r
		}
		if st.results == nil {
			st.results = map[int]StepResult{}
		}
		st.results[i] = r
	}
	return out
}

// StepResults returns the outcome of every step of the scenario that has
// run by the current second, in scenario order: what the step printed in
// the second it ran and, for a command that waits (rollout status, wait,
// drain), everything it has printed since and its outcome once it ended.
func (s *Sim) StepResults() []StepResult {
	var out []StepResult
	for i := range s.scn.Steps {
		r, ok := s.state.results[i]
		if !ok {
			continue
		}
		if p, ok := s.state.progress[i]; ok {
			r = p
		}
		out = append(out, r)
	}
	return out
}

func (s *Sim) runStep(st *state, ctx *controller.Context, i int) StepResult {
	step := &s.scn.Steps[i]
	r := StepResult{At: formatAt(step.At), Action: step.Action(), Index: i}
	switch {
	case step.Kubectl != "":
		w := st.store.Writes()
		res := kubectl.Run(s.env(st), step.Kubectl)
		r.Output, r.Error, r.wrote = res.Output, res.Error, st.store.Writes() != w
		if res.Wait != nil {
			s.startWait(st, i, step, res.Wait, &r)
			break
		}
		r.OK = checkExpectError(res, step.ExpectError, &r)
	case len(step.Apply) > 0:
		objs := make([]api.Object, len(step.Apply))
		for j, d := range step.Apply {
			objs[j] = d.Object.DeepCopyObject()
		}
		res := kubectl.Apply(s.env(st), objs)
		r.Output, r.Error = res.Output, res.Error
		r.OK = checkExpectError(res, step.ExpectError, &r)
	case step.Fault != nil:
		out, err := s.fault(st, step.Fault)
		r.Output, r.OK = out, err == nil
		if err != nil {
			r.Error = err.Error()
		}
	case len(step.Commit) > 0:
		r.Output, r.Error = s.commit(st, step.Commit)
		r.OK = r.Error == ""
	case step.Load != nil:
		r.Output = s.load(st, step.Load)
		r.OK = true
	case step.Note != nil:
		r.Output, r.OK = step.Note.Plain(), true
		r.Note = &NoteResult{Text: step.Note.Text, Pause: step.Note.Pause, Focus: step.Note.Focus}
	case step.Expect != nil:
		r.Expect = true
		ok, got, err := evalExpect(st.store, step.Expect)
		r.OK = ok
		r.Output = "got " + got
		if err != nil {
			r.Error = err.Error()
		} else if !ok {
			r.Error = "got " + got
		}
	}
	return r
}

// checkExpectError applies a step's expectError: with one, the step holds
// when it failed with that text in its error.
func checkExpectError(res kubectl.Result, want string, r *StepResult) bool {
	if want == "" {
		return res.OK()
	}
	if res.OK() {
		r.Error = fmt.Sprintf("expected an error containing %q, but the command succeeded", want)
		return false
	}
	if !strings.Contains(res.Error, want) {
		r.Error = fmt.Sprintf("expected an error containing %q, got: %s", want, res.Error)
		return false
	}
	return true
}

func formatAt(d time.Duration) string {
	return fmt.Sprintf("%ds", int64(d/time.Second))
}

// fault injects a node-down, node-up or crash.
func (s *Sim) fault(st *state, f *scenario.Fault) (string, error) {
	switch f.Type {
	case scenario.FaultNodeDown, scenario.FaultNodeUp:
		down := f.Type == scenario.FaultNodeDown
		if err := st.kubelet.SetNodeDown(f.Target, down); err != nil {
			return "", err
		}
		if down {
			return fmt.Sprintf("node/%s: kubelet stopped (no more heartbeats)", f.Target), nil
		}
		return fmt.Sprintf("node/%s: kubelet started", f.Target), nil
	case scenario.FaultCrashPod:
		if err := st.kubelet.CrashPod(api.NamespaceDefault, f.Target); err != nil {
			return "", err
		}
		return fmt.Sprintf("pod/%s: container exited with code 1", f.Target), nil
	case scenario.FaultCrashDeployment:
		return s.crashDeployment(st, f.Target)
	case scenario.FaultCrashSelector, scenario.FaultDeleteSelector:
		return s.selectorFault(st, f)
	}
	return "", fmt.Errorf("unknown fault %q", f.Type)
}

// commit makes a commit of the GitOps reconciler's repository.
func (s *Sim) commit(st *state, items []scenario.CommitItem) (string, string) {
	g := st.gitops()
	if g == nil {
		return "", "the scenario has no cluster.gitops to commit to"
	}
	changes := make([]gitops.Change, len(items))
	refs := make([]string, len(items))
	for i, it := range items {
		refs[i] = it.Ref()
		if it.DeleteKind != "" {
			changes[i] = gitops.Change{DeleteKind: it.DeleteKind, DeleteName: it.DeleteName}
			continue
		}
		changes[i] = gitops.Change{Object: it.Doc.Object}
	}
	n := g.Commit(changes)
	next := int64(g.NextSync().Sub(st.clock.Now()) / time.Second)
	return fmt.Sprintf("commit %d: %s (applied at the next sync, in %ds)", n, strings.Join(refs, ", "), next), ""
}

// load sets a Deployment's load.
func (s *Sim) load(st *state, l *scenario.LoadStep) string {
	var ml metrics.Load
	if l.CPU != nil {
		ml.CPU, ml.CPUSet = l.CPU.MilliValue(), true
	}
	if l.Memory != nil {
		ml.Memory, ml.MemorySet = l.Memory.MilliValue(), true
	}
	st.metrics.SetLoad(api.NamespaceDefault, l.Deployment, ml)
	return "load " + l.String()
}

// crashDeployment crashes the running container of every pod the
// Deployment's ReplicaSets own.
func (s *Sim) crashDeployment(st *state, name string) (string, error) {
	d, err := st.store.GetDeployment(api.NamespaceDefault, name)
	if err != nil {
		return "", err
	}
	owned := map[string]bool{}
	for _, rs := range st.store.ReplicaSets() {
		if api.IsControlledBy(&rs.ObjectMeta, d.UID) {
			owned[rs.UID] = true
		}
	}
	var crashed []string
	for _, p := range st.store.Pods() {
		ref := api.GetControllerOf(&p.ObjectMeta)
		if ref == nil || !owned[ref.UID] {
			continue
		}
		if st.kubelet.CrashPod(p.Namespace, p.Name) == nil {
			crashed = append(crashed, p.Name)
		}
	}
	if len(crashed) == 0 {
		return "", fmt.Errorf("deployment %q has no running pods to crash", name)
	}
	return fmt.Sprintf("crashed %d pods: %s", len(crashed), strings.Join(crashed, ", ")), nil
}

// selectorFault is `crash -l SELECTOR [--count=N]` and `delete pod -l
// SELECTOR [--count=N]`: the pods of the default namespace that the
// selector matches and that are not being deleted, sorted by name; crash
// takes the first N whose container runs, delete the first N (all without
// --count). A deleted pod goes as `kubectl delete pod` does, gracefully.
func (s *Sim) selectorFault(st *state, f *scenario.Fault) (string, error) {
	sel, err := labels.Parse(f.Selector)
	if err != nil {
		return "", err
	}
	var pods []*api.Pod
	for _, p := range st.store.Pods() {
		if p.Namespace == api.NamespaceDefault && p.DeletionTimestamp == nil && sel.Matches(p.Labels) {
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	limit := f.Count
	if limit <= 0 {
		limit = len(pods)
	}
	var done []string
	for _, p := range pods {
		if len(done) == limit {
			break
		}
		if f.Type == scenario.FaultCrashSelector {
			if st.kubelet.CrashPod(p.Namespace, p.Name) == nil {
				done = append(done, p.Name)
			}
			continue
		}
		if err := st.store.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{}); err == nil {
			done = append(done, p.Name)
		}
	}
	verb, what := "crashed", "running pods"
	if f.Type == scenario.FaultDeleteSelector {
		verb, what = "deleted", "pods"
	}
	if len(done) == 0 {
		return "", fmt.Errorf("no %s match %s", what, f.Selector)
	}
	n := fmt.Sprintf("%d pods", len(done))
	if len(done) == 1 {
		n = "1 pod"
	}
	out := fmt.Sprintf("%s %s: %s", verb, n, strings.Join(done, ", "))
	if f.Count > len(done) {
		out += fmt.Sprintf(" (--count=%d: only %d matched)", f.Count, len(done))
	}
	return out, nil
}

// evalExpect evaluates an expect step against the current store.
func evalExpect(st *store.Store, e *scenario.Expect) (bool, string, error) {
	obj, err := st.Get(e.Kind, api.NamespaceDefault, e.Name)
	if err != nil {
		ok, got, err := e.Eval(nil)
		if err == nil && !ok {
			got = "<missing: " + strings.ToLower(e.Kind) + " " + e.Name + " not found>"
		}
		return ok, got, err
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return false, "", err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return false, "", err
	}
	return e.Eval(v)
}

// Run runs a kubectl command line from the console or the JS API. A
// command that only reads (get, describe, rollout status ...) runs against
// the current state and is not recorded; one that waits (rollout status,
// wait) goes on as the simulation advances, Progress says what it has
// printed since, and going back in time stops it; `get -w` goes on until
// the next command. A command that changes the cluster
// becomes a step of the scenario one second from now (so that it replays and
// shares), everything computed after now is dropped, and the simulation
// advances one second to run it.
func (s *Sim) Run(line string) StepResult {
	s.endWatches()
	cmd, err := kubectl.Parse(line)
	if err == nil && !cmd.Mutates() {
		res := cmd.Exec(s.env(s.state))
		r := StepResult{At: formatAt(time.Duration(s.state.t) * time.Second), Action: "kubectl " + cmd.String(),
			OK: res.OK(), Output: res.Output, Error: res.Error, Index: -1}
		if res.Wait != nil {
			s.watchFromConsole(res.Wait, &r)
		}
		return r
	}
	if err != nil {
		// Record nothing: kubectl rejects the line before it reaches the cluster.
		res := kubectl.Run(s.env(s.state), line)
		return StepResult{At: formatAt(time.Duration(s.state.t) * time.Second), Action: "kubectl " + strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "kubectl")),
			OK: res.OK(), Output: res.Output, Error: res.Error, Index: -1}
	}
	at := time.Duration(s.state.t+1) * time.Second
	undo := s.saveForUndo()
	if err := s.scn.AppendStep(scenario.Step{At: at, Kubectl: cmd.String()}); err != nil {
		return StepResult{At: formatAt(at), Action: "kubectl " + cmd.String(), Error: err.Error(), Index: -1}
	}
	idx := s.indexOfAppended(at, cmd.String())
	s.invalidateAfter(s.state.t)
	if s.state.next > idx {
		s.state.next = idx
	}
	s.advance()
	r := StepResult{At: formatAt(at), Action: "kubectl " + cmd.String(), Error: "internal error: the step did not run", Index: -1}
	for _, x := range s.state.tick.Steps {
		if x.Index == idx {
			r = x
		}
	}
	if r.OK || r.Waiting || r.wrote {
		return r // a partial failure (delete a b, b not found) changed the cluster: it stays a step
	}
	// The API server or kubectl refused it: it changed nothing, so it is no
	// step, and the clock stays where it was.
	if err := s.scn.RemoveStep(idx); err != nil {
		panic("sim: cannot take back a refused step: " + err.Error())
	}
	undo.restore(s)
	r.At, r.Index, r.Refused = formatAt(time.Duration(s.state.t)*time.Second), -1, true
	return r
}

// undoRun is what Run puts back when the API server refuses a command:
// the state before it ran, the checkpoints and samples after it, and the
// console's waiting commands.
type undoRun struct {
	state       *state
	checkpoints []*state
	cpBytes     int64
	every, work int64
	samples     []Sample
	console     []consoleWait
}

func (s *Sim) saveForUndo() *undoRun {
	u := &undoRun{state: s.state.clone(), checkpoints: slices.Clone(s.checkpoints), cpBytes: s.cpBytes, every: s.every, work: s.work}
	if t := s.state.t + 1; t < int64(len(s.samples)) {
		u.samples = slices.Clone(s.samples[t:])
	}
	for _, c := range s.console {
		x := *c
		if c.w != nil {
			x.w = c.w.Clone()
		}
		u.console = append(u.console, x)
	}
	return u
}

func (u *undoRun) restore(s *Sim) {
	s.state = u.state
	s.checkpoints, s.cpBytes, s.every, s.work = u.checkpoints, u.cpBytes, u.every, u.work
	s.recount() // the trial may have recounted the checkpoints it kept
	s.samples = append(s.samples[:min(int64(len(s.samples)), s.state.t+1)], u.samples...)
	s.console = s.console[:0]
	for i := range u.console {
		s.console = append(s.console, &u.console[i])
	}
}

// RemoveStep takes out step i of the scenario, one added at run time (a
// console command, the JS API's run; scenario.RemoveStep refuses the
// others), and recomputes the timeline without it: the simulation stays at
// its second, which now shows what happens without the step.
func (s *Sim) RemoveStep(i int) error {
	if i < 0 || i >= len(s.scn.Steps) {
		return fmt.Errorf("remove step: no step %d (the scenario has %d)", i, len(s.scn.Steps))
	}
	at := int64(s.scn.Steps[i].At / time.Second)
	if err := s.scn.RemoveStep(i); err != nil {
		return err
	}
	now := s.state.t
	s.invalidateAfter(at - 1)
	s.stopConsole()
	cp := s.checkpoints[len(s.checkpoints)-1]
	s.state = cp.clone()
	for s.state.t < now {
		s.advance()
	}
	return nil
}

// invalidateAfter drops checkpoints taken after second t, whose future the
// new step changes.
func (s *Sim) invalidateAfter(t int64) {
	kept := s.checkpoints[:0]
	s.cpBytes = 0
	for _, c := range s.checkpoints {
		if c.t <= t {
			kept = append(kept, c)
			s.cpBytes += c.bytes
		}
	}
	clear(s.checkpoints[len(kept):])
	s.checkpoints = kept
	if int64(len(s.samples)) > t+1 {
		s.samples = s.samples[:t+1]
	}
}

// Expectations returns the latest outcome of every expect step that has run, in scenario order.
func (s *Sim) Expectations() []StepResult {
	var out []StepResult
	for i := range s.scn.Steps {
		if r, ok := s.state.expects[i]; ok {
			out = append(out, r)
		}
	}
	return out
}

// indexOfAppended finds the step AppendStep just added: the last step at
// that second with that command.
func (s *Sim) indexOfAppended(at time.Duration, line string) int {
	for i := len(s.scn.Steps) - 1; i >= 0; i-- {
		if st := s.scn.Steps[i]; st.At == at && st.Kubectl == line {
			return i
		}
	}
	return len(s.scn.Steps) - 1
}
