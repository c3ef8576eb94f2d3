package kubectl

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

const webManifest = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"app","labels":{"team":"a"}},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"app"}},
  "template":{"metadata":{"labels":{"app":"app"}},"spec":{"containers":[{"name":"app","image":"nginx:1.25","env":[{"name":"A","value":"1"}]}]}}}}`

func manifest(replace ...string) string {
	s := webManifest
	for i := 0; i+1 < len(replace); i += 2 {
		s = replaceOnce(s, replace[i], replace[i+1])
	}
	return s
}

func replaceOnce(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

func TestApplyCreatesConfiguresAndKeepsOthersChanges(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.files["app.json"] = webManifest
	runSteps(t, f, []step{
		{"apply -f app.json", "deployment.apps/app created", ""},
		{"apply -f app.json", "deployment.apps/app unchanged", ""},
		{"scale deploy/app --replicas=5", "deployment.apps/app scaled", ""},
		{"set image deploy/app app=nginx:9", "deployment.apps/app image updated", ""},
		{"apply -f app.json", "deployment.apps/app configured", ""},
	})
	d := f.deployment(t, "app")
	assert.Equal(t, int32(2), *d.Spec.Replicas, "replicas are in the manifest, so apply sets them back")
	assert.Equal(t, "nginx:1.25", d.Spec.Template.Spec.Containers[0].Image)
	la := d.Annotations[api.LastAppliedAnnotation]
	assert.Equal(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"labels":{"team":"a"},"name":"app","namespace":"default"},`+
		`"spec":{"replicas":2,"selector":{"matchLabels":{"app":"app"}},"template":{"metadata":{"labels":{"app":"app"}},`+
		`"spec":{"containers":[{"env":[{"name":"A","value":"1"}],"image":"nginx:1.25","name":"app"}]}}}}`+"\n", la)

	// Drop replicas from the manifest: it was applied, so it is removed and
	// defaulted again; a later scale is then kept by further applies.
	f.files["app.json"] = manifest(`"replicas":2,`, ``)
	runSteps(t, f, []step{
		{"apply -f app.json", "deployment.apps/app configured", ""},
		{"scale deploy/app --replicas=4", "deployment.apps/app scaled", ""},
		{"apply -f app.json", "deployment.apps/app unchanged", ""},
	})
	assert.Equal(t, int32(4), *f.deployment(t, "app").Spec.Replicas)

	// Labels dropped from the manifest go, labels others added stay.
	runSteps(t, f, []step{{"label deploy/app extra=yes", "deployment.apps/app labeled", ""}})
	f.files["app.json"] = manifest(`"replicas":2,`, ``, `"labels":{"team":"a"}`, `"labels":{"tier":"web"}`)
	runSteps(t, f, []step{{"apply -f app.json", "deployment.apps/app configured", ""}})
	assert.Equal(t, map[string]string{"extra": "yes", "tier": "web"}, f.deployment(t, "app").Labels)
}

func TestApplyMergesListsByKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.files["app.json"] = webManifest
	runSteps(t, f, []step{
		{"apply -f app.json", "deployment.apps/app created", ""},
		{"set env deploy/app B=2", "deployment.apps/app env updated", ""},
	})
	// Change A in the manifest: B, set by someone else, stays in the list.
	f.files["app.json"] = manifest(`"value":"1"`, `"value":"9"`)
	runSteps(t, f, []step{{"apply -f app.json", "deployment.apps/app configured", ""}})
	assert.Equal(t, []api.EnvVar{{Name: "A", Value: "9"}, {Name: "B", Value: "2"}}, f.deployment(t, "app").Spec.Template.Spec.Containers[0].Env)
	// Replace A by C in the manifest: A goes, C comes, B stays.
	f.files["app.json"] = manifest(`{"name":"A","value":"1"}`, `{"name":"C","value":"3"}`)
	runSteps(t, f, []step{{"apply -f app.json", "deployment.apps/app configured", ""}})
	assert.ElementsMatch(t, []api.EnvVar{{Name: "B", Value: "2"}, {Name: "C", Value: "3"}}, f.deployment(t, "app").Spec.Template.Spec.Containers[0].Env)
	// Drop env from the manifest: the patch sets env to null, so B goes too.
	f.files["app.json"] = manifest(`,"env":[{"name":"A","value":"1"}]`, ``)
	runSteps(t, f, []step{{"apply -f app.json", "deployment.apps/app configured", ""}})
	assert.Empty(t, f.deployment(t, "app").Spec.Template.Spec.Containers[0].Env)
}

func TestApplyStrategyRecreateDropsRollingUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.files["app.json"] = webManifest
	require.Equal(t, "deployment.apps/app created", f.run("apply -f app.json").Output)
	f.files["app.json"] = manifest(`"replicas":2,`, `"replicas":2,"strategy":{"type":"Recreate"},`)
	runSteps(t, f, []step{{"apply -f app.json", "deployment.apps/app configured", ""}})
	s := f.deployment(t, "app").Spec.Strategy
	assert.Equal(t, api.RecreateDeploymentStrategyType, s.Type)
	assert.Nil(t, s.RollingUpdate)
}

func TestApplyWarnsWithoutLastApplied(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.files["web.json"] = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3,
	 "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}}`
	runSteps(t, f, []step{{"apply -f web.json", "Warning: " + replaceOnce(msgApplyMissingAnnotation, "%s", "deployments/web") +
		"\ndeployment.apps/web configured", ""}})
	d := f.deployment(t, "web")
	assert.Equal(t, "nginx:1.26", d.Spec.Template.Spec.Containers[0].Image)
	assert.Equal(t, []api.ContainerPort{{ContainerPort: 80, Protocol: "TCP"}}, d.Spec.Template.Spec.Containers[0].Ports, "fields the manifest lacks stay")
}

func TestApplyInputsAndErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.files["two.json"] = `[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}},
	 {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b","namespace":"default"}}]`
	f.files["ns.json"] = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"other"}}`
	f.files["bad.json"] = `{"apiVersion":`
	f.files["new.json"] = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"new"}}`
	f.files["empty.json"] = ``
	f.files["big.json"] = manifest(`"replicas":2`, `"replicas":20000`)
	f.env.Stdin = strings.NewReader(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"stdin"}}`)
	runSteps(t, f, []step{
		{"apply -f two.json", "configmap/a created\nconfigmap/b created", ""},
		{"apply -f -", "configmap/stdin created", ""},
		{"apply -f ns.json -n default", "", `error: the namespace from the provided object "other" does not match the namespace "default". You must pass '--namespace=other' to perform this operation.`},
		{"apply -f ns.json", "configmap/c created", ""},
		{"apply -f missing.json", "", `error: the path "missing.json" does not exist`},
		{"apply -f bad.json", "", "error: unexpected end of JSON input"},
		{"apply -f empty.json", "", "error: no objects passed to apply"},
		{"apply", "", "error: must specify one of -f and -k\nSee 'kubectl apply -h' for help and examples"},
		{"apply -f two.json extra", "", "error: Unexpected args: [extra]\nSee 'kubectl apply -h' for help and examples"},
		{"apply -f big.json", "", "The Deployment \"app\" is invalid: spec.replicas: Invalid value: 20000: must be less than or equal to 10000 in Converge (a simulation limit, not a Kubernetes one)"},
		{"apply -f two.json --server-side", "", "error: " + msgServerSideUnsupported},
		{"apply -f two.json -o name", "configmap/a\nconfigmap/b", ""},
		{"apply -f new.json -o yaml --dry-run=client", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n" +
			"    kubectl.kubernetes.io/last-applied-configuration: |\n" +
			`      {"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{},"name":"new","namespace":"default"}}` + "\n" +
			"  name: new\n  namespace: default", ""},
	})
	r := Run(f.env, "apply -f two.json -o yaml")
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 1, strings.Count(r.Output, "\n---\n"), "kubectl's YAML printer separates documents")
	assert.True(t, strings.HasPrefix(r.Output, "apiVersion: v1\ndata:\n  k: v\n"), r.Output)
}

