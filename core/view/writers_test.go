package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
)

func TestWritersOfAGitOpsUndo(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "gitops-undoes-kubectl-scale"))
	s.Step(70)
	fw := Writers(s, "web")
	require.NotNil(t, fw)
	require.Len(t, fw.Replicas, 3)
	assert.Equal(t, FieldWrite{Key: "spec.replicas#0", T: 0, Field: "spec.replicas", From: "(none)", To: "3", Writer: "the GitOps reconciler",
		Manager: "gitops (Apply)", Why: "Git declares 3 (commit 1)"}, fw.Replicas[0])
	assert.Equal(t, "kubectl scale", fw.Replicas[1].Writer)
	assert.Equal(t, "kubectl (scale)", fw.Replicas[1].Manager)
	assert.True(t, fw.Replicas[1].User)
	assert.True(t, fw.Replicas[2].Undid)
	assert.Equal(t, "spec.replicas set back to 3 by the GitOps reconciler at 60 s: Git declares 3 (commit 1). It undid kubectl scale at 40 s.",
		Undone(s, "web"))
	assert.Equal(t, []string{"gitops (Apply) since 60 s"}, fw.Owners)
}

func TestWritersOfAnHPAUndo(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "hpa-undoes-kubectl-scale"))
	s.Step(140)
	assert.Equal(t, "spec.replicas set back to 4 by the HorizontalPodAutoscaler web at 135 s: its recommendations of the last 5 minutes "+
		"went up to 4 (scale-down stabilization; cpu 50% at target 50%). It undid kubectl scale at 125 s.", Undone(s, "web"))
	fw := Writers(s, "web")
	require.NotNil(t, fw)
	last := fw.Replicas[len(fw.Replicas)-1]
	assert.Equal(t, "kube-controller-manager (scale)", last.Manager)
	assert.Equal(t, []string{"kube-controller-manager (scale) since 135 s"}, fw.Owners)
	s.SeekTo(600)
	assert.Equal(t, "spec.replicas set back to 4 by the HorizontalPodAutoscaler web at 585 s: cpu 20% below target 50%. "+
		"It undid kubectl scale at 245 s.", Undone(s, "web"))
}
