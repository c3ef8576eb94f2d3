package api

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Quantity is a resource quantity such as "100m", "4", "128Mi" or "1.5Gi".
// It keeps the text as written (printed back unchanged, as users expect in
// `kubectl get -o yaml`) and its value in milli-units, which is what the
// scheduler adds up. Values beyond ±2^63 milli-units are rejected.
type Quantity struct {
	s     string
	milli int64
}

// ParseQuantity parses a Kubernetes quantity: a decimal number with an
// optional suffix, either binary (Ki Mi Gi Ti Pi Ei), decimal (n u m k M G T P
// E) or an exponent (e3, E-2). The error text is the API server's.
func ParseQuantity(s string) (Quantity, error) {
	m, err := parseMilli(s)
	if err != nil {
		return Quantity{}, err
	}
	return Quantity{s: s, milli: m}, nil
}

// MustQuantity is ParseQuantity for constants in code and tests; it panics on a bad literal.
func MustQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

// ErrFormatWrong is the API server's text for an unparsable quantity.
const ErrFormatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

// ErrNumeric is apimachinery's ErrNumeric.
const ErrNumeric = "unable to parse numeric part of quantity"

// suffixExp is the multiplier of a suffix: 10^exp10 for the decimal SI
// ones (n u m "" k M G T P E), 2^exp2 for the binary ones (Ki Mi Gi Ti Pi
// Ei).
func suffixExp(suffix string) (exp10 int, exp2 uint, ok bool) {
	switch suffix {
	case "n":
		return -9, 0, true
	case "u":
		return -6, 0, true
	case "m":
		return -3, 0, true
	case "":
		return 0, 0, true
	case "k":
		return 3, 0, true
	case "M":
		return 6, 0, true
	case "G":
		return 9, 0, true
	case "T":
		return 12, 0, true
	case "P":
		return 15, 0, true
	case "E":
		return 18, 0, true
	case "Ki":
		return 0, 10, true
	case "Mi":
		return 0, 20, true
	case "Gi":
		return 0, 30, true
	case "Ti":
		return 0, 40, true
	case "Pi":
		return 0, 50, true
	case "Ei":
		return 0, 60, true
	}
	return 0, 0, false
}

// errSuffix is apimachinery's ErrSuffix text.
const errSuffix = "unable to parse quantity's suffix"

