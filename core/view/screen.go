package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/sim"
)

// RefusalShowSeconds is how long a refused step or command stays on the
// first screen after its second, marked with its age, unless a change
// comes first: at 4x speed a refusal shown only in its own second would
// last 250 ms.
const RefusalShowSeconds = 5

// DriftShowSeconds is how long what happened within one second (pods
// created and deleted in the same second) stays told in the why panel.
const DriftShowSeconds = 5

// Screen is what the first screen shows beyond the why-lines: what must
// not vanish in a second (refusals, drift) and what waits outside the
// Deployments (a drain, an eviction) with the budget that holds it.
type Screen struct {
	// Refusals are the refusals still on screen, newest first, each with
	// its Age.
	Refusals []Rejection
	// Waiting says what waits on an eviction: "kubectl drain node-1
	// (since 15s) waits: Cannot evict pod as it would violate the pod's
	// disruption budget."; "" when nothing does.
	Waiting string
	// DrainNode is the node a waiting drain empties; "" when none.
	DrainNode string
	// Budget is the PodDisruptionBudget that matters now (a drain or an
	// eviction is refused or waits), with its numbers; nil otherwise.
	Budget *BudgetLine
	// Drift lists what happened within one second in the last
	// DriftShowSeconds: pods created and deleted in the same second.
	Drift []DriftLine
}

// BudgetLine is a PodDisruptionBudget with the numbers kubectl prints.
type BudgetLine struct {
	Name string
	// Text is "poddisruptionbudget/web: minAvailable 3 · 3 healthy of 4
	// pods (3 desired) · disruptionsAllowed 0".
	Text string
	// Allowed, Current, Desired and Expected are its status.
	Allowed, Current, Desired, Expected int32
	// Refusing is set when it allows no disruption while an eviction waits.
	Refusing bool
	// left counts the pods it covers on the drained node not yet evicted.
	left int
}

// DriftLine is one second in which pods were created and deleted.
type DriftLine struct {
	// Key is "drift/T/replicaset".
	Key string
	T   int64
	// Age is "now" or "3s ago".
	Age string
	// ReplicaSet is the owner of the pods.
	ReplicaSet string
	// Pods are the pods created and deleted within the second, by name.
	Pods []string
	// Text tells it: "At 20s the ReplicaSet web-6598877c79 was scaled to 6
	// by hand (kubectl scale rs -l app=web --replicas=6); the Deployment
	// controller scaled it back to 3 and its 3 extra pods were deleted in
	// the same second."
	Text string
}

// OnScreen computes the Screen at the current second; console holds the
// console's refusals (Console.Refusals).
func OnScreen(s *sim.Sim, console []Rejection) Screen {
	sc := Screen{Refusals: RefusalsOnScreen(s, console)}
	sc.Waiting, sc.DrainNode, sc.Budget = evictionWait(s)
	sc.Drift = Drift(s)
	return sc
}

// RefusalsOnScreen are the refusals (the scenario's steps and the
// console's commands) of the last RefusalShowSeconds seconds that no later
// change has replaced, newest first, each with its Age.
func RefusalsOnScreen(s *sim.Sim, console []Rejection) []Rejection {
	now := s.T()
	last := lastChange(s)
	var out []Rejection
	for _, r := range append(StepRejections(s), console...) {
		if r.T > now || now-r.T >= RefusalShowSeconds || last > r.T {
			continue
		}
		r.Age = ageWords(now - r.T)
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].T > out[j].T })
	return out
}

func ageWords(sec int64) string {
	if sec <= 0 {
		return "now"
	}
	return secondsText(sec) + " ago"
}

// lastChange is the latest second up to now at which a step changed the
// cluster (a kubectl command that writes, an apply, a fault); -1 when none.
func lastChange(s *sim.Sim) int64 {
	now := s.T()
	last := int64(-1)
	steps := s.Scenario().Steps
	for _, r := range s.StepResults() {
		if r.Expect || !r.OK || r.Index < 0 || r.Index >= len(steps) {
			continue
		}
		st := steps[r.Index]
		t := int64(st.At / time.Second)
		if t > now || st.Kubectl != "" && readOnly(st.Kubectl) {
			continue
		}
		last = max(last, t)
	}
	return last
}

