package kubelet

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCloneSharesPodStates: a clone shares every pod's runtime state until
// one side writes it; what it costs beyond its source is the nodes' state
// and the pods that changed, and a write on one side never shows on the
// other.
func TestCloneSharesPodStates(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil)
	for i := 0; i < 100; i++ {
		h.add(newPod(fmt.Sprintf("web-%02d", i), "node-1", "nginx:1.25"))
	}
	h.runTo(10)
	clone := h.k.Clone().(*Controller)
	shared := clone.UnsharedBytes(h.k)
	whole := h.k.UnsharedBytes(nil)
	assert.Greater(t, whole, 100*podStateBytes)
	assert.Less(t, shared, whole/20, "a clone costs the nodes' state, not the pods'")

	require.NoError(t, h.k.CrashPod("", "web-07"))
	h.tick()
	assert.Greater(t, h.k.UnsharedBytes(clone), shared, "the crashed pod's state was copied")
	assert.Less(t, h.k.UnsharedBytes(clone), whole/4, "but not the others'")
	orig, _ := h.k.byName.Get("default/web-07")
	a, _ := h.k.pods.Get(orig)
	b, _ := clone.pods.Get(orig)
	assert.NotSame(t, a, b)
	assert.False(t, b.ctrs[0].cur.valid, "the clone's container never exited")
	assert.True(t, a.ctrs[0].cur.valid, "the source's did")
	assert.Equal(t, int32(1), a.ctrs[0].cur.exitCode)
}
