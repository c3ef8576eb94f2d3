package view

import (
	"strconv"
	"strings"
)

// DiffLine is one line of a line diff.
type DiffLine struct {
	// Key is the line's position in the diff ("0", "1", ...).
	Key string
	// Op is ' ' (in both), '-' (only in the first) or '+' (only in the second).
	Op   byte
	Text string
}

// maxDiffCells bounds the work of one diff (lines of a × lines of b); past
// it the diff is "all of a removed, all of b added".
const maxDiffCells = 1 << 20

// LineDiff returns the shortest line diff from a to b (a longest common
// subsequence), removals before additions at each change.
func LineDiff(a, b string) []DiffLine {
	la, lb := splitLines(a), splitLines(b)
	n, m := len(la), len(lb)
	var out []DiffLine
	add := func(op byte, text string) {
		out = append(out, DiffLine{Key: strconv.Itoa(len(out)), Op: op, Text: text})
	}
	if n*m > maxDiffCells {
		for _, l := range la {
			add('-', l)
		}
		for _, l := range lb {
			add('+', l)
		}
		return out
	}
	// lcs[i][j] is the LCS length of la[i:] and lb[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if la[i] == lb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && la[i] == lb[j]:
			add(' ', la[i])
			i++
			j++
		case j >= m || i < n && lcs[i+1][j] >= lcs[i][j+1]:
			add('-', la[i])
			i++
		default:
			add('+', lb[j])
			j++
		}
	}
	return out
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
