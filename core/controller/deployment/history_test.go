package deployment

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

func rsWithRevision(rev string) *api.ReplicaSet {
	rs := &api.ReplicaSet{}
	if rev != "-" {
		rs.Annotations = map[string]string{api.RevisionAnnotation: rev}
	}
	return rs
}

func TestRevision(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rev     string
		want    int64
		wantErr bool
	}{{"3", 3, false}, {"-", 0, false}, {"x", 0, true}, {"", 0, true}}
	for _, tc := range tests {
		t.Run(tc.rev, func(t *testing.T) {
			t.Parallel()
			got, err := Revision(rsWithRevision(tc.rev))
			assert.Equal(t, tc.wantErr, err != nil)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestMaxAndLastRevision(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		revs      []string
		max, last int64
	}{
		{"none", nil, 0, 0},
		{"one", []string{"1"}, 1, 0},
		{"unordered", []string{"1", "3", "2"}, 3, 2},
		{"unparsable skipped, missing is 0", []string{"x", "-", "4"}, 4, 0},
		{"equal maxima", []string{"5", "5", "2"}, 5, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var rss []*api.ReplicaSet
			for _, r := range tc.revs {
				rss = append(rss, rsWithRevision(r))
			}
			rss = append(rss, nil)
			assert.Equal(t, tc.max, MaxRevision(rss))
			assert.Equal(t, tc.last, LastRevision(rss))
		})
	}
}

func TestAnnotationUtils(t *testing.T) {
	t.Parallel()
	d := simtest.NewDeployment("nginx", 1, "nginx", simtest.WithDeploymentAnnotations(map[string]string{"x": "y"}))
	rs := &api.ReplicaSet{}
	// TestAnnotationUtils: revisions 11…20 on the same RS with a 5-character history limit.
	for i := 10; i < 20; i++ {
		next := fmt.Sprint(i + 1)
		SetNewReplicaSetAnnotations(d, rs, next, true, 5)
		require.Equal(t, next, rs.Annotations[api.RevisionAnnotation])
		if i >= 12 {
			assert.Equal(t, fmt.Sprintf("%d,%d", i-1, i), rs.Annotations[api.RevisionHistoryAnnotation], "revision %s", next)
		}
	}
	assert.Equal(t, "y", rs.Annotations["x"])
}

func TestSetNewReplicaSetAnnotations(t *testing.T) {
	t.Parallel()
	d := simtest.NewDeployment("web", 10, "web:1", simtest.WithDeploymentAnnotations(map[string]string{
		api.ChangeCauseAnnotation: "kubectl set image", api.LastAppliedAnnotation: "{}", api.RevisionAnnotation: "9",
		api.RollbackToAnnotation: "1", api.DesiredReplicasAnnotation: "99", "team": "a",
	}))
	tests := []struct {
		name        string
		before      map[string]string
		newRevision string
		exists      bool
		wantChanged bool
		want        map[string]string
	}{
		{"a new RS gets revision, sizes and the copyable annotations", nil, "3", false, true, map[string]string{
			api.RevisionAnnotation: "3", api.DesiredReplicasAnnotation: "10", api.MaxReplicasAnnotation: "13",
			api.ChangeCauseAnnotation: "kubectl set image", "team": "a"}},
		{"a reused RS keeps its number in revision-history", map[string]string{api.RevisionAnnotation: "1", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"},
			"3", true, true, map[string]string{api.RevisionAnnotation: "3", api.RevisionHistoryAnnotation: "1",
				api.ChangeCauseAnnotation: "kubectl set image", "team": "a"}},
		{"history grows", map[string]string{api.RevisionAnnotation: "3", api.RevisionHistoryAnnotation: "1", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"},
			"5", true, true, map[string]string{api.RevisionAnnotation: "5", api.RevisionHistoryAnnotation: "1,3",
				api.ChangeCauseAnnotation: "kubectl set image", "team": "a"}},
		{"nothing to do", map[string]string{api.RevisionAnnotation: "3", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"},
			"3", true, false, map[string]string{api.RevisionAnnotation: "3", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"}},
		{"a higher revision is never lowered", map[string]string{api.RevisionAnnotation: "7", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"},
			"3", true, false, map[string]string{api.RevisionAnnotation: "7", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"}},
		// As upstream: the copies are made but the change is not reported, so nothing is written.
		{"an unparsable revision is left alone", map[string]string{api.RevisionAnnotation: "x", "team": "b"},
			"3", true, false, map[string]string{api.RevisionAnnotation: "x", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"}},
		{"RS-only annotations are kept", map[string]string{api.RevisionAnnotation: "3", "mine": "1", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"},
			"3", true, false, map[string]string{api.RevisionAnnotation: "3", "mine": "1", api.ChangeCauseAnnotation: "kubectl set image", "team": "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Annotations: api.CopyStringMap(tc.before)}}
			assert.Equal(t, tc.wantChanged, SetNewReplicaSetAnnotations(d, rs, tc.newRevision, tc.exists, maxRevHistoryLengthInChars))
			assert.Equal(t, tc.want, rs.Annotations)
		})
	}
	t.Run("an unparsable new revision changes only the copies", func(t *testing.T) {
		t.Parallel()
		rs := &api.ReplicaSet{}
		assert.False(t, SetNewReplicaSetAnnotations(d, rs, "x", false, maxRevHistoryLengthInChars))
	})
}

func TestAppendRevisionHistoryLimit(t *testing.T) {
	t.Parallel()
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{api.RevisionHistoryAnnotation: strings.Repeat("1,", 999) + "1"}}}
	appendRevisionHistory(rs, "22", maxRevHistoryLengthInChars)
	h := rs.Annotations[api.RevisionHistoryAnnotation]
	assert.LessOrEqual(t, len(h), maxRevHistoryLengthInChars)
	assert.True(t, strings.HasSuffix(h, ",1,22"), "oldest entries are dropped")
	t.Run("a revision longer than the limit is not appended", func(t *testing.T) {
		t.Parallel()
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{api.RevisionHistoryAnnotation: "1"}}}
		appendRevisionHistory(rs, "123456", 5)
		assert.Equal(t, "1", rs.Annotations[api.RevisionHistoryAnnotation])
	})
}

func TestSetDeploymentAnnotationsTo(t *testing.T) {
	t.Parallel()
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{
		api.ChangeCauseAnnotation: "edit", api.RevisionAnnotation: "2", api.LastAppliedAnnotation: "{}", "gone": "1"}}}
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{
		api.ChangeCauseAnnotation: "create", api.RevisionAnnotation: "1", api.DesiredReplicasAnnotation: "3"}}}
	setDeploymentAnnotationsTo(d, rs)
	assert.Equal(t, map[string]string{api.ChangeCauseAnnotation: "create", api.RevisionAnnotation: "2", api.LastAppliedAnnotation: "{}"}, d.Annotations)
}

func TestNewReplicaSetShape(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.deployment(3, simtest.WithMinReadySeconds(5), simtest.WithDeploymentAnnotations(map[string]string{
		api.ChangeCauseAnnotation: "first", api.LastAppliedAnnotation: "{}"}))
	ctx := f.sync()
	d := f.getD("foo")
	rss := f.store.ReplicaSets()
	require.Len(t, rss, 1)
	rs := rss[0]
	hash := ComputeHash(&d.Spec.Template, nil)
	assert.Equal(t, "foo-"+hash, rs.Name)
	assert.Equal(t, map[string]string{"foo": "bar", api.DefaultDeploymentUniqueLabelKey: hash}, rs.Labels)
	assert.Equal(t, map[string]string{"foo": "bar", api.DefaultDeploymentUniqueLabelKey: hash}, rs.Spec.Selector.MatchLabels)
	assert.Equal(t, hash, rs.Spec.Template.Labels[api.DefaultDeploymentUniqueLabelKey])
	assert.NotContains(t, d.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey, "the Deployment's template is untouched")
	require.Len(t, rs.OwnerReferences, 1)
	ref := rs.OwnerReferences[0]
	assert.Equal(t, []string{"apps/v1", "Deployment", "foo", d.UID}, []string{ref.APIVersion, ref.Kind, ref.Name, ref.UID})
	assert.True(t, *ref.Controller)
	assert.True(t, *ref.BlockOwnerDeletion)
	assert.Equal(t, int32(5), rs.Spec.MinReadySeconds)
	assert.Equal(t, int32(3), specOf(rs))
	assert.Equal(t, map[string]string{api.RevisionAnnotation: "1", api.DesiredReplicasAnnotation: "3", api.MaxReplicasAnnotation: "4",
		api.ChangeCauseAnnotation: "first"}, rs.Annotations)
	assert.Equal(t, "1", d.Annotations[api.RevisionAnnotation])
	assert.Equal(t, d.Generation, int64(1), "recording the revision is not a user edit")
	assert.Equal(t, []string{"Scaled up replica set foo-" + hash + " from 0 to 3"}, eventTexts(ctx))
	prog := GetDeploymentCondition(&d.Status, api.DeploymentProgressing)
	require.NotNil(t, prog)
	assert.Equal(t, []string{api.ConditionTrue, NewReplicaSetReason, fmt.Sprintf("Created new replica set %q", rs.Name)},
		[]string{prog.Status, prog.Reason, prog.Message})
	r := ctx.Log.Records[0]
	assert.Equal(t, "create replica set foo-"+hash+" with 3 replicas", r.Action)
	assert.Equal(t, "3 replicas of revision 1", r.Desired)
}

func TestExistingNewRSIsSynced(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := &cluster{f: f, t: t, ctrl: New(), readyAfter: 1, rounds: 8, neverReady: map[string]bool{}}
	f.deployment(2)
	c.runUntil(10, func() bool { return c.complete("foo") })
	name := f.store.ReplicaSets()[0].Name

	f.update("foo", func(d *api.Deployment) {
		d.Annotations = map[string]string{api.ChangeCauseAnnotation: "kubectl annotate", api.RevisionAnnotation: "1"}
	})
	c.run()
	assert.Equal(t, "kubectl annotate", f.getRS(name).Annotations[api.ChangeCauseAnnotation], "change-cause goes to the current new RS")
	assert.Contains(t, c.records[0].Action, "copy deployment annotations to replica set "+name)

	f.update("foo", func(d *api.Deployment) { d.Spec.MinReadySeconds = 7 })
	c.run()
	assert.Equal(t, int32(7), f.getRS(name).Spec.MinReadySeconds)
	assert.Equal(t, "set minReadySeconds 7 on replica set "+name, c.records[0].Action)
	assert.Len(t, f.store.ReplicaSets(), 1, "neither change makes a new revision")
}

func TestFoundNewReplicaSetWhenADeadlineIsAdded(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := &cluster{f: f, t: t, ctrl: New(), readyAfter: 1, rounds: 8, neverReady: map[string]bool{}}
	f.deployment(2, simtest.WithProgressDeadlineSeconds(api.NoProgressDeadline))
	c.runUntil(10, func() bool { return c.complete("foo") })
	require.Nil(t, GetDeploymentCondition(&f.getD("foo").Status, api.DeploymentProgressing), "no deadline, no Progressing")
	f.update("foo", func(d *api.Deployment) { d.Spec.ProgressDeadlineSeconds = api.Int32(600) })
	s := f.syncer("foo")
	rsList := f.store.ReplicaSets()
	newRS, _, err := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	require.NoError(t, err)
	prog := GetDeploymentCondition(&f.getD("foo").Status, api.DeploymentProgressing)
	require.NotNil(t, prog)
	assert.Equal(t, []string{api.ConditionTrue, FoundNewRSReason, fmt.Sprintf("Found new replica set %q", newRS.Name)},
		[]string{prog.Status, prog.Reason, prog.Message})
	c.run()
	prog = GetDeploymentCondition(&f.getD("foo").Status, api.DeploymentProgressing)
	assert.Equal(t, NewRSAvailableReason, prog.Reason, "the complete rollout is then recognised")
}

func TestHashCollision(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.deployment(1)
	hash := ComputeHash(&d.Spec.Template, nil)
	// Someone else's ReplicaSet already has the name the template hashes to.
	other := simtest.NewDeployment("other", 1, "other:1")
	other.UID = "someone-else"
	squatter := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "foo-" + hash, Namespace: api.NamespaceDefault,
		Labels: map[string]string{"app": "other"}, OwnerReferences: []api.OwnerReference{api.NewControllerRef(other)}},
		Spec: api.ReplicaSetSpec{Replicas: api.Int32(0), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "other"}},
			Template: other.Spec.Template}}
	simtest.MustCreate(t, f.store, squatter)

	ctx := f.sync()
	r := ctx.Log.Records[0]
	assert.Contains(t, r.Action, "bump collisionCount to 1")
	assert.Contains(t, r.Action, "then failed: ")
	assert.Equal(t, int32(1), api.Deref(f.getD("foo").Status.CollisionCount, 0))

	f.sync()
	want := "foo-" + ComputeHash(&d.Spec.Template, api.Int32(1))
	rs, err := f.store.GetReplicaSet(api.NamespaceDefault, want)
	require.NoError(t, err, "the next pass uses the new hash")
	assert.True(t, api.IsControlledBy(&rs.ObjectMeta, d.UID))
	assert.Len(t, f.getRS("foo-"+hash).OwnerReferences, 1, "the squatter is not touched")
	assert.Equal(t, "someone-else", f.getRS("foo-" + hash).OwnerReferences[0].UID)
}

