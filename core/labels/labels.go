// Package labels is Kubernetes' label selector: matchLabels and
// matchExpressions (In, NotIn, Exists, DoesNotExist), and the string form of
// kubectl's -l flag: `app=web,tier!=db,env in (a,b),!canary,rank>2`.
package labels

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"converge/core/api"
)

// Operator is a requirement's operator.
type Operator string

// Operators of the string form and of matchExpressions.
const (
	Equals       Operator = "="
	DoubleEquals Operator = "=="
	NotEquals    Operator = "!="
	In           Operator = "in"
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	DoesNotExist Operator = "!"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// Requirement is one clause of a selector.
type Requirement struct {
	Key    string
	Op     Operator
	Values []string // sorted; nil for Exists and DoesNotExist
}

// Matches reports whether set satisfies the requirement.
func (r Requirement) Matches(set map[string]string) bool {
	v, ok := set[r.Key]
	switch r.Op {
	case Equals, DoubleEquals, In:
		return ok && contains(r.Values, v)
	case NotEquals, NotIn:
		return !ok || !contains(r.Values, v)
	case Exists:
		return ok
	case DoesNotExist:
		return !ok
	case GreaterThan, LessThan:
		if !ok || len(r.Values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(v, 10, 64)
		want, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return r.Op == GreaterThan && have > want || r.Op == LessThan && have < want
	}
	return false
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// String renders the requirement in the -l form, as kube's
// Requirement.String does: `k`, `!k`, `k=v`, `k in (a,b)`, `k>1`.
func (r Requirement) String() string {
	var op string
	switch r.Op {
	case Exists:
		return r.Key
	case DoesNotExist:
		return "!" + r.Key
	case In, NotIn:
		return fmt.Sprintf("%s %s (%s)", r.Key, r.Op, strings.Join(r.Values, ","))
	case GreaterThan:
		op = ">"
	case LessThan:
		op = "<"
	default:
		op = string(r.Op)
	}
	return r.Key + op + strings.Join(r.Values, ",")
}

// Selector is a conjunction of requirements. The zero Selector matches
// everything; Nothing() matches nothing (a nil LabelSelector).
type Selector struct {
	reqs    []Requirement
	nothing bool
}

// Everything returns a selector that matches every label set.
func Everything() Selector { return Selector{} }

// Nothing returns a selector that matches no label set.
func Nothing() Selector { return Selector{nothing: true} }

// SelectorFromSet returns the selector k1=v1,k2=v2 for a map (a Service selector).
// A nil or empty set selects everything.
func SelectorFromSet(set map[string]string) Selector {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := Selector{}
	for _, k := range keys {
		s.reqs = append(s.reqs, Requirement{Key: k, Op: Equals, Values: []string{set[k]}})
	}
	return s
}

// FromLabelSelector is metav1.LabelSelectorAsSelector: nil selects nothing,
// an empty selector selects everything, and every matchLabels entry and
// matchExpressions entry must be a valid requirement (see NewRequirement).
func FromLabelSelector(ls *api.LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	keys := make([]string, 0, len(ls.MatchLabels))
	for k := range ls.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := Selector{}
	for _, k := range keys {
		r, err := NewRequirement(k, Equals, []string{ls.MatchLabels[k]})
		if err != nil {
			return Nothing(), err
		}
		s.reqs = append(s.reqs, r)
	}
	for _, e := range ls.MatchExpressions {
		var op Operator
		switch e.Operator {
		case api.LabelSelectorOpIn:
			op = In
		case api.LabelSelectorOpNotIn:
			op = NotIn
		case api.LabelSelectorOpExists:
			op = Exists
		case api.LabelSelectorOpDoesNotExist:
			op = DoesNotExist
		default:
			return Nothing(), fmt.Errorf("%q is not a valid label selector operator", e.Operator)
		}
		r, err := NewRequirement(e.Key, op, e.Values)
		if err != nil {
			return Nothing(), err
		}
		s.reqs = append(s.reqs, r)
	}
	s.sortReqs()
	return s, nil
}

// MustFromLabelSelector is FromLabelSelector for selectors already validated; an invalid one selects nothing.
func MustFromLabelSelector(ls *api.LabelSelector) Selector {
	s, err := FromLabelSelector(ls)
	if err != nil {
		return Nothing()
	}
	return s
}

func (s *Selector) sortReqs() {
	sort.SliceStable(s.reqs, func(i, j int) bool { return s.reqs[i].Key < s.reqs[j].Key })
}

// NewRequirement checks and builds a requirement, as kube's
// labels.NewRequirement does: the key must be a qualified name; In and NotIn
// need values; Exists and DoesNotExist take none; the equality operators
// exactly one; Gt and Lt exactly one integer; every value must be a label
// value. The error lists every problem with kube's texts, e.g.
// `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`.
func NewRequirement(key string, op Operator, values []string) (Requirement, error) {
	var errs []string
	if msgs := IsQualifiedName(key); len(msgs) > 0 {
		errs = append(errs, fmt.Sprintf("key: Invalid value: %q: %s", key, strings.Join(msgs, "; ")))
	}
	switch op {
	case In, NotIn:
		if len(values) == 0 {
			errs = append(errs, "values: Invalid value: "+renderValues(values)+": for 'in', 'notin' operators, values set can't be empty")
		}
	case Equals, DoubleEquals, NotEquals:
		if len(values) != 1 {
			errs = append(errs, "values: Invalid value: "+renderValues(values)+": exact-match compatibility requires one single value")
		}
	case Exists, DoesNotExist:
		if len(values) != 0 {
			errs = append(errs, "values: Invalid value: "+renderValues(values)+": values set must be empty for exists and does not exist")
		}
	case GreaterThan, LessThan:
		if len(values) != 1 {
			errs = append(errs, "values: Invalid value: "+renderValues(values)+": for 'Gt', 'Lt' operators, exactly one value is required")
		}
		for i, v := range values {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				errs = append(errs, fmt.Sprintf("values[%d]: Invalid value: %q: for 'Gt', 'Lt' operators, the value must be an integer", i, v))
			}
		}
	default:
		errs = append(errs, fmt.Sprintf("operator: Unsupported value: %q: supported values: %s", string(op), supportedOperators))
	}
	for i, v := range values {
		if msgs := IsValidLabelValue(v); len(msgs) > 0 {
			errs = append(errs, fmt.Sprintf("values[%d][%s]: Invalid value: %q: %s", i, key, v, strings.Join(msgs, "; ")))
		}
	}
	if len(errs) > 0 {
		return Requirement{}, aggregate(errs)
	}
	var vs []string
	if len(values) > 0 {
		vs = append([]string(nil), values...)
		sort.Strings(vs)
	}
	return Requirement{Key: key, Op: op, Values: vs}, nil
}

// supportedOperators is kube's validRequirementOperators, quoted.
const supportedOperators = `"in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"`

// aggregate renders several messages as apimachinery's aggregate error does:
// one plain, several in brackets, duplicates removed.
func aggregate(msgs []string) error {
	seen := map[string]bool{}
	var out []string
	for _, m := range msgs {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	if len(out) == 1 {
		return fmt.Errorf("%s", out[0])
	}
	return fmt.Errorf("[%s]", strings.Join(out, ", "))
}

// renderValues renders a value list as Kubernetes 1.34+ error values: JSON,
// null for a nil list.
func renderValues(v []string) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Matches reports whether the label set satisfies every requirement.
func (s Selector) Matches(set map[string]string) bool {
	if s.nothing {
		return false
	}
	for _, r := range s.reqs {
		if !r.Matches(set) {
			return false
		}
	}
	return true
}

// Empty reports whether the selector matches everything.
func (s Selector) Empty() bool { return !s.nothing && len(s.reqs) == 0 }

// IsNothing reports whether the selector matches nothing.
func (s Selector) IsNothing() bool { return s.nothing }

// Requirements returns the selector's requirements, sorted by key.
func (s Selector) Requirements() []Requirement { return append([]Requirement(nil), s.reqs...) }

// String renders the selector in the -l form; Nothing renders as "<none>".
func (s Selector) String() string {
	if s.nothing {
		return "<none>"
	}
	parts := make([]string, len(s.reqs))
	for i, r := range s.reqs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// FormatLabels renders a label map as k=v,k2=v2 sorted by key, or <none>.
func FormatLabels(set map[string]string) string {
	if len(set) == 0 {
		return "<none>"
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + set[k]
	}
	return strings.Join(parts, ",")
}