func TestApplyFunctionForScenarioObjects(t *testing.T) {
	t.Parallel()
	st := simtest.NewStore()
	env := &Env{Store: st}
	d := simtest.NewDeployment("web", 2, "nginx")
	d.Status.Replicas = 7
	r := Apply(env, []api.Object{d})
	assert.Equal(t, Result{Output: "deployment.apps/web created", Mutated: true}, r)
	got, err := st.GetDeployment("default", "web")
	require.NoError(t, err)
	assert.Zero(t, got.Status.Replicas, "apply never writes status")
	assert.Contains(t, got.Annotations, api.LastAppliedAnnotation)
	assert.Equal(t, Result{Output: "deployment.apps/web unchanged"}, Apply(env, []api.Object{simtest.NewDeployment("web", 2, "nginx")}))
	assert.Equal(t, "error: no objects passed to apply", Apply(env, nil).Error)
	assert.Equal(t, "error: "+msgNoStore, Apply(nil, nil).Error)
}

// dnsLabelWarning is what kubectl prints on creating a Deployment whose
// name is a DNS subdomain but not a DNS label (the API server's
// WarningsOnCreate).
const dnsLabelWarning = "Warning: metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"

func TestCreate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []step
		check func(t *testing.T, f *fixture)
	}{
		{"deployment", []step{{"create deployment api --image=myrepo/api:2.0", "deployment.apps/api created", ""}}, func(t *testing.T, f *fixture) {
			d := f.deployment(t, "api")
			assert.Equal(t, map[string]string{"app": "api"}, d.Labels)
			assert.Equal(t, map[string]string{"app": "api"}, d.Spec.Selector.MatchLabels)
			assert.Equal(t, int32(1), *d.Spec.Replicas)
			assert.Equal(t, "api", d.Spec.Template.Spec.Containers[0].Name)
			assert.Equal(t, "myrepo/api:2.0", d.Spec.Template.Spec.Containers[0].Image)
			assert.Empty(t, d.Spec.Template.Spec.Containers[0].Ports)
		}},
		{"deployment with replicas, port, two images", []step{{"create deploy api --image=nginx:1.25 --image=my_repo/side.car@sha256:ab -r 3 --port=8080",
			"deployment.apps/api created", ""}}, func(t *testing.T, f *fixture) {
			d := f.deployment(t, "api")
			cs := d.Spec.Template.Spec.Containers
			require.Len(t, cs, 2)
			assert.Equal(t, "nginx", cs[0].Name)
			assert.Equal(t, []api.ContainerPort{{ContainerPort: 8080, Protocol: "TCP"}}, cs[0].Ports)
			assert.Regexp(t, `^side-car-[bcdfghjklmnpqrstvwxz2456789]{5}$`, cs[1].Name)
			assert.Equal(t, int32(3), *d.Spec.Replicas)
		}},
		{"deployment exists", []step{{"create deployment web --image=nginx", "", `error: failed to create deployment: deployments.apps "web" already exists`}}, nil},
		{"deployment needs one name", []step{{"create deployment --image=nginx", "", "error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples"}}, nil},
		{"deployment dry run prints the generated object", []step{{"create deployment api --image=nginx -o yaml --dry-run=client", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n" +
			"  labels:\n    app: api\n  name: api\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: api\n  template:\n    metadata:\n      labels:\n" +
			"        app: api\n    spec:\n      containers:\n      - image: nginx\n        name: nginx\nstatus: {}", ""}}, nil},
		{"configmap", []step{{"create configmap env --from-literal=a=1 --from-literal=b='two words' --from-literal=c==x", "configmap/env created", ""}},
			func(t *testing.T, f *fixture) {
				cm, err := f.st.GetConfigMap("default", "env")
				require.NoError(t, err)
				assert.Equal(t, map[string]string{"a": "1", "b": "two words", "c": "=x"}, cm.Data)
			}},
		{"configmap bad literal", []step{{"create cm env --from-literal=novalue", "", "error: invalid literal source novalue, expected key=value"}}, nil},
		{"configmap bad key", []step{{"create cm env --from-literal=a/b=1", "", `error: "a/b" is not a valid key name for a ConfigMap: ` + msgConfigMapKeyFormat}}, nil},
		{"configmap duplicate key", []step{{"create cm env --from-literal=a=1 --from-literal=a=2", "", `error: cannot add key "a", another key by that name already exists in Data for ConfigMap "env"`}}, nil},
		{"configmap exists", []step{{"create cm settings", "", `error: failed to create configmap: configmaps "settings" already exists`}}, nil},
		{"configmap from file", []step{{"create cm x --from-file=a.txt", "", "error: " + msgFromFileUnsupported}}, nil},
		{"from a file", []step{{"create -f cm.json", "configmap/fromfile created", ""}, {"create -f cm.json", "",
			`Error from server (AlreadyExists): error when creating "cm.json": configmaps "fromfile" already exists`}}, nil},
		{"from a file saving its config", []step{{"create -f cm.json --save-config", "configmap/fromfile created", ""}}, func(t *testing.T, f *fixture) {
			cm, _ := f.st.GetConfigMap("default", "fromfile")
			assert.Contains(t, cm.Annotations, api.LastAppliedAnnotation)
		}},
		// The API server's warning for a name that is not a DNS label
		// (validation.Warnings), which kubectl prints before its output; a
		// client dry run sends nothing, so gets none.
		{"a name with a dot warns", []step{{"create deployment web.v2 --image=nginx", dnsLabelWarning + "\ndeployment.apps/web.v2 created", ""}}, nil},
		{"a name with a dot, server dry run", []step{{"create deployment web.v2 --image=nginx --dry-run=server", dnsLabelWarning + "\ndeployment.apps/web.v2 created (server dry run)", ""}}, nil},
		{"a name with a dot, client dry run", []step{{"create deployment web.v2 --image=nginx --dry-run=client", "deployment.apps/web.v2 created (dry run)", ""}}, nil},
		{"a name with a dot from a file", []step{{"create -f dotted.json", dnsLabelWarning + "\ndeployment.apps/web.v2 created", ""}}, nil},
		{"a name with a dot, applied", []step{{"apply -f dotted.json", dnsLabelWarning + "\ndeployment.apps/web.v2 created", ""},
			{"apply -f dotted.json", "deployment.apps/web.v2 unchanged", ""}}, nil},
		{"create without file", []step{{"create", "", "Error: must specify one of -f and -k\n\n" + trimNL(helpText(findCommand(commands, "create")))}}, nil},
		{"create unknown", []step{{"create secret x", "", "error: unknown command \"secret x\"\nSee 'kubectl create -h' for help and examples"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.files["cm.json"] = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fromfile"}}`
			f.files["dotted.json"] = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web.v2"},"spec":{"replicas":1,
			 "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`
			runSteps(t, f, tc.steps)
			if tc.check != nil {
				tc.check(t, f)
			}
		})
	}
}

