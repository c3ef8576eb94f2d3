package gc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// TestGCOrphaned ports podgc's TestGCOrphaned (pkg/controller/podgc): a
// first pass, the clock moved by delay, node changes, a second pass. The
// rows that tell the informer's cache from the API server collapse here:
// Converge's controllers read the store itself.
func TestGCOrphaned(t *testing.T) {
	t.Parallel()
	pod := func(name, node, phase string) *api.Pod {
		return simtest.NewPod(name, simtest.WithPodNode(node), simtest.WithPodPhase(phase))
	}
	tests := []struct {
		name    string
		nodes   []string
		delay   time.Duration
		added   []string // nodes created after the first pass
		deleted []string // nodes deleted after the first pass
		pods    []*api.Pod
		gone    []string // pods deleted by the second pass
		failed  []string // pods marked Failed with DisruptionTarget first
	}{
		{name: "nodes present", nodes: []string{"existing1", "existing2"}, delay: 2 * QuarantineTime,
			pods: []*api.Pod{pod("a", "existing1", api.PodRunning), pod("b", "existing2", api.PodFailed), pod("c", "existing2", api.PodSucceeded)}},
		{name: "no nodes", delay: 2 * QuarantineTime,
			pods: []*api.Pod{pod("a", "deleted", api.PodFailed), pod("b", "deleted", api.PodSucceeded)}, gone: []string{"a", "b"}},
		{name: "no nodes, one running pod", delay: 2 * QuarantineTime,
			pods: []*api.Pod{pod("a", "deleted", api.PodFailed), pod("b", "deleted", api.PodSucceeded), pod("c", "deleted", api.PodRunning)},
			gone: []string{"a", "b", "c"}, failed: []string{"c"}},
		{name: "quarantine not finished", delay: QuarantineTime / 2, pods: []*api.Pod{pod("a", "deleted", api.PodFailed)}},
		{name: "wrong nodes", nodes: []string{"existing"}, delay: 2 * QuarantineTime,
			pods: []*api.Pod{pod("a", "deleted", api.PodRunning)}, gone: []string{"a"}, failed: []string{"a"}},
		{name: "some nodes missing", nodes: []string{"existing"}, delay: 2 * QuarantineTime,
			pods: []*api.Pod{pod("a", "deleted", api.PodFailed), pod("b", "existing", api.PodFailed), pod("c", "deleted", api.PodSucceeded),
				pod("d", "deleted", api.PodRunning)}, gone: []string{"a", "c", "d"}, failed: []string{"d"}},
		{name: "node added after quarantine", delay: 2 * QuarantineTime, added: []string{"node"},
			pods: []*api.Pod{pod("a", "node", api.PodRunning)}},
		{name: "node deleted after the first pass: quarantined from the second", nodes: []string{"node"}, delay: 2 * QuarantineTime,
			deleted: []string{"node"}, pods: []*api.Pod{pod("a", "node", api.PodSucceeded)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			for _, n := range tc.nodes {
				simtest.MustCreate(t, s, simtest.NewNode(n, "4", "8Gi", 110))
			}
			for _, p := range tc.pods {
				p.Finalizers = []string{"example.com/keep"} // keeps a deleted pod to look at
				simtest.MustCreate(t, s, p)
			}
			c := New()
			simtest.Sync(s, c)
			for _, p := range tc.pods {
				assert.True(t, s.Exists(simtest.GetPod(t, s, p.Name).UID), "no pod is deleted by the first pass: %s", p.Name)
			}
			simtest.Advance(s, tc.delay)
			for _, n := range tc.added {
				simtest.MustCreate(t, s, simtest.NewNode(n, "4", "8Gi", 110))
			}
			for _, n := range tc.deleted {
				require.NoError(t, s.Delete(api.KindNode, "", n, store.DeleteOptions{}))
			}
			simtest.Sync(s, c)
			var gone, failed []string
			for _, p := range tc.pods {
				got := simtest.GetPod(t, s, p.Name)
				if got.DeletionTimestamp != nil {
					gone = append(gone, p.Name)
					assert.Equal(t, int64(0), *got.DeletionGracePeriodSeconds, "force-deleted")
				}
				if dt := api.GetPodCondition(&got.Status, api.DisruptionTarget); dt != nil {
					assert.Equal(t, api.PodFailed, got.Status.Phase)
					assert.Equal(t, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "DeletionByPodGC",
						Message: "PodGC: node no longer exists", LastTransitionTime: s.Now()}, *dt)
					failed = append(failed, p.Name)
				}
			}
			assert.Equal(t, tc.gone, gone)
			assert.Equal(t, tc.failed, failed)
		})
	}
}

