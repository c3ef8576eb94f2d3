package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// rollTo does what the Deployment controller does after a template change:
// the Deployment gets image, a new ReplicaSet with the next revision takes
// over all replicas and the old ones are scaled to 0.
func (f *fixture) rollTo(t *testing.T, image, hash, revision, cause string) {
	t.Helper()
	d := f.deployment(t, "web").DeepCopy()
	d.Spec.Template.Spec.Containers[0].Image = image
	updated, err := f.st.Update(d)
	require.NoError(t, err)
	d = updated.(*api.Deployment)
	for _, rs := range f.st.ReplicaSets() {
		next := rs.DeepCopy()
		next.Spec.Replicas = api.Int32(0)
		_, err := f.st.Update(next)
		require.NoError(t, err)
	}
	simtest.Advance(f.st, time.Second)
	rs := f.addReplicaSet(t, d, hash, revision, 3)
	if cause != "" {
		next := rs.DeepCopy()
		next.Annotations[api.ChangeCauseAnnotation] = cause
		_, err := f.st.Update(next)
		require.NoError(t, err)
	}
	d = f.deployment(t, "web").DeepCopy()
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[api.RevisionAnnotation] = revision
	d.Status.ObservedGeneration = d.Generation
	_, err = f.st.UpdateDeploymentStatus(d)
	require.NoError(t, err)
}

func TestRolloutStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status func(s *api.DeploymentStatus)
		line   string
		out    string
		err    string
	}{
		{"done", nil, "rollout status deployment/web", `deployment "web" successfully rolled out`, ""},
		{"updating", func(s *api.DeploymentStatus) { s.UpdatedReplicas = 1 }, "rollout status deploy web",
			`Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...`, ""},
		{"old pending", func(s *api.DeploymentStatus) { s.Replicas = 4 }, "rollout status deploy/web",
			`Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...`, ""},
		{"available", func(s *api.DeploymentStatus) { s.AvailableReplicas = 2 }, "rollout status deploy/web --watch=false",
			`Waiting for deployment "web" rollout to finish: 2 of 3 updated replicas are available...`, ""},
		{"not observed", func(s *api.DeploymentStatus) { s.ObservedGeneration = 0 }, "rollout status deploy/web",
			"Waiting for deployment spec update to be observed...", ""},
		{"deadline", func(s *api.DeploymentStatus) {
			s.Conditions[1].Reason = "ProgressDeadlineExceeded"
			s.UpdatedReplicas = 1
		},
			"rollout status deploy/web", "", `error: deployment "web" exceeded its progress deadline`},
		{"revision matches", func(s *api.DeploymentStatus) {}, "rollout status deploy/web --revision=0", `deployment "web" successfully rolled out`, ""},
		{"revision differs", nil, "rollout status deploy/web --revision=2", "", "error: desired revision (2) is different from the running revision (0)"},
		{"negative revision", nil, "rollout status deploy/web --revision=-1", "", "error: revision must be a positive integer: -1"},
		{"replica set", nil, "rollout status rs/web-66b6c48dd5", "", "error: no status viewer has been implemented for ReplicaSet.apps"},
		{"not found", nil, "rollout status deploy/nope", "", `Error from server (NotFound): deployments.apps "nope" not found`},
		{"no resource", nil, "rollout status", "", "error: required resource not specified"},
		{"the only one of its type", nil, "rollout status deploy", `deployment "web" successfully rolled out`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.status != nil {
				f.setDeploymentStatus(t, "web", tc.status)
			}
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
		})
	}
}

func TestRolloutHistory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.rollTo(t, "nginx:1.26", "7c5ddbdf54", "2", "bump to 1.26")
	runSteps(t, f, []step{
		{"rollout history deployment/web", "deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         bump to 1.26", ""},
		{"rollout history deploy/web --revision=9", "", "error: unable to find the specified revision"},
		{"rollout history deploy/web --revision=-2", "", "error: revision must be a positive integer: -2"},
		{"rollout history rs/web-66b6c48dd5", "", `error: no history viewer has been implemented for "ReplicaSet.apps"`},
		{"rollout history", "", "error: required resource not specified"},
	})
	r := f.run("rollout history deploy/web --revision=2")
	require.Empty(t, r.Error)
	golden(t, "rollout-history-revision", r.Output+"\n")

	simtest.MustCreate(t, f.st, simtest.NewDeployment("fresh", 1, "nginx"))
	runSteps(t, f, []step{{"rollout history deploy/fresh", "deployment.apps/fresh \nNo rollout history found.", ""}})
}

