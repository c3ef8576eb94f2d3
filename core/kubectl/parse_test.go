package kubectl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFindsCommandArgsAndFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		line  string
		path  []string
		args  []string
		flags []FlagValue
	}{
		{"leading kubectl", "kubectl get pods", []string{"get"}, []string{"pods"}, nil},
		{"subcommand", "rollout undo deployment/web --to-revision=2", []string{"rollout", "undo"}, []string{"deployment/web"},
			[]FlagValue{{"to-revision", "2"}}},
		{"flag value as next word", "scale deploy web --replicas 3", []string{"scale"}, []string{"deploy", "web"}, []FlagValue{{"replicas", "3"}}},
		{"flags before the command", "-n default get pods", []string{"get"}, []string{"pods"}, []FlagValue{{"namespace", "default"}}},
		{"flags between subcommand words", "rollout --namespace default status deploy/web", []string{"rollout", "status"},
			[]string{"deploy/web"}, []FlagValue{{"namespace", "default"}}},
		{"shorthand attached", "get po -owide -lapp=web", []string{"get"}, []string{"po"},
			[]FlagValue{{"output", "wide"}, {"selector", "app=web"}}},
		{"shorthand with equals", "get po -o=yaml", []string{"get"}, []string{"po"}, []FlagValue{{"output", "yaml"}}},
		{"bool cluster", "get pods -A", []string{"get"}, []string{"pods"}, []FlagValue{{"all-namespaces", "true"}}},
		{"bool takes no next word", "get pods --show-labels web", []string{"get"}, []string{"pods", "web"}, []FlagValue{{"show-labels", "true"}}},
		{"bool with value", "delete pod x --wait=false", []string{"delete"}, []string{"pod", "x"}, []FlagValue{{"wait", "false"}}},
		{"double dash ends flags", "label pod x -- -y=1", []string{"label"}, []string{"pod", "x", "-y=1"}, nil},
		{"alias", "create cm settings --from-literal=a=b", []string{"create", "configmap"}, []string{"settings"},
			[]FlagValue{{"from-literal", "a=b"}}},
		{"apply from stdin", "apply -f -", []string{"apply"}, nil, []FlagValue{{"filename", "-"}}},
		{"help", "scale --help", []string{"scale"}, nil, []FlagValue{{"help", "true"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := Parse(tc.line)
			require.NoError(t, err)
			assert.Equal(t, tc.path, c.Path)
			assert.Equal(t, tc.args, c.Args)
			assert.Equal(t, tc.flags, c.Flags)
		})
	}
}

func TestParseErrorsAreKubectlTexts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line string
		want string
	}{
		{"unknown command", "frobnicate", `error: unknown command "frobnicate" for "kubectl"`},
		{"unknown command with suggestions", "gte pods", "error: unknown command \"gte\" for \"kubectl\"\n\nDid you mean this?\n\tget\n"},
		{"unknown command by prefix", "roll", "error: unknown command \"roll\" for \"kubectl\"\n\nDid you mean this?\n\trollout\n"},
		{"logs is not simulated", "logs web-abc -f",
			`error: "kubectl logs" is a kubectl command that Converge does not simulate: no container runs here, so there are no logs to read`},
		{"port-forward is not simulated, after a global flag", "-n default port-forward svc/web 8080:80",
			`error: "kubectl port-forward" is a kubectl command that Converge does not simulate: the simulated cluster has no network to forward from`},
		{"expose is not simulated", "expose deploy web --port 80",
			`error: "kubectl expose" is a kubectl command that Converge does not simulate: write the Service in the scenario's objects instead`},
		// A typo near a command the subset leaves out is still a typo, and
		// kubectl suggests the command all the same (cobra's distance 2, or
		// a prefix).
		{"a typo near logs stays a typo", "lgos web", "error: unknown command \"lgos\" for \"kubectl\"\n\nDid you mean this?\n\tlogs\n"},
		{"a prefix of logs", "log web", "error: unknown command \"log\" for \"kubectl\"\n\nDid you mean this?\n\tlogs\n\ttop\n"},
		{"suggestions mix simulated and left-out commands", "st", "error: unknown command \"st\" for \"kubectl\"\n\nDid you mean this?\n\tcp\n\tget\n\tset\n"},
		{"unknown flag", "scale deployment/web --replicas=0 --selector-typo",
			"error: unknown flag: --selector-typo\nSee 'kubectl scale --help' for usage."},
		{"unknown shorthand", "get pods -x", "error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage."},
		{"flag needs an argument", "get pods -o", "error: flag needs an argument: 'o' in -o\nSee 'kubectl get --help' for usage."},
		{"long flag needs an argument", "get pods --selector", "error: flag needs an argument: --selector\nSee 'kubectl get --help' for usage."},
		{"invalid int", "scale deploy/web --replicas=abc",
			"error: invalid argument \"abc\" for \"--replicas\" flag: strconv.ParseInt: parsing \"abc\": invalid syntax\nSee 'kubectl scale --help' for usage."},
		{"invalid int with shorthand", "create deployment web --image=nginx -r x",
			"error: invalid argument \"x\" for \"-r, --replicas\" flag: strconv.ParseInt: parsing \"x\": invalid syntax\nSee 'kubectl create deployment --help' for usage."},
		{"invalid bool", "get pods --show-labels=maybe",
			"error: invalid argument \"maybe\" for \"--show-labels\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax\nSee 'kubectl get --help' for usage."},
		{"invalid duration", "rollout status deploy/web --timeout=5",
			"error: invalid argument \"5\" for \"--timeout\" flag: time: missing unit in duration \"5\"\nSee 'kubectl rollout status --help' for usage."},
		{"bad flag syntax", "get pods ---x", "error: bad flag syntax: ---x\nSee 'kubectl get --help' for usage."},
		{"required flag", "scale deploy/web", `error: required flag(s) "replicas" not set`},
		{"required image", "create deployment web", `error: required flag(s) "image" not set`},
		{"unknown rollout subcommand", "rollout stats deploy/web", "error: unknown command \"stats deploy/web\"\nSee 'kubectl rollout -h' for help and examples"},
		{"unterminated quote", `get 'pods`, "error: unterminated single-quoted string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.line)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestParseOfAGroupAloneIsItsHelp(t *testing.T) {
	t.Parallel()
	_, err := Parse("rollout")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Manage the rollout of a resource.\n\nAvailable Commands:\n  history")
	_, err = Parse("")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kubectl controls the Kubernetes cluster manager.")
}

func TestStringIsNormalizedAndParsesBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want string
	}{
		{"kubectl scale deploy web --replicas 3", "scale deploy web --replicas=3"},
		{"get po -owide -A", "get po --output=wide --all-namespaces"},
		{`patch deploy web -p '{"spec": {"paused": true}}'`, `patch deploy web '--patch={"spec": {"paused": true}}'`},
		{"annotate deploy web 'kubernetes.io/change-cause=v 2'", "annotate deploy web 'kubernetes.io/change-cause=v 2'"},
		{"delete pod x --wait=false", "delete pod x --wait=false"},
		{"label pod x -- -y=1", "label -- pod x -y=1"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			c, err := Parse(tc.line)
			require.NoError(t, err)
			got := c.String()
			assert.Equal(t, tc.want, got)
			again, err := Parse(got)
			require.NoError(t, err)
			assert.Equal(t, c.Path, again.Path)
			assert.Equal(t, c.Args, again.Args)
			assert.Equal(t, c.Flags, again.Flags)
		})
	}
}

