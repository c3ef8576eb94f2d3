package view

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRevisionsLedgerExplainsTheSurprises(t *testing.T) {
	t.Parallel()
	s := at(t, history, 100)
	l := Revisions(s, "web")
	require.NotNil(t, l)
	assert.Equal(t, "revisionHistoryLimit 1: up to 1 old ReplicaSet kept for rollback", l.Limit)
	require.Len(t, l.Rows, 2)
	old, cur := l.Rows[0], l.Rows[1]
	assert.Equal(t, int64(3), old.Revision)
	assert.Equal(t, "web:3", old.Image)
	assert.Equal(t, "40s", old.Created)
	assert.False(t, old.Current)
	assert.Equal(t, "rollout undo deployment/web --to-revision=3", old.Rollback)
	assert.Equal(t, "<none>", old.ChangeCause)

	assert.Equal(t, int64(4), cur.Revision, "undo makes the restored revision the newest")
	assert.Equal(t, "web:2", cur.Image)
	assert.Equal(t, "10s", cur.Created)
	assert.Equal(t, int64(10), cur.CreatedT)
	assert.True(t, cur.Current)
	assert.Equal(t, "3/3", cur.Replicas)
	assert.Empty(t, cur.Rollback)
	assert.Equal(t, "2", cur.Was)
	assert.Contains(t, cur.Note, "Was revision 2. kubectl rollout undo copies an old template back")

	notes := map[string]string{}
	for _, n := range l.Notes {
		notes[n.Key] = n.Text
	}
	assert.Contains(t, notes["scale"], "kubectl scale at 30s changed spec.replicas only.")
	assert.Contains(t, notes["limit"], "Revision 1 is gone: revisionHistoryLimit is 1")
	assert.Contains(t, notes["change-cause"], "CHANGE-CAUSE <none>")
}

func TestRevisionsBeforeAnyRolloutAndWithChangeCause(t *testing.T) {
	t.Parallel()
	src := `name: cause
objects:
` + deploymentDoc("1", "web:1") + `steps:
- at: 5s
  kubectl: annotate deployment/web kubernetes.io/change-cause=first
`
	l := Revisions(at(t, src, 6), "")
	require.NotNil(t, l)
	require.Len(t, l.Rows, 1)
	assert.Equal(t, "first", l.Rows[0].ChangeCause)
	assert.Empty(t, l.Notes)
	assert.Equal(t, "revisionHistoryLimit 10: up to 10 old ReplicaSets kept for rollback", l.Limit)
	_, _, ok := DefaultDiff(l)
	assert.False(t, ok)
	assert.Nil(t, Revisions(load(t, "name: empty\n"), ""))
}

func TestRevisionsLimitTexts(t *testing.T) {
	t.Parallel()
	for extra, want := range map[string]string{
		"revisionHistoryLimit: 0":          "revisionHistoryLimit 0: no old ReplicaSet is kept, so there is nothing to roll back to",
		"revisionHistoryLimit: 2147483647": "revisionHistoryLimit unset: every old ReplicaSet is kept",
	} {
		l := Revisions(load(t, "name: x\nobjects:\n"+deploymentDoc("1", "web:1", extra)), "")
		require.NotNil(t, l)
		assert.Equal(t, want, l.Limit)
	}
	assert.Equal(t, "Revisions 1, 2 are", revisionList([]int64{1, 2}))
	assert.Equal(t, "revisions 1,3", revisionWord("1,3"))
}

func TestDiffShowsTheTemplateChange(t *testing.T) {
	t.Parallel()
	s := at(t, history, 100)
	l := Revisions(s, "")
	a, b, ok := DefaultDiff(l)
	require.True(t, ok)
	assert.Equal(t, [2]int64{3, 4}, [2]int64{a, b})
	lines, ok := Diff(s, "", a, b)
	require.True(t, ok)
	var changed []string
	for _, dl := range lines {
		if dl.Op != ' ' {
			changed = append(changed, string(dl.Op)+dl.Text)
		}
		assert.NotContains(t, dl.Text, "pod-template-hash")
	}
	assert.Equal(t, []string{"-  - image: web:3", "+  - image: web:2"}, changed)
	same, ok := Diff(s, "", 4, 4)
	require.True(t, ok)
	for _, dl := range same {
		assert.Equal(t, byte(' '), dl.Op)
	}
	_, ok = Diff(s, "", 1, 4)
	assert.False(t, ok, "revision 1 was cleaned up")
	_, ok = Diff(load(t, "name: empty\n"), "", 1, 2)
	assert.False(t, ok)
}

func TestDefaultDiffPicksThePreviousRevision(t *testing.T) {
	t.Parallel()
	l := &Ledger{Rows: []RevisionRow{{Revision: 5}, {Revision: 2, Current: true}, {Revision: 7}}}
	a, b, ok := DefaultDiff(l)
	require.True(t, ok)
	assert.Equal(t, [2]int64{7, 2}, [2]int64{a, b}, "no revision below the current: the last other one")
	l.Rows[1].Current = false
	a, b, _ = DefaultDiff(l)
	assert.Equal(t, [2]int64{5, 7}, [2]int64{a, b}, "no current: the newest")
}

func TestIsScaleOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		label string
		want  bool
	}{
		{"kubectl scale deployment/web --replicas=3", true},
		{"kubectl scale deploy web --replicas=3", true},
		{"kubectl scale --replicas=3 deployments/web", true},
		{"kubectl scale deployment.v1.apps/web --replicas=3", true},
		{"kubectl scale Deployment web --replicas=3", true},
		{"kubectl scale replicasets.apps/web --replicas=3", false},
		{"kubectl scale deployment/webby --replicas=3", false},
		{"kubectl scale rs/web --replicas=3", false},
		{"kubectl set image deployment/web web=x", false},
		{"apply deployment/web", false},
	}
	for _, tc := range tests {
		t.Run(tc.label, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, isScaleOf(tc.label, "web"))
		})
	}
}

func TestTemplateYAMLPrintsAsKubectl(t *testing.T) {
	t.Parallel()
	s := at(t, history, 1)
	d := Focus(s, "web")
	y := TemplateYAML(&d.Spec.Template)
	assert.True(t, strings.HasPrefix(y, "metadata:\n  labels:\n    app: web\nspec:\n  containers:\n  - image: web:1\n"), y)
	assert.Contains(t, y, "    resources:\n      requests:\n        cpu: 100m\n        memory: 64Mi\n")
	assert.Contains(t, y, "  securityContext: {}\n")
}
