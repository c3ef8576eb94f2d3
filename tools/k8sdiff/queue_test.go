package k8sdiff

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"k8s.io/client-go/util/workqueue"

	"converge/core/controller"
	cqueue "converge/core/controller/workqueue"
)

// TestDiffQueue drives the deployment controller's handleErr
// (deployment_controller.go: below maxRetries = 15 requeues
// AddRateLimited, else Forget and drop) on client-go v0.35.4's
// DefaultTypedControllerRateLimiter (per-key exponential back-off and the
// queue-wide token bucket) in a synctest bubble, whose clock moves only
// when the harness sleeps, and Converge's core/controller/workqueue on the
// same sequence of failures, successes, changes and waits over three keys;
// after every failure the requeue count, the delay and whether the key was
// dropped must agree. A dropped key fails again only after a change of what
// it watches (upstream: an informer event enqueues it afresh).
func TestDiffQueue(t *testing.T) {
	t.Parallel()
	f := newFamily("client-go rate-limited queue with handleErr against core/controller/workqueue")
	seed := uint64(setting("K8SDIFF_SEED", 1))
	for i := range setting("K8SDIFF_QUEUE_CASES", 300) {
		g := newGen(seed^0x7175657565, uint64(i)) // "queue"
		synctest.Test(t, func(t *testing.T) {
			d, notes := runQueueCase(g)
			if d != "" {
				d = fmt.Sprintf("queue-seed%d-case%d: %s", seed, i, d)
			}
			f.add(d, notes...)
		})
	}
	f.finish(t)
}

const deploymentMaxRetries = 15

func runQueueCase(g *gen) (string, []string) {
	lim := workqueue.DefaultTypedControllerRateLimiter[string]()
	q := cqueue.New(deploymentMaxRetries)
	start := time.Now()
	keys := []string{"default/a", "default/b", "default/c"}
	watched := map[string]int{}
	dropped := map[string]bool{}
	var notes []string
	burst := g.chance(0.2) // enough failures at once to empty the bucket
	for step := range g.n(10, 400) {
		key := keys[g.r.IntN(len(keys))]
		now := time.Now()
		switch op := g.r.IntN(10); {
		case op == 0:
			lim.Forget(key)
			q.Forget(key)
			delete(dropped, key)
		case op == 1 && !burst:
			time.Sleep(time.Duration(g.pick2(5, 100, 1000, 60000, 1000000)) * time.Millisecond)
		default:
			if dropped[key] {
				// A change: the informer enqueues the key afresh.
				var w cqueue.Watched
				watched[key]++
				w.Count(watched[key])
				if !q.Due(key, now, w) {
					return fmt.Sprintf("step %d: %s not due after a change", step, key), notes
				}
				delete(dropped, key)
			}
			var w cqueue.Watched
			w.Count(watched[key])
			var kube string
			if lim.NumRequeues(key) < deploymentMaxRetries {
				// The bucket's delay is x/time/rate's float arithmetic
				// (4.099999999s where Converge counts 4.1s): compared to
				// the microsecond.
				d := lim.When(key).Round(time.Microsecond)
				kube = fmt.Sprintf("requeues=%d backoff=%s", lim.NumRequeues(key), d)
			} else {
				lim.Forget(key)
				kube = "dropped"
				notes = append(notes, "dropped")
			}
			rec := q.Failed(key, now, w, controller.SyncRecord{})
			conv := fmt.Sprintf("requeues=%d backoff=%s", rec.Queue.Requeues, rec.Queue.Backoff)
			if rec.Queue.Dropped {
				conv = "dropped"
				dropped[key] = true
			}
			if kube != conv {
				return fmt.Sprintf("step %d at %s, failure of %s:\nkubernetes: %s\nconverge:   %s", step, now.Sub(start), key, kube, conv), notes
			}
			notes = append(notes, "failures")
		}
	}
	return "", notes
}
