package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// step is one command and what it prints.
type step struct {
	line, out, err string
}

// runSteps runs each line against the fixture and checks its texts; a step
// that fails without printing anything must leave the store as it was.
func runSteps(t *testing.T, f *fixture, steps []step) {
	t.Helper()
	for _, s := range steps {
		rv := f.st.ResourceVersion()
		r := f.run(s.line)
		assert.Equal(t, s.out, r.Output, s.line)
		assert.Equal(t, s.err, r.Error, s.line)
		if r.Error != "" && r.Output == "" {
			assert.Equal(t, rv, f.st.ResourceVersion(), "a failed command changed the store: %s", s.line)
		}
		assert.Equal(t, r.Mutated, rv != f.st.ResourceVersion(), s.line)
	}
}

func (f *fixture) deployment(t *testing.T, name string) *api.Deployment {
	t.Helper()
	d, err := f.st.GetDeployment("default", name)
	require.NoError(t, err)
	return d
}

func TestScale(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []step
		want  int32
	}{
		{"type/name", []step{{"scale deployment/web --replicas=5", "deployment.apps/web scaled", ""}}, 5},
		{"type name", []step{{"scale deploy web --replicas 0", "deployment.apps/web scaled", ""}}, 0},
		{"same size still scales", []step{{"scale deploy/web --replicas=3", "deployment.apps/web scaled", ""}}, 3},
		{"precondition holds", []step{{"scale deploy/web --replicas=4 --current-replicas=3", "deployment.apps/web scaled", ""}}, 4},
		{"precondition fails", []step{{"scale deploy/web --replicas=4 --current-replicas=2", "", "error: Expected replicas to be 2, was 3"}}, 3},
		{"negative", []step{{"scale deploy/web --replicas=-1", "", "error: " + msgScaleNegative}}, 3},
		{"not found", []step{{"scale deploy/nope --replicas=1", "", `Error from server (NotFound): deployments.apps "nope" not found`}}, 3},
		{"type without name", []step{{"scale deploy --replicas=1", "", "error: resource(s) were provided, but no name was specified"}}, 3},
		{"no resources", []step{{"scale --replicas=1", "", "error: " + msgNoResources}}, 3},
		{"selector without match", []step{{"scale rs -l app=none --replicas=1", "", "error: no objects passed to scale"}}, 3},
		{"pods cannot scale", []step{{"scale pod web-66b6c48dd5-4jw2m --replicas=1", "",
			"Error from server (NotFound): the server could not find the requested resource"}}, 3},
		{"over the simulation limit", []step{{"scale deploy/web --replicas=20000", "", "The Deployment \"web\" is invalid: spec.replicas: " +
			"Invalid value: 20000: must be less than or equal to 10000 in Converge (a simulation limit, not a Kubernetes one)"}}, 3},
		{"the largest int32", []step{{"scale deploy/web --replicas=2147483647", "", "The Deployment \"web\" is invalid: spec.replicas: " +
			"Invalid value: 2147483647: must be less than or equal to 10000 in Converge (a simulation limit, not a Kubernetes one)"}}, 3},
		{"beyond int32", []step{{"scale deploy/web --replicas=99999999999", "", "The Deployment \"web\" is invalid: spec.replicas: " +
			"Invalid value: 99999999999: must be less than or equal to 10000 in Converge (a simulation limit, not a Kubernetes one)"}}, 3},
		{"the limit itself", []step{{"scale deploy/web --replicas=10000", "deployment.apps/web scaled", ""}}, 10000},
		{"dry run", []step{{"scale deploy/web --replicas=9 --dry-run=client", "deployment.apps/web scaled (dry run)", ""},
			{"scale deploy/web --replicas=9 --dry-run=server", "deployment.apps/web scaled (server dry run)", ""}}, 3},
		{"yaml output", []step{{"scale deploy/web --replicas=3 -o name", "deployment.apps/web", ""}}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			runSteps(t, f, tc.steps)
			assert.Equal(t, tc.want, *f.deployment(t, "web").Spec.Replicas)
		})
	}
}

