package api_test

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

func TestLookupResource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string // want "" means not found
	}{
		{name: "plural", in: "deployments", want: api.KindDeployment},
		{name: "singular", in: "deployment", want: api.KindDeployment},
		{name: "short name", in: "deploy", want: api.KindDeployment},
		{name: "kind in any case", in: "ReplicaSet", want: api.KindReplicaSet},
		{name: "upper case", in: "PODS", want: api.KindPod},
		{name: "plural.group", in: "deployments.apps", want: api.KindDeployment},
		{name: "kind.version.group", in: "deployment.v1.apps", want: api.KindDeployment},
		{name: "short.version.group", in: "rs.v1.apps", want: api.KindReplicaSet},
		{name: "core group by version", in: "pods.v1", want: api.KindPod},
		{name: "singular equals plural", in: "endpoints", want: api.KindEndpoints},
		{name: "events", in: "ev", want: api.KindEvent},
		{name: "a version alone matches any group, as kubectl does", in: "deployment.v1", want: api.KindDeployment},
		{name: "wrong group", in: "pods.apps", want: ""},
		{name: "wrong version", in: "deployment.v2.apps", want: ""},
		{name: "another version", in: "hpa.v2.autoscaling", want: api.KindHorizontalPodAutoscaler},
		{name: "a version alone in another group", in: "horizontalpodautoscalers.v2", want: api.KindHorizontalPodAutoscaler},
		{name: "unknown group", in: "deployments.extensions", want: ""},
		{name: "unknown", in: "secrets", want: ""},
		{name: "empty", in: "", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, ok := api.LookupResource(tc.in)
			if tc.want == "" {
				assert.False(t, ok)
				assert.Nil(t, r)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tc.want, r.Kind)
		})
	}
}

func TestResourceSpellings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind string
		want []string
	}{
		{api.KindDeployment, []string{"deployments", "deployments.apps", "deployments.v1.apps",
			"deployment", "deployment.apps", "deployment.v1.apps", "deploy", "deploy.apps", "deploy.v1.apps"}},
		{api.KindPod, []string{"pods", "pods.v1", "pod", "pod.v1", "po", "po.v1"}},
		{api.KindEndpoints, []string{"endpoints", "endpoints.v1", "ep", "ep.v1"}},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, api.ResourceFor(tc.kind).Spellings())
		})
	}
	for _, r := range api.Resources() {
		for _, s := range append(r.Spellings(), r.Kind, strings.ToUpper(r.Plural)) {
			got, ok := api.LookupResource(s)
			if assert.True(t, ok, s) {
				assert.Same(t, r, got, s)
			}
		}
	}
}

// TestResourceTable pins the invariants the table's users rely on.
func TestResourceTable(t *testing.T) {
	t.Parallel()
	rs := api.Resources()
	require.Len(t, rs, 11)
	assert.True(t, sort.SliceIsSorted(rs, func(i, j int) bool {
		if rs[i].Group != rs[j].Group {
			return rs[i].Group < rs[j].Group
		}
		return rs[i].Plural < rs[j].Plural
	}), "kubectl api-resources order: by group, then plural")
	for _, r := range rs {
		assert.Equal(t, strings.ToLower(r.Kind), r.Singular, "the singular is the lower-case kind")
		assert.Equal(t, r.Kind, r.Type.Name())
		assert.Same(t, r, api.ResourceFor(r.Kind))
		obj := r.New()
		assert.Equal(t, reflect.PointerTo(r.Type), reflect.TypeOf(obj))
		assert.Same(t, r, api.ResourceOf(obj))
		assert.Equal(t, r.Kind, api.KindOf(obj))
		assert.Equal(t, r.APIVersion(), api.APIVersionFor(r.Kind))
	}
	rs[0] = nil
	assert.NotNil(t, api.Resources()[0], "Resources returns a copy of the list")
}

func TestResourceNames(t *testing.T) {
	t.Parallel()
	d, p := api.ResourceFor(api.KindDeployment), api.ResourceFor(api.KindPod)
	tests := []struct{ name, got, want string }{
		{"apiVersion apps", d.APIVersion(), "apps/v1"},
		{"apiVersion core", p.APIVersion(), "v1"},
		{"group resource apps", d.GroupResource(), "deployments.apps"},
		{"group resource core", p.GroupResource(), "pods"},
		{"group kind apps", d.GroupKind(), "Deployment.apps"},
		{"group kind core", p.GroupKind(), "Pod"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.got)
		})
	}
}

func TestResourceUnknown(t *testing.T) {
	t.Parallel()
	assert.Nil(t, api.ResourceFor("Secret"))
	assert.Nil(t, api.ResourceOf(nil))
	assert.Equal(t, "", api.KindOf(nil))
	assert.Equal(t, "v1", api.APIVersionFor("Secret"))
}
