// Package matchtest checks a hand-written matcher against the regular
// expression it replaces. The page's wasm links no regexp package
// (docs/performance.md), so the few expressions the simulator needs are
// written out as functions; each one's tests call Exhaustive, and its
// fuzz target Same, with the expression as the oracle.
package matchtest

import (
	"regexp"
	"testing"
)

// Exhaustive checks that match agrees with expr on every string of at most
// maxLen bytes drawn from alphabet (choose the bytes the expression cares
// about and one it does not), and on extra.
func Exhaustive(t *testing.T, expr string, match func(string) bool, alphabet string, maxLen int, extra ...string) {
	t.Helper()
	re := regexp.MustCompile(expr)
	check := func(s string) bool {
		if got, want := match(s), re.MatchString(s); got != want {
			t.Errorf("%q: the matcher says %v, %s says %v", s, got, expr, want)
			return false
		}
		return true
	}
	for _, s := range extra {
		check(s)
	}
	buf := make([]byte, 0, maxLen)
	var walk func() bool
	walk = func() bool {
		if !check(string(buf)) {
			return false
		}
		if len(buf) == maxLen {
			return true
		}
		for i := 0; i < len(alphabet); i++ {
			buf = append(buf, alphabet[i])
			ok := walk()
			buf = buf[:len(buf)-1]
			if !ok {
				return false
			}
		}
		return true
	}
	walk()
}

// Same fails t when match and expr disagree on s (for fuzz targets).
func Same(t *testing.T, expr string, match func(string) bool, s string) {
	t.Helper()
	if got, want := match(s), regexp.MustCompile(expr).MatchString(s); got != want {
		t.Fatalf("%q: the matcher says %v, %s says %v", s, got, expr, want)
	}
}