func TestScaleReplicaSetsBySelector(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	runSteps(t, f, []step{
		{"scale rs -l app=web --replicas=2", "replicaset.apps/web-66b6c48dd5 scaled", ""},
		{"scale rs/web-66b6c48dd5 --replicas=1", "replicaset.apps/web-66b6c48dd5 scaled", ""},
		{"scale rs --all --replicas=0", "replicaset.apps/web-66b6c48dd5 scaled", ""},
		{"scale rs --all -l app=web --replicas=0", "", "error: cannot set --all and --selector at the same time"},
		{"scale rs/web-66b6c48dd5 -l app=web --replicas=0", "", "error: name cannot be provided when a selector is specified"},
	})
	rs, err := f.st.GetReplicaSet("default", "web-66b6c48dd5")
	require.NoError(t, err)
	assert.Equal(t, int32(0), *rs.Spec.Replicas)
}

func TestSetImage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []step
		image string
	}{
		{"updates the template", []step{{"set image deployment/web web=nginx:1.26", "deployment.apps/web image updated", ""}}, "nginx:1.26"},
		{"unchanged prints nothing", []step{{"set image deploy/web web=nginx:1.25", "", ""}}, "nginx:1.25"},
		{"wildcard", []step{{"set image deploy web *=nginx:1.27", "deployment.apps/web image updated", ""}}, "nginx:1.27"},
		{"unknown container", []step{{"set image deployment/web foo=nginx:1.26", "", `error: unable to find container named "foo"`}}, "nginx:1.25"},
		{"known and unknown", []step{{"set image deployment/web web=nginx:1.26 foo=x", "deployment.apps/web image updated",
			`error: unable to find container named "foo"`}}, "nginx:1.26"},
		{"no image", []step{{"set image deployment/web", "", "error: at least one image update is required"}}, "nginx:1.25"},
		{"no resource", []step{{"set image", "", "one or more resources must be specified as <resource> <name> or <resource>/<name>\n" +
			"at least one image update is required"}}, "nginx:1.25"},
		{"wildcard and names", []step{{"set image deploy/web *=a web=b", "", "error: " + msgWildcardImage}}, "nginx:1.25"},
		{"resource after pairs", []step{{"set image web=x deploy/web", "", "error: all resources must be specified before image changes: deploy/web"}}, "nginx:1.25"},
		{"not a pod template", []step{{"set image cm/settings web=x", "", "error: configmaps/settings the object is not a pod or does not have a pod template: *v1.ConfigMap"}}, "nginx:1.25"},
		{"bad pair", []step{{"set image deploy/web web-", "", "error: invalid image format: web-"}}, "nginx:1.25"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			runSteps(t, f, tc.steps)
			assert.Equal(t, tc.image, f.deployment(t, "web").Spec.Template.Spec.Containers[0].Image)
		})
	}
}

func TestSetImageOnPodsAndReplicaSets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	runSteps(t, f, []step{
		{"set image pod/web-66b6c48dd5-4jw2m web=nginx:1.26", "pod/web-66b6c48dd5-4jw2m image updated", ""},
		{"set image rs -l app=web web=nginx:1.26", "replicaset.apps/web-66b6c48dd5 image updated", ""},
	})
}

func TestSetEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []step
		env   []api.EnvVar
	}{
		{"adds", []step{{"set env deployment/web MODE=fast", "deployment.apps/web env updated", ""}}, []api.EnvVar{{Name: "MODE", Value: "fast"}}},
		{"replaces in place and removes", []step{
			{"set env deploy/web A=1 B=2", "deployment.apps/web env updated", ""},
			{"set env deploy/web B=3 C=4 A-", "deployment.apps/web env updated", ""},
		}, []api.EnvVar{{Name: "B", Value: "3"}, {Name: "C", Value: "4"}}},
		{"with -e", []step{{"set env deploy/web -e X=1", "deployment.apps/web env updated", ""}}, []api.EnvVar{{Name: "X", Value: "1"}}},
		{"unchanged prints nothing", []step{
			{"set env deploy/web A=1", "deployment.apps/web env updated", ""},
			{"set env deploy/web A=1", "", ""},
		}, []api.EnvVar{{Name: "A", Value: "1"}}},
		{"no overwrite", []step{
			{"set env deploy/web A=1", "deployment.apps/web env updated", ""},
			{"set env deploy/web A=2 --overwrite=false", "", "error: deployments/web 'A' already has a value (1), and --overwrite is false"},
		}, []api.EnvVar{{Name: "A", Value: "1"}}},
		{"no container matches", []step{{"set env deploy/web A=1 -c side", `warning: Deployment/web does not have any containers matching "side"`, ""}}, nil},
		{"bad name", []step{{"set env deploy/web 1A=x", "", `error: "1A" is not a valid key name: ` + msgEnvKeyFormat}}, nil},
		{"modify and remove", []step{{"set env deploy/web A=1 A-", "", "error: " + msgEnvModifyRemove}}, nil},
		{"no resource", []step{{"set env A=1", "", "error: " + msgOneOrMoreResources}}, nil},
		{"unknown env", []step{{"set env deploy/web -e A", "", "error: unknown environment variable: A"}}, nil},
		{"prefix", []step{{"set env deploy/web A=1 --prefix=P_", "deployment.apps/web env updated", ""}}, []api.EnvVar{{Name: "P_A", Value: "1"}}},
		{"list", []step{
			{"set env deploy/web A=1", "deployment.apps/web env updated", ""},
			{"set env deploy/web --list", "# Deployment web, container web\nA=1", ""},
		}, []api.EnvVar{{Name: "A", Value: "1"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			runSteps(t, f, tc.steps)
			assert.Equal(t, tc.env, f.deployment(t, "web").Spec.Template.Spec.Containers[0].Env)
		})
	}
}

func TestPatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []step
		check func(t *testing.T, d *api.Deployment)
	}{
		{"merge", []step{{`patch deployment web --type=merge -p '{"spec":{"replicas":2}}'`, "deployment.apps/web patched", ""}},
			func(t *testing.T, d *api.Deployment) { assert.Equal(t, int32(2), *d.Spec.Replicas) }},
		{"no change", []step{{`patch deploy web --type merge -p '{"spec":{"replicas":3}}'`, "deployment.apps/web patched (no change)", ""}}, nil},
		{"yaml patch", []step{{`patch deploy/web --type=merge -p 'spec: {paused: true}'`, "deployment.apps/web patched", ""}},
			func(t *testing.T, d *api.Deployment) { assert.True(t, d.Spec.Paused) }},
		{"merge null deletes", []step{{`patch deploy web --type=merge -p '{"metadata":{"labels":{"app":null}}}'`, "deployment.apps/web patched", ""}},
			func(t *testing.T, d *api.Deployment) { assert.Empty(t, d.Labels) }},
		{"merge replaces lists", []step{{`patch deploy web --type=merge -p '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox"}]}}}}'`,
			"deployment.apps/web patched", ""}}, func(t *testing.T, d *api.Deployment) {
			require.Len(t, d.Spec.Template.Spec.Containers, 1)
			assert.Equal(t, "side", d.Spec.Template.Spec.Containers[0].Name)
		}},
		{"strategic merges containers by name", []step{{`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.26"},{"name":"side","image":"busybox"}]}}}}'`,
			"deployment.apps/web patched", ""}}, func(t *testing.T, d *api.Deployment) {
			cs := d.Spec.Template.Spec.Containers
			require.Len(t, cs, 2)
			assert.Equal(t, "nginx:1.26", cs[0].Image)
			assert.Equal(t, []api.ContainerPort{{ContainerPort: 80, Protocol: "TCP"}}, cs[0].Ports)
			assert.Equal(t, "busybox", cs[1].Image)
		}},
		{"strategic delete directive", []step{
			{`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox"}]}}}}'`, "deployment.apps/web patched", ""},
			{`patch deploy web --type=strategic -p '{"spec":{"template":{"spec":{"containers":[{"name":"side","$patch":"delete"}]}}}}'`, "deployment.apps/web patched", ""},
		}, func(t *testing.T, d *api.Deployment) { assert.Len(t, d.Spec.Template.Spec.Containers, 1) }},
		{"json patch", []step{{`patch deploy web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":4},{"op":"add","path":"/metadata/labels/tier","value":"front"}]'`,
			"deployment.apps/web patched", ""}}, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, int32(4), *d.Spec.Replicas)
			assert.Equal(t, "front", d.Labels["tier"])
		}},
		{"json patch add to list and remove", []step{{`patch deploy web --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/-","value":{"name":"s","image":"b"}},{"op":"remove","path":"/spec/template/spec/containers/0"},{"op":"test","path":"/spec/replicas","value":3}]'`,
			"deployment.apps/web patched", ""}}, func(t *testing.T, d *api.Deployment) {
			require.Len(t, d.Spec.Template.Spec.Containers, 1)
			assert.Equal(t, "s", d.Spec.Template.Spec.Containers[0].Name)
		}},
		{"json patch copy and move", []step{{`patch deploy web --type=json -p '[{"op":"copy","from":"/metadata/labels/app","path":"/metadata/labels/copy"},{"op":"move","from":"/metadata/labels/copy","path":"/metadata/labels/moved"}]'`,
			"deployment.apps/web patched", ""}}, func(t *testing.T, d *api.Deployment) {
			assert.Equal(t, map[string]string{"app": "web", "moved": "web"}, d.Labels)
		}},
		{"json patch missing path", []step{{`patch deploy web --type=json -p '[{"op":"replace","path":"/spec/nope/x","value":1}]'`, "",
			`Error from server (BadRequest): jsonpatch replace operation does not apply: doc is missing path: "/spec/nope/x"`}}, nil},
		{"json patch failed test", []step{{`patch deploy web --type=json -p '[{"op":"test","path":"/spec/replicas","value":5}]'`, "",
			"Error from server (BadRequest): testing value 5 failed"}}, nil},
		{"json patch needs a list", []step{{`patch deploy web --type=json -p '{"a":1}'`, "",
			"Error from server (BadRequest): json: cannot unmarshal object into Go value of type jsonpatch.Patch"}}, nil},
		{"bad type", []step{{`patch deploy web --type=apply -p '{}'`, "", `error: --type must be one of [json merge strategic], not "apply"`}}, nil},
		{"no patch", []step{{"patch deploy web", "", "error: " + msgPatchRequired}}, nil},
		{"nested beyond the limit of a document", []step{{`patch deploy web --type=merge -p '{"spec":{"template":{"spec":{"affinity":` + strings.Repeat(`{"a":`, 100) + `1` + strings.Repeat(`}`, 100) + `}}}}'`,
			"", "error: the patch nests more than 100 levels down, the limit of a document in Converge (a simulation limit, not a Kubernetes one)"}}, func(t *testing.T, d *api.Deployment) {
			assert.Empty(t, d.Spec.Template.Spec.Affinity, "nothing changed")
		}},
		{"unparsable", []step{{`patch deploy web -p '{"a":'`, "", `error: unable to parse "{\"a\":": yaml: line 1: did not find expected node content`}}, nil},
		{"wrong type of field", []step{{`patch deploy web --type=merge -p '{"spec":{"replicas":"x"}}'`, "",
			"Error from server (BadRequest): Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"}}, nil},
		{"rename refused", []step{{`patch deploy web --type=merge -p '{"metadata":{"name":"other"}}'`, "",
			"Error from server (BadRequest): the name and namespace of an object cannot be changed by a patch"}}, nil},
		{"not found", []step{{`patch deploy nope -p '{}'`, "", `Error from server (NotFound): deployments.apps "nope" not found`}}, nil},
		{"needs a name", []step{{`patch deploy -p '{}'`, "", "error: " + msgNoNameSpecified}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			runSteps(t, f, tc.steps)
			if tc.check != nil {
				tc.check(t, f.deployment(t, "web"))
			}
		})
	}
}

