package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest"
)

// argsScenario is a one-Deployment scenario whose container args are the
// flow list args (written on line 16).
func argsScenario(args string) string {
	return `name: big
duration: 10s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: web
          image: nginx
          args: ` + args + "\n"
}

// TestValidateAndRunAgree: what run would refuse, validate refuses first, at
// the same place and with the same words, and neither does the work.
func TestValidateAndRunAgree(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, content, want string
	}{
		// 62 KB that expand to 220 MB (2.5 GB and 10 s in run before the byte
		// budget; validate said ok).
		{"aliases beyond 4 MiB", argsScenario(`[&a "` + strings.Repeat("x", 40_000) + `"` + strings.Repeat(", *a", 5_500) + "]"),
			":16:40437: excessive aliasing: alias *a expands the document beyond 4 MiB, the limit of a file (the file has 62,312 bytes; its aliases up to here add 4,160,208)"},
		// kubectl apply stores the manifest in an annotation, which 300 KB
		// of args make larger than the 256 KiB that annotations may hold.
		{"an object too large for kubectl apply's annotation", argsScenario(`["` + strings.Repeat("x", 300_000) + `"]`),
			":6:3: The Deployment \"web\" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := writeFile(t, "big.yaml", tc.content)
			for _, cmd := range [][]string{{"validate", f}, {"run", f}} {
				code, out, errOut := runCLI(t, cmd...)
				assert.Equal(t, exitBadInput, code, "%v", cmd)
				assert.Empty(t, out, "%v", cmd)
				require.Equal(t, f+tc.want+"\n", errOut, "%v", cmd)
			}
		})
	}
}

// TestProblemOutputIsCapped: one bad anchor aliased 5,000 times is 5,001
// problems; every command prints the first 100 and a count of the rest.
// (The cap does not depend on the count: core/session's tests flood with
// 60,000, which each of the four commands here took seconds to parse.)
func TestProblemOutputIsCapped(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "flood.yaml", simtest.AliasFloodYAML(5_000))
	for _, cmd := range [][]string{{"validate", f}, {"run", f}, {"share", f}, {"kubectl", "--scenario", f, "get", "pods"}} {
		code, out, errOut := runCLI(t, cmd...)
		assert.Equal(t, exitBadInput, code, "%v", cmd)
		assert.Empty(t, out, "%v", cmd)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		require.Equal(t, 101, len(lines), "%v", cmd)
		assert.Equal(t, f+":16:18: cannot decode a mapping into spec.template.spec.containers[0].args[0] (a string)", lines[0], "%v", cmd)
		assert.Equal(t, "... and 4,901 more problems", lines[100], "%v", cmd)
	}
}
