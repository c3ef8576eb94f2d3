package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest"
)

var notedScenario = `name: noted
duration: 20s
objects:
` + simtest.DeploymentYAML("web", 2, "nginx:1.27") + `steps:
- at: 0s
  note: You describe the *end state*.
- at: 10s
  kubectl: scale deployment/web --replicas=3
- at: 11s
  note: "` + "`spec.replicas`" + ` is 3: see [the docs](https://kubernetes.io/docs/)."
  pause: true
  focus: deployment/web
`

// converge run prints a note at its second, as plain text, and the trace
// carries it in the steps of that second (docs/trace.md).
func TestRunPrintsNotes(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "noted.yaml", notedScenario)
	code, out, errOut := runCLI(t, "run", f)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "          deployment.apps/web created\n        » You describe the end state.\n", "after the objects applied at 0s")
	assert.Contains(t, out, "   11s  » `spec.replicas` is 3: see the docs (https://kubernetes.io/docs/).\n")
	assert.NotContains(t, out, "$ note")

	code, trace, errOut := runCLI(t, "run", f, "--output", "jsonl")
	require.Equal(t, exitOK, code, errOut)
	lines := strings.Split(strings.TrimSuffix(trace, "\n"), "\n")
	require.Len(t, lines, 21)
	assert.Contains(t, lines[11], `{"at":"11s","action":"note","ok":true,"output":"`+"`spec.replicas`"+` is 3: see the docs (https://kubernetes.io/docs/).","error":"",`+
		`"note":{"text":"`+"`spec.replicas`"+` is 3: see [the docs](https://kubernetes.io/docs/).","pause":true,"focus":"deployment/web"}}`)
	assert.NotContains(t, lines[10], `"note"`)
}