// readOnly reports whether a kubectl line only reads.
func readOnly(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	switch f[0] {
	case "get", "describe", "logs", "top", "explain", "api-resources", "version", "wait", "events", "auth", "diff":
		return true
	case "rollout":
		return len(f) > 1 && (f[1] == "status" || f[1] == "history")
	}
	return false
}

// evictionWait finds a drain (or an eviction) that waits now, and the
// budget it waits on.
func evictionWait(s *sim.Sim) (string, string, *BudgetLine) {
	steps := s.Scenario().Steps
	for _, r := range s.StepResults() {
		if !r.Waiting || r.Index < 0 || r.Index >= len(steps) {
			continue
		}
		f := strings.Fields(steps[r.Index].Kubectl)
		if len(f) == 0 || f[0] != "drain" {
			continue
		}
		at := int64(steps[r.Index].At / time.Second)
		text := "kubectl " + steps[r.Index].Kubectl + " (since " + secondsText(at) + ") waits to evict its pods"
		node := drainNode(f)
		b := budgetFor(s, node)
		if b != nil && b.Allowed == 0 && b.left > 0 {
			b.Refusing = true
			text += ": the Eviction API refuses them while poddisruptionbudget/" + b.Name +
				" allows 0 disruptions; it retries every 5s until a pod becomes healthy elsewhere"
		}
		switch {
		case b != nil && !b.Refusing && b.left > 0:
			text += ": the budget allows " + plural(int64(b.Allowed), "disruption") + " now, and drain retries a refused eviction every 5s"
		case !strings.Contains(text, "refuses"):
			text += ": they are shutting down"
		}
		return text + ".", node, b
	}
	return "", "", nil
}

// drainNode is the node a drain's fields name.
func drainNode(f []string) string {
	for _, a := range f[1:] {
		if !strings.HasPrefix(a, "-") {
			return strings.TrimPrefix(a, "node/")
		}
	}
	return ""
}

// budgetFor is the PodDisruptionBudget covering the pods of node, the
// strictest first; nil when none does.
func budgetFor(s *sim.Sim, node string) *BudgetLine {
	st := s.Store()
	var pods []*api.Pod
	st.EachPod(func(p *api.Pod) bool {
		if p.Spec.NodeName == node {
			pods = append(pods, p)
		}
		return true
	})
	pdbs := st.PodDisruptionBudgets()
	sort.Slice(pdbs, func(i, j int) bool { return pdbs[i].Name < pdbs[j].Name })
	var first *api.PodDisruptionBudget
	for _, pdb := range pdbs {
		sel, err := labels.FromLabelSelector(pdb.Spec.Selector)
		if err != nil || pdb.Spec.Selector == nil {
			continue
		}
		for _, p := range pods {
			if p.Namespace == pdb.Namespace && sel.Matches(p.Labels) {
				if first == nil || pdb.Status.DisruptionsAllowed < first.Status.DisruptionsAllowed {
					first = pdb
				}
				break
			}
		}
	}
	if first == nil {
		return nil
	}
	b := budgetLine(first)
	if sel, err := labels.FromLabelSelector(first.Spec.Selector); err == nil {
		for _, p := range pods {
			if p.DeletionTimestamp == nil && p.Namespace == first.Namespace && sel.Matches(p.Labels) {
				b.left++
			}
		}
	}
	return b
}

func budgetLine(pdb *api.PodDisruptionBudget) *BudgetLine {
	b := &BudgetLine{Name: pdb.Name, Allowed: pdb.Status.DisruptionsAllowed, Current: pdb.Status.CurrentHealthy,
		Desired: pdb.Status.DesiredHealthy, Expected: pdb.Status.ExpectedPods}
	var rule string
	switch {
	case pdb.Spec.MinAvailable != nil:
		rule = "minAvailable " + pdb.Spec.MinAvailable.String()
	case pdb.Spec.MaxUnavailable != nil:
		rule = "maxUnavailable " + pdb.Spec.MaxUnavailable.String()
	}
	b.Text = fmt.Sprintf("poddisruptionbudget/%s: %s · %d healthy of %s (%d must stay healthy) · disruptionsAllowed %d",
		pdb.Name, rule, b.Current, plural(int64(b.Expected), "pod"), b.Desired, b.Allowed)
	return b
}

