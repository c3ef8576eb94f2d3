package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// polls runs a waiter once a second for at most n seconds (the clock first
// moves on a second, then edit changes the cluster, then it polls) and
// returns each second's output ("" none) and the final poll.
func polls(t *testing.T, f *fixture, w Waiter, n int, edit func(sec int)) ([]string, Poll) {
	t.Helper()
	var out []string
	var p Poll
	for sec := 1; sec <= n; sec++ {
		simtest.Advance(f.st, time.Second)
		if edit != nil {
			edit(sec)
		}
		p = w.Poll(f.env)
		out = append(out, p.Output)
		if p.Done {
			break
		}
	}
	return out, p
}

func TestRolloutStatusWaits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.UpdatedReplicas, s.Replicas = 1, 4 })
	res := f.run("rollout status deploy/web")
	require.True(t, res.OK())
	assert.Equal(t, `Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...`, res.Output)
	require.NotNil(t, res.Wait)

	out, p := polls(t, f, res.Wait, 10, func(sec int) {
		switch sec {
		case 2:
			f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.UpdatedReplicas = 3 })
		case 3:
			f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.Replicas, s.AvailableReplicas = 3, 2 })
		case 5:
			f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.AvailableReplicas = 3 })
		}
	})
	assert.Equal(t, []string{"",
		`Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...`,
		`Waiting for deployment "web" rollout to finish: 2 of 3 updated replicas are available...`,
		"",
		`deployment "web" successfully rolled out`}, out, "each line once, in the second it changed")
	assert.Equal(t, Poll{Output: `deployment "web" successfully rolled out`, Done: true}, p)
}

func TestRolloutStatusEnds(t *testing.T) {
	t.Parallel()
	waiting := func(s *api.DeploymentStatus) { s.UpdatedReplicas = 1 }
	tests := []struct {
		name string
		line string
		edit func(t *testing.T, f *fixture)
		want Poll
		secs int
	}{
		{"progress deadline", "rollout status deploy/web", func(t *testing.T, f *fixture) {
			f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.Conditions[1].Reason = "ProgressDeadlineExceeded" })
		}, Poll{Done: true, Error: `error: deployment "web" exceeded its progress deadline`}, 1},
		{"--timeout", "rollout status deploy/web --timeout=3s", nil,
			Poll{Done: true, Error: "error: timed out waiting for the condition"}, 3},
		{"deleted", "rollout status deploy/web", func(t *testing.T, f *fixture) {
			require.NoError(t, f.st.Delete(api.KindDeployment, "default", "web", store.DeleteOptions{}))
		}, Poll{Done: true, Error: "error: object has been deleted"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.setDeploymentStatus(t, "web", waiting)
			res := f.run(tc.line)
			require.NotNil(t, res.Wait)
			_, p := polls(t, f, res.Wait, 10, func(int) {
				if tc.edit != nil {
					tc.edit(t, f)
				}
			})
			assert.Equal(t, tc.want, p)
			n, _ := polls(t, newFixture(t), res.Wait.Clone(), 0, nil)
			assert.Empty(t, n)
		})
	}
	t.Run("no wait when done or --watch=false", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		assert.Nil(t, f.run("rollout status deploy/web").Wait)
		f.setDeploymentStatus(t, "web", waiting)
		assert.Nil(t, f.run("rollout status deploy/web --watch=false").Wait)
		assert.Nil(t, f.run("rollout status deploy/web --dry-run=client").Wait, "an error: no wait")
	})
	t.Run("a clone goes on by itself", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.setDeploymentStatus(t, "web", waiting)
		w := f.run("rollout status deploy/web").Wait
		c := w.Clone()
		f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.UpdatedReplicas, s.Replicas = 3, 4 })
		assert.NotEmpty(t, w.Poll(f.env).Output)
		assert.NotEmpty(t, c.Poll(f.env).Output, "the clone had not printed that line")
		assert.Empty(t, w.Poll(f.env).Output)
	})
}

