package validation_test

import (
	"encoding/json"
	"testing"

	"converge/core/api"
	"converge/core/validation"
)

// FuzzValidate decodes arbitrary JSON into each kind and validates it as a
// create and as an update: validation never panics, whatever it is given,
// and an object is always a valid update of itself when it is a valid create.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`,
		`{"metadata":{"name":"web"},"spec":{"strategy":{"type":"Foo","rollingUpdate":{"maxSurge":"x"}},"selector":{"matchExpressions":[{"key":"a","operator":"In"}]}}}`,
		`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":80,"hostPort":80}],"readinessProbe":{"httpGet":{"port":"http"}},"resources":{"limits":{"cpu":"1"},"requests":{"cpu":"2","example.com/gpu":"1"}}}],"volumes":[{"name":"v"}],"tolerations":[{"operator":"Exists","value":"x"}]}}`,
		`{"metadata":{"name":"svc"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30000},{"port":80,"nodePort":30000}]}}`,
		`{"metadata":{"name":"n"},"spec":{"taints":[{"key":"a","effect":"NoRun"}]},"status":{"capacity":{"pods":"1.5"}}}`,
		`{"metadata":{"name":"c","ownerReferences":[{"controller":true},{"controller":true}],"finalizers":["orphan","foregroundDeletion"]},"data":{"..":"x"}}`,
		`{}`, `null`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, newObj := range []func() api.Object{
			func() api.Object { return &api.Deployment{} }, func() api.Object { return &api.ReplicaSet{} },
			func() api.Object { return &api.Pod{} }, func() api.Object { return &api.Service{} },
			func() api.Object { return &api.ConfigMap{} }, func() api.Object { return &api.Node{} },
		} {
			obj := newObj()
			if json.Unmarshal(b, obj) != nil {
				continue
			}
			raw := obj.DeepCopyObject()
			validation.ValidateObject(raw, nil)
			validation.ValidateObject(raw, raw.DeepCopyObject())
			validation.Warnings(raw)
			api.SetDefaults(obj)
			if len(validation.ValidateObject(obj, nil)) == 0 {
				if errs := validation.ValidateObject(obj.DeepCopyObject(), obj); len(errs) != 0 {
					t.Fatalf("%T valid on create but not as an update of itself: %v", obj, errs)
				}
			}
		}
	})
}
