package replicaset

import (
	"strconv"
	"testing"

	"converge/core/api"
)

// FuzzDeletionCost checks that any annotation value parses without a panic
// to 0 or to the int32 it spells, never from a value with a plus sign or a
// leading zero (Kubernetes accepts "-01" as -1, though).
func FuzzDeletionCost(f *testing.F) {
	for _, seed := range []string{"10", "+10", "008", "-5", "0", "", "abc", "2147483648", "-2147483648", "1e3", " 1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got := deletionCost(map[string]string{api.PodDeletionCostAnnotation: v})
		if got == 0 {
			return
		}
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || int32(n) != got || v[0] == '+' || v[0] == '0' {
			t.Fatalf("deletionCost(%q) = %d, want 0 or the canonical int32", v, got)
		}
	})
}
