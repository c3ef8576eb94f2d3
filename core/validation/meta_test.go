package validation_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/api"
	"converge/core/validation"
)

const qualifiedError = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"

func TestValidateObjectMeta(t *testing.T) {
	t.Parallel()
	ctrl := func(kind, name, uid string) api.OwnerReference {
		return api.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: name, UID: uid, Controller: api.Bool(true)}
	}
	tests := []struct {
		name  string
		tweak func(*api.Deployment)
		want  []string
	}{
		{"labels", func(d *api.Deployment) {
			d.Labels = map[string]string{"app.kubernetes.io/name": "web", "tier": "", "Upper_Case.ok": "A.b-c_D"}
		}, nil},
		{"bad labels in key order", func(d *api.Deployment) {
			d.Labels = map[string]string{"z=z": "ok", "a": strings.Repeat("v", 64), "NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		}, []string{
			`metadata.labels: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals": ` + qualifiedError,
			`metadata.labels: Invalid value: "` + strings.Repeat("v", 64) + `": must be no more than 63 bytes`,
			`metadata.labels: Invalid value: "z=z": ` + qualifiedError,
		}},
		{"annotation keys are case-insensitive", func(d *api.Deployment) {
			d.Annotations = map[string]string{"Example.com/Key": "anything at all", "kubernetes.io/change-cause": "kubectl set image"}
		}, nil},
		{"bad annotation key", func(d *api.Deployment) { d.Annotations = map[string]string{"a b": "x"} },
			[]string{`metadata.annotations: Invalid value: "a b": ` + qualifiedError}},
		{"annotations at the size limit", func(d *api.Deployment) {
			d.Annotations = map[string]string{"a": strings.Repeat("x", 256*1024-1)}
		}, nil},
		{"annotations too big", func(d *api.Deployment) {
			d.Annotations = map[string]string{"a": strings.Repeat("x", 256*1024)}
		}, []string{"metadata.annotations: Too long: may not be more than 262144 bytes"}},
		{"owner references", func(d *api.Deployment) {
			d.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "c", UID: "u1"}}
		}, nil},
		{"owner reference fields", func(d *api.Deployment) {
			d.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/", Kind: "", Name: "", UID: ""}}
		}, []string{
			`metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty`,
			`metadata.ownerReferences.kind: Invalid value: "": must not be empty`,
			`metadata.ownerReferences.name: Invalid value: "": must not be empty`,
			`metadata.ownerReferences.uid: Invalid value: "": must not be empty`,
		}},
		{"events cannot own", func(d *api.Deployment) {
			d.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Event", Name: "e", UID: "u"}}
		}, []string{`metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner`}},
		{"two controllers", func(d *api.Deployment) {
			d.OwnerReferences = []api.OwnerReference{ctrl("Deployment", "a", "1"), ctrl("Deployment", "b", "2")}
		}, []string{`metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"Deployment","name":"a","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"Deployment","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for Deployment/a and Deployment/b`}},
		{"finalizers", func(d *api.Deployment) { d.Finalizers = []string{"foregroundDeletion", "example.com/cleanup"} }, nil},
		{"unqualified finalizer", func(d *api.Deployment) { d.Finalizers = []string{"cleanup"} },
			[]string{`metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified`}},
		{"bad finalizer", func(d *api.Deployment) { d.Finalizers = []string{"a b"} },
			[]string{`metadata.finalizers: Invalid value: "a b": ` + qualifiedError, `metadata.finalizers[0]: Invalid value: "a b": ` + qualifiedError}},
		{"conflicting finalizers", func(d *api.Deployment) { d.Finalizers = []string{"orphan", "foregroundDeletion"} },
			[]string{`metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set`}},
		{"generateName with a trailing dash", func(d *api.Deployment) { d.GenerateName = "web-" }, nil},
		{"generateName", func(d *api.Deployment) { d.GenerateName = "-web-" },
			[]string{`metadata.generateName: Invalid value: "-web-": ` + subdomainError}},
		{"name too long", func(d *api.Deployment) { d.Name = strings.Repeat("a", 254) },
			[]string{`metadata.name: Invalid value: "` + strings.Repeat("a", 254) + `": must be no more than 253 characters`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidateDeployment(deployment(tc.tweak), nil).Messages())
		})
	}
}

