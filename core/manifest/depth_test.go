package manifest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deepPod is a Pod whose affinity (a free-form field) holds n mappings
// nested in flow style, {a: {a: ... {}}}, on line 5 from column 13; the
// affinity itself is at depth 3 (the document, spec, affinity).
func deepPod(n int) string {
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  affinity: " +
		strings.Repeat("{a: ", n) + "{}" + strings.Repeat("}", n) + "\n  containers: [{name: c, image: nginx}]\n"
}

// The one nesting limit, checked as a document is read: a document nested
// deeper than MaxDepth is refused at the first node beyond it, with its
// line and column; aliases count as the nodes they stand for.
func TestNestingDeeperThanTheLimitIsRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		problem string // "" when it loads
	}{
		{"up to the limit", deepPod(MaxDepth - 3), ""},
		{"one beyond", deepPod(MaxDepth - 2),
			"deep.yaml:5:" + itoa(13+4*(MaxDepth-2)) + ": nesting too deep: a mapping nests more than 100 levels down, the limit of a document"},
		{"3,000 deep, the issue's file", deepPod(3000),
			"deep.yaml:5:" + itoa(13+4*(MaxDepth-2)) + ": nesting too deep: a mapping nests more than 100 levels down, the limit of a document"},
		{"lists", "a: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n",
			"deep.yaml:1:" + itoa(4+MaxDepth-1) + ": nesting too deep: a list nests more than 100 levels down, the limit of a document"},
		{"JSON", strings.Repeat(`{"a":`, 150) + "1" + strings.Repeat("}", 150),
			"deep.yaml:1:" + itoa(1+5*MaxDepth) + ": nesting too deep: a mapping nests more than 100 levels down, the limit of a document"},
		{"an alias that stands for deep nesting", "x: &d " + strings.Repeat("[", 60) + strings.Repeat("]", 60) + "\ny: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: *d}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}\n",
			"nesting too deep: alias *d, which nests more than 100 levels down, the limit of a document"},
		{"an alias within the limit", "x: &d [[[]]]\ny: [*d, *d, {a: *d}]\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, probs := ParseDocuments([]byte(tt.in), "deep.yaml")
			if tt.problem == "" {
				assert.Empty(t, probs)
				return
			}
			require.Len(t, probs, 1)
			assert.Contains(t, probs[0].String(), tt.problem)
		})
	}
}

func itoa(n int) string { return Thousands(int64(n)) }