func TestWait(t *testing.T) {
	t.Parallel()
	unavailable := func(s *api.DeploymentStatus) { s.Conditions[0].Status = "False" }
	tests := []struct {
		name    string
		setup   func(t *testing.T, f *fixture)
		line    string
		out     string
		err     string
		waiting bool
	}{
		{name: "met at once", line: "wait --for=condition=Available deployment/web", out: "deployment.apps/web condition met"},
		{name: "the value compares ignoring case", line: "wait --for=condition=available=TRUE deploy/web", out: "deployment.apps/web condition met"},
		{name: "not yet", setup: func(t *testing.T, f *fixture) { f.setDeploymentStatus(t, "web", unavailable) },
			line: "wait --for=condition=Available deployment/web --timeout=60s", waiting: true},
		{name: "a stale observedGeneration does not count", setup: func(t *testing.T, f *fixture) {
			d, err := f.st.GetDeployment("default", "web")
			require.NoError(t, err)
			x := d.DeepCopy()
			x.Spec.Replicas = api.Int32(4) // generation 2, observedGeneration 1
			_, err = f.st.Update(x)
			require.NoError(t, err)
		}, line: "wait --for=condition=Available deployment/web", waiting: true},
		{name: "--timeout=0 checks once", setup: func(t *testing.T, f *fixture) { f.setDeploymentStatus(t, "web", unavailable) },
			line: "wait --for=condition=Available deployment/web --timeout=0s", err: "error: condition not met for deployments/web"},
		{name: "not found", line: "wait --for=condition=Available deployment/nope",
			err: `Error from server (NotFound): deployments.apps "nope" not found`},
		{name: "delete of a missing object", line: "wait --for=delete deployment/nope"},
		{name: "delete waits", line: "wait --for=delete pod/web-66b6c48dd5-4jw2m", waiting: true},
		{name: "create waits", line: "wait --for=create deployment/api", waiting: true},
		{name: "create of an existing object", line: "wait --for=create deploy/web --for=condition=Available",
			out: "deployment.apps/web condition met\ndeployment.apps/web condition met"},
		{name: "jsonpath", line: "wait --for=jsonpath={.status.readyReplicas}=3 deploy/web", out: "deployment.apps/web condition met"},
		{name: "jsonpath relaxed, with a filter", line: `wait --for=jsonpath=.status.conditions[?(@.type=="Available")].status=True deploy/web`,
			out: "deployment.apps/web condition met"},
		{name: "jsonpath any value", line: "wait --for=jsonpath={.spec.replicas} deploy/web", out: "deployment.apps/web condition met"},
		{name: "-o name", line: "wait --for=condition=Available deploy/web -o name", out: "deployment.apps/web"},
		{name: "a selector", line: "wait --for=condition=Ready pods -l app=web",
			out: "pod/web-66b6c48dd5-4jw2m condition met\npod/web-66b6c48dd5-8xk2p condition met\npod/web-66b6c48dd5-tz7qw condition met"},
		{name: "nothing matches", line: "wait --for=condition=Ready pods -l app=nope", err: "error: no matching resources found"},
		{name: "no --for", line: "wait deploy/web", err: "error: unrecognized condition: []"},
		{name: "unknown condition", line: "wait --for=cond=invalid deploy/web", err: `error: unrecognized condition: "cond=invalid"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.setup != nil {
				tc.setup(t, f)
			}
			res := f.run(tc.line)
			assert.Equal(t, tc.out, res.Output)
			assert.Equal(t, tc.err, res.Error)
			assert.Equal(t, tc.waiting, res.Wait != nil)
		})
	}
}

func TestWaitGoesOn(t *testing.T) {
	t.Parallel()
	t.Run("condition met later", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.Conditions[0].Status = "False" })
		res := f.run("wait --for=condition=Available deployment/web --timeout=60s")
		out, p := polls(t, f, res.Wait, 10, func(sec int) {
			if sec == 4 {
				f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.Conditions[0].Status = "True" })
			}
		})
		assert.Equal(t, []string{"", "", "", "deployment.apps/web condition met"}, out)
		assert.True(t, p.Done)
		assert.Empty(t, p.Error)
	})
	t.Run("timeout: 30s by default", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) { s.Conditions[0].Status = "False" })
		res := f.run("wait --for=condition=Available deployment/web")
		out, p := polls(t, f, res.Wait, 40, nil)
		assert.Len(t, out, 30)
		assert.Equal(t, "error: timed out waiting for the condition on deployments/web", p.Error)
	})
	t.Run("timeout on the first of several objects", func(t *testing.T) {
		t.Parallel()
		// kubectl 1.35 against a real v1.35.4 cluster (rollout-status-wait
		// replayed, tools/realcluster): the first pod, never Ready, takes
		// the whole --timeout; every pod after it times out at once, Ready
		// or not, one line each, without "error: ".
		f := newFixture(t)
		f.editPod(t, "web-66b6c48dd5-4jw2m", func(p *api.Pod) { p.Status.Conditions[1].Status = "False" })
		res := f.run("wait --for=condition=Ready pods -l app=web --timeout=5s")
		out, p := polls(t, f, res.Wait, 10, nil)
		assert.Len(t, out, 5)
		assert.True(t, p.Done)
		assert.Equal(t, "timed out waiting for the condition on pods/web-66b6c48dd5-4jw2m\n"+
			"timed out waiting for the condition on pods/web-66b6c48dd5-8xk2p\n"+
			"timed out waiting for the condition on pods/web-66b6c48dd5-tz7qw", p.Error)
	})
	t.Run("timeout on the last object", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.editPod(t, "web-66b6c48dd5-tz7qw", func(p *api.Pod) { p.Status.Conditions[1].Status = "False" })
		res := f.run("wait --for=condition=Ready pods -l app=web --timeout=5s")
		assert.Equal(t, "pod/web-66b6c48dd5-4jw2m condition met\npod/web-66b6c48dd5-8xk2p condition met", res.Output)
		_, p := polls(t, f, res.Wait, 10, nil)
		assert.Equal(t, "error: timed out waiting for the condition on pods/web-66b6c48dd5-tz7qw", p.Error)
	})
	t.Run("delete", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		res := f.run("wait --for=delete pod/web-66b6c48dd5-4jw2m --timeout=1m")
		out, p := polls(t, f, res.Wait, 10, func(sec int) {
			if sec == 2 {
				require.NoError(t, f.st.Delete(api.KindPod, "default", "web-66b6c48dd5-4jw2m", store.DeleteOptions{GracePeriodSeconds: api.Int64(0)}))
			}
		})
		assert.Equal(t, []string{"", "pod/web-66b6c48dd5-4jw2m condition met"}, out)
		assert.True(t, p.Done)
	})
	t.Run("create, then a condition", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		res := f.run("wait --for=create --for=condition=Available deploy/api --timeout=1m")
		out, _ := polls(t, f, res.Wait, 3, func(sec int) {
			if sec == 2 {
				simtest.MustCreate(t, f.st, simtest.NewDeployment("api", 1, "nginx"))
			}
		})
		assert.Equal(t, []string{"", "deployment.apps/api condition met", ""}, out, "created; Available is yet to come")
	})
	t.Run("create on a type with a selector", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		res := f.run("wait --for=create deployments -l app=api --timeout=1m")
		require.NotNil(t, res.Wait)
		out, p := polls(t, f, res.Wait, 3, func(sec int) {
			if sec == 2 {
				simtest.MustCreate(t, f.st, simtest.NewDeployment("api", 1, "nginx", func(d *api.Deployment) { d.Labels = map[string]string{"app": "api"} }))
			}
		})
		assert.Equal(t, []string{"", "deployment.apps/api condition met"}, out)
		assert.True(t, p.Done)
	})
}

func TestParseWaitConditions(t *testing.T) {
	t.Parallel()
	// kubectl pkg/cmd/wait/wait_test.go, TestConditionFuncFor. Converge's
	// JSONPath has no range: the rows with {range ...} are left out.
	tests := []struct {
		name      string
		condition []string
		err       string
	}{
		{"jsonpath missing JSONPath expression", []string{"jsonpath="}, "jsonpath expression cannot be empty"},
		{"jsonpath check for condition without value", []string{"jsonpath={.metadata.name}"}, ""},
		{"jsonpath check for condition without value relaxed parsing", []string{"jsonpath=abc"}, ""},
		{"jsonpath check for expression and value", []string{"jsonpath={.metadata.name}=foo-b6699dcfb-rnv7t"}, ""},
		{"jsonpath check for expression and value relaxed parsing", []string{"jsonpath=.metadata.name=foo-b6699dcfb-rnv7t"}, ""},
		{"jsonpath selecting based on condition", []string{`jsonpath={.status.containerStatuses[?(@.name=="foo")].ready}=True`}, ""},
		{"jsonpath selecting based on condition relaxed parsing", []string{`jsonpath=status.conditions[?(@.type=="Available")].status=True`}, ""},
		{"jsonpath selecting based on condition without value", []string{`jsonpath={.status.containerStatuses[?(@.name=="foo")].ready}`}, ""},
		{"jsonpath selecting based on condition without value relaxed parsing", []string{`jsonpath=.status.containerStatuses[?(@.name=="foo")].ready`}, ""},
		{"jsonpath invalid expression with repeated '='", []string{"jsonpath={.metadata.name}='test=wrong'"},
			"jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'"},
		{"jsonpath undefined value after '='", []string{"jsonpath={.metadata.name}="}, "jsonpath wait has to have a value after equal sign"},
		{"jsonpath complex expressions not supported", []string{`jsonpath={.status.conditions[?(@.type=="Failed"||@.type=="Complete")].status}=True`},
			"unrecognized character in action: U+007C '|'"},
		{"jsonpath invalid expression", []string{"jsonpath={=True"},
			"unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'"},
		{"condition delete", []string{"delete"}, ""},
		{"condition true", []string{"condition=hello"}, ""},
		{"condition with value", []string{"condition=hello=world"}, ""},
		{"unrecognized condition", []string{"cond=invalid"}, `unrecognized condition: "cond=invalid"`},
		{"multiple conditions - two status conditions", []string{"condition=Ready", "condition=Available"}, ""},
		{"multiple conditions - condition and jsonpath", []string{"condition=Ready", "jsonpath={.status.phase}=Running"}, ""},
		{"multiple conditions - two jsonpaths", []string{"jsonpath={.status.phase}=Running", "jsonpath={.metadata.name}=foo"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := parseWaitConditions(tc.condition)
			if tc.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

func TestJSONPathMet(t *testing.T) {
	t.Parallel()
	// kubectl pkg/cmd/wait/wait_test.go, TestWaitForDifferentJSONPathExpression,
	// on its pod (podYAML's fields that the rows read).
	pod := map[string]any{
		"spec": map[string]any{"nodeName": "knode0", "containers": []any{map[string]any{"ports": []any{map[string]any{"containerPort": 80.0}}}}},
		"status": map[string]any{
			"containerStatuses": []any{map[string]any{"ready": true}},
			"conditions": []any{map[string]any{"type": "Initialized", "status": "True"}, map[string]any{"type": "Ready", "status": "True"},
				map[string]any{"type": "ContainersReady", "status": "True"}, map[string]any{"type": "PodScheduled", "status": "True"}},
		},
	}
	tests := []struct {
		name, expr, value string
		anyValue          bool
		want              bool
		err               string
	}{
		{"JSONPath entry not exist", "{.foo.bar}", "baz", false, false, ""},
		{"compare boolean JSONPath entry", "{.status.containerStatuses[0].ready}", "true", false, true, ""},
		{"compare boolean JSONPath entry wrong value", "{.status.containerStatuses[0].ready}", "false", false, false, ""},
		{"compare integer JSONPath entry", "{.spec.containers[0].ports[0].containerPort}", "80", false, true, ""},
		{"compare integer JSONPath entry wrong value", "{.spec.containers[0].ports[0].containerPort}", "81", false, false, ""},
		{"compare string JSONPath entry", "{.spec.nodeName}", "knode0", false, true, ""},
		{"matches literal value of JSONPath entry without value condition", "{.spec.nodeName}", "", true, true, ""},
		{"matches complex types map[string]interface{} without value condition", "{.spec}", "", true, true, ""},
		{"compare string JSONPath entry wrong value", "{.spec.nodeName}", "kmaster", false, false, ""},
		{"matches more than one value", "{.status.conditions[*]}", "foo", false, false, "given jsonpath expression matches more than one value"},
		{"matches more than one value without value condition", "{.status.conditions[*]}", "", true, false, "given jsonpath expression matches more than one value"},
		{"unsupported type []interface{}", "{.status.conditions}", "True", false, false, "jsonpath leads to a nested object or list which is not supported"},
		{"unsupported type map[string]interface{}", "{.spec}", "foo", false, false, "jsonpath leads to a nested object or list which is not supported"},
		{"a filter", `{.status.conditions[?(@.type=="Ready")].status}`, "True", false, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := parseJSONPath(tc.expr)
			require.NoError(t, err)
			got, err := p.met(pod, tc.value, tc.anyValue)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	for _, bad := range []string{"{.a..b}", "{.a[1:2]}", "{.a[}", "{.a,b}"} {
		_, err := parseJSONPath(bad)
		assert.Error(t, err, bad)
		assert.True(t, strings.HasPrefix(err.Error(), "jsonpath "+bad), err)
	}
}
