package deployment

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

func templateSpec(name, nodeName string, annotations, labels map[string]string) api.PodTemplateSpec {
	return api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Name: name, Annotations: annotations, Labels: labels},
		Spec: api.PodSpec{NodeName: nodeName}}
}

func TestEqualIgnoreHash(t *testing.T) {
	t.Parallel()
	const h = api.DefaultDeploymentUniqueLabelKey
	// TestEqualIgnoreHash rows, each checked in both orders.
	tests := []struct {
		name           string
		former, latter api.PodTemplateSpec
		want           bool
	}{
		{"Same spec, same labels",
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-1", "something": "else"}),
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-1", "something": "else"}), true},
		{"Same spec, only pod-template-hash label value is different",
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-1", "something": "else"}),
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-2", "something": "else"}), true},
		{"Same spec, the former doesn't have pod-template-hash label",
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{"something": "else"}),
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-2", "something": "else"}), true},
		{"Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{"something": "else"}),
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-2"}), false},
		{"Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-1"}),
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{"something": "else"}), false},
		{"Same spec, the label is different, and the pod-template-hash label value is the same",
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-1"}),
			templateSpec("foo", "foo-node", map[string]string{}, map[string]string{h: "value-1", "something": "else"}), false},
		{"Different spec, same labels",
			templateSpec("foo", "foo-node", map[string]string{"former": "value"}, map[string]string{h: "value-1", "something": "else"}),
			templateSpec("foo", "foo-node", map[string]string{"latter": "value"}, map[string]string{h: "value-1", "something": "else"}), false},
		{"Different spec, different pod-template-hash label value",
			templateSpec("foo-1", "foo-node", map[string]string{}, map[string]string{h: "value-1", "something": "else"}),
			templateSpec("foo-2", "foo-node", map[string]string{}, map[string]string{h: "value-2", "something": "else"}), false},
		{"Different spec, the former doesn't have pod-template-hash label",
			templateSpec("foo-1", "foo-node-1", map[string]string{}, map[string]string{"something": "else"}),
			templateSpec("foo-2", "foo-node-2", map[string]string{}, map[string]string{h: "value-2", "something": "else"}), false},
		{"Different spec, different labels",
			templateSpec("foo", "foo-node-1", map[string]string{}, map[string]string{"something": "else"}),
			templateSpec("foo", "foo-node-2", map[string]string{}, map[string]string{"nothing": "else"}), false},
		{"nil and empty annotations are equal",
			templateSpec("foo", "", nil, map[string]string{"a": "b"}),
			templateSpec("foo", "", map[string]string{}, map[string]string{"a": "b"}), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, EqualIgnoreHash(&tc.former, &tc.latter))
			assert.Equal(t, tc.want, EqualIgnoreHash(&tc.latter, &tc.former), "reverse order")
			assert.NotNil(t, tc.former.Labels, "labels must not be changed")
		})
	}
}

func TestEqualIgnoreHashSemantic(t *testing.T) {
	t.Parallel()
	base := simtest.NewDeployment("web", 1, "nginx:1.25", simtest.WithCPURequest("500m")).Spec.Template
	tests := []struct {
		name   string
		change func(t *api.PodTemplateSpec)
		want   bool
	}{
		{"identical", func(*api.PodTemplateSpec) {}, true},
		{"quantity written differently, same value", func(t *api.PodTemplateSpec) {
			t.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustQuantity("0.5")}
		}, true},
		{"different quantity", func(t *api.PodTemplateSpec) {
			t.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustQuantity("1")}
		}, false},
		{"different image", func(t *api.PodTemplateSpec) { t.Spec.Containers[0].Image = "nginx:1.26" }, false},
		{"restartedAt annotation", func(t *api.PodTemplateSpec) {
			t.Annotations = map[string]string{api.RestartedAtAnnotation: "2026-01-01T00:00:10Z"}
		}, false},
		{"empty env list equals none", func(t *api.PodTemplateSpec) { t.Spec.Containers[0].Env = []api.EnvVar{} }, true},
		{"env added", func(t *api.PodTemplateSpec) { t.Spec.Containers[0].Env = []api.EnvVar{{Name: "A", Value: "1"}} }, false},
		{"termination grace differs", func(t *api.PodTemplateSpec) { t.Spec.TerminationGracePeriodSeconds = api.Int64(5) }, false},
		{"raw security context differs", func(t *api.PodTemplateSpec) { t.Spec.SecurityContext = api.Raw(`{"runAsUser":1}`) }, false},
		{"creation timestamp differs", func(t *api.PodTemplateSpec) { t.CreationTimestamp = api.NewTime(api.Epoch) }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			other := base.DeepCopy()
			tc.change(&other)
			assert.Equal(t, tc.want, EqualIgnoreHash(&base, &other))
		})
	}
}

func rsWithTemplate(name string, tmpl api.PodTemplateSpec, created time.Time) *api.ReplicaSet {
	return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, UID: name + "-uid", CreationTimestamp: api.NewTime(created)},
		Spec: api.ReplicaSetSpec{Replicas: api.Int32(0), Template: tmpl.DeepCopy()}}
}

