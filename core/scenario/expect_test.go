package scenario

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

func TestParseExpectCanonicalForm(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"deployment/web .status.availableReplicas == 3", "deployment/web .status.availableReplicas == 3"},
		{"  deploy/web   .status.replicas>=2  ", "deployment/web .status.replicas >= 2"},
		{"rs/web-5d9c .spec.replicas != 0", "replicaset/web-5d9c .spec.replicas != 0"},
		{`Deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] == "2"`, `deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] == "2"`},
		{`deployments.apps/web .metadata.annotations["a"] == 2`, `deployment/web .metadata.annotations.a == 2`},
		{"po/x .status.phase == Running", "pod/x .status.phase == Running"},
		{`pod/x .status.conditions[?(@.type=="Ready")].status == True`, `pod/x .status.conditions[?(@.type=="Ready")].status == True`},
		{`pod/x .spec.containers[0].ports[?(@.containerPort == 80)].protocol == "TCP"`, `pod/x .spec.containers[0].ports[?(@.containerPort==80)].protocol == "TCP"`},
		{"pod/x .status.containerStatuses[0].restartCount > 2", "pod/x .status.containerStatuses[0].restartCount > 2"},
		{"no/node-1 .spec.unschedulable == true", "node/node-1 .spec.unschedulable == true"},
		{`cm/c .data.key == "a b"`, `configmap/c .data.key == "a b"`},
		{"svc/web .spec.ports[0].targetPort == 8080", "service/web .spec.ports[0].targetPort == 8080"},
		{"ep/web .subsets[0].addresses[0].ip != null", "endpoints/web .subsets[0].addresses[0].ip != null"},
		{"pod/x .spec.securityContext.runAsUser <= 1000", "pod/x .spec.securityContext.runAsUser <= 1000"},
		{"deployment/web .metadata.labels.app == web", "deployment/web .metadata.labels.app == web"},
		{"deployment/web .status.conditions[0].message == Deployment has minimum availability.", "deployment/web .status.conditions[0].message == Deployment has minimum availability."},
		{"deployment/web .status.replicas < -1.5e2", "deployment/web .status.replicas < -1.5e2"},
		{`deployment/web .metadata.name > "<a&b>"`, `deployment/web .metadata.name > "<a&b>"`},
		{`deployment/web .kind == Deployment`, `deployment/web .kind == Deployment`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			e, err := ParseExpect(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, e.String())
			again, err := ParseExpect(e.String())
			require.NoError(t, err)
			assert.Equal(t, e, again, "String round-trips")
		})
	}
}

func TestParseExpectFields(t *testing.T) {
	t.Parallel()
	e, err := ParseExpect(`rs/web .metadata.annotations["a.b/c"] >= "x y"`)
	require.NoError(t, err)
	assert.Equal(t, api.KindReplicaSet, e.Kind)
	assert.Equal(t, "web", e.Name)
	assert.Equal(t, OpGe, e.Op)
	assert.Equal(t, "x y", e.Value)
	assert.False(t, e.Bare)
	assert.Equal(t, Path{{Kind: SegField, Key: "metadata"}, {Kind: SegField, Key: "annotations"}, {Kind: SegField, Key: "a.b/c"}}, e.Path)
	e, err = ParseExpect(`pod/p .status.phase == null`)
	require.NoError(t, err)
	assert.Nil(t, e.Value)
	e, err = ParseExpect(`pod/p .spec.hostNetwork != false`)
	require.NoError(t, err)
	assert.Equal(t, false, e.Value)
	e, err = ParseExpect(`pod/p .spec.priority == 10`)
	require.NoError(t, err)
	assert.Equal(t, json.Number("10"), e.Value)
}