func TestRolloutUndo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, f *fixture)
		steps []step
		image string
	}{
		{"back to the previous revision", nil, []step{{"rollout undo deployment/web", "deployment.apps/web rolled back", ""}}, "nginx:1.25"},
		{"to a revision", nil, []step{{"rollout undo deploy/web --to-revision=1", "deployment.apps/web rolled back", ""}}, "nginx:1.25"},
		{"to the current revision", nil, []step{{"rollout undo deploy/web --to-revision=2", "deployment.apps/web skipped rollback (current template already matches revision 2)", ""}}, "nginx:1.26"},
		{"unknown revision", nil, []step{{"rollout undo deploy/web --to-revision=7", "", "error: unable to find specified revision 7 in history"}}, "nginx:1.26"},
		{"negative revision", nil, []step{{"rollout undo deploy/web --to-revision=-1", "", "error: unable to find specified revision -1 in history"}}, "nginx:1.26"},
		{"paused", func(t *testing.T, f *fixture) {
			require.Equal(t, "deployment.apps/web paused", f.run("rollout pause deploy/web").Output)
		}, []step{{"rollout undo deploy/web", "", "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"}}, "nginx:1.26"},
		{"replica set", nil, []step{{"rollout undo rs/web-66b6c48dd5", "", `error: no rollbacker has been implemented for "ReplicaSet.apps"`}}, "nginx:1.26"},
		// kubectl 1.35 warns about nothing here (a warning about the
		// last-applied-configuration annotation is kubectl 1.36's).
		{"applied before", func(t *testing.T, f *fixture) {
			require.Equal(t, "deployment.apps/web annotated", f.run("annotate deploy/web "+api.LastAppliedAnnotation+"={}").Output)
		}, []step{{"rollout undo deploy/web", "deployment.apps/web rolled back", ""}}, "nginx:1.25"},
		{"dry run prints the template", nil, []step{{"rollout undo deploy/web --dry-run=client", "deployment.apps/web Pod Template:\n" +
			"  Labels:\tapp=web\n\tpod-template-hash=66b6c48dd5\n  Containers:\n   web:\n    Image:\tnginx:1.25\n    Port:\t80/TCP\n" +
			"    Host Port:\t0/TCP\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n" +
			"  Tolerations:\t<none>\n (dry run)", ""}}, "nginx:1.26"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.rollTo(t, "nginx:1.26", "7c5ddbdf54", "2", "bump to 1.26")
			if tc.setup != nil {
				tc.setup(t, f)
			}
			runSteps(t, f, tc.steps)
			assert.Equal(t, tc.image, f.deployment(t, "web").Spec.Template.Spec.Containers[0].Image)
		})
	}
}

func TestRolloutUndoCopiesTheReplicaSetTemplateAndAnnotations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	old, err := f.st.GetReplicaSet("default", "web-66b6c48dd5")
	require.NoError(t, err)
	next := old.DeepCopy()
	next.Annotations[api.ChangeCauseAnnotation] = "first"
	_, err = f.st.Update(next)
	require.NoError(t, err)
	f.rollTo(t, "nginx:1.26", "7c5ddbdf54", "2", "")
	require.Equal(t, "deployment.apps/web annotated", f.run("annotate deploy/web team=a").Output)
	require.Equal(t, "deployment.apps/web rolled back", f.run("rollout undo deploy/web").Output)
	d := f.deployment(t, "web")
	assert.Equal(t, map[string]string{"app": "web"}, d.Spec.Template.Labels, "the hash label is dropped")
	assert.Equal(t, "2", d.Annotations[api.RevisionAnnotation], "the revision is kept from the Deployment")
	assert.Equal(t, "first", d.Annotations[api.ChangeCauseAnnotation], "change-cause comes back from the ReplicaSet")
	assert.NotContains(t, d.Annotations, "team", "annotations the ReplicaSet lacks are dropped")
	assert.NotContains(t, d.Annotations, api.DesiredReplicasAnnotation, "the controller's RS annotations are not copied")
}

func TestRolloutUndoWithoutHistory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	runSteps(t, f, []step{{"rollout undo deploy/web", "", `error: no rollout history found for deployment "web"`}})
}

func TestRolloutRestartPauseResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	runSteps(t, f, []step{
		{"rollout restart deployment/web", "deployment.apps/web restarted", ""},
		{"rollout restart deploy/web", "", "error: failed to create patch for web: if restart has already been triggered within the past second, please wait before attempting to trigger another"},
		{"rollout pause deploy/web", "deployment.apps/web paused", ""},
		{"rollout pause deploy/web", "", `error: deployments.apps "web" is already paused`},
		{"rollout restart deploy/web", "", `error: deployments.apps "web" can't restart paused deployment (run rollout resume first)`},
		{"rollout resume deploy/web", "deployment.apps/web resumed", ""},
		{"rollout resume deploy/web", "", `error: deployments.apps "web" is not paused`},
		{"rollout pause rs/web-66b6c48dd5", "", `error: replicasets.apps "web-66b6c48dd5" pausing is not supported`},
		{"rollout resume rs/web-66b6c48dd5", "", `error: replicasets.apps "web-66b6c48dd5" resuming is not supported`},
		{"rollout restart rs/web-66b6c48dd5", "", `error: replicasets.apps "web-66b6c48dd5" restarting is not supported`},
		{"rollout pause deploy/nope", "", `Error from server (NotFound): deployments.apps "nope" not found`},
	})
	assert.Equal(t, "2026-01-01T00:05:00Z", f.deployment(t, "web").Spec.Template.Annotations[api.RestartedAtAnnotation])
	simtest.Advance(f.st, time.Second)
	runSteps(t, f, []step{{"rollout restart deploy/web", "deployment.apps/web restarted", ""}})
	assert.Equal(t, "2026-01-01T00:05:01Z", f.deployment(t, "web").Spec.Template.Annotations[api.RestartedAtAnnotation])
}

func TestRolloutStatusNeedsOneObject(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	simtest.MustCreate(t, f.st, simtest.NewDeployment("api", 1, "nginx"))
	runSteps(t, f, []step{{"rollout status deploy", "",
		"error: rollout status is only supported on individual resources and resource collections - 2 resources were found"}})
}

func TestRolloutStatusFunction(t *testing.T) {
	t.Parallel()
	d := simtest.NewDeployment("web", 3, "nginx")
	d.Generation = 2
	d.Status.ObservedGeneration = 2
	d.Status.UpdatedReplicas, d.Status.Replicas, d.Status.AvailableReplicas = 3, 3, 3
	d.Annotations = map[string]string{api.RevisionAnnotation: "x"}
	_, _, err := RolloutStatus(d, 1)
	assert.EqualError(t, err, `error: cannot get the revision of deployment "web"`)
	line, done, err := RolloutStatus(d, 0)
	require.NoError(t, err)
	assert.True(t, done)
	assert.Equal(t, `deployment "web" successfully rolled out`, line)
}
