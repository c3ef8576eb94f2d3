package kubectl

import (
	"testing"

	"converge/internal/matchtest"
)

// isEnvName and isConfigMapKeyName are the expressions of kubectl's
// messages (msgEnvKeyFormat, msgConfigMapKeyFormat), written out: the
// page's wasm links no regexp (docs/performance.md).
func TestNameMatchersAreTheExpressions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		expr  string
		match func(string) bool
	}{
		{name: "env name", expr: `^[-._a-zA-Z][-._a-zA-Z0-9]*$`, match: isEnvName},
		{name: "config map key", expr: `^[-._a-zA-Z0-9]+$`, match: isConfigMapKeyName},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			matchtest.Exhaustive(t, tc.expr, tc.match, "aZ09-._=/ ", 4, "MY_ENV.NAME", "1abc", "key\n", "é")
		})
	}
}