func TestCreateFindsOwnSameTemplateRS(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := f.deployment(2)
	// Our own RS with the template's name exists but a stale list missed it:
	// creating it again finds it and uses it, with no event.
	s := f.syncer("foo")
	rs := s.newReplicaSet()
	rs.Spec.Replicas = api.Int32(2)
	simtest.MustCreate(t, f.store, rs.DeepCopy())
	got, existed, err := s.createReplicaSet(rs)
	require.NoError(t, err)
	assert.True(t, existed)
	assert.Equal(t, "foo-"+ComputeHash(&d.Spec.Template, nil), got.Name)
	assert.Empty(t, eventTexts(s.ctx))
}

func TestReplicaSetCreateError(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	long := strings.Repeat("a", 250) // a valid Deployment name; <name>-<hash> is not a valid ReplicaSet name
	d := simtest.NewDeployment(long, 1, "x:1", simtest.WithDeploymentLabels(map[string]string{"foo": "bar"}))
	d.Spec.Template.Spec.Containers[0].Name = "app"
	d = simtest.MustCreate(t, f.store, d)
	ctx := f.sync()
	require.Empty(t, f.store.ReplicaSets())
	require.Len(t, ctx.Emitted, 1)
	e := ctx.Emitted[0]
	assert.Equal(t, []string{EventWarning, FailedRSCreateReason}, []string{e.Type, e.Reason})
	prefix := fmt.Sprintf("Failed to create new replica set %q: ", long+"-"+ComputeHash(&d.Spec.Template, nil))
	assert.True(t, strings.HasPrefix(e.Message, prefix), e.Message)
	prog := GetDeploymentCondition(&f.getD(long).Status, api.DeploymentProgressing)
	require.NotNil(t, prog)
	assert.Equal(t, []string{api.ConditionFalse, FailedRSCreateReason, e.Message}, []string{prog.Status, prog.Reason, prog.Message})
	assert.True(t, strings.HasPrefix(ctx.Log.Records[0].Waiting, "retrying after error: "), ctx.Log.Records[0].Waiting)
}

func TestNewReplicaSetGetsCopiedAnnotationsWithItsNextScale(t *testing.T) {
	t.Parallel()
	// With an unparsable revision SetNewReplicaSetAnnotations stops early
	// and nothing is written, but upstream's getNewReplicaSet returns its
	// copy with the Deployment's annotations already copied: the pass's
	// scale of that ReplicaSet writes them.
	f := newFixture(t)
	d := f.deployment(3, rolling("25%", "25%"), simtest.WithDeploymentAnnotations(map[string]string{api.ChangeCauseAnnotation: "set image"}))
	f.rs(d, rsSpec{name: "foo-new", replicas: 1, status: 1, available: 1, revision: "x", annotations: replicasAnnotations(3, 4)})
	f.sync()
	rs := f.getRS("foo-new")
	assert.Equal(t, int32(3), specOf(rs))
	assert.Equal(t, "set image", rs.Annotations[api.ChangeCauseAnnotation])
	assert.Equal(t, "x", rs.Annotations[api.RevisionAnnotation])
}
