package manifest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// configMapAliasing is a ConfigMap whose data.a is a string of n bytes
// anchored as &a, and whose next keys alias it once each (line 6 on), with
// pad bytes of comment after the head.
func configMapAliasing(n, aliases, pad int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")
	if pad > 0 {
		b.WriteString("# " + strings.Repeat("p", pad) + "\n")
	}
	b.WriteString("data:\n  a: &a \"" + strings.Repeat("x", n) + "\"\n")
	for i := range aliases {
		b.WriteString("  k" + string(rune('0'+i)) + ": *a\n")
	}
	return b.String()
}

// TestAliasExpansionIsCountedInBytes: what aliases add to a stream counts
// against the same 4 MiB as the file itself (MaxFileSize), and the one
// problem is at the alias that goes over.
func TestAliasExpansionIsCountedInBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string // nil: decodes without a problem
	}{
		// 800,104 bytes of file and 4 x 800,002 of aliases: 4,000,112 in all.
		{"an 800 KB string aliased four times fits", configMapAliasing(800_000, 4, 0), nil},
		// 1,000,104 + 3 x 1,000,002 fit; the fourth alias (line 9) does not.
		{"a 1 MB string aliased four times is refused at the fourth alias", configMapAliasing(1_000_000, 4, 0),
			[]string{"m.yaml:9:7: excessive aliasing: alias *a expands the document beyond 4 MiB, the limit of a file " +
				"(the file has 1,000,104 bytes; its aliases up to here add 4,000,008)"}},
		// The file's own bytes count: 200 KB of comment tips the first case over.
		{"the file's own bytes count", configMapAliasing(800_000, 4, 200_000),
			[]string{"m.yaml:10:7: excessive aliasing: alias *a expands the document beyond 4 MiB, the limit of a file " +
				"(the file has 1,000,107 bytes; its aliases up to here add 3,200,008)"}},
		// 40,000 bytes aliased 5,500 times on one line: 62 KB that expand to 220 MB.
		{"a flow list of aliases", "args: [&a \"" + strings.Repeat("x", 40_000) + "\"" + strings.Repeat(", *a", 5_500) + "]\n",
			[]string{"m.yaml:1:40427: excessive aliasing: alias *a expands the document beyond 4 MiB, the limit of a file " +
				"(the file has 62,014 bytes; its aliases up to here add 4,160,208)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, probs := ParseDocuments([]byte(tc.in), "m.yaml")
			if tc.want == nil {
				require.Empty(t, problemStrings(probs))
				return
			}
			assert.Equal(t, tc.want, problemStrings(probs))
		})
	}
}

// TestAliasBudgetIsSharedByTheDocumentsOfAStream: two documents that each
// fit do not fit together.
func TestAliasBudgetIsSharedByTheDocumentsOfAStream(t *testing.T) {
	t.Parallel()
	one := configMapAliasing(600_000, 3, 0)
	_, probs := ParseDocuments([]byte(one), "m.yaml")
	require.Empty(t, probs)
	_, probs = ParseDocuments([]byte(one+"---\n"+one), "m.yaml")
	require.Len(t, probs, 1)
	assert.Equal(t, Position{Line: 16, Col: 7}, Position{Line: probs[0].Line, Col: probs[0].Col}, probs[0].String())
}

// TestExpandKeepsToTheByteBudget: Expand on its own (a node that did not
// come through ParseDocuments) refuses the same expansions.
func TestExpandKeepsToTheByteBudget(t *testing.T) {
	t.Parallel()
	docs, probs := ParseDocuments([]byte("a: &a \""+strings.Repeat("x", 1<<20)+"\"\nb: [*a, *a]\n"), "m.yaml")
	require.Empty(t, probs)
	require.Len(t, docs, 1)
	// Four copies of the 1 MiB string go beyond 4 MiB.
	doc := docs[0]
	list := doc.Content[0].Content[3]
	list.Content = append(list.Content, list.Content[0], list.Content[0])
	_, probs = Expand(doc, "m.yaml")
	require.Len(t, probs, 1)
	assert.Equal(t, "m.yaml:2:5: excessive aliasing: alias *a expands the document beyond 4 MiB, the limit of a file", probs[0].String())
}
