package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNodesShowPodsConditionsTaintsAndCapacity(t *testing.T) {
	t.Parallel()
	s := load(t, nodeDown)
	s.SeekTo(3)
	cards := Nodes(s)
	require.Len(t, cards, 2)
	n1 := cards[0]
	assert.Equal(t, "node-1", n1.Key)
	assert.Equal(t, "True", n1.Ready)
	assert.Equal(t, "Ready", n1.ReadyText)
	assert.Empty(t, n1.Taints)
	assert.Equal(t, Usage{Text: "0.2 of 2 CPU", Percent: 10}, n1.CPU)
	assert.Equal(t, Usage{Text: "128Mi of 4Gi memory", Percent: 3}, n1.Memory)
	assert.Equal(t, Usage{Text: "2 of 10 pods", Percent: 20}, n1.Pods)
	require.Len(t, n1.Tiles, 2)
	assert.Equal(t, StateAvailable, n1.Tiles[0].State)

	s.SeekTo(26)
	n1 = Nodes(s)[0]
	assert.Equal(t, "Unknown", n1.Ready)
	assert.Equal(t, "Unknown (Kubelet stopped posting node status.)", n1.ReadyText)
	assert.Equal(t, []string{"node.kubernetes.io/unreachable:NoSchedule", "node.kubernetes.io/unreachable:NoExecute"}, n1.Taints)
	for _, tile := range n1.Tiles {
		assert.Equal(t, StateRunning, tile.State, "marked not ready by the node lifecycle controller")
	}

	s.SeekTo(36)
	cards = Nodes(s)
	for _, tile := range cards[0].Tiles {
		// Taint eviction: kubectl says Terminating (Evicted is the
		// kubelet's word for node pressure); the hover says evicted.
		assert.Equal(t, StateTerminating, tile.State)
		assert.Contains(t, PodTitle(s, tile.Name), ": Terminating (evicted")
	}
	assert.Len(t, cards[1].Tiles, 4, "the replacements run on node-2")
	assert.Equal(t, Usage{Text: "4 of 10 pods", Percent: 40}, cards[1].Pods)
}

func TestNodesCordonAndMinReady(t *testing.T) {
	t.Parallel()
	src := `name: cordon
cluster:
  nodes: [{name: node-1, cpu: "1", memory: 1536Mi, pods: 4}]
objects:
` + deploymentDoc("2", "web:1", "minReadySeconds: 30") + `steps:
- at: 2s
  kubectl: cordon node-1
`
	c := Nodes(at(t, src, 5))[0]
	assert.True(t, c.Cordoned)
	assert.Equal(t, "Ready, SchedulingDisabled", c.ReadyText)
	assert.Equal(t, []string{"node.kubernetes.io/unschedulable:NoSchedule"}, c.Taints)
	assert.Equal(t, "128Mi of 1.5Gi memory", c.Memory.Text)
	for _, tile := range c.Tiles {
		assert.Equal(t, StateReady, tile.State, "ready but not for minReadySeconds")
	}
}

func TestQuantityTexts(t *testing.T) {
	t.Parallel()
	for in, want := range map[int64]string{0: "0", 100: "0.1", 1500: "1.5", 4000: "4", 1234: "1.234"} {
		assert.Equal(t, want, milliText(in), "%d", in)
	}
	for in, want := range map[int64]string{0: "0", 512: "512", 2048: "2Ki", 64 << 20: "64Mi", 1536 << 20: "1.5Gi", 8 << 30: "8Gi"} {
		assert.Equal(t, want, bytesText(in), "%d", in)
	}
	assert.Equal(t, Usage{Text: "x"}, usage(5, 0, "x"))
	assert.Equal(t, 100, usage(20, 10, "over").Percent)
}
