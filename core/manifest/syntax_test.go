package manifest

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/internal/matchtest"
)

// The expressions the hand-written matchers of this package replace (the
// page's wasm links no regexp, docs/performance.md).
const jsonNumberExpr = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`

var (
	lineExpr   = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	anchorExpr = regexp.MustCompile(`unknown anchor '(.*)' referenced`)
)

func TestIsJSONNumberIsTheExpression(t *testing.T) {
	t.Parallel()
	matchtest.Exhaustive(t, jsonNumberExpr, IsJSONNumber, "019.eE+-x", 6,
		"0.50", "-0", "01", "1.", ".5", "1e", "1e+", "1E-07", "-", "12345678901234567890.5e-300", "1\n")
}

func FuzzIsJSONNumber(f *testing.F) {
	for _, s := range []string{"0.50", "-1e+3", "01", "1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { matchtest.Same(t, jsonNumberExpr, IsJSONNumber, s) })
}

// lineError and unknownAnchor read what the expressions' submatches read.
func TestParserErrorsAreReadAsTheExpressions(t *testing.T) {
	t.Parallel()
	for _, msg := range parserErrorSamples {
		t.Run(msg, func(t *testing.T) {
			t.Parallel()
			checkParserError(t, msg)
		})
	}
}

var parserErrorSamples = []string{
	"yaml: line 3: could not find expected ':'",
	"yaml: line 12: mapping values are not allowed in this context",
	"yaml: line : x", "yaml: line 3:x", "yaml: line 3: two\nlines", "yaml: line 99999999999999999999: big",
	"yaml: unknown anchor 'base' referenced", "yaml: unknown anchor 'a' referenced and 'b' referenced",
	"unknown anchor 'x\n' referenced", "unknown anchor 'x' unknown anchor 'y' referenced", "unknown anchor '' referenced",
	"yaml: did not find expected node content", "",
}

func checkParserError(t *testing.T, msg string) {
	t.Helper()
	line, rest, ok := lineError(msg)
	if m := lineExpr.FindStringSubmatch(msg); m != nil {
		want, err := strconv.Atoi(m[1])
		if err != nil {
			want = 0
		}
		assert.True(t, ok, "%q: lineError finds no line", msg)
		assert.Equal(t, want, line, "%q", msg)
		assert.Equal(t, m[2], rest, "%q", msg)
	} else {
		assert.False(t, ok, "%q: lineError finds a line where the expression does not", msg)
	}
	name, ok := unknownAnchor(msg)
	if m := anchorExpr.FindStringSubmatch(msg); m != nil {
		assert.True(t, ok, "%q: unknownAnchor finds none", msg)
		assert.Equal(t, m[1], name, "%q", msg)
	} else {
		assert.False(t, ok, "%q: unknownAnchor finds one where the expression does not", msg)
	}
}

func FuzzParserErrors(f *testing.F) {
	for _, s := range parserErrorSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) { checkParserError(t, msg) })
}