func TestFindNewReplicaSet(t *testing.T) {
	t.Parallel()
	d := simtest.NewDeployment("nginx", 1, "nginx")
	later := api.Epoch.Add(time.Minute)
	newRS := rsWithTemplate("new", d.Spec.Template, later)
	newRS.Spec.Template.Labels = withLabel(newRS.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey, "hash")
	newRSDup := rsWithTemplate("new-dup", d.Spec.Template, api.Epoch)
	newRSDup.Spec.Template.Labels = withLabel(newRSDup.Spec.Template.Labels, api.DefaultDeploymentUniqueLabelKey, "different-hash")
	oldTmpl := d.Spec.Template.DeepCopy()
	oldTmpl.Spec.Containers[0].Name = "nginx-old-1"
	oldRS := rsWithTemplate("old", oldTmpl, api.Epoch)
	tests := []struct {
		name   string
		rsList []*api.ReplicaSet
		want   *api.ReplicaSet
	}{
		{"Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value", []*api.ReplicaSet{newRS, oldRS}, newRS},
		{"Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template", []*api.ReplicaSet{newRS, oldRS, newRSDup}, newRSDup},
		{"Get nil new ReplicaSet", []*api.ReplicaSet{oldRS}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Same(t, tc.want, FindNewReplicaSet(d, tc.rsList))
		})
	}
	t.Run("equal timestamps: the name decides", func(t *testing.T) {
		t.Parallel()
		a := rsWithTemplate("b-rs", d.Spec.Template, api.Epoch)
		b := rsWithTemplate("a-rs", d.Spec.Template, api.Epoch)
		assert.Same(t, b, FindNewReplicaSet(d, []*api.ReplicaSet{a, b}))
	})
}

func TestFindOldReplicaSets(t *testing.T) {
	t.Parallel()
	d := simtest.NewDeployment("nginx", 1, "nginx")
	newRS := rsWithTemplate("new", d.Spec.Template, api.Epoch.Add(time.Minute))
	newRS.Spec.Replicas = api.Int32(1)
	newRSDup := rsWithTemplate("new-dup", d.Spec.Template, api.Epoch)
	oldTmpl := d.Spec.Template.DeepCopy()
	oldTmpl.Spec.Containers[0].Name = "nginx-old-1"
	oldRS := rsWithTemplate("old", oldTmpl, api.Epoch.Add(-time.Minute))
	names := func(rss []*api.ReplicaSet) []string {
		var out []string
		for _, rs := range sortedOldestFirst(rss) {
			out = append(out, rs.Name)
		}
		return out
	}
	tests := []struct {
		name          string
		rsList        []*api.ReplicaSet
		want, require []string
	}{
		{"Get old ReplicaSets", []*api.ReplicaSet{newRS, oldRS}, []string{"old"}, nil},
		{"Get old ReplicaSets with no new ReplicaSet", []*api.ReplicaSet{oldRS}, []string{"old"}, nil},
		{"Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet",
			[]*api.ReplicaSet{oldRS, newRS, newRSDup}, []string{"old", "new"}, []string{"new"}},
		{"Get empty old ReplicaSets", []*api.ReplicaSet{newRS}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req, all := FindOldReplicaSets(d, tc.rsList)
			assert.Equal(t, tc.want, names(all))
			assert.Equal(t, tc.require, names(req))
		})
	}
}

func TestSafeEncodeString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "56789bcdf4", SafeEncodeString("1234567890"))
	assert.Equal(t, "", SafeEncodeString(""))
}

func TestComputeHash(t *testing.T) {
	t.Parallel()
	tmpl := simtest.NewDeployment("web", 3, "nginx:1.25").Spec.Template
	h := ComputeHash(&tmpl, nil)
	t.Run("only 4-9, b, c, d, f", func(t *testing.T) {
		t.Parallel()
		require.NotEmpty(t, h)
		assert.LessOrEqual(t, len(h), 10)
		assert.Empty(t, strings.Trim(h, "456789bcdf"), h)
		if len(h) == 10 {
			assert.Contains(t, "5678", h[:1], "a 10-character hash starts with 5-8")
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		t.Parallel()
		other := tmpl.DeepCopy()
		assert.Equal(t, h, ComputeHash(&other, nil))
	})
	t.Run("the hash label is ignored", func(t *testing.T) {
		t.Parallel()
		other := tmpl.DeepCopy()
		other.Labels = withLabel(other.Labels, api.DefaultDeploymentUniqueLabelKey, "zzz")
		assert.Equal(t, h, ComputeHash(&other, nil))
		assert.Equal(t, "zzz", other.Labels[api.DefaultDeploymentUniqueLabelKey], "the template is not changed")
	})
	t.Run("a template change gives a new hash", func(t *testing.T) {
		t.Parallel()
		other := tmpl.DeepCopy()
		other.Spec.Containers[0].Image = "nginx:1.26"
		assert.NotEqual(t, h, ComputeHash(&other, nil))
	})
	t.Run("collisionCount gives a new hash, each value its own", func(t *testing.T) {
		t.Parallel()
		h0, h1 := ComputeHash(&tmpl, api.Int32(0)), ComputeHash(&tmpl, api.Int32(1))
		assert.NotEqual(t, h, h0, "a set collisionCount of 0 is mixed in too")
		assert.NotEqual(t, h0, h1)
		assert.Equal(t, h1, ComputeHash(&tmpl, api.Int32(1)))
	})
}

func TestLabelHelpers(t *testing.T) {
	t.Parallel()
	m := map[string]string{"a": "1", "b": "2"}
	assert.Equal(t, map[string]string{"a": "1"}, withoutLabel(m, "b"))
	assert.Equal(t, map[string]string{"a": "1", "b": "2", "c": "3"}, withLabel(m, "c", "3"))
	assert.Len(t, m, 2, "the input is not changed")
}