// parseMilli is the value of s in milli-units, rounded up (towards +∞) to a
// whole milli-unit, as Kubernetes' MilliValue rounds. It computes exactly
// on the decimal digits (milli, below), without floating point.
func parseMilli(s string) (int64, error) {
	if s == "" || len(s) > 64 {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	value, suffix, ok := splitQuantity(s)
	if !ok {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	exp10, exp2, known := suffixExp(suffix)
	if !known {
		if len(suffix) < 2 || (suffix[0] != 'e' && suffix[0] != 'E') {
			return 0, fmt.Errorf("%s", errSuffix)
		}
		n, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s", errSuffix)
		}
		if n > 30 {
			return 0, fmt.Errorf("quantity %q is too large", s)
		}
		exp10 = int(max(n, -30)) // anything smaller rounds up to 1m (or stays 0) all the same
	}
	if exp2 >= 50 && strings.Trim(value, "+-.") == "" {
		// "Pi", "Ei", "-Pi": apimachinery parses these exponents (beyond
		// its int64 fast path) as a decimal number, which needs a digit
		// (inf.Dec.SetString), while "Ki" to "Ti" alone are zero.
		return 0, fmt.Errorf("%s", ErrNumeric)
	}
	m, ok := milli(value, exp10, exp2)
	if !ok {
		return 0, fmt.Errorf("quantity %q is too large", s)
	}
	return m, nil
}

// milliLimit bounds a Quantity's milli-units: -2^62 ≤ milli < 2^62, so
// that a sum of two never overflows.
const milliLimit = 1 << 62

// milli is ceil(value × 10^exp10 × 2^exp2 × 1000) for value a decimal
// number as splitQuantity reads it (an optional sign, digits, an optional
// '.' and digits; no digits at all is zero, as in kube), and whether it
// lies within milliLimit.
//
// It multiplies the digits by 2^exp2 in base 10, then cuts them at the
// decimal point: "1.5" with Gi is the digits 15 × 2^30 = 16106127360 at
// 10^(3-1): 1610612736000 milli, no remainder. "1e-31" is 1 at 10^(3-30):
// zero with a remainder, rounded up to 1.
func milli(value string, exp10 int, exp2 uint) (int64, bool) {
	neg := strings.HasPrefix(value, "-")
	value = strings.TrimLeft(value, "+-")
	intPart, frac, _ := strings.Cut(value, ".")
	digits := []byte(intPart + frac)
	exp10 += 3 - len(frac)
	// digits × 2^exp2, from the least significant digit. With m ≤ 2^60
	// every step stays below 10m < 2^64, and the carry below m.
	m := uint64(1) << exp2
	carry := uint64(0)
	for i := len(digits) - 1; i >= 0; i-- {
		t := uint64(digits[i]-'0')*m + carry
		digits[i] = byte(t%10) + '0'
		carry = t / 10
	}
	if carry > 0 {
		digits = append([]byte(strconv.FormatUint(carry, 10)), digits...)
	}
	remainder := false
	if exp10 >= 0 {
		for range exp10 {
			digits = append(digits, '0')
		}
	} else {
		cut := max(len(digits)+exp10, 0)
		for _, d := range digits[cut:] {
			remainder = remainder || d != '0'
		}
		digits = digits[:cut]
	}
	whole := strings.TrimLeft(string(digits), "0")
	if len(whole) > 19 {
		return 0, false
	}
	var n uint64
	if whole != "" {
		var err error
		if n, err = strconv.ParseUint(whole, 10, 64); err != nil {
			return 0, false
		}
	}
	if neg {
		// The ceiling of a negative number is its truncation.
		return -int64(min(n, milliLimit)), n <= milliLimit
	}
	if remainder {
		n++
	}
	return int64(min(n, milliLimit)), n < milliLimit
}

// splitQuantity is apimachinery's parseQuantityString: an optional sign,
// digits, an optional '.' and digits, then a suffix made of the letters
// eEinumkKMGTP, an optional sign and digits. It reports false when the
// text does not have that shape.
func splitQuantity(s string) (value, suffix string, ok bool) {
	pos, end := 0, len(s)
	if s[0] == '-' || s[0] == '+' {
		pos++
	}
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	if pos < end && s[pos] == '.' {
		pos++
		for pos < end && isDigit(s[pos]) {
			pos++
		}
	}
	value = s[:pos]
	suffixStart := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", s[pos]) >= 0 {
		pos++
	}
	if pos < end && (s[pos] == '-' || s[pos] == '+') {
		pos++
	}
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	return value, s[suffixStart:], pos == end
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// MilliValue returns the value in thousandths (cpu "100m" is 100).
func (q Quantity) MilliValue() int64 { return q.milli }

// Value returns the value rounded up to a whole unit (memory "128Mi" is 134217728).
func (q Quantity) Value() int64 {
	if q.milli >= 0 {
		return (q.milli + 999) / 1000
	}
	return q.milli / 1000
}

// IsZero reports whether the quantity is unset.
func (q Quantity) IsZero() bool { return q.s == "" }

// Sign is -1, 0 or 1.
func (q Quantity) Sign() int {
	switch {
	case q.milli < 0:
		return -1
	case q.milli > 0:
		return 1
	}
	return 0
}

// String returns the quantity as written.
func (q Quantity) String() string { return q.s }

// MarshalJSON implements json.Marshaler.
// The zero Quantity marshals as "0", as Kubernetes' does, so that it reads
// back.
func (q Quantity) MarshalJSON() ([]byte, error) {
	if q.s == "" {
		return []byte(`"0"`), nil
	}
	return json.Marshal(q.s)
}

// UnmarshalJSON accepts a string or a number, as the API server does;
// surrounding spaces are ignored and null is the zero Quantity.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*q = Quantity{}
		return nil
	}
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		s = string(b)
	}
	p, err := ParseQuantity(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	*q = p
	return nil
}

// ResourceList maps resource names (cpu, memory, pods) to quantities.
type ResourceList map[string]Quantity

// DeepCopy copies the list; nil stays nil.
func (l ResourceList) DeepCopy() ResourceList {
	if l == nil {
		return nil
	}
	out := make(ResourceList, len(l))
	for k, v := range l {
		out[k] = v
	}
	return out
}

// Resource names the scheduler knows.
const (
	ResourceCPU    = "cpu"
	ResourceMemory = "memory"
	ResourcePods   = "pods"
)

// Raw is a JSON value kept verbatim: parts of a pod spec (volumes,
// securityContext, affinity ...) that Converge stores and prints but does not
// simulate.
type Raw []byte

// MarshalJSON implements json.Marshaler.
func (r Raw) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON implements json.Unmarshaler; it compacts the value.
func (r *Raw) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	out, err := json.Marshal(v) // sorted keys: equal content gives equal bytes
	if err != nil {
		return err
	}
	*r = out
	return nil
}
