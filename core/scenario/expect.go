package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"converge/core/manifest"
)

// Op is a comparison operator of an expect.
type Op string

// Operators.
const (
	OpEq Op = "=="
	OpNe Op = "!="
	OpLt Op = "<"
	OpLe Op = "<="
	OpGt Op = ">"
	OpGe Op = ">="
)

// ops in the order they are tried, longest first.
var ops = []Op{OpEq, OpNe, OpLe, OpGe, OpLt, OpGt}

// Expect is a parsed `expect` step: KIND/NAME .json.path OP VALUE, for
// example `deployment/web .status.availableReplicas == 3`.
type Expect struct {
	// Kind is canonical (Deployment); Name the object's name.
	Kind, Name string
	Path       Path
	Op         Op
	// Value is nil (null), a bool, a string or a json.Number.
	Value any
	// Bare records that a string Value was written without quotes.
	Bare bool

	// zero is what a missing last field stands for: Kubernetes omits
	// zero-valued fields (availableReplicas: 0 is not printed), so a
	// missing .status.availableReplicas is 0. hasZero says it applies.
	zero    any
	hasZero bool
}

// SyntaxError is a problem in a one-line expression (an expect or a fault)
// at a 1-based column of it (counted in characters).
type SyntaxError struct {
	Col int
	// Offset is the byte offset of the problem in the expression.
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

func syntaxErr(off int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Col: off + 1, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// withColumn sets a SyntaxError's column from its byte offset in src.
func withColumn(src string, err error) error {
	if se, ok := err.(*SyntaxError); ok {
		off := min(max(se.Offset, 0), len(src))
		se.Col = utf8.RuneCountInString(src[:off]) + 1
	}
	return err
}

// ParseExpect parses `KIND/NAME .json.path OP VALUE`.
//
//   - KIND is a kubectl resource name or short name: deployment, deploy,
//     replicaset, rs, pod, po, node, no, configmap, cm, service, svc (also
//     plurals, endpoints/ep).
//   - The path is a chain of `.field`, `["any key"]` (for keys with dots or
//     slashes, such as `.metadata.annotations["deployment.kubernetes.io/revision"]`),
//     `[0]` and kubectl's filter `[?(@.type=="Available")]` (the first list
//     element whose field equals the literal). Fields are checked against the
//     kind's schema.
//   - OP is one of == != < <= > >=.
//   - VALUE is a JSON literal (3, "3", true, false, null) or, otherwise, a bare
//     string running to the end of the line (`== True`).
//
// Errors are *SyntaxError with the column of the problem.
func ParseExpect(s string) (*Expect, error) {
	p := &exprParser{src: s}
	e, err := p.expect()
	if err != nil {
		return nil, withColumn(s, err)
	}
	return e, nil
}

type exprParser struct {
	src string
	off int
	// offs are the offsets of the path's segments, for errors.
	offs []int
}

func (p *exprParser) skipSpace() {
	for p.off < len(p.src) && (p.src[p.off] == ' ' || p.src[p.off] == '\t') {
		p.off++
	}
}

func (p *exprParser) eof() bool { return p.off >= len(p.src) }

// word reads up to the next blank.
func (p *exprParser) word() (string, int) {
	start := p.off
	for p.off < len(p.src) && p.src[p.off] != ' ' && p.src[p.off] != '\t' {
		p.off++
	}
	return p.src[start:p.off], start
}

func (p *exprParser) expect() (*Expect, error) {
	p.skipSpace()
	if p.eof() {
		return nil, syntaxErr(p.off, "empty expect: write KIND/NAME .json.path OP VALUE, e.g. deployment/web .status.availableReplicas == 3")
	}
	e := &Expect{}
	if err := p.target(e); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.eof() {
		return nil, syntaxErr(p.off, "missing path after %s/%s, e.g. .status.availableReplicas", resourceName(e.Kind), e.Name)
	}
	path, err := p.path()
	if err != nil {
		return nil, err
	}
	e.Path = path
	if err := p.op(e); err != nil {
		return nil, err
	}
	if err := p.value(e); err != nil {
		return nil, err
	}
	if err := checkPath(e, p.offs); err != nil {
		return nil, err
	}
	return e, nil
}

// target parses KIND/NAME.
func (p *exprParser) target(e *Expect) error {
	w, start := p.word()
	kindName, name, ok := strings.Cut(w, "/")
	if !ok {
		return syntaxErr(start, "expected KIND/NAME such as deployment/web, not %q", w)
	}
	kind, ok := LookupKind(kindName)
	if !ok {
		msg := fmt.Sprintf("unknown kind %q", kindName)
		if s := manifest.Suggest(kindName, kindNameList()); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return syntaxErr(start, "%s", msg)
	}
	if name == "" {
		return syntaxErr(start+len(kindName)+1, "missing name after %q", kindName+"/")
	}
	if strings.ContainsAny(name, "/\"[]") {
		return syntaxErr(start+len(kindName)+1, "invalid name %q", name)
	}
	e.Kind, e.Name = kind, name
	return nil
}

func (p *exprParser) op(e *Expect) error {
	p.skipSpace()
	if p.eof() {
		return syntaxErr(p.off, "missing operator: use one of == != < <= > >=")
	}
	for _, op := range ops {
		if strings.HasPrefix(p.src[p.off:], string(op)) {
			e.Op = op
			p.off += len(op)
			return nil
		}
	}
	w, start := p.word()
	return syntaxErr(start, "unknown operator %q: use one of == != < <= > >=", w)
}

func (p *exprParser) value(e *Expect) error {
	opEnd := p.off
	p.skipSpace()
	start := p.off
	rest := strings.TrimRight(p.src[p.off:], " \t")
	if rest == "" {
		return syntaxErr(opEnd, "missing value after %s", e.Op)
	}
	v, bare, err := parseLiteral(rest, start)
	if err != nil {
		return err
	}
	e.Value, e.Bare = v, bare
	switch v.(type) {
	case nil, bool:
		if e.Op != OpEq && e.Op != OpNe {
			return syntaxErr(start-len(e.Op)-1, "%s compares numbers or strings, not %s", e.Op, rest)
		}
	}
	p.off = len(p.src)
	return nil
}

// parseLiteral parses a JSON literal, or returns a bare string. off is the
// literal's offset, for errors.
func parseLiteral(s string, off int) (any, bool, error) {
	switch {
	case s == "null":
		return nil, false, nil
	case s == "true":
		return true, false, nil
	case s == "false":
		return false, false, nil
	case manifest.IsJSONNumber(s):
		if _, ok := parseDecimal(s); !ok {
			return nil, false, syntaxErr(off, "number %s is out of range", s)
		}
		return json.Number(s), false, nil
	case s[0] == '"':
		var str string
		if err := json.Unmarshal([]byte(s), &str); err != nil {
			return nil, false, syntaxErr(off, "invalid string %s: write a JSON string such as \"Available\"", s)
		}
		return str, false, nil
	case s[0] == '{' || s[0] == '[':
		return nil, false, syntaxErr(off, "the value must be a number, a string, true, false or null")
	}
	return s, true, nil
}

// String renders the expect in canonical form; ParseExpect(e.String())
// gives e back.
func (e *Expect) String() string {
	if e == nil {
		return ""
	}
	return fmt.Sprintf("%s/%s %s %s %s", resourceName(e.Kind), e.Name, e.Path, e.Op, literal(e.Value, e.Bare))
}

// literal renders a value as ParseExpect reads it.
func literal(v any, bare bool) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return string(x)
	case string:
		if bare {
			return x
		}
		return quoteJSON(x)
	}
	return fmt.Sprint(v)
}

func quoteJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// Zero is what a missing last field of the path stands for, and whether
// one does: Kubernetes omits zero-valued fields, so a missing
// .status.availableReplicas is 0 (json.Number("0")), a missing omitempty
// bool false and string "". Eval applies it; an export that checks the
// expect elsewhere (core/export) needs it too.
func (e *Expect) Zero() (any, bool) {
	if e == nil {
		return nil, false
	}
	return e.zero, e.hasZero
}

// Missing is how Eval reports a path that leads nowhere.
const Missing = "<missing>"

// Eval evaluates the expect on an object: the object as decoded JSON
// (map[string]any), or any value encoding/json can marshal (an api.Object),
// or nil for an object that does not exist. It returns whether the
// comparison holds and the value found, rendered as JSON, or "<missing>".
//
// Numbers compare numerically (a string holding a number, such as the
// revision annotation "2", compares as that number); strings compare
// lexically for < and >. A missing path compares like null: `== null` holds
// for it. A field that Kubernetes omits when zero (status.availableReplicas)
// is its zero value when missing.
func (e *Expect) Eval(obj any) (ok bool, got string, err error) {
	if e == nil {
		return false, "", fmt.Errorf("eval expect: nil expect")
	}
	v, err := normalize(obj)
	if err != nil {
		return false, "", fmt.Errorf("eval expect %s: %w", e, err)
	}
	cur, found, parentFound := e.Path.walk(v)
	if !found && parentFound && e.hasZero {
		cur, found = e.zero, true
	}
	if !found {
		return compare(nil, e.Op, e.Value), Missing, nil
	}
	return compare(cur, e.Op, e.Value), render(cur), nil
}

// normalize turns obj into decoded-JSON form (maps, slices, json.Number).
func normalize(obj any) (any, error) {
	switch obj.(type) {
	case nil, map[string]any, []any:
		return obj, nil
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func render(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// compare applies op to got (nil for null or missing) and want.
func compare(got any, op Op, want any) bool {
	c, comparable := order(got, want)
	switch op {
	case OpEq:
		return comparable && c == 0
	case OpNe:
		return !comparable || c != 0
	case OpLt:
		return comparable && c < 0
	case OpLe:
		return comparable && c <= 0
	case OpGt:
		return comparable && c > 0
	case OpGe:
		return comparable && c >= 0
	}
	return false
}

// order compares got with want: -1, 0, 1, and whether they are comparable
// at all. null and booleans are only equal or not.
func order(got, want any) (int, bool) {
	switch w := want.(type) {
	case nil:
		if got == nil {
			return 0, true
		}
		return 1, true
	case bool:
		if g, ok := got.(bool); ok && g == w {
			return 0, true
		}
		return 1, true
	case json.Number:
		wd, ok := parseDecimal(string(w))
		gd, gok := number(got)
		if !ok || !gok {
			return 0, false
		}
		return gd.cmp(wd), true
	case string:
		g, ok := got.(string)
		if !ok {
			return 0, false
		}
		return strings.Compare(g, w), true
	}
	return 0, false
}

// number reads a JSON number, or a string holding one.
func number(v any) (decimal, bool) {
	switch x := v.(type) {
	case json.Number:
		return parseDecimal(string(x))
	case float64:
		return floatDecimal(x)
	case int:
		return decimalOf(strconv.Itoa(x)), true
	case int64:
		return decimalOf(strconv.FormatInt(x, 10)), true
	case int32:
		return decimalOf(strconv.FormatInt(int64(x), 10)), true
	case string:
		return parseDecimal(x)
	}
	return decimal{}, false
}
