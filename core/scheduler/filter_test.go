package scheduler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

func TestFitError(t *testing.T) {
	t.Parallel()
	idx := func(r reason) int {
		for i, rt := range reasonText {
			if rt.r == r {
				return i
			}
		}
		return -1
	}
	tests := []struct {
		name  string
		nodes int
		by    map[reason]int
		want  string
	}{
		{"all short of cpu", 3, map[reason]int{reasonCPU: 3}, "0/3 nodes are available: 3 Insufficient cpu."},
		{"sorted as strings", 3, map[reason]int{reasonCPU: 2, reasonUnschedulable: 1},
			"0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu."},
		{"counts sort as text, 10 before 2", 12, map[reason]int{reasonCPU: 10, reasonUnschedulable: 2},
			"0/12 nodes are available: 10 Insufficient cpu, 2 node(s) were unschedulable."},
		{"one node short of cpu and memory", 1, map[reason]int{reasonCPU: 1, reasonMemory: 1},
			"0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory."},
		{"every reason", 7, map[reason]int{reasonUnschedulable: 1, reasonTaint: 1, reasonSelector: 1, reasonPorts: 1,
			reasonTooManyPods: 1, reasonCPU: 1, reasonMemory: 1},
			"0/7 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods, " +
				"1 node(s) didn't have free ports for the requested pod ports, 1 node(s) didn't match Pod's node affinity/selector, " +
				"1 node(s) had untolerated taint(s), 1 node(s) were unschedulable."},
		{"no nodes", 0, nil, "no nodes available to schedule pods"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			counts := make([]int, len(reasonText))
			for r, n := range tc.by {
				counts[idx(r)] = n
			}
			assert.Equal(t, tc.want, fitError(tc.nodes, counts))
		})
	}
}

func TestTolerates(t *testing.T) {
	t.Parallel()
	taint := &api.Taint{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}
	tests := []struct {
		name string
		tol  api.Toleration
		want bool
	}{
		{"equal key and value", api.Toleration{Key: "dedicated", Operator: "Equal", Value: "gpu", Effect: "NoSchedule"}, true},
		{"empty operator means Equal", api.Toleration{Key: "dedicated", Value: "gpu"}, true},
		{"wrong value", api.Toleration{Key: "dedicated", Value: "cpu"}, false},
		{"exists on the key", api.Toleration{Key: "dedicated", Operator: "Exists"}, true},
		{"empty key with Exists tolerates everything", api.Toleration{Operator: "Exists"}, true},
		{"other effect", api.Toleration{Key: "dedicated", Operator: "Exists", Effect: "NoExecute"}, false},
		{"other key", api.Toleration{Key: "zone", Operator: "Exists"}, false},
		{"unknown operator", api.Toleration{Key: "dedicated", Operator: "Gt", Value: "gpu"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tolerates([]api.Toleration{tc.tol}, taint))
		})
	}
}