func TestApplyReadsFilesFromTheWorkingDirectoryAndStdin(t *testing.T) {
	t.Parallel()
	cm := func(name string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"}}`
	}
	files := mapFiles{"home/me/demo/here.json": cm("here"), "home/me/up.json": cm("up"), "tmp/abs.json": cm("abs")}
	tests := []struct {
		name     string
		dir      string
		line     string
		out, err string
	}{
		{"relative to the working directory", "home/me/demo", "apply -f here.json", "configmap/here created", ""},
		{"dot slash", "home/me/demo", "apply -f ./here.json", "configmap/here created", ""},
		{"up a directory", "home/me/demo", "apply -f ../up.json", "configmap/up created", ""},
		{"absolute", "home/me/demo", "apply -f /tmp/abs.json", "configmap/abs created", ""},
		{"from the root", "", "apply -f tmp/abs.json", "configmap/abs created", ""},
		{"above the root stops at it", ".", "apply -f ../../tmp/abs.json", "configmap/abs created", ""},
		{"missing", "home/me/demo", "apply -f up.json", "", `error: the path "up.json" does not exist`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.env.Files, f.env.Dir = files, tc.dir
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
		})
	}

	f := newFixture(t)
	f.env.Stdin = strings.NewReader(cm("in"))
	runSteps(t, f, []step{
		{"apply -f -", "configmap/in created", ""},
		{"apply -f -", "", "error: no objects passed to apply"}, // stdin is read once
	})
	f.env.Stdin = iotest.ErrReader(errors.New("broken pipe"))
	runSteps(t, f, []step{{"apply -f -", "", "error: read STDIN: broken pipe"}})
	f.env.Stdin, f.env.Files = nil, nil
	runSteps(t, f, []step{
		{"apply -f -", "", "error: no objects passed to apply"},
		{"apply -f here.json", "", `error: the path "here.json" does not exist`},
	})
}
