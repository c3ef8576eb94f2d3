package yamlprint

import (
	"testing"

	"converge/internal/matchtest"
)

// The expressions of go-yaml (v2's resolve.go and encode.go, v3's the same)
// that isYAMLStyleFloat and isYAMLBase60Float replace.
const (
	yamlStyleFloatExpr = `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
	base60FloatExpr    = `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
)

func TestSyntaxMatchersAreTheExpressions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		expr     string
		match    func(string) bool
		alphabet string
		extra    []string
	}{
		{name: "float", expr: yamlStyleFloatExpr, match: isYAMLStyleFloat, alphabet: "09.eE+-x",
			extra: []string{"1.5", "-.5e+10", "+1.", "1e", ".e1", "1.5e-3", "1_000.5", "0x1p3", "\n1", "1\n"}},
		{name: "base-60 float", expr: base60FloatExpr, match: isYAMLBase60Float, alphabet: "0569:._-x",
			extra: []string{"190:20:30.15", "1:60", "1:59", "1:5:59.", "+1_0:00", "-1:2:3", "1::2", "1:234", "1:2\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			matchtest.Exhaustive(t, tc.expr, tc.match, tc.alphabet, 6, tc.extra...)
		})
	}
}

func FuzzSyntaxMatchers(f *testing.F) {
	for _, s := range []string{"1.5", "190:20:30.15", "1:60", "-.5e+10", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		matchtest.Same(t, yamlStyleFloatExpr, isYAMLStyleFloat, s)
		matchtest.Same(t, base60FloatExpr, isYAMLBase60Float, s)
	})
}
