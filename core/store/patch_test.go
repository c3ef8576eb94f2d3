package store_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// The examples of RFC 7386, appendix A (the ones whose patch is an object;
// Converge, like the API server, rejects other patches).
func TestMergePatchRFC7386(t *testing.T) {
	t.Parallel()
	tests := []struct {
		doc, patch, want string
	}{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`{"e":null}`, `{"a":1}`, `{"a":1,"e":null}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
		{`{"a":{"b":1}}`, `{"a":{}}`, `{"a":{"b":1}}`},
		{`{"a":[{"b":null}]}`, `{}`, `{"a":[{"b":null}]}`},
		{`{"a":1}`, `{"a":[{"b":null}]}`, `{"a":[{"b":null}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.doc+" + "+tc.patch, func(t *testing.T) {
			t.Parallel()
			got, err := store.MergePatch([]byte(tc.doc), []byte(tc.patch))
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}
	for _, bad := range []struct{ doc, patch, want string }{
		{`{"a":"b"}`, `["c"]`, "a merge patch must be a JSON object"},
		{`{"a":"foo"}`, `null`, "a merge patch must be a JSON object"},
		{`{"a":"foo"}`, `"bar"`, "a merge patch must be a JSON object"},
		{`{"a":"foo"}`, `{`, "invalid JSON patch: unexpected end of JSON input"},
		{`{`, `{}`, "invalid document: unexpected end of JSON input"},
	} {
		_, err := store.MergePatch([]byte(bad.doc), []byte(bad.patch))
		assert.EqualError(t, err, bad.want, bad.patch)
	}
}

func TestPatch(t *testing.T) {
	t.Parallel()
	newStore := func(t *testing.T) (*store.Store, *api.Deployment) {
		s := simtest.NewStore()
		d := simtest.NewDeployment("web", 2, "nginx")
		d.Labels = map[string]string{"tier": "web", "team": "a"}
		d.Status.Replicas = 2
		return s, simtest.MustCreate(t, s, d)
	}
	t.Run("scale", func(t *testing.T) {
		t.Parallel()
		s, d := newStore(t)
		out, err := s.Patch(api.KindDeployment, "", "web", []byte(`{"spec":{"replicas":5}}`), false)
		require.NoError(t, err)
		got := out.(*api.Deployment)
		assert.Equal(t, int32(5), *got.Spec.Replicas)
		assert.Equal(t, int64(2), got.Generation)
		assert.Equal(t, int32(2), got.Status.Replicas)
		assert.Equal(t, d.UID, got.UID)
		assert.Equal(t, int32(2), *d.Spec.Replicas, "the old object is not changed")
	})
	t.Run("null deletes a label", func(t *testing.T) {
		t.Parallel()
		s, _ := newStore(t)
		out, err := s.Patch(api.KindDeployment, "default", "web", []byte(`{"metadata":{"labels":{"team":null,"new":"x"}}}`), false)
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"tier": "web", "new": "x"}, out.GetObjectMeta().Labels)
		assert.Equal(t, int64(1), out.GetObjectMeta().Generation, "labels do not bump the generation")
	})
	t.Run("status through the status subresource", func(t *testing.T) {
		t.Parallel()
		s, _ := newStore(t)
		out, err := s.Patch(api.KindDeployment, "", "web", []byte(`{"status":{"readyReplicas":2},"spec":{"replicas":9}}`), true)
		require.NoError(t, err)
		got := out.(*api.Deployment)
		assert.Equal(t, int32(2), got.Status.ReadyReplicas)
		assert.Equal(t, int32(2), got.Status.Replicas, "other status fields are kept")
		assert.Equal(t, int32(2), *got.Spec.Replicas, "spec is ignored")
	})
	t.Run("status in a main patch is ignored", func(t *testing.T) {
		t.Parallel()
		s, _ := newStore(t)
		out, err := s.Patch(api.KindDeployment, "", "web", []byte(`{"status":{"replicas":0}}`), false)
		require.NoError(t, err)
		assert.Equal(t, int32(2), out.(*api.Deployment).Status.Replicas)
	})
	t.Run("invalid result", func(t *testing.T) {
		t.Parallel()
		s, d := newStore(t)
		_, err := s.Patch(api.KindDeployment, "", "web", []byte(`{"spec":{"replicas":-1}}`), false)
		assert.EqualError(t, err, `Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`)
		got, _ := s.GetDeployment("", "web")
		assert.Same(t, d, got)
	})
	t.Run("rename", func(t *testing.T) {
		t.Parallel()
		s, _ := newStore(t)
		_, err := s.Patch(api.KindDeployment, "", "web", []byte(`{"metadata":{"name":"api"}}`), false)
		assert.EqualError(t, err, "the name and namespace of an object cannot be changed by a patch")
		assert.Equal(t, store.ReasonBadRequest, store.ReasonOf(err))
		_, err = s.Patch(api.KindDeployment, "", "web", []byte(`{"metadata":{"namespace":"prod"}}`), false)
		assert.Error(t, err)
	})
	t.Run("bad patches", func(t *testing.T) {
		t.Parallel()
		s, _ := newStore(t)
		_, err := s.Patch(api.KindDeployment, "", "web", []byte(`[]`), false)
		assert.EqualError(t, err, "a merge patch must be a JSON object")
		_, err = s.Patch(api.KindDeployment, "", "web", []byte(`{"spec":{"replicas":"many"}}`), false)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "unable to decode the patched object: ")
		_, err = s.Patch(api.KindDeployment, "", "missing", []byte(`{}`), false)
		assert.True(t, errors.Is(err, store.ErrNotFound))
		_, err = s.Patch(api.KindDeployment, "", "web", []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"x","resources":{"limits":{"cpu":"1K"}}}]}}}}`), false)
		assert.EqualError(t, err, "unable to decode the patched object: unable to parse quantity's suffix")
	})
	t.Run("nodes are patched without a namespace", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
		out, err := s.Patch(api.KindNode, "", "node-1", []byte(`{"spec":{"unschedulable":true}}`), false)
		require.NoError(t, err)
		assert.True(t, out.(*api.Node).Spec.Unschedulable)
		assert.Equal(t, "4", out.(*api.Node).Status.Capacity["cpu"].String(), "quantities survive the JSON round trip")
	})
	t.Run("every kind round-trips through JSON", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		simtest.MustCreate(t, s, simtest.NewReplicaSet("rs", 1, "nginx"))
		simtest.MustCreate(t, s, simtest.NewPod("p", simtest.WithPodRequests("100m", "64Mi")))
		simtest.MustCreate(t, s, &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc"}, Spec: api.ServiceSpec{Ports: []api.ServicePort{{Port: 80}}}})
		simtest.MustCreate(t, s, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}})
		simtest.MustCreate(t, s, &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: "svc"}})
		for _, kn := range [][2]string{{api.KindReplicaSet, "rs"}, {api.KindPod, "p"}, {api.KindService, "svc"}, {api.KindConfigMap, "cfg"}, {api.KindEndpoints, "svc"}} {
			out, err := s.Patch(kn[0], "", kn[1], []byte(`{"metadata":{"labels":{"patched":"yes"}}}`), false)
			require.NoError(t, err, kn[0])
			assert.Equal(t, "yes", out.GetObjectMeta().Labels["patched"], kn[0])
		}
	})
}