func TestMutates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want bool
	}{
		{"get pods", false},
		{"describe deploy web", false},
		{"rollout status deploy/web", false},
		{"rollout history deploy/web", false},
		{"version", false},
		{"api-resources", false},
		{"scale deploy/web --help", false},
		{"scale deploy/web --replicas=2 --dry-run=client", false},
		{"scale deploy/web --replicas=2", true},
		{"apply -f web.yaml", true},
		{"rollout undo deploy/web", true},
		{"rollout restart deploy/web", true},
		{"delete pod x", true},
		{"drain node-1", true},
		{"create deployment web --image=nginx", true},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			c, err := Parse(tc.line)
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.Mutates())
		})
	}
	var nilCmd *Command
	assert.False(t, nilCmd.Mutates())
}

func TestCheckSaysWhereTheLineIsWrong(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		line        string
		offset      int
		msg         string
		suggestions []string
	}{
		{"unknown command", "scael deployment/web", 0, `unknown command "scael" for "kubectl"`, []string{"scale"}},
		{"unknown command after kubectl and a flag", "kubectl -n default scael deployment/web", 19, `unknown command "scael" for "kubectl"`, []string{"scale"}},
		{"unknown flag", "scale deployment/web --replicas=0 --selector-typo", 34, "unknown flag: --selector-typo", nil},
		{"bad int value", "scale deployment/web --replicas=abc", 32,
			`invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax`, nil},
		{"bad value as the next word", "scale deployment/web --replicas abc", 32,
			`invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax`, nil},
		{"bad value of a quoted flag points at the flag", "scale deployment/web '--replicas=abc'", 21,
			`invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax`, nil},
		{"bad shorthand value", "create deployment web --image=nginx -rx", 38,
			`invalid argument "x" for "-r, --replicas" flag: strconv.ParseInt: parsing "x": invalid syntax`, nil},
		{"unknown shorthand in a cluster", "get pods -Ax", 11, "unknown shorthand flag: 'x' in -Ax", nil},
		{"bad bool", "get pods --show-labels=maybe", 23,
			`invalid argument "maybe" for "--show-labels" flag: strconv.ParseBool: parsing "maybe": invalid syntax`, nil},
		{"missing required flag", "scale deployment/web", -1, `required flag(s) "replicas" not set`, nil},
		{"unknown subcommand", "rollout stats deploy/web", 8, `unknown command "stats deploy/web"`, nil},
		{"a group alone", "rollout", -1, "kubectl rollout needs a subcommand: history, pause, restart, resume, status, undo", nil},
		{"unterminated quote", "get 'pods", 4, "unterminated single-quoted string", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pe := Check(tc.line)
			require.NotNil(t, pe)
			assert.Equal(t, tc.offset, pe.Offset)
			assert.Equal(t, tc.msg, pe.Msg)
			assert.Equal(t, tc.suggestions, pe.Suggestions)
			_, err := Parse(tc.line)
			assert.Equal(t, err.Error(), pe.Error(), "the text kubectl prints")
			if tc.name != "a group alone" { // which prints its help
				assert.Contains(t, pe.Error(), tc.msg)
			}
		})
	}
	for _, line := range []string{"", "kubectl", "--help", "scale --help", "get pods", "scale deploy/web --replicas=3"} {
		assert.Nil(t, Check(line), line)
	}
}
