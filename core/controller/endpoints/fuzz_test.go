package endpoints

import (
	"strings"
	"testing"

	"converge/core/api"
)

// FuzzIPOrderKey checks that two addresses the key accepts order as their
// strings do, and that nothing panics.
func FuzzIPOrderKey(f *testing.F) {
	for _, s := range [][2]string{{"10.244.1.10", "10.244.1.9"}, {"1.2.3.4", "1.2.3.4"}, {"", "0"}, {"fd00::1", "10.0.0.1"}, {"999999999999999", "1"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ka, okA := ipOrderKey(a)
		kb, okB := ipOrderKey(b)
		if !okA || !okB {
			return
		}
		if c := strings.Compare(a, b); (c < 0) != (ka < kb) || (c == 0) != (ka == kb) {
			t.Fatalf("%q vs %q: strings compare %d, keys %x %x", a, b, c, ka, kb)
		}
	})
}

// FuzzRequestsPerSecond checks the annotation is read without panics and
// stays within bounds.
func FuzzRequestsPerSecond(f *testing.F) {
	for _, s := range []string{"100", "0", "-1", "1e3", "99999999999999999999", " 5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		n := RequestsPerSecond(&api.Service{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{AnnotationRequestsPerSecond: v}}})
		if n < 0 || n > maxRequestsPerSecond {
			t.Fatalf("%q gave %d", v, n)
		}
	})
}
