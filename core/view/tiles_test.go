package view

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/simtest"
)

func TestPodStateClassifiesEveryLifecycleStage(t *testing.T) {
	t.Parallel()
	now := api.Epoch.Add(100 * time.Second)
	waiting := func(reason string) simtest.PodOption {
		return func(p *api.Pod) {
			p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app", State: api.ContainerState{
				Waiting: &api.ContainerStateWaiting{Reason: reason, Message: reason + " message"}}}}
		}
	}
	running := func(p *api.Pod) {
		p.Status.Phase = api.PodRunning
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app", State: api.ContainerState{Running: &api.ContainerStateRunning{}}}}
	}
	deleting := func(p *api.Pod) { p.DeletionTimestamp = api.NewTimePtr(now) }
	terminated := func(reason string, code int32) simtest.PodOption {
		return func(p *api.Pod) {
			p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app", State: api.ContainerState{
				Terminated: &api.ContainerStateTerminated{Reason: reason, ExitCode: code}}}}
		}
	}
	cond := func(typ, status string) simtest.PodOption {
		return func(p *api.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: typ, Status: status})
		}
	}
	tests := []struct {
		name     string
		opts     []simtest.PodOption
		minReady int32
		want     State
		shape    Shape
	}{
		{"unscheduled pod is pending", nil, 0, StatePending, ShapeDashed},
		{"bound pod without container status: kubectl says Pending", []simtest.PodOption{simtest.WithPodNode("n1")}, 0, StatePending, ShapeDashed},
		{"ContainerCreating reason", []simtest.PodOption{simtest.WithPodNode("n1"), waiting("ContainerCreating")}, 0, StateContainerCreating, ShapeHalf},
		{"running without ready", []simtest.PodOption{simtest.WithPodNode("n1"), running}, 0, StateRunning, ShapeRing},
		{"ready without minReadySeconds is available", []simtest.PodOption{simtest.WithPodNode("n1"), running, simtest.WithPodReady(now.Add(-time.Second))}, 0, StateAvailable, ShapeSolid},
		{"ready within minReadySeconds", []simtest.PodOption{simtest.WithPodNode("n1"), running, simtest.WithPodReady(now.Add(-4 * time.Second))}, 5, StateReady, ShapeDot},
		{"ready for exactly minReadySeconds is available (as Kubernetes 1.35 counts)", []simtest.PodOption{simtest.WithPodNode("n1"), running, simtest.WithPodReady(now.Add(-5 * time.Second))}, 5, StateAvailable, ShapeSolid},
		{"crash loop", []simtest.PodOption{simtest.WithPodNode("n1"), waiting("CrashLoopBackOff")}, 0, StateCrashLoop, ShapeCross},
		{"image pull back-off", []simtest.PodOption{simtest.WithPodNode("n1"), waiting("ImagePullBackOff")}, 0, StateImagePull, ShapeTriangle},
		{"image pull error", []simtest.PodOption{simtest.WithPodNode("n1"), waiting("ErrImagePull")}, 0, StateErrImagePull, ShapeTriangle},
		{"invalid image name: drawn as a pull failure, named as kubectl names it", []simtest.PodOption{simtest.WithPodNode("n1"), waiting("InvalidImageName")}, 0, StateInvalidImage, ShapeTriangle},
		{"crash loop even when unscheduled text says so", []simtest.PodOption{waiting("CrashLoopBackOff")}, 0, StateCrashLoop, ShapeCross},
		{"terminating", []simtest.PodOption{simtest.WithPodNode("n1"), running, deleting}, 0, StateTerminating, ShapeStriped},
		{"taint eviction: kubectl says Terminating, not Evicted", []simtest.PodOption{simtest.WithPodNode("n1"), running, deleting, cond(api.DisruptionTarget, api.ConditionTrue)}, 0, StateTerminating, ShapeStriped},
		{"crashed container not restarted yet: Error (crashloop at 11s)", []simtest.PodOption{simtest.WithPodNode("n1"), simtest.WithPodPhase(api.PodRunning), terminated("Error", 1)}, 0, StateError, ShapeBar},
		{"exit code without a reason", []simtest.PodOption{simtest.WithPodNode("n1"), simtest.WithPodPhase(api.PodRunning), terminated("", 137)}, 0, StateError, ShapeBar},
		{"container exited 0: Completed", []simtest.PodOption{simtest.WithPodNode("n1"), simtest.WithPodPhase(api.PodRunning), terminated("Completed", 0)}, 0, StateCompleted, ShapeDone},
		{"drained pod that shut down: Succeeded and deleting is Completed, not Terminating or Evicted", []simtest.PodOption{simtest.WithPodNode("n1"), simtest.WithPodPhase(api.PodSucceeded), terminated("Completed", 0), deleting, cond(api.DisruptionTarget, api.ConditionTrue)}, 0, StateCompleted, ShapeDone},
		{"deleted pod of a lost node: Unknown", []simtest.PodOption{simtest.WithPodNode("n1"), running, deleting, func(p *api.Pod) { p.Status.Reason = "NodeLost" }}, 0, StateUnknown, ShapeHollow},
		{"failed with reason Evicted", []simtest.PodOption{simtest.WithPodPhase(api.PodFailed), func(p *api.Pod) { p.Status.Reason = "Evicted" }}, 0, StateEvicted, ShapeSlash},
		{"failed", []simtest.PodOption{simtest.WithPodPhase(api.PodFailed)}, 0, StateFailed, ShapeHollow},
		{"disruption target false is not evicted", []simtest.PodOption{simtest.WithPodNode("n1"), running, cond(api.DisruptionTarget, api.ConditionFalse)}, 0, StateRunning, ShapeRing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := simtest.NewPod("web-5d9c7b8f4-x2kq", tc.opts...)
			assert.Equal(t, tc.want, PodState(p, now, tc.minReady))
			tile := NewTile(p, now, tc.minReady)
			assert.Equal(t, tc.shape, tile.Shape)
			assert.Equal(t, "x2kq", tile.Label)
			assert.Contains(t, tileTitle(p, tile.State, tile.Status), "web-5d9c7b8f4-x2kq: ")
			assert.Equal(t, kubectl.PodStatus(p), tile.Status)
		})
	}
}

