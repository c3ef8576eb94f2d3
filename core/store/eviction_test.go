package store_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// TestEviction ports pkg/registry/core/pod/storage eviction_test.go
// TestEviction and TestEvictionIgnorePDB: which pods a budget protects and
// what the Eviction API answers.
func TestEviction(t *testing.T) {
	t.Parallel()
	budget := func(sel map[string]string, allowed, healthy, desired int32, tweak ...func(*api.PodDisruptionBudget)) *api.PodDisruptionBudget {
		b := simtest.NewPDB("foo", sel, "1", "")
		b.Status = api.PodDisruptionBudgetStatus{DisruptionsAllowed: allowed, CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: healthy, ObservedGeneration: 1}
		for _, tw := range tweak {
			tw(b)
		}
		return b
	}
	running := func(opts ...simtest.PodOption) *api.Pod {
		return simtest.NewPod("foo", append([]simtest.PodOption{simtest.WithPodLabels(map[string]string{"a": "true"}),
			simtest.WithPodNode("node-1"), simtest.WithPodReady(api.Epoch)}, opts...)...)
	}
	allowAlways := func(b *api.PodDisruptionBudget) { x := api.AlwaysAllow; b.Spec.UnhealthyPodEvictionPolicy = &x }
	condition := func(reason, message string) func(*api.PodDisruptionBudget) {
		return func(b *api.PodDisruptionBudget) {
			b.Status.Conditions = []api.Condition{{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse, Reason: reason, Message: message, ObservedGeneration: 1}}
		}
	}
	unready := func(p *api.Pod) { p.Status.Conditions = nil }
	tests := []struct {
		name   string
		pdbs   []*api.PodDisruptionBudget
		pod    *api.Pod
		err    string
		cause  string
		left   int32 // the budget's disruptionsAllowed after
		record bool  // the pod is in status.disruptedPods
	}{
		{"matching pdbs with no disruptions allowed", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 1, 1)}, running(),
			"Cannot evict pod as it would violate the pod's disruption budget.", "The disruption budget foo needs 1 healthy pods and has 1 currently", 0, false},
		{"matching pdbs with disruptions allowed", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 1, 2, 1)}, running(), "", "", 0, true},
		{"non-matching pdbs", []*api.PodDisruptionBudget{budget(map[string]string{"b": "true"}, 0, 1, 1)}, running(), "", "", 0, false},
		{"matching pdbs with no disruptions allowed, an empty selector", []*api.PodDisruptionBudget{budget(map[string]string{}, 0, 1, 1)}, running(),
			"Cannot evict pod as it would violate the pod's disruption budget.", "The disruption budget foo needs 1 healthy pods and has 1 currently", 0, false},
		{"a budget not observed yet", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 1, 2, 1, func(b *api.PodDisruptionBudget) { b.Status.ObservedGeneration = 0 })},
			running(), "Cannot evict pod as it would violate the pod's disruption budget.", "The disruption budget foo is still being processed by the server.", 1, false},
		{"two budgets", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 1, 2, 1), func() *api.PodDisruptionBudget {
			b := budget(map[string]string{}, 1, 2, 1)
			b.Name = "bar"
			return b
		}()}, running(), "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", "", 1, false},
		// TestEvictionIgnorePDB
		{"pending pod", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 1, 1)}, running(simtest.WithPodPhase(api.PodPending)), "", "", 0, false},
		{"succeeded pod", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 1, 1)}, running(simtest.WithPodPhase(api.PodSucceeded)), "", "", 0, false},
		{"failed pod", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 1, 1)}, running(simtest.WithPodPhase(api.PodFailed)), "", "", 0, false},
		{"unready pod, budget met", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 2, 2)}, running(unready), "", "", 0, false},
		{"unready pod, budget not met", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 1, 2)}, running(unready),
			"Cannot evict pod as it would violate the pod's disruption budget.", "The disruption budget foo needs 2 healthy pods and has 1 currently", 0, false},
		{"unready pod, AlwaysAllow", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 1, 2, allowAlways)}, running(unready), "", "", 0, false},
		// checkAndDecrement's causes when no disruption is allowed (found by
		// tools/k8sdiff, TestDiffPDB): a failed sync first, then a budget
		// that is not met, then the condition's reason and message.
		{"no disruption allowed after a failed sync", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 3, 1, condition("SyncFailed", `found no controllers for pod "foo"`))},
			running(), "Cannot evict pod as it would violate the pod's disruption budget.",
			`The disruption budget foo does not allow evicting pods currently because it failed sync: found no controllers for pod "foo"`, 0, false},
		{"no disruption allowed with healthy pods to spare and a message", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 3, 1, condition("Other", "why not"))},
			running(), "Cannot evict pod as it would violate the pod's disruption budget.",
			"The disruption budget foo does not allow evicting pods currently (Other): why not", 0, false},
		{"no disruption allowed with healthy pods to spare (no pods expected)", []*api.PodDisruptionBudget{budget(map[string]string{"a": "true"}, 0, 2, 0, condition("InsufficientPods", ""))},
			running(), "Cannot evict pod as it would violate the pod's disruption budget.",
			"The disruption budget foo does not allow evicting pods currently", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			for _, b := range tc.pdbs {
				st := b.Status
				created := simtest.MustCreate(t, s, b)
				next := created.DeepCopy()
				next.Status = st
				_, err := s.UpdateStatus(next)
				require.NoError(t, err)
			}
			pod := simtest.MustCreate(t, s, tc.pod)
			rv := s.ResourceVersion()
			err := s.Evict("default", "foo", store.DeleteOptions{})
			o, _ := s.Get(api.KindPodDisruptionBudget, "default", tc.pdbs[0].Name)
			b := o.(*api.PodDisruptionBudget)
			assert.Equal(t, tc.left, b.Status.DisruptionsAllowed)
			_, recorded := b.Status.DisruptedPods["foo"]
			assert.Equal(t, tc.record, recorded)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				var se *store.StatusError
				require.True(t, errors.As(err, &se))
				if tc.cause != "" {
					assert.Equal(t, store.ReasonTooManyRequests, se.Reason)
					assert.Equal(t, []store.StatusCause{{Type: "DisruptionBudget", Message: tc.cause}}, se.Causes)
				}
				assert.Equal(t, rv, s.ResourceVersion(), "a refused eviction changes nothing")
				return
			}
			require.NoError(t, err)
			got, err := s.GetPod("default", "foo")
			if err == nil {
				require.NotNil(t, got.DeletionTimestamp, "evicted: terminating")
				c := api.GetPodCondition(&got.Status, api.DisruptionTarget)
				require.NotNil(t, c)
				assert.Equal(t, "EvictionByEvictionAPI", c.Reason)
				assert.Equal(t, "Eviction API: evicting", c.Message)
			} else {
				assert.False(t, s.Exists(pod.UID), "evicted at once")
			}
		})
	}
	s := simtest.NewStore()
	err := s.Evict("default", "nope", store.DeleteOptions{})
	assert.True(t, errors.Is(err, store.ErrNotFound))
}
