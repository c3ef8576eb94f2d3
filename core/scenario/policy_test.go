package scenario

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// policyBase is a scenario whose steps start at line 14.
const policyBase = `name: policy
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 1
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "web:1"}]}
steps:
- at: 10s
`

// applyAPI is an apply step (lines 14-23) of Deployment web with the
// selector app=api: an update of web's immutable selector.
const applyAPI = `  apply:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 1
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec: {containers: [{name: web, image: "web:1"}]}
`

func TestParseChecksStepsAsTheyWillRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		step      string
		line, col int
		message   string
	}{
		{"an apply step changes the selector", applyAPI, 20, 7,
			`The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"api"}}: field is immutable`},
		{"an unknown command", "  kubectl: scael deployment/web\n", 14, 12,
			`steps[0].kubectl: unknown command "scael" for "kubectl"; did you mean "scale"?`},
		{"a bad flag value", "  kubectl: scale deployment/web --replicas=abc\n", 14, 44,
			`steps[0].kubectl: invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax`},
		{"a bad flag value in quotes after kubectl", "  kubectl: \"kubectl  scale deployment/web --replicas=abc\"\n", 14, 54,
			`steps[0].kubectl: invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax`},
		{"an unknown flag", "  kubectl: scale deployment/web --replicas=0 --selector-typo\n", 14, 46,
			"steps[0].kubectl: unknown flag: --selector-typo"},
		{"a missing required flag", "  kubectl: scale deployment/web\n", 14, 12,
			`steps[0].kubectl: required flag(s) "replicas" not set`},
		{"a group without its subcommand", "  kubectl: rollout\n", 14, 12,
			"steps[0].kubectl: kubectl rollout needs a subcommand: history, pause, restart, resume, status, undo"},
		{"several suggestions", "  kubectl: sat image deploy/web web=web:2\n", 14, 12,
			`steps[0].kubectl: unknown command "sat" for "kubectl"; did you mean "get", "set" or "wait"?`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, probs := Parse([]byte(policyBase+tc.step), "s.yaml")
			assert.Nil(t, s)
			require.Len(t, probs, 1, "%v", probs)
			assert.Equal(t, tc.line, probs[0].Line, probs[0].String())
			assert.Equal(t, tc.col, probs[0].Col, probs[0].String())
			assert.Equal(t, tc.message, probs[0].Message)

			s, probs = Parse([]byte(policyBase+tc.step+"  expectError: x\n"), "s.yaml")
			require.Empty(t, probs, "a step with expectError is meant to fail")
			require.NotNil(t, s)
			assert.Equal(t, "x", s.Steps[0].ExpectError)
		})
	}
}

func TestParseFollowsWhatApplyStepsReplace(t *testing.T) {
	t.Parallel()
	at := func(sec, action string) string { return "- at: " + sec + "\n" + action }
	failed := "  expectError: field is immutable\n"
	tests := []struct {
		name  string
		steps string
		line  int // of the one problem; 0: none
	}{
		{"delete KIND NAME forgets it", "  kubectl: delete deployment web\n" + at("20s", applyAPI), 0},
		{"delete KIND/NAME forgets it", "  kubectl: delete deploy/web\n" + at("20s", applyAPI), 0},
		{"delete by selector forgets the kind", "  kubectl: delete deployments -l app=web\n" + at("20s", applyAPI), 0},
		{"delete of an unknown resource forgets the name", "  kubectl: delete deployment.v1.apps web\n" + at("20s", applyAPI), 0},
		{"delete of another name", "  kubectl: delete deployment api\n" + at("20s", applyAPI), 22},
		{"delete of another kind", "  kubectl: delete rs web\n" + at("20s", applyAPI), 22},
		{"a delete that is meant to fail forgets nothing", "  kubectl: delete deployment web\n  expectError: x\n" + at("20s", applyAPI), 23},
		{"an apply that is meant to fail is not applied", applyAPI + failed + at("20s", applyAPI), 32},
		{"an update replaces the previous one", strings.Replace(applyAPI, "app: api}}\n      template", "app: web}}\n      template", 1) +
			strings.Replace(failed, "field is immutable", "does not match", 1) + at("20s", applyAPI), 32},
		{"steps run in time order", "  kubectl: get pods\n" + at("5s", "  kubectl: delete deploy web\n") + at("20s", applyAPI), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, probs := Parse([]byte(policyBase+tc.steps), "s.yaml")
			if tc.line == 0 {
				assert.Empty(t, probs)
				return
			}
			require.Len(t, probs, 1, "%v", probs)
			assert.Equal(t, tc.line, probs[0].Line, probs[0].String())
			assert.Contains(t, probs[0].Message, "field is immutable")
		})
	}
}

// endless is an input that never ends, counting what was read.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '#'
	}
	e.read += len(p)
	return len(p), nil
}

func TestEveryInputIsBounded(t *testing.T) {
	t.Parallel()
	huge := &endless{}
	_, err := ReadAll(huge)
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Equal(t, MaxFileSize+1, huge.read, "reads one byte more than the limit, not the input")
	assert.EqualError(t, err, "the file is too large: a scenario may have at most 4 MiB")

	data, err := ReadAll(io.LimitReader(&endless{}, MaxFileSize))
	require.NoError(t, err)
	assert.Len(t, data, MaxFileSize, "exactly the limit is allowed")

	big := append([]byte("name: big\n"), make([]byte, 5<<20)...)
	s, probs := Parse(big, "big.yaml")
	assert.Nil(t, s)
	assert.Equal(t, []string{"big.yaml: the file is too large: a scenario may have at most 4 MiB"}, problemStrings(probs))
}
