package deployment

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// failingDeployment creates a Deployment whose new ReplicaSet can never be
// created: <name>-<hash> is too long for a ReplicaSet name.
func failingDeployment(t *testing.T, f *fixture) *api.Deployment {
	t.Helper()
	long := strings.Repeat("a", 250)
	d := simtest.NewDeployment(long, 1, "x:1", simtest.WithDeploymentLabels(map[string]string{"foo": "bar"}))
	d.Spec.Template.Spec.Containers[0].Name = "app"
	return simtest.MustCreate(t, f.store, d)
}

// failedSyncs runs one controller once a second from now for n seconds and
// returns the seconds (counted from the first) in which it tried, and
// failed, to create the ReplicaSet, and the last record of each second.
func failedSyncs(f *fixture, c *Controller, n int) ([]int, []controller.SyncRecord) {
	var tried []int
	var recs []controller.SyncRecord
	for sec := 0; sec < n; sec++ {
		ctx := f.context()
		c.Sync(ctx)
		for _, e := range ctx.Emitted {
			if e.Reason == FailedRSCreateReason {
				tried = append(tried, sec)
			}
		}
		recs = append(recs, ctx.Log.Records[len(ctx.Log.Records)-1])
		f.advance(1)
	}
	return tried, recs
}

func TestFailedSyncBacksOffAndIsDroppedAfterMaxRetries(t *testing.T) {
	t.Parallel()
	// deployment_controller.go handleErr with DefaultControllerRateLimiter:
	// requeue n waits 5ms × 2^(n-1); Converge retries at the first whole
	// second at or after that. The 16th failure (NumRequeues 15) drops the key.
	f := newFixture(t)
	d := failingDeployment(t, f)
	c := New()
	tried, recs := failedSyncs(f, c, 200)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 19, 30, 51, 92, 174}, tried)

	assert.True(t, strings.HasSuffix(recs[0].Waiting, " (retry 1 of 15 in 5ms)"), recs[0].Waiting)
	assert.Equal(t, &controller.QueueRecord{Requeues: 1, MaxRetries: 15, Backoff: "5ms"}, recs[0].Queue)
	assert.True(t, strings.HasSuffix(recs[8].Waiting, " (retry 9 of 15 in 1.28s)"), recs[8].Waiting)
	assert.Equal(t, "backing off after an error: retry 9 of 15 in 280ms", recs[9].Waiting, "the record between retries")
	assert.Equal(t, "deployment/"+d.Name, recs[9].Object)
	assert.NotNil(t, recs[9].Rollout, "the repeated record keeps what the failed sync saw")
	assert.True(t, strings.HasSuffix(recs[174].Waiting, " (dropped after 15 retries: waits for a change)"), recs[174].Waiting)
	assert.Equal(t, &controller.QueueRecord{Requeues: 15, MaxRetries: 15, Dropped: true}, recs[174].Queue)
	assert.Equal(t, "not retrying: dropped from the queue after 15 retries; waits for a change", recs[199].Waiting)
	assert.Equal(t, 1, c.queue.Len())

	// A change of the Deployment wakes the key at once and starts the
	// back-off from the beginning.
	f.update(d.Name, func(d *api.Deployment) { d.Annotations = map[string]string{"touch": "1"} })
	tried, recs = failedSyncs(f, c, 3)
	assert.Equal(t, []int{0, 1, 2}, tried)
	assert.Equal(t, &controller.QueueRecord{Requeues: 1, MaxRetries: 15, Backoff: "5ms"}, recs[0].Queue)

	// Deleting the Deployment forgets its key.
	require.NoError(t, f.store.Delete(api.KindDeployment, d.Namespace, d.Name, store.DeleteOptions{}))
	c.Sync(f.context())
	assert.Zero(t, c.queue.Len())
}

func TestAChangeWakesABackingOffKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := failingDeployment(t, f)
	c := New()
	tried, _ := failedSyncs(f, c, 12) // failures at 0..8 and 10; the next retry is at 13
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 10}, tried)
	f.update(d.Name, func(d *api.Deployment) { d.Annotations = map[string]string{"touch": "1"} })
	tried, recs := failedSyncs(f, c, 3)
	assert.Equal(t, []int{0, 1}, tried, "the update is an informer event: synced at once (12s); "+
		"the retry pending for 12.56s, earlier than the new one, still runs (13s)")
	assert.Equal(t, 11, recs[0].Queue.Requeues, "the failures since the last success still count")
	assert.Equal(t, "5.12s", recs[0].Queue.Backoff)
	assert.Equal(t, "10.24s", recs[1].Queue.Backoff)
}

func TestASuccessForgetsTheKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.deployment(1)
	c := New()
	c.queue.Failed("default/foo", f.now(), watched(f.store, d), controller.SyncRecord{Waiting: "x"})
	require.True(t, c.queue.Has("default/foo"))
	f.update("foo", func(d *api.Deployment) { d.Annotations = map[string]string{"touch": "1"} })
	ctx := f.context()
	c.Sync(ctx)
	assert.False(t, c.queue.Has("default/foo"))
	assert.Nil(t, ctx.Log.Records[0].Queue)
	assert.NotEmpty(t, f.store.ReplicaSets())
}

func TestTheQueueIsCloned(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	failingDeployment(t, f)
	c := New()
	c.Sync(f.context())
	clone := c.Clone().(*Controller)
	require.Equal(t, 1, clone.queue.Len())
	f.advance(1)
	c.Sync(f.context())
	assert.Equal(t, 2, c.queue.NumRequeues("default/"+strings.Repeat("a", 250)))
	assert.Equal(t, 1, clone.queue.NumRequeues("default/"+strings.Repeat("a", 250)))
}
