package api

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// parseMilliRat is parseMilli as it was written first, on math/big
// rationals: the oracle the exact digit arithmetic of milli is checked
// against (math/big stays out of the page's wasm, docs/performance.md).
func parseMilliRat(s string) (int64, error) {
	if s == "" || len(s) > 64 {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	value, suffix, ok := splitQuantity(s)
	if !ok {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(value, "+"))
	if !ok {
		r = new(big.Rat)
	}
	if exp10, exp2, known := suffixExp(suffix); known {
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), exp2)))
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(exp10, -exp10))), nil))
		if exp10 < 0 {
			r.Quo(r, p)
		} else {
			r.Mul(r, p)
		}
	} else if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		n, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s", errSuffix)
		}
		if n > 30 {
			return 0, fmt.Errorf("quantity %q is too large", s)
		}
		n = max(n, -30)
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(max(n, -n)), nil))
		if n < 0 {
			r.Quo(r, p)
		} else {
			r.Mul(r, p)
		}
	} else {
		return 0, fmt.Errorf("%s", errSuffix)
	}
	r.Mul(r, big.NewRat(1000, 1))
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if new(big.Rat).SetInt(q).Cmp(r) < 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() > math.MaxInt64/2 || q.Int64() < math.MinInt64/2 {
		return 0, fmt.Errorf("quantity %q is too large", s)
	}
	return q.Int64(), nil
}

// quantityEdges are the inputs where exact arithmetic could go wrong: the
// rounding of every suffix, the ±2^62 bounds, long digit strings.
var quantityEdges = []string{
	"0", "-0", "1", "-1", "+1", ".5", "-.5", "5.", "0.0001", "-0.0001", "1n", "-1n", "999999n", "1000000n", "1u", "1m",
	"1.5Gi", "0.5Ki", "1Ei", "3Ei", "4Ei", "-4Ei", "0.1Ki", "0.001Ki", "0.0009765625Ki", "0.00048828125Ki",
	"4611686018427387903m", "4611686018427387904m", "-4611686018427387904m", "-4611686018427387905m",
	"4611686018427387.903", "4611686018427387.9031", "4611686018427387.9029", "-4611686018427387.904", "-4611686018427387.9041",
	"4.611686018427387903e15", "1e30", "1e31", "1e-30", "1e-31", "-1e-31", "1e-400", "9e15", "1E", "2E", "5E", "-4E",
	"1e", "1e+3", "1E-2", "Gi", "+", ".", "-", "-.", "00010", "0000000000000000000000000000000000000000000001",
	"1.0000000000000000000000000000000000000000000000000000000000001", "123456789012345678901234567890",
	"0.000000000000000000000000000000000000000001Ei", "1Mi5", "1mm", "1K", "abc", "",
}

func TestMilliIsExact(t *testing.T) {
	t.Parallel()
	for _, s := range quantityEdges {
		t.Run(s, func(t *testing.T) {
			t.Parallel()
			got, gotErr := parseMilli(s)
			want, wantErr := parseMilliRat(s)
			assert.Equal(t, want, got)
			assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr))
		})
	}
}

func FuzzMilliIsExact(f *testing.F) {
	for _, s := range quantityEdges {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gotErr := parseMilli(s)
		want, wantErr := parseMilliRat(s)
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("parseMilli(%q) = %d, %v; the rational arithmetic gives %d, %v", s, got, gotErr, want, wantErr)
		}
	})
}
