package spell_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/spell"
)

var (
	levenshtein = spell.Options{}
	osa         = spell.Options{Transpositions: true}
)

func TestDistance(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 70)
	tests := []struct {
		name string
		a, b string
		o    spell.Options
		want int
	}{
		{"equal", "get", "get", levenshtein, 0},
		{"both empty", "", "", levenshtein, 0},
		{"from empty", "", "get", levenshtein, 3},
		{"substitution", "gat", "get", levenshtein, 1},
		{"insertion", "gt", "get", levenshtein, 1},
		{"deletion", "gett", "get", levenshtein, 1},
		{"case counts", "Get", "get", levenshtein, 1},
		{"a swap is two edits for cobra", "gte", "get", levenshtein, 2},
		{"a swap is one edit with transpositions", "gte", "get", osa, 1},
		{"two swaps: kubectl would not suggest", "edscrbie", "describe", levenshtein, 4},
		{"two swaps with transpositions", "edscrbie", "describe", osa, 2},
		{"optimal string alignment, not Damerau", "ca", "abc", osa, 3},
		{"limit: lengths too far apart", "rep", "replicas", spell.Options{Transpositions: true, Limit: 3}, 3},
		{"limit: exact below it", "relpicas", "replicas", spell.Options{Transpositions: true, Limit: 3}, 1},
		{"limit: long words are never close", long, long[1:] + "b", spell.Options{Transpositions: true, Limit: 2}, 2},
		{"no limit: long words are compared", long, long[1:] + "b", levenshtein, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, spell.Distance(tc.a, tc.b, tc.o))
			assert.Equal(t, tc.want, spell.Distance(tc.b, tc.a, tc.o), "symmetric")
		})
	}
}

// TestDistanceMatchesTheTwoItReplaced compares Distance, on every pair of
// words of up to four letters over a three-letter alphabet, with the two
// implementations it replaced: kubectl's Levenshtein distance and the
// manifest decoder's bounded optimal string alignment distance.
func TestDistanceMatchesTheTwoItReplaced(t *testing.T) {
	t.Parallel()
	words := []string{""}
	for n := 0; n < len(words); n++ {
		if len(words[n]) < 4 {
			for _, c := range "abc" {
				words = append(words, words[n]+string(c))
			}
		}
	}
	for _, a := range words {
		for _, b := range words {
			if got, want := spell.Distance(a, b, levenshtein), oldLevenshtein(a, b); got != want {
				t.Fatalf("Levenshtein(%q, %q) = %d, want %d", a, b, got, want)
			}
			for limit := 1; limit <= 3; limit++ {
				o := spell.Options{Transpositions: true, Limit: limit}
				if got, want := spell.Distance(a, b, o), oldEditDistance(a, b, limit); got != want {
					t.Fatalf("OSA(%q, %q, limit %d) = %d, want %d", a, b, limit, got, want)
				}
			}
		}
	}
}

// oldLevenshtein is kubectl's former levenshtein, verbatim.
func oldLevenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// oldEditDistance is the manifest decoder's former editDistance, verbatim.
func oldEditDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	if len(a) > 64 || len(b) > 64 {
		return limit
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
