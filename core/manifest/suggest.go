package manifest

import "strings"

// Suggest returns the candidate closest to s, for "did you mean" hints: one
// that differs only in case, or else the nearest within an edit distance of
// 1 for short names and 2 for names of five or more letters (a transposition
// counts as one edit). Ties go to the earliest candidate. It returns "" when
// nothing is close.
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
		if d := editDistance(strings.ToLower(s), strings.ToLower(c), bestDist); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and adjacent transpositions), or
// some value ≥ limit once it is known to be at least limit.
func editDistance(a, b string, limit int) int {
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
