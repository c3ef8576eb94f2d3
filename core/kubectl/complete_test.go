package kubectl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestComplete(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	allTypes := []string{"cm", "configmap", "configmaps", "deploy", "deployment", "deployments", "endpoints", "ep", "ev", "event", "events",
		"horizontalpodautoscaler", "horizontalpodautoscalers", "hpa",
		"no", "node", "nodes", "pdb", "po", "pod", "poddisruptionbudget", "poddisruptionbudgets", "pods", "quota", "replicaset", "replicasets",
		"resourcequota", "resourcequotas", "rs", "service", "services", "svc"}
	pods := []string{"web-66b6c48dd5-4jw2m", "web-66b6c48dd5-8xk2p", "web-66b6c48dd5-tz7qw"}
	cases := []struct {
		name, line string
		want       []string
	}{
		{"commands", "", []string{"annotate", "api-resources", "apply", "autoscale", "cordon", "create", "delete", "describe", "drain", "get", "label",
			"patch", "rollout", "scale", "set", "taint", "top", "uncordon", "version", "wait"}},
		{"command prefix", "ro", []string{"rollout"}},
		{"after kubectl", "kubectl ap", []string{"api-resources", "apply"}},
		{"global flags before a command", "-", []string{"--help", "--namespace"}},
		{"subcommands", "rollout ", []string{"history", "pause", "restart", "resume", "status", "undo"}},
		{"subcommand prefix", "rollout st", []string{"status"}},
		{"create's subcommands", "create ", []string{"configmap", "deployment"}},
		{"set's subcommands", "set ", []string{"env", "image"}},
		{"types", "get ", allTypes},
		{"type prefix", "describe dep", []string{"deploy", "deployment", "deployments"}},
		{"second type after a comma", "get po,s", []string{"po,service", "po,services", "po,svc"}},
		{"names of the type", "get deploy ", []string{"web"}},
		{"names after kubectl", "kubectl get rs ", []string{"web-66b6c48dd5"}},
		{"TYPE/NAME", "get deploy/", []string{"deploy/web"}},
		{"TYPE/NAME prefix", "delete po/web-66b6c48dd5-8", []string{"po/web-66b6c48dd5-8xk2p"}},
		{"TYPE/ of an unknown type", "get foo/", nil},
		{"names of an unknown type", "get foo ", nil},
		{"names after flags", "get pods -l app=web ", pods},
		{"names after -n", "get pods -n default ", pods},
		{"flags", "get --sh", []string{"--show-kind", "--show-labels", "--show-managed-fields"}},
		{"flag values", "get -o ", []string{"json", "name", "wide", "yaml"}},
		{"--flag=value", "get pods --output=y", []string{"--output=yaml"}},
		{"flag without known values", "get pods --selector=", nil},
		{"namespace values", "get pods -n ", []string{"default"}},
		{"patch types", "patch deploy web --type ", []string{"json", "merge", "strategic"}},
		{"cascade has a default, so the next word is a type", "delete --cascade ", allTypes},
		{"cascade values", "delete --cascade=o", []string{"--cascade=orphan"}},
		{"dry-run values", "scale --dry-run=", []string{"--dry-run=client", "--dry-run=none", "--dry-run=server"}},
		{"nodes for cordon", "cordon ", []string{"node-1", "node-2"}},
		{"nodes for drain", "drain node-", []string{"node-1", "node-2"}},
		{"rollout takes deployments", "rollout status ", []string{"deploy", "deployment", "deployments"}},
		{"rollout names", "rollout undo deployment ", []string{"web"}},
		{"scale types", "scale ", []string{"deploy", "deployment", "deployments", "replicaset", "replicasets", "rs"}},
		{"set image containers", "set image deploy/web ", []string{"web="}},
		{"set image containers, TYPE NAME", "set image deploy web ", []string{"web="}},
		{"set image of a missing object", "set image deploy/nope ", nil},
		{"set env offers nothing after the object", "set env deploy/web ", nil},
		{"nothing for create deployment", "create deployment ", nil},
		{"nothing for apply's file", "apply -f ", nil},
		{"unknown command", "frobnicate ", nil},
		{"unterminated quote", `get "po`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Complete(f.env, tc.line))
		})
	}
}

func TestCompleteWithoutStore(t *testing.T) {
	t.Parallel()
	assert.Nil(t, Complete(nil, "get deploy "))
	assert.Nil(t, Complete(&Env{}, "cordon "))
	assert.Equal(t, []string{"scale"}, Complete(nil, "sc"))
}

func TestCompleteTopNames(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	assert.Equal(t, []string{"node-1", "node-2"}, Complete(f.env, "top node "))
	assert.Contains(t, Complete(f.env, "top pod "), "web-66b6c48dd5-4jw2m")
}