// TestFilters schedules one pod onto a one-node cluster and expects the
// node to be rejected for the given reason, or accepted.
func TestFilters(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		node *api.Node
		pod  []simtest.PodOption
		// busy is a pod already bound to the node.
		busy []simtest.PodOption
		want string
	}{
		{name: "cordoned", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110, simtest.WithNodeUnschedulable()),
			want: "0/1 nodes are available: 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "cordoned, tolerated", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110, simtest.WithNodeUnschedulable()),
			pod: []simtest.PodOption{simtest.WithPodTolerations(api.Toleration{Key: api.TaintNodeUnschedulable, Operator: "Exists", Effect: "NoSchedule"})}},
		{name: "cordoned beats taints", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110, simtest.WithNodeUnschedulable(),
			simtest.WithNodeTaint(api.TaintNodeUnschedulable, "", api.TaintEffectNoSchedule)),
			want: "0/1 nodes are available: 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "unreachable NoSchedule", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110,
			simtest.WithNodeTaint(api.TaintNodeUnreachable, "", api.TaintEffectNoSchedule), simtest.WithNodeNotReady(api.ConditionUnknown)),
			want: "0/1 nodes are available: 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "unreachable NoExecute is tolerated by the default tolerations", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110,
			simtest.WithNodeTaint(api.TaintNodeUnreachable, "", api.TaintEffectNoExecute))},
		{name: "custom NoExecute", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110, simtest.WithNodeTaint("maintenance", "true", api.TaintEffectNoExecute)),
			want: "0/1 nodes are available: 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "PreferNoSchedule does not filter", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110, simtest.WithNodeTaint("spot", "", api.TaintEffectPreferNoSchedule))},
		{name: "not ready without taints still fits", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110, simtest.WithNodeNotReady(api.ConditionFalse))},
		{name: "node selector", node: simtest.NewNode("node-1", "4", "8Gi", 110),
			pod:  []simtest.PodOption{simtest.WithPodNodeSelector(map[string]string{"disk": "ssd"})},
			want: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "node selector matches", node: simtest.NewNodeWith("node-1", "4", "8Gi", 110, simtest.WithNodeLabel("disk", "ssd")),
			pod: []simtest.PodOption{simtest.WithPodNodeSelector(map[string]string{"disk": "ssd"})}},
		{name: "host port taken", node: simtest.NewNode("node-1", "4", "8Gi", 110),
			pod: []simtest.PodOption{simtest.WithPodHostPort(8080)}, busy: []simtest.PodOption{simtest.WithPodHostPort(8080)},
			want: "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{name: "other host port", node: simtest.NewNode("node-1", "4", "8Gi", 110),
			pod: []simtest.PodOption{simtest.WithPodHostPort(8080)}, busy: []simtest.PodOption{simtest.WithPodHostPort(9090)}},
		{name: "cpu", node: simtest.NewNode("node-1", "1", "8Gi", 110),
			pod: []simtest.PodOption{simtest.WithPodRequests("600m", "")}, busy: []simtest.PodOption{simtest.WithPodRequests("500m", "")},
			want: "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{name: "cpu exactly full fits", node: simtest.NewNode("node-1", "1", "8Gi", 110),
			pod: []simtest.PodOption{simtest.WithPodRequests("500m", "")}, busy: []simtest.PodOption{simtest.WithPodRequests("500m", "")}},
		{name: "memory", node: simtest.NewNode("node-1", "4", "1Gi", 110),
			pod:  []simtest.PodOption{simtest.WithPodRequests("", "2Gi")},
			want: "0/1 nodes are available: 1 Insufficient memory. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "limits stand in for missing requests", node: simtest.NewNode("node-1", "1", "8Gi", 110),
			pod: []simtest.PodOption{simtest.WithPodLimits("2", "")}, want: "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "too many pods, and cpu", node: simtest.NewNode("node-1", "1", "8Gi", 1),
			pod: []simtest.PodOption{simtest.WithPodRequests("800m", "")}, busy: []simtest.PodOption{simtest.WithPodRequests("500m", "")},
			want: "0/1 nodes are available: 1 Insufficient cpu, 1 Too many pods. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{name: "a finished pod frees its resources", node: simtest.NewNode("node-1", "1", "8Gi", 1),
			pod: []simtest.PodOption{simtest.WithPodRequests("800m", "")}, busy: []simtest.PodOption{simtest.WithPodRequests("500m", ""), simtest.WithPodPhase(api.PodSucceeded)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			simtest.MustCreate(t, s, tc.node)
			if tc.busy != nil {
				simtest.MustCreate(t, s, simtest.NewPod("busy", append(tc.busy, simtest.WithPodNode("node-1"))...))
			}
			simtest.MustCreate(t, s, simtest.NewPod("p", tc.pod...))
			ctx := simtest.Sync(s, New())
			rec := ctx.RecordFor(t, "pod/p")
			if tc.want == "" {
				assert.Equal(t, "bind pod p to node-1", rec.Action)
				assert.Equal(t, "node-1", simtest.GetPod(t, s, "p").Spec.NodeName)
				return
			}
			assert.Equal(t, tc.want, rec.Waiting)
			assert.Empty(t, simtest.GetPod(t, s, "p").Spec.NodeName)
		})
	}
}

