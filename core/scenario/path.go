package scenario

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/manifest"
)

// SegmentKind says what a path segment selects.
type SegmentKind int

// Segment kinds.
const (
	// SegField selects a field or map key: .status, ["a.b/c"].
	SegField SegmentKind = iota
	// SegIndex selects a list element: [0].
	SegIndex
	// SegFilter selects the first list element whose field Key equals
	// Value: [?(@.type=="Available")].
	SegFilter
)

// Segment is one step of a Path.
type Segment struct {
	Kind  SegmentKind
	Key   string // the field (SegField, SegFilter)
	Index int    // SegIndex
	Value any    // SegFilter: nil, bool, string or json.Number
}

// Path is a JSON path such as .status.conditions[?(@.type=="Available")].status.
type Path []Segment

// String renders the path as ParseExpect reads it.
func (p Path) String() string {
	var b strings.Builder
	for _, s := range p {
		switch s.Kind {
		case SegField:
			if isIdent(s.Key) {
				b.WriteString("." + s.Key)
			} else {
				b.WriteString("[" + quoteJSON(s.Key) + "]")
			}
		case SegIndex:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case SegFilter:
			fmt.Fprintf(&b, "[?(@.%s==%s)]", s.Key, literal(s.Value, false))
		}
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

func (p *exprParser) ident() string {
	start := p.off
	for p.off < len(p.src) && isIdentByte(p.src[p.off]) {
		p.off++
	}
	return p.src[start:p.off]
}

// path parses segments up to a blank or an operator.
func (p *exprParser) path() (Path, error) {
	var out Path
	for !p.eof() {
		c := p.src[p.off]
		switch {
		case c == '.':
			start := p.off
			p.off++
			name := p.ident()
			if name == "" {
				return nil, syntaxErr(p.off, "expected a field name after '.'; write keys with dots or slashes as [\"key\"]")
			}
			out = append(out, Segment{Kind: SegField, Key: name})
			p.offs = append(p.offs, start+1)
		case c == '[':
			seg, off, err := p.bracket()
			if err != nil {
				return nil, err
			}
			out = append(out, seg)
			p.offs = append(p.offs, off)
		case c == ' ' || c == '\t' || strings.IndexByte("=!<>", c) >= 0:
			if len(out) == 0 {
				return nil, syntaxErr(p.off, "missing path, e.g. .status.availableReplicas")
			}
			return out, nil
		default:
			if len(out) == 0 {
				return nil, syntaxErr(p.off, "a path starts with '.', e.g. .status.availableReplicas")
			}
			return nil, syntaxErr(p.off, "unexpected %q in path", c)
		}
	}
	return out, nil
}

// bracket parses [0], ["key"] or [?(@.field==literal)].
func (p *exprParser) bracket() (Segment, int, error) {
	start := p.off
	p.off++ // [
	rest := p.src[p.off:]
	switch {
	case strings.HasPrefix(rest, `"`):
		end := closingQuote(rest)
		if end < 0 {
			return Segment{}, 0, syntaxErr(start, "unterminated string in path")
		}
		var key string
		if err := json.Unmarshal([]byte(rest[:end+1]), &key); err != nil {
			return Segment{}, 0, syntaxErr(p.off, "invalid string %s in path", rest[:end+1])
		}
		p.off += end + 1
		if err := p.closeBracket(start); err != nil {
			return Segment{}, 0, err
		}
		return Segment{Kind: SegField, Key: key}, start + 1, nil
	case strings.HasPrefix(rest, "?(@."):
		return p.filter(start)
	case rest != "" && rest[0] >= '0' && rest[0] <= '9':
		digits := p.off
		for p.off < len(p.src) && p.src[p.off] >= '0' && p.src[p.off] <= '9' {
			p.off++
		}
		i, err := strconv.Atoi(p.src[digits:p.off])
		if err != nil || i > 1_000_000 {
			return Segment{}, 0, syntaxErr(digits, "index %s is too large", p.src[digits:p.off])
		}
		if err := p.closeBracket(start); err != nil {
			return Segment{}, 0, err
		}
		return Segment{Kind: SegIndex, Index: i}, digits, nil
	}
	return Segment{}, 0, syntaxErr(p.off, `expected an index such as [0], a key such as ["app.kubernetes.io/name"] or a filter such as [?(@.type=="Available")]`)
}

func (p *exprParser) closeBracket(start int) error {
	if p.eof() || p.src[p.off] != ']' {
		return syntaxErr(p.off, "missing ']' to close the '[' at column %d", start+1)
	}
	p.off++
	return nil
}

// closingQuote returns the index of the quote that ends the JSON string at
// the start of s, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// filter parses ?(@.field==literal)] after the '['; blanks around == are
// allowed.
func (p *exprParser) filter(start int) (Segment, int, error) {
	p.off += len("?(@.")
	keyOff := p.off
	key := p.ident()
	if key == "" {
		return Segment{}, 0, syntaxErr(p.off, "expected a field name after @.")
	}
	p.skipSpace()
	if !strings.HasPrefix(p.src[p.off:], "==") {
		return Segment{}, 0, syntaxErr(p.off, `a filter compares with ==, e.g. [?(@.type=="Available")]`)
	}
	p.off += 2
	p.skipSpace()
	litOff := p.off
	end := strings.Index(p.src[p.off:], ")]")
	if p.off < len(p.src) && p.src[p.off] == '"' {
		if q := closingQuote(p.src[p.off:]); q >= 0 {
			end = strings.Index(p.src[p.off+q:], ")]")
			if end >= 0 {
				end += q
			}
		}
	}
	if end < 0 {
		return Segment{}, 0, syntaxErr(start, "missing \")]\" to close the filter")
	}
	lit := strings.TrimSpace(p.src[p.off : p.off+end])
	var v any
	var bare bool
	var err error
	if lit != "" {
		v, bare, err = parseLiteral(lit, litOff)
	}
	if err == nil && (bare || lit == "") {
		err = syntaxErr(litOff, "a filter value must be a JSON literal such as \"Available\", 3 or true")
	}
	if err != nil {
		return Segment{}, 0, err
	}
	p.off += end + 2
	return Segment{Kind: SegFilter, Key: key, Value: v}, keyOff, nil
}

// walk follows the path in decoded JSON. found says the value exists;
// parentFound that everything up to the last segment did.
func (p Path) walk(v any) (cur any, found, parentFound bool) {
	cur = v
	for i, s := range p {
		if i == len(p)-1 {
			parentFound = cur != nil
		}
		next, ok := s.step(cur)
		if !ok {
			return nil, false, parentFound && i == len(p)-1
		}
		cur = next
	}
	return cur, true, true
}

func (s Segment) step(cur any) (any, bool) {
	switch s.Kind {
	case SegField:
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok := m[s.Key]
		return v, ok
	case SegIndex:
		l, ok := cur.([]any)
		if !ok || s.Index >= len(l) {
			return nil, false
		}
		return l[s.Index], true
	case SegFilter:
		l, ok := cur.([]any)
		if !ok {
			return nil, false
		}
		for _, el := range l {
			if m, ok := el.(map[string]any); ok {
				if v, ok := m[s.Key]; ok && compare(v, OpEq, s.Value) {
					return el, true
				}
			}
		}
	}
	return nil, false
}

// checkPath checks e.Path against the schema of e.Kind: every field must
// exist (maps and pass-through JSON accept any key), indexes and filters
// apply to lists. It also finds the zero value a missing last field stands
// for.
func checkPath(e *Expect, offs []int) error {
	t := kindType(e.Kind)
	where := "a " + e.Kind
	var last reflect.StructField
	lastIsField := false
	for i, s := range e.Path {
		off := offs[i]
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		lastIsField = false
		if t == rawType || t.Kind() == reflect.Interface {
			return nil // pass-through JSON: anything goes below
		}
		switch s.Kind {
		case SegField:
			switch t.Kind() {
			case reflect.Map:
				t, where = t.Elem(), s.Key
				continue
			case reflect.Struct:
				if t == quantityType || t == intOrStringType || t == timeType {
					return syntaxErr(off, "%s has no field %q", where, s.Key)
				}
				f, names, ok := jsonField(t, s.Key)
				if !ok {
					msg := fmt.Sprintf("unknown field %q in %s", s.Key, where)
					if sug := manifest.Suggest(s.Key, names); sug != "" {
						msg += fmt.Sprintf("; did you mean %q?", sug)
					}
					return syntaxErr(off, "%s", msg)
				}
				t, last, lastIsField = f.Type, f, true
				where = s.Key
				continue
			case reflect.Slice:
				return syntaxErr(off, "%s is a list: select an element with [0] or [?(@.field==\"value\")] first", where)
			}
			return syntaxErr(off, "%s has no field %q", where, s.Key)
		case SegIndex, SegFilter:
			if t.Kind() != reflect.Slice {
				return syntaxErr(off-1, "%s is not a list", where)
			}
			t = t.Elem()
			if s.Kind == SegFilter {
				if tt := derefType(t); tt.Kind() == reflect.Struct {
					if _, names, ok := jsonField(tt, s.Key); !ok {
						msg := fmt.Sprintf("unknown field %q in the elements of %s", s.Key, where)
						if sug := manifest.Suggest(s.Key, names); sug != "" {
							msg += fmt.Sprintf("; did you mean %q?", sug)
						}
						return syntaxErr(off, "%s", msg)
					}
				}
			}
		}
	}
	if lastIsField {
		e.zero, e.hasZero = zeroOf(last)
	}
	return nil
}

var (
	rawType         = reflect.TypeFor[api.Raw]()
	quantityType    = reflect.TypeFor[api.Quantity]()
	intOrStringType = reflect.TypeFor[api.IntOrString]()
	timeType        = reflect.TypeFor[api.Time]()
)

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// jsonField finds a struct field by its JSON name (embedded structs without
// a name are inlined) and returns all names for suggestions.
func jsonField(t reflect.Type, name string) (reflect.StructField, []string, bool) {
	var names []string
	var found reflect.StructField
	ok := false
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			n, _, _ := strings.Cut(tag, ",")
			if tag == "-" {
				continue
			}
			if f.Anonymous && n == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			if n == "" {
				n = f.Name
			}
			names = append(names, n)
			if n == name && !ok {
				found, ok = f, true
			}
		}
	}
	walk(t)
	return found, names, ok
}

// zeroOf returns the value an omitted field has: Kubernetes leaves out
// zero-valued numbers, booleans and strings marked omitempty.
func zeroOf(f reflect.StructField) (any, bool) {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	if !strings.Contains(opts, "omitempty") {
		return nil, false
	}
	switch f.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return json.Number("0"), true
	case reflect.Bool:
		return false, true
	case reflect.String:
		return "", true
	}
	return nil, false
}
