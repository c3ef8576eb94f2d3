package manifest

import (
	"strings"

	"converge/core/spell"
)

// Suggest returns the candidate closest to s, for "did you mean" hints: one
// that differs only in case, or else the nearest within an edit distance of
// 1 for short names and 2 for names of five or more letters, counted by
// spell.Distance with transpositions (a swapped pair of letters is one
// edit). Ties go to the earliest candidate. It returns "" when nothing is
// close.
func Suggest(s string, candidates []string) string {
	for _, c := range candidates {
		if strings.EqualFold(c, s) && c != s {
			return c
		}
	}
	limit := 1
	if len(s) >= 5 {
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, c := range candidates {
		if c == s {
			continue
		}
		if d := spell.Distance(strings.ToLower(s), strings.ToLower(c), spell.Options{Transpositions: true, Limit: bestDist}); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
