// Package spell measures how far apart two words are, for the "did you
// mean" hints of kubectl and of the manifest and scenario decoders. There is
// one edit distance, with two ways of counting:
//
//   - Levenshtein: insertions, deletions and substitutions. kubectl's
//     "Did you mean this?" after an unknown command is cobra's, and cobra
//     counts this way; Converge prints kubectl's texts as kubectl does, so
//     it must suggest exactly the commands kubectl suggests.
//   - Levenshtein with Transpositions (the optimal string alignment
//     distance): a swapped pair of neighbouring letters ("relpicas") is one
//     edit, not two. The manifest decoder and the scenario parser, whose
//     hints are Converge's own, count this way, since a swap is the most
//     common typo in a field name.
//
// Distances are over bytes, and case-sensitive: callers that ignore case
// lower-case both words first.
package spell

// Options are how Distance counts.
type Options struct {
	// Transpositions counts swapping two adjacent bytes as one edit.
	Transpositions bool
	// Limit, when above 0, bounds the work: once the distance is known to
	// be at least Limit (the lengths alone differ by Limit or more, or a
	// word is longer than 64 bytes and so no typo of a name), Distance
	// returns Limit at once. Below Limit the result is exact.
	Limit int
}

// maxBounded is the longest word a bounded Distance compares.
const maxBounded = 64

// Distance is the edit distance between a and b, counted as o says.
func Distance(a, b string, o Options) int {
	if o.Limit > 0 {
		if d := len(a) - len(b); d >= o.Limit || -d >= o.Limit {
			return o.Limit
		}
		if len(a) > maxBounded || len(b) > maxBounded {
			return o.Limit
		}
	}
	// prev2, prev and cur are the rows i-2, i-1 and i of the usual table.
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
			if o.Transpositions && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
