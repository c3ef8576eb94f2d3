package k8sdiff

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/deployment"

	"converge/core/k8scase"
)

// TestDiffRequeue drives a rollout with a progress deadline to the point
// where the deployment controller has nothing left to write (its pods
// never become Ready, or they do and it completes, or it is paused), as
// the multi-sync runs do (every sync compared). There upstream's
// syncRolloutStatus calls requeueStuckDeployment (progress.go): the
// harness calls it on the same Deployment and status in a synctest
// bubble, whose clock stands still until the harness waits, and measures
// when the key comes out of the controller's work queue (AddAfter of the
// remaining time plus a second, AddRateLimited when under a second, or
// never). Converge syncs every second and says in its sync record when the
// deadline will be reported (the rollout record's progressDeadlineIn); the
// two must agree. Then the clock moves to one second before that instant,
// where neither side may report the deadline, and to the instant itself,
// where the writes of both are compared again (ProgressDeadlineExceeded).
func TestDiffRequeue(t *testing.T) {
	t.Parallel()
	f := newFamily("requeueStuckDeployment on a fake clock against Converge's deadline countdown")
	seed := uint64(setting("K8SDIFF_SEED", 1))
	for i := range setting("K8SDIFF_REQUEUE_RUNS", 100) {
		g := newGen(seed^0x7265717565, uint64(i)) // "reque"
		synctest.Test(t, func(t *testing.T) {
			name := fmt.Sprintf("seed%d-requeue%d", seed, i)
			d, notes, err := g.requeueRun(name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if d != "" {
				d = name + ": " + d
			}
			f.add(d, notes...)
		})
	}
	f.finish(t)
}

// requeueRun drives one run. It must run in a synctest bubble.
func (g *gen) requeueRun(name string) (string, []string, error) {
	start, plan := g.hardStart(name, false)
	d := start.Deployment
	d.ProgressDeadlineSeconds = ptr32(d.MinReadySeconds + g.n32(2, 40))
	plan.scales, plan.pauses, plan.failRate, plan.delRate = map[int]int32{}, map[int]bool{}, 0, 0
	plan.changes = map[int]string{}
	if g.chance(0.7) {
		plan.changes[0] = brokenImage
		if g.chance(0.3) {
			plan.changes[g.n(10, 40)] = "v5" // fixed after the deadline, or before it
		}
	}
	if g.chance(0.15) {
		r := g.n(1, 10)
		plan.pauses[r], plan.pauses[r+g.n(2, 8)] = true, false
	}
	var notes []string
	st := start.State
	requeues := 0
	for round := 0; round < 40 && requeues < 3; round++ {
		g.hardUserAction(&st, plan, round)
		wrote := false
		for _, ctrl := range []string{k8scase.DeploymentController, k8scase.ReplicaSetController} {
			c := (&k8scase.Case{Name: fmt.Sprintf("%s-round%d-%s", name, round, ctrl), Controller: ctrl, State: st}).Clone()
			r, out, err := compare(c)
			if err != nil {
				return "", notes, fmt.Errorf("%s: %w", c.Name, err)
			}
			if !r.Equal() {
				return fmt.Sprintf("%s:\n%s", c.Name, joinLines(r.Lines())), notes, nil
			}
			wrote = wrote || len(r.Converge) > 0
			st = out.After
			collectGarbage(&st)
		}
		if wrote || !g.quiet(&st) {
			g.hardKubelet(&st, plan)
			continue
		}
		// Nothing to write and nothing moving: upstream's sync requeues
		// (or not) here.
		c := (&k8scase.Case{Name: fmt.Sprintf("%s-round%d-requeue", name, round), Controller: k8scase.DeploymentController, State: st}).Clone()
		l, err := k8scase.Load(c)
		if err != nil {
			return "", notes, err
		}
		conv, err := l.Sync(c)
		if err != nil {
			return "", notes, err
		}
		kube, err := kubeRequeue(c, l.UIDs)
		if err != nil {
			return "", notes, fmt.Errorf("%s: %w", c.Name, err)
		}
		left := deadlineIn(conv)
		convText := requeueText(left)
		if kube != convText {
			switch {
			case kube == "at once" && left == 1 && deadlineAt(&st) == 0:
				// The remaining time is exactly 0: upstream requeues at
				// once (rate-limited, 5ms) and reports the deadline then;
				// Converge, whose clock moves in whole seconds, at the next
				// second.
				notes = append(notes, "deadline at this very second")
			case kube == "at once" && left < 0 && progressingReason(&st) == "NewReplicaSetAvailable":
				// Complete once, then a pod went unavailable: upstream
				// requeues at once (the deadline is long past) and keeps
				// doing so, but DeploymentTimedOut never holds under this
				// reason; Converge says no deadline applies.
				notes = append(notes, "requeued at once after completion (nothing can time out)")
				g.hardKubelet(&st, plan)
				continue
			default:
				return fmt.Sprintf("round %d, requeue:\nkubernetes: %s\nconverge:   %s (progressDeadlineIn %d)\nstate: %s",
					round, kube, convText, left, stateLine(&st)), notes, nil
			}
		}
		notes = append(notes, "requeue "+requeueBucket(kube))
		if left <= 0 {
			break // nothing will happen by itself: the run is over
		}
		requeues++
		// One second before the requeue neither side reports the
		// deadline; at the requeue both do (the next round compares it).
		if left > 1 {
			shift(&st, left-1)
			c := (&k8scase.Case{Name: fmt.Sprintf("%s-round%d-before", name, round), Controller: k8scase.DeploymentController, State: st}).Clone()
			r, _, err := compare(c)
			if err != nil {
				return "", notes, fmt.Errorf("%s: %w", c.Name, err)
			}
			if !r.Equal() {
				return fmt.Sprintf("%s:\n%s", c.Name, joinLines(r.Lines())), notes, nil
			}
			if len(r.Converge) > 0 {
				return fmt.Sprintf("%s: a write a second before the requeue: %v\nstate: %s", c.Name, r.Converge, stateLine(&st)), notes, nil
			}
			shift(&st, 1)
		} else {
			shift(&st, left)
		}
		notes = append(notes, "synced at the requeue")
	}
	if progressingReason(&st) == "ProgressDeadlineExceeded" {
		notes = append(notes, "timed out")
	}
	return "", notes, nil
}

// quiet reports a state the kubelet would not change: no pod starting,
// terminating or about to become Ready (the broken template's pods stay
// unready).
func (g *gen) quiet(st *k8scase.State) bool {
	for _, p := range st.Pods {
		if p.Terminating || p.Created == 0 || p.Node == "" || p.Phase == "Pending" ||
			p.Phase == "Running" && !p.Ready && p.Image != brokenImage {
			return false
		}
	}
	return true
}

func progressingReason(st *k8scase.State) string {
	for _, c := range st.Deployment.Status.Conditions {
		if c.Type == "Progressing" {
			return c.Reason
		}
	}
	return ""
}

// deadlineAt is the seconds from now to the Progressing condition's
// lastUpdateTime + progressDeadlineSeconds.
func deadlineAt(st *k8scase.State) int64 {
	d := st.Deployment
	for _, c := range d.Status.Conditions {
		if c.Type == "Progressing" && d.ProgressDeadlineSeconds != nil {
			return c.LastUpdate + int64(*d.ProgressDeadlineSeconds)
		}
	}
	return -1
}

// requeueBucket groups the delays for the report.
func requeueBucket(s string) string {
	var n int
	if _, err := fmt.Sscanf(s, "in %ds", &n); err == nil {
		switch {
		case n <= 5:
			return "in 1-5s"
		case n <= 20:
			return "in 6-20s"
		}
		return "in 21s+"
	}
	return s
}

func joinLines(lines []string) string {
	out := ""
	for _, l := range lines {
		out += "  " + l + "\n"
	}
	return out
}

// deadlineIn is the Deployment's progressDeadlineIn in Converge's record.
func deadlineIn(o *k8scase.Outcome) int64 {
	for _, r := range o.Records {
		if r.Rollout != nil {
			return r.Rollout.ProgressDeadlineIn
		}
	}
	return -1
}

func requeueText(left int64) string {
	switch {
	case left < 0:
		return "never"
	case left == 0:
		return "at once"
	}
	return fmt.Sprintf("in %ds", left)
}

// kubeRequeue runs upstream's syncDeployment on a case where it has
// nothing to write and waits for the Deployment's key to come out of the
// controller's work queue (requeueStuckDeployment's AddAfter or
// AddRateLimited), at most an hour: "never", "at once" (under a second)
// or "in Ns".
func kubeRequeue(c *k8scase.Case, uids map[string]string) (string, error) {
	k := &kube{c: c, base: time.Now().UTC(), uids: uids, rec: record.NewFakeRecorder(10000)}
	if msg := k.setup(); msg != "" {
		return "", fmt.Errorf("refused: %s", msg)
	}
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer cancel()
	i := k.inf.Apps().V1()
	dc, err := deployment.NewDeploymentController(ctx, i.Deployments(), i.ReplicaSets(), k.inf.Core().V1().Pods(), k.client)
	if err != nil {
		return "", err
	}
	setField(dc, "eventRecorder", record.EventRecorder(k.rec))
	defer shutDown(dc)
	if err := k.fill(); err != nil {
		return "", err
	}
	k.client.ClearActions()
	if err := syncDeployment(dc, ctx, k8scase.Namespace+"/"+c.Deployment.Name); err != nil {
		return "", fmt.Errorf("sync: %w", err)
	}
	for _, a := range k.client.Actions() {
		if a.GetVerb() != "get" && a.GetVerb() != "list" && a.GetVerb() != "watch" {
			return "", fmt.Errorf("the sync wrote (%s %s)", a.GetVerb(), a.GetResource().Resource)
		}
	}
	q := getField(dc, "queue").(workqueue.TypedRateLimitingInterface[string])
	start := time.Now()
	got := make(chan time.Duration, 1)
	go func() {
		if _, shutdown := q.Get(); !shutdown {
			got <- time.Since(start)
		}
	}()
	select {
	case w := <-got:
		switch {
		case w < time.Second:
			return "at once", nil
		case w%time.Second != 0:
			return fmt.Sprintf("in %v", w), nil
		}
		return fmt.Sprintf("in %ds", w/time.Second), nil
	case <-time.After(time.Hour):
		return "never", nil
	}
}

func stateLine(st *k8scase.State) string {
	d := st.Deployment
	return fmt.Sprintf("paused=%v gen=%d/%d replicas=%d status=%+v", d.Paused, d.Status.ObservedGeneration, d.Generation, d.Replicas, d.Status)
}
