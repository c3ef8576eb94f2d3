package api

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
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

func parseMilli(s string) (int64, error) {
	if s == "" || len(s) > 64 {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i = 1
	}
	start := i
	dots := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		if s[i] == '.' {
			dots++
		}
		i++
	}
	num, suffix := s[:i], s[i:]
	if i == start || dots > 1 || num[len(num)-1] == '.' && i-start == 1 {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(num, "+"))
	if !ok {
		return 0, fmt.Errorf("%s", ErrFormatWrong)
	}
	if mult, ok := suffixes[suffix]; ok {
		r.Mul(r, mult)
	} else if suffix[0] == 'e' || suffix[0] == 'E' {
		exp := suffix[1:]
		n := 0
		neg := false
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			neg = exp[0] == '-'
			exp = exp[1:]
		}
		if exp == "" || len(exp) > 3 {
			return 0, fmt.Errorf("%s", ErrFormatWrong)
		}
		for _, c := range exp {
			if c < '0' || c > '9' {
				return 0, fmt.Errorf("%s", ErrFormatWrong)
			}
			n = n*10 + int(c-'0')
		}
		if n > 30 {
			return 0, fmt.Errorf("quantity %q is too large", s)
		}
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil))
		if neg {
			r.Quo(r, p)
		} else {
			r.Mul(r, p)
		}
	} else {
		return 0, fmt.Errorf("unable to parse quantity's suffix")
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
func (q Quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.s) }

// UnmarshalJSON accepts a string or a number, as the API server does.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		s = string(b)
	}
	p, err := ParseQuantity(s)
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
