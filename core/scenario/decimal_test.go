package scenario

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decimalSamples are numbers whose order only exact arithmetic gets right.
var decimalSamples = []string{
	"0", "-0", "0.0", "0e5", "1", "-1", "1.0", "10", "1e1", "0.1", "1e-1", "100e-3", "0.10", "-0.10",
	"0.30000000000000004", "0.3", "0.30000000000000001", "9007199254740993", "9007199254740992",
	"1e400", "-1e400", "1e-400", "123.456e2", "12345.6", "12345.600000000000000000000000000001",
	"99999999999999999999999999999999999999999999999999999999999999", "5e-324", "2.5", "25e-1", "-25E-1",
}

// cmp orders numbers as math/big's rationals do, the arithmetic expect used
// first.
func TestDecimalOrderIsExact(t *testing.T) {
	t.Parallel()
	for _, a := range decimalSamples {
		for _, b := range decimalSamples {
			da, okA := parseDecimal(a)
			db, okB := parseDecimal(b)
			require.True(t, okA && okB, "%s, %s", a, b)
			ra, _ := new(big.Rat).SetString(a)
			rb, _ := new(big.Rat).SetString(b)
			assert.Equal(t, ra.Cmp(rb), da.cmp(db), "%s <=> %s", a, b)
		}
	}
}

// A float64 compares as its exact binary value, which math/big's
// SetFloat64 also gives: float64(0.1) is a little more than 0.1.
func TestFloatDecimalIsExact(t *testing.T) {
	t.Parallel()
	floats := []float64{0, 0.1, -0.1, 1, 1e300, 5e-324, math.MaxFloat64, -math.SmallestNonzeroFloat64, 0.30000000000000004, 123456789}
	for _, f := range floats {
		df, ok := floatDecimal(f)
		require.True(t, ok)
		rf := new(big.Rat).SetFloat64(f)
		for _, s := range decimalSamples {
			ds, _ := parseDecimal(s)
			rs, _ := new(big.Rat).SetString(s)
			assert.Equal(t, rf.Cmp(rs), df.cmp(ds), "%v <=> %s", f, s)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, ok := floatDecimal(f)
		assert.False(t, ok, "%v", f)
	}
}

func TestParseDecimalRefusesWhatExpectRefuses(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"1e401", "1e-401", "1e99999999999999999999", "01", "1.", ".5", "+1", "0x10", "", "1" + string(make([]byte, 64))} {
		_, ok := parseDecimal(s)
		assert.False(t, ok, "%q", s)
	}
}

func FuzzDecimalOrder(f *testing.F) {
	f.Add("0.1", "1e-1")
	f.Add("-2.5", "-25E-1")
	f.Fuzz(func(t *testing.T, a, b string) {
		da, okA := parseDecimal(a)
		db, okB := parseDecimal(b)
		if !okA || !okB {
			return
		}
		ra, _ := new(big.Rat).SetString(a)
		rb, _ := new(big.Rat).SetString(b)
		if got, want := da.cmp(db), ra.Cmp(rb); got != want {
			t.Fatalf("%s <=> %s: %d, want %d", a, b, got, want)
		}
	})
}