func TestTileTitleSaysNodeRestartsAndReason(t *testing.T) {
	t.Parallel()
	p := simtest.NewPod("web-abc-x2kq", simtest.WithPodNode("node-2"), simtest.WithPodRestarts(3))
	p.Status.ContainerStatuses[0].State.Waiting = &api.ContainerStateWaiting{Reason: "CrashLoopBackOff",
		Message: "back-off 40s restarting failed container"}
	assert.Equal(t, "web-abc-x2kq: CrashLoopBackOff · on node-2 · 3 restarts · back-off 40s restarting failed container",
		tileTitle(p, PodState(p, api.Epoch, 0), kubectl.PodStatus(p)))

	q := simtest.NewPod("web-abc-y7", func(p *api.Pod) {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse,
			Message: "0/3 nodes are available: 3 Insufficient cpu."}}
	})
	assert.Equal(t, "web-abc-y7: Pending · 0/3 nodes are available: 3 Insufficient cpu.", tileTitle(q, PodState(q, api.Epoch, 0), kubectl.PodStatus(q)))
}

func TestShortNameUsesGenerateName(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, generate, want string }{
		{"web-5d9c7b8f4-x2kq", "web-5d9c7b8f4-", "x2kq"},
		{"web-5d9c7b8f4-x2kq", "", "x2kq"},
		{"standalone", "", "standalone"},
		{"trailing-", "", "trailing-"},
	}
	for _, tc := range tests {
		t.Run(tc.name+"/"+tc.generate, func(t *testing.T) {
			t.Parallel()
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: tc.name, GenerateName: tc.generate}}
			assert.Equal(t, tc.want, shortName(p))
		})
	}
}

func TestLegendCoversEveryDrawnStateWithDistinctShapes(t *testing.T) {
	t.Parallel()
	seen := map[Shape]State{}
	for _, li := range Legend() {
		assert.Equal(t, ShapeOf(li.State), li.Shape, "%s", li.State)
		assert.NotEmpty(t, li.Meaning)
		prev, dup := seen[li.Shape]
		assert.False(t, dup, "%s and %s share shape %s", prev, li.State, li.Shape)
		seen[li.Shape] = li.State
	}
	assert.Len(t, seen, 11)
	assert.Equal(t, ShapeHollow, ShapeOf("Unheard"))
}

func TestPodTitleFindsThePodAndItsMinReadySeconds(t *testing.T) {
	t.Parallel()
	src := "name: mr\nobjects:\n" + deploymentDoc("1", "web:1", "minReadySeconds: 30")
	s := at(t, src, 5)
	r := RolloutOf(s, "")
	require.Len(t, r.Columns, 1)
	require.Len(t, r.Columns[0].Tiles, 1)
	name := r.Columns[0].Tiles[0].Name
	assert.Regexp(t, `^web-[a-z0-9]+-[a-z0-9]+: Running, ready, not yet available · on node-\d$`, PodTitle(s, name))
	assert.Empty(t, PodTitle(s, "nope"))
}