func TestLabelAndAnnotate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		steps  []step
		labels map[string]string
		annots map[string]string
	}{
		{"adds a label", []step{{"label deployment web tier=front", "deployment.apps/web labeled", ""}},
			map[string]string{"app": "web", "tier": "front"}, nil},
		{"same value is not an overwrite", []step{{"label deploy web app=web", "deployment.apps/web not labeled", ""}},
			map[string]string{"app": "web"}, nil},
		{"overwrite refused", []step{{"label deploy web app=api", "", "error: 'app' already has a value (web), and --overwrite is false"}},
			map[string]string{"app": "web"}, nil},
		{"two overwrites refused", []step{
			{"label deploy web a=1 b=2", "deployment.apps/web labeled", ""},
			{"label deploy web a=3 b=4", "", "'a' already has a value (1), and --overwrite is false\n'b' already has a value (2), and --overwrite is false"},
		}, map[string]string{"app": "web", "a": "1", "b": "2"}, nil},
		{"overwrite", []step{{"label deploy/web app=api --overwrite", "deployment.apps/web labeled", ""}}, map[string]string{"app": "api"}, nil},
		{"remove", []step{{"label deploy/web app-", "deployment.apps/web unlabeled", ""}}, nil, nil},
		{"remove missing", []step{{"label deploy/web nope-", "label \"nope\" not found.\ndeployment.apps/web not labeled", ""}}, map[string]string{"app": "web"}, nil},
		{"modify and remove", []step{{"label deploy/web a=1 a-", "", "error: " + msgLabelModifyRemove}}, map[string]string{"app": "web"}, nil},
		{"no change given", []step{{"label deploy/web", "", "error: " + msgLabelRequired}}, map[string]string{"app": "web"}, nil},
		{"pair-looking resource", []step{{"label deploy/web =x", "", "error: " + msgLabelRequired}}, map[string]string{"app": "web"}, nil},
		{"list", []step{{"label deploy/web --list", "app=web", ""}}, map[string]string{"app": "web"}, nil},
		{"stale resource version", []step{{"label deploy/web a=1 --resource-version=1", "",
			`Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`}},
			map[string]string{"app": "web"}, nil},
		{"annotate", []step{{"annotate deployment web kubernetes.io/change-cause='v2 rollout'", "deployment.apps/web annotated", ""}},
			map[string]string{"app": "web"}, map[string]string{"kubernetes.io/change-cause": "v2 rollout"}},
		{"annotate overwrite refused", []step{
			{"annotate deploy web a=1 b=2", "deployment.apps/web annotated", ""},
			{"annotate deploy web b=3 a=4", "", "error: --overwrite is false but found the following declared annotation(s): 'b' already has a value (2); 'a' already has a value (1)"},
		}, map[string]string{"app": "web"}, map[string]string{"a": "1", "b": "2"}},
		{"change-cause can always be overwritten", []step{
			{"annotate deploy web kubernetes.io/change-cause=a", "deployment.apps/web annotated", ""},
			{"annotate deploy web kubernetes.io/change-cause=b", "deployment.apps/web annotated", ""},
		}, map[string]string{"app": "web"}, map[string]string{"kubernetes.io/change-cause": "b"}},
		{"annotate remove unchanged still prints", []step{{"annotate deploy web nope-", "deployment.apps/web annotated", ""}},
			map[string]string{"app": "web"}, nil},
		{"annotate modify and remove", []step{{"annotate deploy web a=1 a-", "",
			"error: can not both modify and remove the following annotation(s) in the same command: a"}}, map[string]string{"app": "web"}, nil},
		{"annotate needs a change", []step{{"annotate deploy web", "", "error: " + msgAnnotationRequired}}, map[string]string{"app": "web"}, nil},
		{"annotate by selector", []step{{"annotate deploy -l app=web x=y", "deployment.apps/web annotated", ""}},
			map[string]string{"app": "web"}, map[string]string{"x": "y"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			runSteps(t, f, tc.steps)
			d := f.deployment(t, "web")
			assert.Equal(t, tc.labels, d.Labels)
			assert.Equal(t, tc.annots, d.Annotations)
		})
	}
}

func TestLabelPods(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	runSteps(t, f, []step{
		{"label pods -l app=web canary=true", "pod/web-66b6c48dd5-4jw2m labeled\npod/web-66b6c48dd5-8xk2p labeled\npod/web-66b6c48dd5-tz7qw labeled", ""},
		{"label pods --all canary=false --overwrite", "pod/web-66b6c48dd5-4jw2m labeled\npod/web-66b6c48dd5-8xk2p labeled\npod/web-66b6c48dd5-tz7qw labeled", ""},
		{"label pods canary=x", "", "error: " + msgNoNameSpecified},
		{"label node node-1 zone=a", "node/node-1 labeled", ""},
	})
}
