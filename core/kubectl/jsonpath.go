package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The JSONPath of `kubectl wait --for=jsonpath=...`, as much of
// k8s.io/client-go/util/jsonpath as a wait on one value needs: fields
// (.status.readyReplicas, ['app.kubernetes.io/name']), indexes ([0]),
// wildcards ([*], .*) and equality filters ([?(@.type=="Ready")]), with
// missing keys allowed. Other JSONPath syntax (range, unions, slices,
// recursive descent) is refused with an error that says so.

// jsonPath is a parsed expression: its steps, in order.
type jsonPath []jsonStep

type jsonStep struct {
	field  string // a field or map key
	index  int    // [N], when isIndex
	filter *jsonFilter
	// isIndex marks an [N] step, all a [*] or .* step.
	isIndex, all bool
}

type jsonFilter struct {
	key   string
	value string
}

// relaxedJSONPathExpr is kubectl's expression for a relaxed JSONPath
// (get.go's jsonRegexp); relaxedSpec is it written out, as the page's wasm
// links no regexp (docs/performance.md; jsonpath_test.go checks one
// against the other).
const relaxedJSONPathExpr = `^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`

// relaxedSpec is the path inside a relaxed JSONPath, the expression's
// first or second submatch, or false when it does not match.
func relaxedSpec(s string) (string, bool) {
	// The expression's \.?([^{}]+): an optional dot, then at least one
	// byte that is not a brace (a lone "." is the path itself).
	path := func(s string) (string, bool) {
		if s == "" || strings.ContainsAny(s, "{}") {
			return "", false
		}
		if len(s) > 1 && s[0] == '.' {
			return s[1:], true
		}
		return s, true
	}
	if len(s) >= 2 && s[0] == '{' && s[len(s)-1] == '}' {
		if spec, ok := path(s[1 : len(s)-1]); ok {
			return spec, true
		}
	}
	return path(s)
}

// relaxedJSONPathExpression is kubectl get's RelaxedJSONPathExpression:
// "a.b", ".a.b", "{a.b}" and "{.a.b}" all become "{.a.b}".
func relaxedJSONPathExpression(expr string) (string, error) {
	if expr == "" {
		return expr, nil
	}
	spec, ok := relaxedSpec(expr)
	if !ok {
		return "", errors.New("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'")
	}
	return "{." + spec + "}", nil
}

// splitJSONPathInput splits on single '='; "==" does not split.
func splitJSONPathInput(input string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(input); i++ {
		if input[i] == '=' {
			if i < len(input)-1 && input[i+1] == '=' {
				b.WriteString("==")
				i++
				continue
			}
			out = append(out, b.String())
			b.Reset()
			continue
		}
		b.WriteByte(input[i])
	}
	return append(out, b.String())
}

// processJSONPathInput is wait's processJSONPathInput: the relaxed
// expression and the value after '=' ("" for any value).
func processJSONPathInput(input string) (string, string, error) {
	parts := splitJSONPathInput(input)
	if n := len(parts); n < 1 || n > 2 {
		return "", "", errors.New("jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'")
	}
	expr, err := relaxedJSONPathExpression(parts[0])
	if err != nil {
		return "", "", err
	}
	if len(parts) == 1 {
		return expr, "", nil
	}
	value := strings.Trim(parts[1], `'"`)
	if value == "" {
		return "", "", errors.New("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3")
	}
	return expr, value, nil
}

