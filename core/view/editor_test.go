package view

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidateShowsTheAPIServersWordsAtTheirLine(t *testing.T) {
	t.Parallel()
	mismatch := `name: bad
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 1
    selector: {matchLabels: {app: web}}
    template:
      metadata:
        labels: {app: api-v2}
      spec:
        containers: [{name: web, image: "web:1"}]
`
	immutable := "name: imm\nobjects:\n" + deploymentDoc("1", "web:1") + `steps:
- at: 10s
  apply:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 1
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec:
          containers: [{name: web, image: "web:1"}]
`
	expected := immutable + "  expectError: field is immutable\n"
	deleted := "name: del\nobjects:\n" + deploymentDoc("1", "web:1") + `steps:
- at: 5s
  kubectl: delete deployment web
- at: 10s
  apply:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 1
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec:
          containers: [{name: web, image: "web:1"}]
`
	tests := []struct {
		name      string
		src       string
		line, col int
		message   string
	}{
		{"selector does not match the template", mismatch, 11, 9,
			"The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api-v2\"}: `selector` does not match template `labels`"},
		{"an apply step changes the selector", immutable, 22, 7,
			"The Deployment \"web\" is invalid: spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"api\"}}: field is immutable"},
		{"an unknown field", "name: x\nbogus: 1\n", 2, 1, "bogus"},
		{"a kubectl step kubectl rejects", "name: x\nsteps:\n- at: 1s\n  kubectl: scael deployment/web\n", 4, 12,
			`steps[0].kubectl: unknown command "scael" for "kubectl"; did you mean "scale"?`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ps := Validate([]byte(tc.src))
			require.NotEmpty(t, ps)
			assert.True(t, HasErrors(ps))
			assert.Equal(t, tc.line, ps[0].Line, "%+v", ps)
			assert.Equal(t, tc.col, ps[0].Col, "%+v", ps)
			assert.Contains(t, ps[0].Message, tc.message)
			assert.NotEmpty(t, ps[0].Key)
		})
	}
	assert.Empty(t, Validate([]byte(expected)), "the step is meant to fail")
	assert.Empty(t, Validate([]byte(deleted)), "a deleted object is created anew")
	assert.Empty(t, Validate([]byte(rolling)))
	assert.False(t, HasErrors([]Problem{{Note: true}}))
}

func TestLineNumbers(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "1", LineNumbers(""))
	assert.Equal(t, "1\n2\n3", LineNumbers("a\nb\n"))
}

func TestLibraryListsTheDefaultFirst(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"zeta.yaml":       {Data: []byte("name: zeta\ntitle: Zeta\ndescription: |\n  Last.\n")},
		"basic-loop.yaml": {Data: []byte("name: basic-loop\ntitle: The basic loop\n")},
		"alpha.yaml":      {Data: []byte("name: alpha\n")},
		"broken.yaml":     {Data: []byte("name: [\n")},
		"notes.txt":       {Data: []byte("not a scenario")},
	}
	assert.Equal(t, []Entry{
		{Name: "basic-loop", Title: "The basic loop"},
		{Name: "alpha", Title: "alpha"},
		{Name: "broken", Title: "broken"},
		{Name: "zeta", Title: "Zeta", Description: "Last."},
	}, Library(fsys))
}
