package k8sdiff

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// The families below TestK8sDiff and TestHPADiff each drive one piece of
// Kubernetes' machinery that a sync relies on, or one decision upstream
// makes in a pure function, against Converge's (TestDiffEvents,
// TestDiffQueue, TestDiffPDB, TestDiffQuota, TestDiffRequeue,
// TestDiffExpectations). They share this tally: each
// prints its line of cases in the harness's totals and fails on any case
// that differs, showing the first few.

// family tallies one family's cases.
type family struct {
	name  string
	start time.Time
	mu    sync.Mutex
	cases int
	equal int
	notes map[string]int // what the cases exercised, for the report
	diffs []string
}

func newFamily(name string) *family {
	return &family{name: name, start: time.Now(), notes: map[string]int{}}
}

// add records one case: diff is "" when the two sides agree.
func (f *family) add(diff string, notes ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cases++
	for _, n := range notes {
		f.notes[n]++
	}
	if diff == "" {
		f.equal++
		return
	}
	if len(f.diffs) < 8 {
		f.diffs = append(f.diffs, diff)
	}
}

// finish prints the family's line and fails the test on differences.
func (f *family) finish(t *testing.T) {
	t.Helper()
	fmt.Printf("\nk8sdiff: %s\n", f.name)
	fmt.Printf("  %-34s %6d cases, %6d equal, %d differing (%.1fs)\n", f.name+":", f.cases, f.equal, f.cases-f.equal, time.Since(f.start).Seconds())
	if len(f.notes) > 0 {
		var ns []string
		for _, k := range sortedKeys(f.notes) {
			ns = append(ns, fmt.Sprintf("%s %d", k, f.notes[k]))
		}
		fmt.Printf("  exercised: %s\n", strings.Join(ns, ", "))
	}
	for _, d := range f.diffs {
		fmt.Printf("  -- %s\n", strings.ReplaceAll(d, "\n", "\n     "))
	}
	if f.equal != f.cases {
		t.Errorf("%s: %d of %d cases differ; see the report above", f.name, f.cases-f.equal, f.cases)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// lineDiff shows two line lists side by side where they differ.
func lineDiff(kubeName string, kube []string, convName string, conv []string) string {
	var b strings.Builder
	n := max(len(kube), len(conv))
	for i := range n {
		var k, c string
		if i < len(kube) {
			k = kube[i]
		}
		if i < len(conv) {
			c = conv[i]
		}
		if k != c {
			fmt.Fprintf(&b, "\n%s: %s\n%s: %s", kubeName, k, convName, c)
		}
	}
	return b.String()
}
