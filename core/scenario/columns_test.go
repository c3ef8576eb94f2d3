package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quotedErrors is a scenario whose steps are written on one line, n flow
// mappings each with a quoted expect that has an unknown operator: n
// problems, each placed inside a quoted string on the same line.
func quotedErrors(n int) string {
	item := `{at: 1s, expect: "deployment/web .status.x ~= 3"}`
	return "name: q\nsteps: [" + strings.TrimSuffix(strings.Repeat(item+", ", n), ", ") + "]\n"
}

// TestQuotedErrorPositionsOnOneLine: many problems inside quoted strings of
// one long line, some after multi-byte characters and escapes, each at its
// column.
func TestQuotedErrorPositionsOnOneLine(t *testing.T) {
	t.Parallel()
	in := "name: q\nsteps: [" +
		`{at: 1s, expect: "deployment/web .status.x ~= 3"}, ` +
		`{at: 2s, expect: 'deployment/wéb .status.x ~= 3'}, ` +
		`{at: 3s, expect: "deployment/w\u00e9b .status.x ~= 3"}, ` +
		`{at: 4s, expect: 'it''s .status.x ~= 3'}]` + "\n"
	_, probs := Parse([]byte(in), "q.yaml")
	var got []string
	for _, p := range probs {
		got = append(got, fmt.Sprintf("%d:%d", p.Line, p.Col))
	}
	// The operator ~= is at these columns of line 2, in characters: after
	// "é" (two bytes, one column) and "\u00e9" (six columns for two bytes);
	// the last problem is at the start of 'it''s'.
	assert.Equal(t, []string{"2:52", "2:103", "2:159", "2:185"}, got, "%v", probs)
}

// TestColumnsAreFoundInOnePassPerLine: placing n problems on one line reads
// that line a bounded number of times, not once per problem.
func TestColumnsAreFoundInOnePassPerLine(t *testing.T) {
	t.Parallel()
	for _, n := range []int{100, 1000, 4000} {
		in := quotedErrors(n)
		_, probs := Parse([]byte(in), "q.yaml")
		require.Len(t, probs, n)
		cols := newColumns([]byte(in))
		_, probs = parse([]byte(in), "q.yaml", cols)
		require.Len(t, probs, n)
		assert.LessOrEqual(t, cols.scanned, 2*len(in), "n=%d: %d bytes scanned for a %d-byte file", n, cols.scanned, len(in))
	}
}

// BenchmarkQuotedErrorPositions: one long line of quoted expects, each with
// a problem, at 100 KB to 800 KB. ns/op grows linearly with the size (it
// grew with its square: 820 KB took 8.6 s).
func BenchmarkQuotedErrorPositions(b *testing.B) {
	for _, kb := range []int{100, 200, 400, 800} {
		in := []byte(quotedErrors(kb * 1000 / 51))
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, probs := Parse(in, "q.yaml"); !probs.HasErrors() {
					b.Fatal("no problems")
				}
			}
		})
	}
}

// TestColumnsOnEveryKindOfLineBreak: YAML breaks lines at CR LF, CR and LF
// (and, as libyaml does, at NEL, LS and PS): a problem inside a quoted
// string is at its column whichever a file uses.
func TestColumnsOnEveryKindOfLineBreak(t *testing.T) {
	t.Parallel()
	for _, br := range []string{"\n", "\r\n", "\r", "\u0085", "\u2028"} {
		in := "name: q" + br + `steps: [{at: 1s, expect: "deployment/web .x ~= 3"}]` + br
		_, probs := Parse([]byte(in), "q.yaml")
		require.Len(t, probs, 1, "%q", br)
		assert.Equal(t, "2:45", fmt.Sprintf("%d:%d", probs[0].Line, probs[0].Col), "%q: %s", br, probs[0])
	}
}