// TestOrphanedPodsWaitOutTheQuarantine: the node goes at 5 s; podgc runs
// at 0, 20, 40, 60 s: the pass at 20 s finds the node missing and
// quarantines it until 60 s, the pass at 60 s deletes its pods. Until
// then they stay Running and bound to the missing node; a clone of the
// collector keeps the quarantine.
func TestOrphanedPodsWaitOutTheQuarantine(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
	simtest.MustCreate(t, s, simtest.NewNode("node-2", "4", "8Gi", 110))
	stays := simtest.MustCreate(t, s, simtest.NewPod("stays", simtest.WithPodNode("node-1"), simtest.WithPodPhase(api.PodRunning)))
	goes := simtest.MustCreate(t, s, simtest.NewPod("goes", simtest.WithPodNode("node-2"), simtest.WithPodPhase(api.PodRunning)))
	c := New()
	var log []string
	var clone *Controller
	for sec := 0; sec <= 70; sec++ {
		if sec == 5 {
			require.NoError(t, s.Delete(api.KindNode, "", "node-2", store.DeleteOptions{}))
		}
		if sec == 30 {
			clone = c.Clone().(*Controller)
		}
		for _, a := range actions(t, simtest.Sync(s, c)) {
			log = append(log, time.Duration(sec*int(time.Second)).String()+" "+a)
		}
		if sec < 60 {
			assert.True(t, s.Exists(goes.UID), "at %ds the orphan is still there", sec)
		}
		simtest.Advance(s, time.Second)
	}
	assert.Equal(t, []string{
		"20s node/node-2: node node-2 is gone: its pods (1) are deleted once it has been missing for 40s (pod GC quarantine)",
		"1m0s pod/goes: delete pod goes: node node-2 is gone",
	}, log)
	assert.True(t, s.Exists(stays.UID))
	assert.False(t, s.Exists(goes.UID))
	assert.Equal(t, []quarantined{{node: "node-2", ready: api.Epoch.Add(60 * time.Second)}}, clone.pods.queue)
}

// TestOrphanPassSkippedOnlyWhileNothingItReadsChanged: a pass that found
// no pod on a missing node is skipped while the nodes and the pods'
// bindings stay; a pod bound to a node that is gone, or a node deleted,
// makes the next pass look again.
func TestOrphanPassSkippedOnlyWhileNothingItReadsChanged(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		change  func(t *testing.T, s *store.Store)
		skipped bool
	}{
		{name: "nothing changed", change: func(*testing.T, *store.Store) {}, skipped: true},
		{name: "a pod's status changed", change: func(t *testing.T, s *store.Store) {
			x := *simtest.GetPod(t, s, "pending")
			x.ResourceVersion = ""
			x.Status.Phase = api.PodFailed
			_, err := s.UpdateStatus(&x)
			require.NoError(t, err)
		}, skipped: true},
		{name: "a pod bound to a node that does not exist", change: func(t *testing.T, s *store.Store) {
			_, err := s.Bind(api.NamespaceDefault, "pending", "gone")
			require.NoError(t, err)
		}},
		{name: "a node deleted", change: func(t *testing.T, s *store.Store) {
			require.NoError(t, s.Delete(api.KindNode, "", "node-1", store.DeleteOptions{}))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
			simtest.MustCreate(t, s, simtest.NewPod("bound", simtest.WithPodNode("node-1"), simtest.WithPodPhase(api.PodRunning)))
			simtest.MustCreate(t, s, simtest.NewPod("pending"))
			c := New()
			simtest.Sync(s, c)
			require.NotNil(t, c.pods.none, "the first pass found nothing")
			tc.change(t, s)
			simtest.Advance(s, GCCheckPeriod)
			got := actions(t, simtest.Sync(s, c))
			if tc.skipped {
				assert.Empty(t, got)
				assert.NotNil(t, c.pods.none)
				return
			}
			require.Len(t, got, 1)
			assert.Contains(t, got[0], "is gone: its pods (1) are deleted once it has been missing for 40s")
			assert.Nil(t, c.pods.none)
		})
	}
}