func TestParseExpectErrorsHaveTheirColumn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		col  int
		want string
	}{
		{"", 1, "empty expect: write KIND/NAME .json.path OP VALUE, e.g. deployment/web .status.availableReplicas == 3"},
		{"deployment .status.replicas == 1", 1, `expected KIND/NAME such as deployment/web, not "deployment"`},
		{"deplyment/web .status.replicas == 1", 1, `unknown kind "deplyment"; did you mean "deployment"?`},
		{"secret/web .data == 1", 1, `unknown kind "secret"`},
		{"deployment/ .status.replicas == 1", 12, `missing name after "deployment/"`},
		{`deployment/a"b .status.replicas == 1`, 12, `invalid name "a\"b"`},
		{"deployment/web", 15, "missing path after deployment/web, e.g. .status.availableReplicas"},
		{"deployment/web == 3", 16, "missing path, e.g. .status.availableReplicas"},
		{"deployment/web status == 3", 16, "a path starts with '.', e.g. .status.availableReplicas"},
		{"deployment/web .status.rep~licas == 3", 27, `unexpected '~' in path`},
		{"deployment/web .status.", 24, `expected a field name after '.'; write keys with dots or slashes as ["key"]`},
		{"deployment/web .status[", 24, `expected an index such as [0], a key such as ["app.kubernetes.io/name"] or a filter such as [?(@.type=="Available")]`},
		{`deployment/web .status["replicas`, 23, "unterminated string in path"},
		{`deployment/web .status["\x"] == 1`, 24, `invalid string "\x" in path`},
		{`deployment/web .status["replicas" == 1`, 34, "missing ']' to close the '[' at column 23"},
		{"deployment/web .status.conditions[99999999] == 1", 35, "index 99999999 is too large"},
		{"deployment/web .status.conditions[0 == 1", 36, "missing ']' to close the '[' at column 34"},
		{"deployment/web .status.conditions[?(@.==1)] == 1", 39, "expected a field name after @."},
		{"deployment/web .status.conditions[?(@.type=Available)] == 1", 43, `a filter compares with ==, e.g. [?(@.type=="Available")]`},
		{"deployment/web .status.conditions[?(@.type==Available)].status == 1", 45, `a filter value must be a JSON literal such as "Available", 3 or true`},
		{"deployment/web .status.conditions[?(@.type==)].status == 1", 45, `a filter value must be a JSON literal such as "Available", 3 or true`},
		{`deployment/web .status.conditions[?(@.type=="Available"`, 34, `missing ")]" to close the filter`},
		{"deployment/web .status.replicas", 32, "missing operator: use one of == != < <= > >="},
		{"deployment/web .status.replicas =~ 3", 33, `unknown operator "=~": use one of == != < <= > >=`},
		{"deployment/web .status.replicas ==   ", 35, "missing value after =="},
		{"deployment/web .spec.paused < true", 29, "< compares numbers or strings, not true"},
		{"deployment/web .status.replicas >= null", 33, ">= compares numbers or strings, not null"},
		{`deployment/web .status.replicas == "3`, 36, `invalid string "3: write a JSON string such as "Available"`},
		{"deployment/web .status.replicas == [3]", 36, "the value must be a number, a string, true, false or null"},
		{"deployment/web .status.replicas == 1e401", 36, "number 1e401 is out of range"},
		{"deployment/web .status.availableReplica == 3", 24, `unknown field "availableReplica" in status; did you mean "availableReplicas"?`},
		{"deployment/web .sepc.replicas == 3", 17, `unknown field "sepc" in a Deployment; did you mean "spec"?`},
		{"deployment/web .status.conditions.type == Available", 35, `conditions is a list: select an element with [0] or [?(@.field=="value")] first`},
		{"deployment/web .spec.replicas[0] == 1", 30, "replicas is not a list"},
		{"deployment/web .metadata.labels[0] == 1", 32, "labels is not a list"},
		{"deployment/web .spec.replicas.x == 1", 31, `replicas has no field "x"`},
		{"pod/x .spec.containers[0].resources.requests.cpu.x == 1", 50, `cpu has no field "x"`},
		{"deployment/web .metadata.creationTimestamp.seconds == 1", 44, `creationTimestamp has no field "seconds"`},
		{`pod/x .status.conditions[?(@.typ=="Ready")].status == True`, 30, `unknown field "typ" in the elements of conditions; did you mean "type"?`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			_, err := ParseExpect(tc.in)
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, tc.want, se.Msg)
			assert.Equal(t, tc.col, se.Col)
			assert.EqualError(t, err, "column "+itoa(tc.col)+": "+tc.want)
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// deploymentJSON is a Deployment as the store would marshal it, decoded.
func deploymentJSON(t *testing.T) map[string]any {
	t.Helper()
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Annotations: map[string]string{api.RevisionAnnotation: "2"}}}
	d.Spec.Replicas = api.Int32(3)
	d.Status = api.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3,
		Conditions: []api.DeploymentCondition{
			{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: "NewReplicaSetAvailable"},
			{Type: api.DeploymentAvailable, Status: api.ConditionFalse, Reason: "MinimumReplicasUnavailable"},
		}}
	api.SetDefaultsDeployment(d)
	b, err := json.Marshal(d)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}