// Drift finds the seconds of the last DriftShowSeconds in which a
// ReplicaSet created pods and deleted them again within the second
// (from the events the API server holds), and says who did what.
func Drift(s *sim.Sim) []DriftLine {
	now := s.T()
	type key struct {
		t  int64
		rs string
	}
	created := map[key][]string{}
	deleted := map[string]int64{}
	scaled := map[key]string{}
	var order []key
	for _, e := range s.Store().Events() {
		t := int64(e.LastTimestamp.Sub(api.Epoch) / time.Second)
		if e.LastTimestamp.IsZero() || t > now || now-t >= DriftShowSeconds {
			continue
		}
		obj := strings.ToLower(e.InvolvedObject.Kind) + "/" + e.InvolvedObject.Name
		switch {
		case e.Reason == "SuccessfulCreate" && strings.HasPrefix(e.Message, "Created pod: "):
			k := key{t, obj}
			if _, ok := created[k]; !ok {
				order = append(order, k)
			}
			created[k] = append(created[k], strings.TrimPrefix(e.Message, "Created pod: "))
		case e.Reason == "SuccessfulDelete" && strings.HasPrefix(e.Message, "Deleted pod: "):
			deleted[strings.TrimPrefix(e.Message, "Deleted pod: ")] = t
		case e.Reason == "ScalingReplicaSet" && strings.HasPrefix(e.Message, "Scaled down replica set "):
			rest := strings.TrimPrefix(e.Message, "Scaled down replica set ")
			if i := strings.IndexByte(rest, ' '); i > 0 {
				scaled[key{t, "replicaset/" + rest[:i]}] = obj + ": " + e.Message
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].t != order[j].t {
			return order[i].t > order[j].t
		}
		return order[i].rs < order[j].rs
	})
	var out []DriftLine
	for _, k := range order {
		var gone []string
		for _, p := range created[k] {
			if t, ok := deleted[p]; ok && t == k.t {
				gone = append(gone, p)
			}
		}
		if len(gone) == 0 {
			continue
		}
		rsName := strings.TrimPrefix(k.rs, "replicaset/")
		l := DriftLine{Key: "drift/" + strconv.FormatInt(k.t, 10) + "/" + rsName, T: k.t, Age: ageWords(now - k.t), ReplicaSet: rsName, Pods: gone}
		l.Text = driftText(s, k.t, rsName, len(gone), scaled[k])
		out = append(out, l)
	}
	return out
}

// driftText tells one drift: who scaled the ReplicaSet (a step of that
// second), who scaled it back (the scale-down event) and the pods.
func driftText(s *sim.Sim, t int64, rs string, n int, scaledBack string) string {
	var by string
	steps := s.Scenario().Steps
	for _, r := range s.StepResults() {
		if r.Index < 0 || r.Index >= len(steps) || r.Expect || !r.OK || int64(steps[r.Index].At/time.Second) != t {
			continue
		}
		if f := strings.Fields(steps[r.Index].Kubectl); len(f) > 1 && f[0] == "scale" {
			by = steps[r.Index].Kubectl
			for _, a := range f {
				if v, ok := strings.CutPrefix(a, "--replicas="); ok {
					by = "to " + v + " by hand (kubectl " + by + ")"
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "At %s the ReplicaSet %s", secondsText(t), rs)
	if by != "" {
		b.WriteString(" was scaled " + by + ";")
	} else {
		b.WriteString(" wanted more pods;")
	}
	if scaledBack != "" {
		_, msg, _ := strings.Cut(scaledBack, ": ")
		owner, _, _ := strings.Cut(scaledBack, ":")
		to := msg[strings.LastIndex(msg, " ")+1:]
		fmt.Fprintf(&b, " the Deployment controller (%s) scaled it back to %s and", owner, to)
	} else {
		b.WriteString(" then")
	}
	fmt.Fprintf(&b, " its %s created in that second %s deleted in the same second.", plural(int64(n), "extra pod"),
		map[bool]string{true: "was", false: "were"}[n == 1])
	return b.String()
}
