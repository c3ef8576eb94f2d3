// Package labels is Kubernetes' label selector: matchLabels and
// matchExpressions (In, NotIn, Exists, DoesNotExist), and the string form of
// kubectl's -l flag: `app=web,tier!=db,env in (a,b),!canary`.
package labels

import (
	"fmt"
	"sort"
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
)

// Requirement is one clause of a selector.
type Requirement struct {
	Key    string
	Op     Operator
	Values []string // sorted
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

// String renders the requirement in the -l form.
func (r Requirement) String() string {
	switch r.Op {
	case Exists:
		return r.Key
	case DoesNotExist:
		return "!" + r.Key
	case In, NotIn:
		return fmt.Sprintf("%s %s (%s)", r.Key, r.Op, strings.Join(r.Values, ","))
	}
	return r.Key + string(r.Op) + r.Values[0]
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
// an empty selector selects everything.
func FromLabelSelector(ls *api.LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	s := SelectorFromSet(ls.MatchLabels)
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

// NewRequirement checks and builds a requirement: In and NotIn need values,
// Exists and DoesNotExist take none, the equality operators exactly one.
func NewRequirement(key string, op Operator, values []string) (Requirement, error) {
	if key == "" {
		return Requirement{}, fmt.Errorf("key: Required value")
	}
	switch op {
	case In, NotIn:
		if len(values) == 0 {
			return Requirement{}, fmt.Errorf("values: Invalid value: %s: for 'in', 'notin' operators, values set can't be empty", renderValues(values))
		}
	case Equals, DoubleEquals, NotEquals:
		if len(values) != 1 {
			return Requirement{}, fmt.Errorf("values: Invalid value: %s: exact-match compatibility requires one single value", renderValues(values))
		}
	case Exists, DoesNotExist:
		if len(values) != 0 {
			return Requirement{}, fmt.Errorf("values: Invalid value: %s: values set must be empty for exists and does not exist", renderValues(values))
		}
	default:
		return Requirement{}, fmt.Errorf("operator: Unsupported value: %q", string(op))
	}
	vs := append([]string(nil), values...)
	sort.Strings(vs)
	return Requirement{Key: key, Op: op, Values: vs}, nil
}

func renderValues(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ",") + "]"
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
