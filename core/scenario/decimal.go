package scenario

import (
	"math"
	"strconv"
	"strings"

	"converge/core/manifest"
)

// decimal is a number held exactly, for expect's comparisons: 0.digits ×
// 10^exp, negative when neg, with no leading or trailing zeros in digits
// ("" is zero, never negative). 1500 is {digits "15", exp 4}; -0.025 is
// {neg, "25", -1}. Comparing two needs no arithmetic (cmp), and so no
// math/big, which stays out of the page's wasm (docs/performance.md).
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// parseDecimal reads a JSON number exactly. A number of more than 64
// characters, or with an exponent beyond ±400, is refused, so that
// "1e999999999" means nothing rather than a giant number.
func parseDecimal(s string) (decimal, bool) {
	if len(s) > 64 || !manifest.IsJSONNumber(s) {
		return decimal{}, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || exp > 400 || exp < -400 {
			return decimal{}, false
		}
	}
	return decimalOf(s), true
}

// decimalOf reads a number in JSON's syntax, of any length.
func decimalOf(s string) decimal {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, _ = strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		s = s[:i]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	// value = digits × 10^(exp - len(frac)) = 0.digits × 10^(that + len(digits))
	exp += len(digits) - len(frac)
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return decimal{}
	}
	return decimal{neg: neg, digits: digits, exp: exp}
}

// floatDecimal is f exactly (a float64 has at most 767 significant
// decimal digits, so 800 lose nothing); NaN and the infinities are not
// numbers to compare.
func floatDecimal(f float64) (decimal, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return decimal{}, false
	}
	return decimalOf(strconv.FormatFloat(f, 'e', 800, 64)), true
}

func (d decimal) sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmp is -1, 0 or 1 as d is less than, equal to or greater than e.
func (d decimal) cmp(e decimal) int {
	ds, es := d.sign(), e.sign()
	switch {
	case ds != es:
		return cmpInt(ds, es)
	case ds == 0:
		return 0
	case d.exp != e.exp:
		return ds * cmpInt(d.exp, e.exp)
	}
	// Same exponent: the digits compare as text, a missing digit being a 0.
	return ds * strings.Compare(d.digits, e.digits)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
