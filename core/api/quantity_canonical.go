package api

import (
	"math"
	"strconv"
	"strings"
)

// CanonicalString renders the quantity the way Kubernetes' Quantity.String
// does, which is what API error messages and `kubectl describe` print: "0.5"
// is "500m", "1.5" is "1500m", "1e3" stays "1e3", "2048Mi" is "2Gi" and
// "0.5Ki" is "512". The format follows the suffix the user wrote: binary
// (Ki ... Ei), decimal exponent (e3, E-2) or decimal SI (m, k, M ...); a
// binary value that is smaller than 1024 or not a whole number is printed as
// decimal SI. Converge keeps values in milli-units, so anything finer than
// 1m has already been rounded up to it.
func (q Quantity) CanonicalString() string {
	if q.milli == 0 {
		return "0"
	}
	switch suffixFormat(q.s) {
	case formatBinary:
		if q.milli%1000 == 0 && (q.milli >= 1024*1000 || q.milli <= -1024*1000) {
			units, exp := removeFactors(q.milli/1000, 1024)
			return strconv.FormatInt(units, 10) + binarySuffixes[exp]
		}
		return decimalCanonical(q.milli, false)
	case formatExponent:
		return decimalCanonical(q.milli, true)
	}
	return decimalCanonical(q.milli, false)
}

type quantityFormat int

const (
	formatDecimalSI quantityFormat = iota
	formatBinary
	formatExponent
)

// suffixFormat tells which notation a quantity was written in.
func suffixFormat(s string) quantityFormat {
	i := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.' || r == '+' || r == '-') })
	if i < 0 {
		return formatDecimalSI
	}
	suffix := s[i:]
	switch suffix {
	case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		return formatBinary
	case "E":
		return formatDecimalSI
	}
	if suffix[0] == 'e' || suffix[0] == 'E' {
		return formatExponent
	}
	return formatDecimalSI
}

var binarySuffixes = []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

var decimalSuffixes = map[int]string{-3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}

// decimalCanonical is int64Amount.AsCanonicalBytes: strip factors of ten,
// then bring the exponent down to a multiple of three.
func decimalCanonical(milli int64, exponent bool) string {
	mantissa, times := removeFactors(milli, 10)
	exp := times - 3
	switch exp % 3 {
	case 1, -2:
		mantissa *= 10
		exp--
	case 2, -1:
		mantissa *= 100
		exp -= 2
	}
	n := strconv.FormatInt(mantissa, 10)
	if exponent {
		if exp == 0 {
			return n
		}
		return n + "e" + strconv.Itoa(exp)
	}
	if suf, ok := decimalSuffixes[exp]; ok {
		return n + suf
	}
	return n + "e" + strconv.Itoa(exp)
}

// removeFactors divides v by base while it is a multiple of it (and at least
// base in size), counting the divisions.
func removeFactors(v, base int64) (int64, int) {
	neg := v < 0
	if neg {
		v = -v
	}
	times := 0
	for v >= base && v%base == 0 {
		v /= base
		times++
	}
	if neg {
		v = -v
	}
	return v, times
}

// NewMilliQuantity is resource.NewMilliQuantity followed by String: the
// quantity of milli milli-units in its canonical form, binary (Ki, Mi ...)
// when binary is set and the value is a whole multiple of 1024, decimal SI
// otherwise (BinarySI's rule). The HPA's status prints usage this way
// ("150m", "100Mi").
func NewMilliQuantity(milli int64, binary bool) Quantity {
	s := "0"
	switch {
	case milli == 0:
	case binary && milli%1000 == 0 && (milli >= 1024*1000 || milli <= -1024*1000):
		units, exp := removeFactors(milli/1000, 1024)
		s = strconv.FormatInt(units, 10) + binarySuffixes[exp]
	default:
		s = decimalCanonical(milli, false)
	}
	return Quantity{s: s, milli: milli}
}

// Plus is resource.Quantity's Add: the sum, written canonically in q's
// notation, or in o's when q is zero (as Add adopts the other format then).
// A sum beyond the range of milli-units saturates.
//
// Example: "500m" plus "1" is "1500m"; "0" plus "128Mi" plus "128Mi" is
// "256Mi".
func (q Quantity) Plus(o Quantity) Quantity {
	format := q.s
	if q.milli == 0 {
		format = o.s
	}
	sum := q.milli + o.milli
	switch {
	case o.milli > 0 && sum < q.milli:
		sum = math.MaxInt64
	case o.milli < 0 && sum > q.milli:
		sum = math.MinInt64 + 1
	}
	return canonicalQuantity(sum, format)
}

// Minus is resource.Quantity's Sub: q − o in q's notation.
func (q Quantity) Minus(o Quantity) Quantity {
	return q.Plus(Quantity{s: o.s, milli: -o.milli})
}

// NewQuantity returns the whole number n as a decimal quantity ("3").
func NewQuantity(n int64) Quantity { return canonicalQuantity(n*1000, "") }

// canonicalQuantity is milli written canonically in the notation of the
// quantity text like.
func canonicalQuantity(milli int64, like string) Quantity {
	q := Quantity{s: like, milli: milli}
	return Quantity{s: q.CanonicalString(), milli: milli}
}

// InFormatOf is what kubectl describe does with a quota's used value whose
// notation differs from its hard one: resource.NewQuantity(q.Value(),
// other.Format), the value rounded up to a whole unit and written in
// other's notation. A quantity in the same notation is returned canonical.
func (q Quantity) InFormatOf(other Quantity) Quantity {
	if suffixFormat(q.s) == suffixFormat(other.s) {
		return canonicalQuantity(q.milli, q.s)
	}
	return canonicalQuantity(q.Value()*1000, other.s)
}
