package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrString is intstr.IntOrString: a field such as maxSurge that holds
// either an integer (3) or a string ("25%").
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

// FromInt returns an integer IntOrString.
func FromInt(v int32) IntOrString { return IntOrString{IntVal: v} }

// FromString returns a string IntOrString.
func FromString(s string) IntOrString { return IntOrString{IsString: true, StrVal: s} }

// IntOrStringPtr returns a pointer to v.
func IntOrStringPtr(v IntOrString) *IntOrString { return &v }

// String renders the value as a user wrote it: 3 or 25%.
func (v IntOrString) String() string {
	if v.IsString {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// MarshalJSON implements json.Marshaler.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.StrVal)
	}
	return []byte(strconv.Itoa(int(v.IntVal))), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = FromString(s)
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 32)
	if err != nil {
		return fmt.Errorf("must be an integer or a percent string such as \"25%%\", got %s", b)
	}
	*v = FromInt(int32(n))
	return nil
}

// ScaledValue is intstr.GetScaledValueFromIntOrPercent: an integer is used as
// is; "p%" of total is p*total/100, rounded up when roundUp is set and down
// otherwise. A string without a trailing % or whose number does not parse
// is an error, with intstr's text.
//
// Example: 25% of 10 is 2.5, which is 3 rounded up (maxSurge) and 2 rounded
// down (maxUnavailable).
func ScaledValue(v *IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, fmt.Errorf("nil value for IntOrString")
	}
	if !v.IsString {
		return int(v.IntVal), nil
	}
	if !strings.HasSuffix(v.StrVal, "%") {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	p, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %v", v.StrVal, err)
	}
	// Integer arithmetic: p·total/100 rounded by the remainder, with p
	// capped so that the product cannot overflow.
	n := int64(min(max(p, -math.MaxInt32), math.MaxInt32)) * int64(total)
	q := n / 100
	if r := n % 100; r != 0 && roundUp == (r > 0) {
		if r > 0 {
			q++
		} else {
			q--
		}
	}
	return int(q), nil
}

// ParsePercent parses "25%" into 25. It reports false for anything else.
func ParsePercent(s string) (int, bool) {
	if !strings.HasSuffix(s, "%") {
		return 0, false
	}
	digits := strings.TrimSuffix(s, "%")
	if digits == "" {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, false
	}
	return n, true
}