// parseJSONPath parses "{.a.b[0][?(@.k=="v")].c}".
func parseJSONPath(expr string) (jsonPath, error) {
	if expr == "" {
		return nil, errors.New("jsonpath expression cannot be empty")
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(expr, "{"), "}")
	unsupported := func(what string) error {
		return fmt.Errorf("jsonpath %s: %s is not supported here; use fields, [N] and [?(@.field==\"value\")]", expr, what)
	}
	var p jsonPath
	for i := 0; i < len(inner); {
		switch c := inner[i]; {
		case c == '.':
			i++
			if i < len(inner) && inner[i] == '.' {
				return nil, unsupported("recursive descent (..)")
			}
			j := i
			for j < len(inner) && !strings.ContainsRune(".,[]$@{} \t", rune(inner[j])) {
				j++
			}
			name := inner[i:j]
			switch {
			case name == "":
				if j == len(inner) && len(p) == 0 {
					return p, nil // "{.}": the object itself
				}
				return nil, fmt.Errorf("jsonpath %s: expected a field name after '.'", expr)
			case name == "*":
				p = append(p, jsonStep{all: true})
				i = j
				continue
			}
			p = append(p, jsonStep{field: name})
			i = j
		case c == '[':
			end := closingBracket(inner, i)
			if end < 0 {
				return nil, fmt.Errorf("jsonpath %s: unclosed [", expr)
			}
			body := inner[i+1 : end]
			step, err := bracketStep(body)
			if err != nil {
				return nil, fmt.Errorf("jsonpath %s: %w", expr, err)
			}
			p = append(p, step)
			i = end + 1
		default:
			return nil, fmt.Errorf("jsonpath %s: unexpected %q", expr, c)
		}
	}
	return p, nil
}

// closingBracket returns the index of the ']' closing the '[' at open,
// skipping quoted text.
func closingBracket(s string, open int) int {
	var quote byte
	for i := open + 1; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ']':
			return i
		}
	}
	return -1
}

func bracketStep(body string) (jsonStep, error) {
	if i := strings.IndexAny(body, "|&"); i >= 0 && strings.HasPrefix(body, "?(") {
		return jsonStep{}, fmt.Errorf("unrecognized character in action: %U %q", rune(body[i]), body[i])
	}
	switch {
	case body == "*":
		return jsonStep{all: true}, nil
	case len(body) >= 2 && (body[0] == '\'' || body[0] == '"') && body[len(body)-1] == body[0]:
		return jsonStep{field: body[1 : len(body)-1]}, nil
	case strings.HasPrefix(body, "?(@.") && strings.HasSuffix(body, ")"):
		cond := body[len("?(@.") : len(body)-1]
		key, value, ok := strings.Cut(cond, "==")
		if !ok {
			return jsonStep{}, errors.New("only filters of the form [?(@.field==\"value\")] are supported here")
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		value = strings.Trim(value, `'"`)
		return jsonStep{filter: &jsonFilter{key: key, value: value}}, nil
	}
	n, err := strconv.Atoi(body)
	if err != nil || n < 0 {
		return jsonStep{}, fmt.Errorf("[%s] is not supported here; use [N], ['key'] or [?(@.field==\"value\")]", body)
	}
	return jsonStep{index: n, isIndex: true}, nil
}

// results follows the path through v: every value it reaches (filters can
// reach several; a missing key reaches none).
func (p jsonPath) results(v any) []any {
	cur := []any{v}
	for _, s := range p {
		var next []any
		for _, c := range cur {
			switch {
			case s.all:
				switch x := c.(type) {
				case []any:
					next = append(next, x...)
				case map[string]any:
					keys := make([]string, 0, len(x))
					for k := range x {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					for _, k := range keys {
						next = append(next, x[k])
					}
				}
			case s.filter != nil:
				l, _ := c.([]any)
				for _, e := range l {
					if m, ok := e.(map[string]any); ok && fmt.Sprint(m[s.filter.key]) == s.filter.value {
						next = append(next, e)
					}
				}
			case s.isIndex:
				if l, ok := c.([]any); ok && s.index < len(l) {
					next = append(next, l[s.index])
				}
			default:
				if m, ok := c.(map[string]any); ok {
					if x, ok := m[s.field]; ok {
						next = append(next, x)
					}
				}
			}
		}
		cur = next
	}
	return cur
}

// met is JSONPathWait.checkCondition: nothing found does not hold yet; more
// than one value is an error; a nested object or list cannot be compared;
// otherwise the value, printed, must equal want (any value when anyValue).
func (p jsonPath) met(obj any, want string, anyValue bool) (bool, error) {
	res := p.results(obj)
	switch {
	case len(res) == 0:
		return false, nil
	case len(res) > 1:
		return false, errors.New("given jsonpath expression matches more than one value")
	}
	if anyValue {
		return true, nil
	}
	switch res[0].(type) {
	case map[string]any, []any:
		return false, errors.New("jsonpath leads to a nested object or list which is not supported")
	}
	return strings.TrimSpace(fmt.Sprint(res[0])) == strings.TrimSpace(want), nil
}
