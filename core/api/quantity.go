package api

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
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

var suffixes = map[string]*big.Rat{
	"":   big.NewRat(1, 1),
	"n":  big.NewRat(1, 1_000_000_000),
	"u":  big.NewRat(1, 1_000_000),
	"m":  big.NewRat(1, 1000),
	"k":  big.NewRat(1000, 1),
	"M":  big.NewRat(1_000_000, 1),
	"G":  big.NewRat(1_000_000_000, 1),
	"T":  new(big.Rat).SetInt64(1_000_000_000_000),
	"P":  new(big.Rat).SetInt64(1_000_000_000_000_000),
	"E":  new(big.Rat).SetInt64(1_000_000_000_000_000_000),
	"Ki": big.NewRat(1<<10, 1),
	"Mi": big.NewRat(1<<20, 1),
	"Gi": big.NewRat(1<<30, 1),
	"Ti": new(big.Rat).SetInt64(1 << 40),
	"Pi": new(big.Rat).SetInt64(1 << 50),
	"Ei": new(big.Rat).SetInt64(1 << 60),
}

// errSuffix is apimachinery's ErrSuffix text.
const errSuffix = "unable to parse quantity's suffix"

func parseMilli(s string) (int64, error) {
	if s == "" || len(s) > 64 {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	value, suffix, ok := splitQuantity(s)
	if !ok {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(value, "+"))
	if !ok {
		// No digits at all ("+", ".", "Gi"): kube reads that as zero.
		r = new(big.Rat)
	}
	if mult, known := suffixes[suffix]; known {
		r.Mul(r, mult)
	} else if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		n, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s", errSuffix)
		}
		if n > 30 {
			return 0, fmt.Errorf("quantity %q is too large", s)
		}
		n = max(n, -30) // anything smaller rounds up to 1m (or stays 0) all the same
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(abs(n)), nil))
		if n < 0 {
			r.Quo(r, p)
		} else {
			r.Mul(r, p)
		}
	} else {
		return 0, fmt.Errorf("%s", errSuffix)
	}
	r.Mul(r, big.NewRat(1000, 1))
	// Round up to the next milli-unit, as Kubernetes does for MilliValue.
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if new(big.Rat).SetInt(q).Cmp(r) < 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() > math.MaxInt64/2 || q.Int64() < math.MinInt64/2 {
		return 0, fmt.Errorf("quantity %q is too large", s)
	}
	return q.Int64(), nil
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

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

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
