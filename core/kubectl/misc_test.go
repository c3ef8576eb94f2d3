package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest"
)

func TestVersion(t *testing.T) {
	t.Parallel()
	info := "gitVersion: v1.35.0\n  major: \"1\"\n  minor: \"35\"\n  platform: js/wasm"
	cases := []struct{ name, line, out, err string }{
		{"client and server", "version", "Client Version: v1.35.0\nKustomize Version: v5.7.1\nServer Version: v1.35.0", ""},
		{"client only", "version --client", "Client Version: v1.35.0\nKustomize Version: v5.7.1", ""},
		{"yaml", "version -o yaml", "clientVersion:\n  " + info + "\nkustomizeVersion: v5.7.1\nserverVersion:\n  " + info, ""},
		{"yaml client only", "version -o yaml --client", "clientVersion:\n  " + info + "\nkustomizeVersion: v5.7.1", ""},
		{"json", "version -o json --client", "{\n    \"clientVersion\": {\n        \"gitVersion\": \"v1.35.0\",\n        \"major\": \"1\",\n" +
			"        \"minor\": \"35\",\n        \"platform\": \"js/wasm\"\n    },\n    \"kustomizeVersion\": \"v5.7.1\"\n}", ""},
		{"bad output", "version -o wide", "", "error: --output must be 'yaml' or 'json'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Run(&Env{Store: simtest.NewStore()}, tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
			assert.False(t, r.Mutated)
		})
	}
}

func TestAPIResources(t *testing.T) {
	t.Parallel()
	all := "NAME                       SHORTNAMES   APIVERSION       NAMESPACED   KIND\n" +
		"configmaps                 cm           v1               true         ConfigMap\n" +
		"endpoints                  ep           v1               true         Endpoints\n" +
		"events                     ev           v1               true         Event\n" +
		"nodes                      no           v1               false        Node\n" +
		"pods                       po           v1               true         Pod\n" +
		"resourcequotas             quota        v1               true         ResourceQuota\n" +
		"services                   svc          v1               true         Service\n" +
		"deployments                deploy       apps/v1          true         Deployment\n" +
		"replicasets                rs           apps/v1          true         ReplicaSet\n" +
		"horizontalpodautoscalers   hpa          autoscaling/v2   true         HorizontalPodAutoscaler\n" +
		"poddisruptionbudgets       pdb          policy/v1        true         PodDisruptionBudget"
	cases := []struct{ name, line, out, err string }{
		{"all, core group first", "api-resources", all, ""},
		{"cluster-scoped, wide", "api-resources -o wide --namespaced=false",
			"NAME    SHORTNAMES   APIVERSION   NAMESPACED   KIND   VERBS                                                        CATEGORIES\n" +
				"nodes   no           v1           false        Node   create,delete,deletecollection,get,list,patch,update,watch   ", ""},
		{"one group by name", "api-resources --api-group=apps -o name", "deployments.apps\nreplicasets.apps", ""},
		{"core group, no headers", "api-resources --api-group= --no-headers --namespaced",
			"configmaps       cm      v1    true   ConfigMap\nendpoints        ep      v1    true   Endpoints\nevents           ev      v1    true   Event\n" +
				"pods             po      v1    true   Pod\nresourcequotas   quota   v1    true   ResourceQuota\nservices         svc     v1    true   Service", ""},
		{"sort by kind", "api-resources -o name --sort-by=kind",
			"configmaps\ndeployments.apps\nendpoints\nevents\nhorizontalpodautoscalers.autoscaling\nnodes\npods\npoddisruptionbudgets.policy\nreplicasets.apps\nresourcequotas\nservices", ""},
		{"verbs every type has", "api-resources -o name --verbs=get,list --api-group=apps", "deployments.apps\nreplicasets.apps", ""},
		{"a verb no type has", "api-resources --verbs=proxy", "NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND", ""},
		{"bad output", "api-resources -o json", "", "error: --output json is not available"},
		{"bad sort", "api-resources --sort-by=age", "", "error: --sort-by accepts only name or kind"},
		{"arguments", "api-resources pods", "", "error: unexpected arguments: [pods]\nSee 'kubectl api-resources -h' for help and examples"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Run(&Env{Store: simtest.NewStore()}, tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	env := &Env{Store: simtest.NewStore()}
	t.Run("kubectl alone prints its help and succeeds", func(t *testing.T) {
		t.Parallel()
		for _, line := range []string{"", "kubectl", "  "} {
			r := Run(env, line)
			require.True(t, r.OK(), line)
			assert.True(t, strings.HasPrefix(r.Output, "kubectl controls the Kubernetes cluster manager.\n"), r.Output)
			for _, c := range commands {
				assert.Contains(t, r.Output, "\n  "+c.path[0]+" ")
			}
		}
	})
	t.Run("command help", func(t *testing.T) {
		t.Parallel()
		for _, line := range []string{"scale -h", "scale --help", "kubectl scale deploy/web --help"} {
			r := Run(env, line)
			assert.Equal(t, "Set a new size for a deployment, replica set, replication controller, or stateful set.\n\nUsage:\n  kubectl "+
				findCommand(commands, "scale").use+" [options]", r.Output, line)
			assert.Empty(t, r.Error)
		}
	})
	t.Run("group help lists subcommands", func(t *testing.T) {
		t.Parallel()
		r := Run(env, "rollout --help")
		require.True(t, r.OK())
		for _, sub := range []string{"history", "pause", "restart", "resume", "status", "undo"} {
			assert.Contains(t, r.Output, "\n  "+sub+" ")
		}
		assert.Contains(t, r.Output, `Use "kubectl rollout <command> --help" for more information about a given command.`)
		// Without --help a group command fails with the same text.
		g := Run(env, "rollout")
		assert.Equal(t, trimNL(r.Output), g.Error)
		assert.Empty(t, g.Output)
	})
	t.Run("help of a subcommand", func(t *testing.T) {
		t.Parallel()
		c, err := Parse("rollout undo -h")
		require.NoError(t, err)
		assert.False(t, c.Mutates(), "help changes nothing")
		r := c.Exec(env)
		assert.True(t, strings.HasPrefix(r.Output, findCommand(findCommand(commands, "rollout").subs, "undo").short+"."), r.Output)
	})
}

func TestExecWithoutStore(t *testing.T) {
	t.Parallel()
	c, err := Parse("get pods")
	require.NoError(t, err)
	want := Result{Error: "error: " + msgNoStore}
	assert.Equal(t, want, c.Exec(nil))
	assert.Equal(t, want, c.Exec(&Env{}))
	assert.Equal(t, want, (*Command)(nil).Exec(&Env{Store: simtest.NewStore()}))
	assert.Equal(t, want, (&Command{}).Exec(&Env{Store: simtest.NewStore()}))
}