func TestValidateObjectMetaUpdate(t *testing.T) {
	t.Parallel()
	old := stored(deployment(func(d *api.Deployment) {
		d.Finalizers = []string{"example.com/a"}
		d.DeletionTimestamp = api.NewTimePtr(api.Epoch)
		d.DeletionGracePeriodSeconds = api.Int64(30)
	}))
	tests := []struct {
		name  string
		tweak func(*api.Deployment)
		want  []string
	}{
		{"finalizer removed while deleting", func(d *api.Deployment) { d.Finalizers = nil }, nil},
		{"finalizer added while deleting", func(d *api.Deployment) { d.Finalizers = []string{"example.com/a", "example.com/b"} },
			[]string{`metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}`}},
		{"namespace", func(d *api.Deployment) { d.Namespace = "prod" }, []string{`metadata.namespace: Invalid value: "prod": field is immutable`}},
		{"creation timestamp", func(d *api.Deployment) { d.CreationTimestamp = api.NewTime(api.Epoch.Add(1e9)) },
			[]string{`metadata.creationTimestamp: Invalid value: "2026-01-01T00:00:01Z": field is immutable`}},
		{"deletion timestamp", func(d *api.Deployment) { d.DeletionTimestamp = nil },
			[]string{`metadata.deletionTimestamp: Invalid value: "null": field is immutable`}},
		{"deletion grace", func(d *api.Deployment) { d.DeletionGracePeriodSeconds = api.Int64(0) },
			[]string{"metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable"}},
		{"labels still validated", func(d *api.Deployment) { d.Labels = map[string]string{"a": "-"} },
			[]string{`metadata.labels: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := old.DeepCopy()
			tc.tweak(d)
			assert.Equal(t, tc.want, validation.ValidateDeployment(d, old).Messages())
		})
	}
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		obj  api.Object
		want []string
	}{
		{"DNS label name", deployment(), nil},
		{"dotted deployment", deployment(func(d *api.Deployment) { d.Name = "web.v1" }),
			[]string{"metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"}},
		{"long dotted replica set", replicaSet(func(rs *api.ReplicaSet) { rs.Name = strings.Repeat("a", 60) + ".bcd" }),
			[]string{"metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must be no more than 63 characters must not contain dots]"}},
		{"dotted pod", pod(func(p *api.Pod) { p.Name = "web.1" }),
			[]string{"metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"}},
		{"invalid names are errors, not warnings", deployment(func(d *api.Deployment) { d.Name = "Web_1" }), nil},
		{"no name", deployment(func(d *api.Deployment) { d.Name = "" }), nil},
		{"other kinds", node(func(n *api.Node) { n.Name = "a.b" }), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.Warnings(tc.obj))
		})
	}
}

func TestValidateObjectDispatches(t *testing.T) {
	t.Parallel()
	bad := func(m *api.ObjectMeta) { m.Name = "" }
	d := deployment(func(d *api.Deployment) { bad(&d.ObjectMeta) })
	rs := replicaSet(func(r *api.ReplicaSet) { bad(&r.ObjectMeta) })
	p := pod(func(p *api.Pod) { bad(&p.ObjectMeta) })
	s := service(func(s *api.Service) { bad(&s.ObjectMeta) })
	c := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default"}}
	n := node(func(n *api.Node) { bad(&n.ObjectMeta) })
	const required = "metadata.name: Required value: name or generateName is required"
	for _, obj := range []api.Object{d, rs, p, s, c, n} {
		assert.Equal(t, []string{required}, validation.ValidateObject(obj, nil).Messages(), "%T", obj)
	}
	assert.Nil(t, validation.ValidateObject(&api.Event{}, nil), "events are not validated")

	oldD, oldRS, oldP := stored(deployment()), replicaSet(), storedPod(pod())
	oldS, oldN := service(), node(nil)
	oldC := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}}
	for _, tc := range []struct{ obj, old api.Object }{
		{oldD.DeepCopy(), oldD}, {oldRS.DeepCopy(), oldRS}, {oldP.DeepCopy(), oldP}, {oldS.DeepCopy(), oldS}, {oldC.DeepCopy(), oldC}, {oldN.DeepCopy(), oldN},
	} {
		assert.Empty(t, validation.ValidateObject(tc.obj, tc.old), "%T", tc.obj)
	}
}

func TestIsDNS1035Label(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"a", "ab", "a-b", "a1", "a--b", strings.Repeat("a", 63)} {
		assert.Empty(t, validation.IsDNS1035Label(ok), ok)
	}
	for _, bad := range []string{"", "1a", "-a", "a-", "A", "a.b", "a_b"} {
		assert.Len(t, validation.IsDNS1035Label(bad), 1, bad)
	}
	assert.Equal(t, []string{"must be no more than 63 characters"}, validation.IsDNS1035Label(strings.Repeat("a", 64)))
}

func TestIsValidPercent(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"0%", "1%", "25%", "100%", "150%", "007%"} {
		assert.Empty(t, validation.IsValidPercent(ok), ok)
	}
	for _, bad := range []string{"", "%", "25", "-1%", "1.5%", "25 %", "%25", "a%"} {
		assert.Equal(t, []string{percentDetail}, validation.IsValidPercent(bad), bad)
	}
}

func TestIsRelaxedEnvVarName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"A", "my.var", "1ST", "with space", "~!@#$%^&*()"} {
		assert.Empty(t, validation.IsRelaxedEnvVarName(ok), ok)
	}
	assert.Equal(t, []string{"environment variable name must be non-empty"}, validation.IsRelaxedEnvVarName(""))
	for _, bad := range []string{"A=B", "é", "a\nb", "\x7f"} {
		assert.Len(t, validation.IsRelaxedEnvVarName(bad), 1, bad)
	}
}

func TestValidateObjectWithOldOfAnotherKind(t *testing.T) {
	t.Parallel()
	assert.Empty(t, validation.ValidateObject(deployment(), pod()), "treated as a create")
	assert.Empty(t, validation.ValidateObject(pod(), (*api.Pod)(nil)))
}
