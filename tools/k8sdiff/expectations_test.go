package k8sdiff

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"

	"converge/core/k8scase"
)

// TestDiffExpectations drives rollouts (the multi-sync runs' deployment
// controller, then the ReplicaSet controller, round after round) where
// upstream's ReplicaSet controller keeps its expectations
// (controller.UIDTrackingControllerExpectations) across syncs, on the
// synctest clock, and its informer lags: the pods a sync created reach
// its cache (and CreationObserved) at once, a round or two later, or in
// some runs one is never delivered (a lost watch event). Deletions are
// observed at once (DeletionObserved). While a creation is unobserved,
// upstream's sync does not manage replicas (SatisfiedExpectations) and
// computes status from its stale cache; Converge reads its store after
// every write and needs no expectations. Compared: with every creation
// observed, every write; while some are not, the pods each side creates
// and deletes, which must agree (expectations are what makes upstream act
// as if it read its own writes). A lost creation is checked against
// ExpectationsTimeout: at 5 minutes upstream still waits, a second later
// its expectations have expired and it creates the pod its cache lacks,
// which Converge, with no informer to lose an event, never does.
func TestDiffExpectations(t *testing.T) {
	t.Parallel()
	f := newFamily("ReplicaSet controller expectations across syncs against Converge's read-your-writes")
	seed := uint64(setting("K8SDIFF_SEED", 1))
	for i := range setting("K8SDIFF_EXPECTATIONS_RUNS", 60) {
		g := newGen(seed^0x657870, uint64(i)) // "exp"
		synctest.Test(t, func(t *testing.T) {
			name := fmt.Sprintf("seed%d-expect%d", seed, i)
			d, notes, err := g.expectationsRun(name)
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

// expectationsRun drives one run. It must run in a synctest bubble.
func (g *gen) expectationsRun(name string) (string, []string, error) {
	start := g.multiStart(name)
	st := start.State
	exp := controller.NewUIDTrackingControllerExpectations(controller.NewControllerExpectations())
	logger := logr.Discard()
	lagRate := 0.0
	if g.chance(0.7) {
		lagRate = 0.2 + 0.4*g.r.Float64()
	}
	lose := g.chance(0.3)      // one creation is never delivered
	hidden := map[string]int{} // pod -> the round its creation reaches upstream's cache
	owner := map[string]string{}
	var notes []string
	for round := 0; round < 80; round++ {
		g.userAction(&st, round)
		// The informer delivers what is due: CreationObserved for each
		// pod that reaches the cache.
		for p, at := range hidden {
			if at <= round {
				delete(hidden, p)
				exp.CreationObserved(logger, k8scase.Namespace+"/"+owner[p])
			}
		}
		wrote := false
		for _, ctrl := range []string{k8scase.DeploymentController, k8scase.ReplicaSetController} {
			c := (&k8scase.Case{Name: fmt.Sprintf("%s-round%d-%s", name, round, ctrl), Controller: ctrl, State: st}).Clone()
			var out *k8scase.Outcome
			if ctrl == k8scase.DeploymentController {
				r, o, err := compare(c)
				if err != nil {
					return "", notes, fmt.Errorf("%s: %w", c.Name, err)
				}
				if !r.Equal() {
					return fmt.Sprintf("%s:\n%s", c.Name, joinLines(r.Lines())), notes, nil
				}
				wrote = wrote || len(r.Converge) > 0
				out = o
			} else {
				kw, cw, o, err := compareRS(c, hidden, exp)
				if err != nil {
					return "", notes, fmt.Errorf("%s: %w", c.Name, err)
				}
				if len(hidden) > 0 {
					// Upstream does nothing for a ReplicaSet with a
					// creation unobserved; Converge, which has no informer
					// lag, acts: the run goes on from upstream's decision.
					waiting := map[string]bool{}
					for p := range hidden {
						waiting[owner[p]] = true
					}
					kw, cw = podWritesOnly(kw, nil), podWritesOnly(cw, nil)
					if w := podWritesOnly(kw, waiting); len(w) > 0 {
						return fmt.Sprintf("%s: upstream managed a ReplicaSet whose creations it has not observed: %v", c.Name, w), notes, nil
					}
					if len(podWritesOnly(cw, waiting)) > 0 {
						notes = append(notes, "upstream waited for its informer where Converge acted")
					}
					cw = slices.DeleteFunc(cw, func(w k8scase.Write) bool { return len(podWritesOnly([]k8scase.Write{w}, waiting)) > 0 })
					o.After = undoFor(c, o.After, waiting)
					notes = append(notes, "sync with unobserved creations")
				}
				if !slices.Equal(kw, cw) {
					return fmt.Sprintf("%s (unobserved: %v):\n%s", c.Name, hidden, joinLines((&Result{Kube: kw, Converge: cw}).Lines())), notes, nil
				}
				wrote = wrote || len(cw) > 0
				out = o
				// What the sync did reaches upstream's informer.
				for _, p := range o.After.Pods {
					if c.Pod(p.Name) != nil {
						continue
					}
					owner[p.Name] = p.Owner
					switch {
					case lose && len(hidden) == 0:
						lose = false
						hidden[p.Name] = 1 << 30
						return g.lostCreation(name, out.After, hidden, exp, notes)
					case g.chance(lagRate):
						hidden[p.Name] = round + g.n(1, 2)
					default:
						exp.CreationObserved(logger, k8scase.Namespace+"/"+p.Owner)
					}
				}
				for _, p := range c.Pods {
					if q := o.After.Pod(p.Name); (q == nil || q.Terminating && !p.Terminating) && p.Owner != "" {
						exp.DeletionObserved(logger, k8scase.Namespace+"/"+p.Owner, k8scase.Namespace+"/"+p.Name)
					}
				}
			}
			st = out.After
			collectGarbage(&st)
		}
		if !wrote && len(hidden) == 0 && settled(&st) {
			notes = append(notes, "rollout completed")
			return "", notes, nil
		}
		before := st.Deployment.Created
		g.kubelet(&st)
		time.Sleep(time.Duration(before-st.Deployment.Created) * time.Second)
	}
	return "", notes, nil
}

// lostCreation follows a creation upstream's informer never delivers: at
// ExpectationsTimeout after the sync that expected it upstream still does
// not manage the ReplicaSet, a second later it does and creates the pod
// again; Converge creates nothing either time.
func (g *gen) lostCreation(name string, st k8scase.State, hidden map[string]int, exp *controller.UIDTrackingControllerExpectations, notes []string) (string, []string, error) {
	for _, dt := range []int64{300, 1} {
		shift(&st, dt)
		time.Sleep(time.Duration(dt) * time.Second)
		c := (&k8scase.Case{Name: fmt.Sprintf("%s-lost+%ds", name, dt), Controller: k8scase.ReplicaSetController, State: st}).Clone()
		kw, cw, out, err := compareRS(c, hidden, exp)
		if err != nil {
			return "", notes, fmt.Errorf("%s: %w", c.Name, err)
		}
		kw, cw = podWritesOnly(kw, nil), podWritesOnly(cw, nil)
		if len(cw) > 0 {
			return fmt.Sprintf("%s: Converge wrote %v", c.Name, cw), notes, nil
		}
		created := 0
		for _, w := range kw {
			if w.Field == "pods created" {
				created++
			}
		}
		switch {
		case dt == 300 && len(kw) > 0:
			return fmt.Sprintf("%s: upstream acted before its expectations expired: %v", c.Name, kw), notes, nil
		case dt == 1 && created == 0:
			return fmt.Sprintf("%s: upstream did not recreate the lost pod after 5 minutes: %v", c.Name, kw), notes, nil
		}
		st = out.After
	}
	notes = append(notes, "lost creation: expired after 5m, recreated upstream only")
	return "", notes, nil
}

// podWritesOnly keeps the pods created and deleted (of the ReplicaSets
// in only, when given: the deleted pods' names begin with their owner's).
func podWritesOnly(ws []k8scase.Write, only map[string]bool) []k8scase.Write {
	var out []k8scase.Write
	for _, w := range ws {
		var rs string
		switch {
		case w.Field == "pods created":
			rs = strings.TrimPrefix(w.Object, "replicaset/")
		case w.Field == "deleted" && strings.HasPrefix(w.Object, "pod/"):
			name := strings.TrimPrefix(w.Object, "pod/")
			rs = name[:max(strings.LastIndex(name, "-"), 0)]
		default:
			continue
		}
		if only == nil || only[rs] {
			out = append(out, w)
		}
	}
	return out
}

// undoFor takes back what Converge's sync did to the pods of the
// ReplicaSets in waiting: the pods it created go, those it deleted are as
// before.
func undoFor(before *k8scase.Case, after k8scase.State, waiting map[string]bool) k8scase.State {
	after.Pods = slices.DeleteFunc(after.Pods, func(p k8scase.Pod) bool {
		return waiting[p.Owner] && before.Pod(p.Name) == nil
	})
	for _, p := range before.Pods {
		if !waiting[p.Owner] {
			continue
		}
		if q := after.Pod(p.Name); q == nil {
			after.Pods = append(after.Pods, p)
		} else {
			*q = p
		}
	}
	return after
}

// compareRS runs one sync of the ReplicaSet controller on both sides:
// Converge's on the case, upstream's on the case without the pods its
// informer has not delivered yet, with the expectations of earlier syncs.
// It returns both sides' writes and Converge's outcome.
func compareRS(c *k8scase.Case, hidden map[string]int, exp *controller.UIDTrackingControllerExpectations) (kw, cw []k8scase.Write, out *k8scase.Outcome, err error) {
	l, err := k8scase.Load(c)
	if err != nil {
		return nil, nil, nil, err
	}
	if out, err = l.Sync(c); err != nil {
		return nil, nil, nil, err
	}
	ck := c.Clone()
	ck.Pods = slices.DeleteFunc(ck.Pods, func(p k8scase.Pod) bool { _, h := hidden[p.Name]; return h })
	k := &kube{c: ck, base: time.Now().UTC(), uids: l.UIDs, rec: record.NewFakeRecorder(10000), exp: exp}
	if msg := k.setup(); msg != "" {
		return nil, nil, nil, fmt.Errorf("refused: %s", msg)
	}
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer cancel()
	if err := k.syncReplicaSets(ctx); err != nil && !isSyncError(err) {
		return nil, nil, nil, err
	}
	ko := &k8scase.Outcome{}
	if ko.After, err = k.state(); err != nil {
		return nil, nil, nil, err
	}
	ko.Events = k.events()
	r := &Result{Kube: k8scase.Writes(ck, ko), Converge: k8scase.Writes(c, out)}
	r.sort()
	return r.Kube, r.Converge, out, nil
}