func TestExpectEval(t *testing.T) {
	t.Parallel()
	obj := deploymentJSON(t)
	tests := []struct {
		expr string
		ok   bool
		got  string
	}{
		{"deployment/web .status.replicas == 3", true, "3"},
		{"deployment/web .status.replicas != 3", false, "3"},
		{"deployment/web .status.replicas < 4", true, "3"},
		{"deployment/web .status.replicas <= 2.5", false, "3"},
		{"deployment/web .status.replicas > 2.999", true, "3"},
		{"deployment/web .status.replicas >= 3e0", true, "3"},
		{"deployment/web .status.availableReplicas == 0", true, "0"},
		{"deployment/web .status.availableReplicas > 0", false, "0"},
		{"deployment/web .spec.paused == false", true, "false"},
		{"deployment/web .spec.paused != true", true, "false"},
		{"deployment/web .status.terminatingReplicas == null", true, Missing},
		{"deployment/web .status.terminatingReplicas != null", false, Missing},
		{"deployment/web .status.terminatingReplicas == 0", false, Missing},
		{"deployment/web .status.terminatingReplicas != 0", true, Missing},
		{"deployment/web .status.terminatingReplicas > 0", false, Missing},
		{"deployment/web .status.conditions[5].status == True", false, Missing},
		{"deployment/web .status.conditions[5].reason == null", true, Missing},
		{`deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] == 2`, true, `"2"`},
		{`deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] == "2"`, true, `"2"`},
		{`deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] > 1`, true, `"2"`},
		{`deployment/web .metadata.annotations["other"] == "2"`, false, Missing},
		{`deployment/web .status.conditions[?(@.type=="Available")].status == True`, false, `"False"`},
		{`deployment/web .status.conditions[?(@.type=="Available")].status == False`, true, `"False"`},
		{`deployment/web .status.conditions[?(@.type=="ReplicaFailure")].status == True`, false, Missing},
		{`deployment/web .status.conditions[1].reason == MinimumReplicasUnavailable`, true, `"MinimumReplicasUnavailable"`},
		{`deployment/web .metadata.name < "x"`, true, `"web"`},
		{`deployment/web .metadata.name >= "wea"`, true, `"web"`},
		{`deployment/web .metadata.name == 3`, false, `"web"`},
		{`deployment/web .status.replicas == "3"`, false, "3"},
		{`deployment/web .status.replicas > "2"`, false, "3"},
		{`deployment/web .spec.selector == null`, true, "null"},
		{`deployment/web .spec.strategy.rollingUpdate.maxSurge == "25%"`, true, `"25%"`},
		{`deployment/web .spec.template.spec.containers == 1`, false, "null"},
		{`deployment/web .spec.strategy == 1`, false, `{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}`},
		{`deployment/web .spec.strategy != 1`, true, `{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}`},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			t.Parallel()
			e, err := ParseExpect(tc.expr)
			require.NoError(t, err)
			ok, got, err := e.Eval(obj)
			require.NoError(t, err)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.got, got)
		})
	}
}

func TestExpectEvalInputs(t *testing.T) {
	t.Parallel()
	e, err := ParseExpect("deployment/web .status.replicas == 3")
	require.NoError(t, err)

	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web"}}
	d.Status.Replicas = 3
	ok, got, err := e.Eval(d)
	require.NoError(t, err)
	assert.True(t, ok, "an api.Object is marshalled first")
	assert.Equal(t, "3", got)

	ok, got, err = e.Eval(nil)
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, Missing, got, "a missing object is a missing path")

	ok, got, err = e.Eval(map[string]any{"status": map[string]any{"replicas": 3}})
	require.NoError(t, err)
	assert.True(t, ok, "ints from code compare too")
	assert.Equal(t, "3", got)

	ok, _, err = e.Eval(map[string]any{"status": map[string]any{"replicas": int64(3)}})
	require.NoError(t, err)
	assert.True(t, ok)

	ok, _, err = e.Eval(map[string]any{"status": map[string]any{"replicas": int32(4)}})
	require.NoError(t, err)
	assert.False(t, ok)

	ok, got, err = e.Eval([]any{1})
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, Missing, got)

	_, _, err = e.Eval(make(chan int))
	assert.EqualError(t, err, "eval expect deployment/web .status.replicas == 3: json: unsupported type: chan int")

	var nilExpect *Expect
	_, _, err = nilExpect.Eval(nil)
	assert.EqualError(t, err, "eval expect: nil expect")
	assert.Equal(t, "", nilExpect.String())
}

func TestCompareAndNumbers(t *testing.T) {
	t.Parallel()
	assert.False(t, compare(1.0, Op("~"), json.Number("1")), "an unknown operator never holds")
	_, ok := number("1e999")
	assert.False(t, ok, "huge exponents are refused")
	_, ok = number(float64(1) / 3)
	assert.True(t, ok)
	_, ok = parseDecimal("12345678901234567890123456789012345678901234567890123456789012345")
	assert.False(t, ok, "over 64 digits")
	assert.Equal(t, "x", literal(struct{ s string }{"x"}, false)[1:2])
}