func TestTerminatingPodsStillHoldTheirResources(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewNode("node-1", "1", "8Gi", 110))
	busy := simtest.MustCreate(t, s, simtest.NewPod("busy", simtest.WithPodRequests("800m", ""), simtest.WithPodNode("node-1")))
	require.NoError(t, s.Delete(api.KindPod, busy.Namespace, busy.Name, deleteDefault))
	simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodRequests("800m", "")))
	ctx := simtest.Sync(s, New())
	assert.Equal(t, "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.", ctx.RecordFor(t, "pod/p").Waiting)
}

func TestPodRequests(t *testing.T) {
	t.Parallel()
	p := simtest.NewPod("p", simtest.WithPodRequests("250m", "64Mi"))
	p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "sidecar", Image: "envoy"})
	p.Spec.InitContainers = []api.Container{{Name: "init", Image: "busybox", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{api.ResourceCPU: api.MustQuantity("1"), api.ResourceMemory: api.MustQuantity("32Mi")}}}}
	got := podRequests(p)
	assert.Equal(t, resources{cpu: 1000, mem: 64 << 20, nzCPU: 1000, nzMem: 64<<20 + DefaultMemoryRequest}, got)
}

// TestPreemptionTail: the " no new claims to deallocate, preemption: ..."
// DynamicResources' and DefaultPreemption's PostFilters add when no node
// fits, as kube-scheduler 1.35 words it (defaultpreemption PostFilter,
// Evaluator.Preempt, RunPostFilterPlugins, FitError.Error; the DRA part as a
// real v1.35.4 scheduler wrote it in stuck-no-capacity, tools/realcluster).
func TestPreemptionTail(t *testing.T) {
	t.Parallel()
	never := "Never"
	tests := []struct {
		name  string
		nodes []*api.Node
		pod   []simtest.PodOption
		busy  []simtest.PodOption // a pod bound to node-1
		want  string
	}{
		{name: "no lower-priority pod to evict", nodes: []*api.Node{simtest.NewNode("node-1", "1", "8Gi", 110)},
			pod: []simtest.PodOption{simtest.WithPodRequests("600m", "")}, busy: []simtest.PodOption{simtest.WithPodRequests("500m", "")},
			want: "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{name: "larger than the node: preemption cannot help", nodes: []*api.Node{simtest.NewNode("node-1", "1", "8Gi", 110)},
			pod:  []simtest.PodOption{simtest.WithPodRequests("2", "")},
			want: "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "cordoned and full", nodes: []*api.Node{simtest.NewNode("node-1", "1", "8Gi", 110),
			simtest.NewNodeWith("node-2", "4", "8Gi", 110, simtest.WithNodeUnschedulable())},
			pod: []simtest.PodOption{simtest.WithPodRequests("600m", "")}, busy: []simtest.PodOption{simtest.WithPodRequests("500m", "")},
			want: "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: " +
				"1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."},
		{name: "preemptionPolicy Never", nodes: []*api.Node{simtest.NewNode("node-1", "1", "8Gi", 110)},
			pod:  []simtest.PodOption{simtest.WithPodRequests("600m", ""), func(p *api.Pod) { p.Spec.PreemptionPolicy = &never }},
			busy: []simtest.PodOption{simtest.WithPodRequests("500m", "")},
			want: "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."},
		{name: "a lower-priority pod would be preempted, which is not simulated: no tail", nodes: []*api.Node{simtest.NewNode("node-1", "1", "8Gi", 110)},
			pod:  []simtest.PodOption{simtest.WithPodRequests("600m", ""), simtest.WithPodPriority(1000)},
			busy: []simtest.PodOption{simtest.WithPodRequests("500m", "")},
			want: "0/1 nodes are available: 1 Insufficient cpu."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			for _, n := range tc.nodes {
				simtest.MustCreate(t, s, n)
			}
			if tc.busy != nil {
				simtest.MustCreate(t, s, simtest.NewPod("busy", append(tc.busy, simtest.WithPodNode("node-1"))...))
			}
			simtest.MustCreate(t, s, simtest.NewPod("p", tc.pod...))
			ctx := simtest.Sync(s, New())
			assert.Equal(t, tc.want, ctx.RecordFor(t, "pod/p").Waiting)
		})
	}
}
