package deployment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// rolledOut returns a cluster where web went from web:1 (revision 1, change-cause
// "v1") to web:2 (revision 2, change-cause "v2").
func rolledOut(t *testing.T) *cluster {
	t.Helper()
	c := settled(t, 3, 1)
	c.rounds = 8
	c.f.update("web", func(d *api.Deployment) {
		d.Annotations[api.ChangeCauseAnnotation] = "v1"
	})
	c.run()
	c.f.update("web", func(d *api.Deployment) {
		d.Annotations[api.ChangeCauseAnnotation] = "v2"
		d.Spec.Template.Spec.Containers[0].Image = "web:2"
	})
	c.runUntil(20, func() bool { return c.complete("web") })
	return c
}

func (c *cluster) requestRollback(to string) {
	c.f.update("web", func(d *api.Deployment) { d.Annotations[api.RollbackToAnnotation] = to })
}

func eventOf(ctx *controller.Context) store.EmittedEvent {
	if len(ctx.Emitted) == 0 {
		return store.EmittedEvent{}
	}
	return ctx.Emitted[0]
}

func TestLegacyRollback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		to        string
		wantType  string
		reason    string
		message   string
		wantImage string
	}{
		{"to revision 1", "1", EventNormal, RollbackDone, `Rolled back deployment "web" to revision 1`, "web:1"},
		{"revision 0 means the last one", "0", EventNormal, RollbackDone, `Rolled back deployment "web" to revision 1`, "web:1"},
		{"a revision that does not exist", "7", EventWarning, RollbackRevisionNotFound, "Unable to find the revision to rollback to.", "web:2"},
		{"the current revision", "2", EventWarning, RollbackTemplateUnchanged,
			`The rollback revision contains the same template as current deployment "web"`, "web:2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := rolledOut(t)
			gen := c.f.getD("web").Generation
			c.requestRollback(tc.to)
			ctx := c.f.context()
			c.ctrl.Sync(ctx)
			e := eventOf(ctx)
			assert.Equal(t, []string{tc.wantType, tc.reason, tc.message}, []string{e.Type, e.Reason, e.Message})
			d := c.f.getD("web")
			assert.NotContains(t, d.Annotations, api.RollbackToAnnotation, "the annotation is always cleared")
			assert.Equal(t, tc.wantImage, d.Spec.Template.Spec.Containers[0].Image)
			assert.NotContains(t, d.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey)
			assert.Equal(t, gen+2, d.Generation, "the annotation request and the controller's update are both spec writes")
			if tc.wantImage == "web:1" {
				assert.Equal(t, "v1", d.Annotations[api.ChangeCauseAnnotation], "change-cause comes back with the template")
				c.runUntil(20, func() bool { return c.complete("web") })
				assert.Equal(t, "3", c.rsByImage("web:1").Annotations[api.RevisionAnnotation])
				assert.Equal(t, "3", c.f.getD("web").Annotations[api.RevisionAnnotation])
			}
		})
	}
}

func TestLegacyRollbackWithoutLastRevision(t *testing.T) {
	t.Parallel()
	c := settled(t, 1, 1)
	c.requestRollback("0")
	ctx := c.f.context()
	c.ctrl.Sync(ctx)
	e := eventOf(ctx)
	assert.Equal(t, []string{EventWarning, RollbackRevisionNotFound, "Unable to find last revision."}, []string{e.Type, e.Reason, e.Message})
	assert.NotContains(t, c.f.getD("web").Annotations, api.RollbackToAnnotation)
	assert.Equal(t, "clear the rollback annotation (no last revision)", ctx.Log.Records[0].Action)
}

func TestLegacyRollbackIgnored(t *testing.T) {
	t.Parallel()
	t.Run("while paused", func(t *testing.T) {
		t.Parallel()
		c := rolledOut(t)
		c.f.update("web", func(d *api.Deployment) {
			d.Spec.Paused = true
			d.Annotations[api.RollbackToAnnotation] = "1"
		})
		c.run()
		d := c.f.getD("web")
		assert.Equal(t, "1", d.Annotations[api.RollbackToAnnotation], "the paused check comes first")
		assert.Equal(t, "web:2", d.Spec.Template.Spec.Containers[0].Image)
	})
	t.Run("not a number", func(t *testing.T) {
		t.Parallel()
		c := rolledOut(t)
		c.requestRollback("abc")
		c.run()
		d := c.f.getD("web")
		assert.Equal(t, "abc", d.Annotations[api.RollbackToAnnotation])
		assert.Equal(t, "web:2", d.Spec.Template.Spec.Containers[0].Image)
		assert.True(t, c.record("web").InSync)
	})
	t.Run("paused cleanup is skipped while a rollback is pending", func(t *testing.T) {
		t.Parallel()
		c := rolledOut(t)
		c.f.update("web", func(d *api.Deployment) {
			d.Spec.Paused = true
			d.Spec.RevisionHistoryLimit = api.Int32(0)
			d.Annotations[api.RollbackToAnnotation] = "1"
		})
		c.run()
		assert.NotNil(t, c.rsByImage("web:1"))
		c.f.update("web", func(d *api.Deployment) { delete(d.Annotations, api.RollbackToAnnotation) })
		c.run()
		assert.Nil(t, c.rsByImage("web:1"), "paused: cleanup runs once no rollback is pending")
	})
}

func TestGetRollbackTo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		value string
		want  int64
		ok    bool
	}{{"", 0, false}, {"0", 0, true}, {"12", 12, true}, {"x", 0, false}}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			t.Parallel()
			d := &api.Deployment{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{api.RollbackToAnnotation: tc.value}}}
			got, ok := getRollbackTo(d)
			require.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}
