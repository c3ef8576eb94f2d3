// Package field is apimachinery's pkg/util/validation/field: field paths and
// validation errors, rendered with the API server's exact texts. Values are
// rendered as Kubernetes 1.34 and later do: ints, bools and strings as 5,
// true, "abc"; maps, structs and lists as JSON.
package field

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Path is a field path such as spec.template.metadata.labels or spec.containers[0].image.
type Path struct {
	name   string
	index  string
	parent *Path
}

// NewPath starts a path at name, with optional further children.
func NewPath(name string, more ...string) *Path {
	p := &Path{name: name}
	for _, m := range more {
		p = &Path{name: m, parent: p}
	}
	return p
}

// Child returns the path of a child field.
func (p *Path) Child(name string, more ...string) *Path {
	r := NewPath(name, more...)
	r.Root().parent = p
	return r
}

// Index returns the path of a list element.
func (p *Path) Index(i int) *Path { return &Path{index: strconv.Itoa(i), parent: p} }

// Key returns the path of a map entry.
func (p *Path) Key(k string) *Path { return &Path{index: k, parent: p} }

// Root returns the first element of the path.
func (p *Path) Root() *Path {
	for ; p.parent != nil; p = p.parent {
	}
	return p
}

// String renders the path, e.g. spec.template.spec.containers[0].image.
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var elems []*Path
	for e := p; e != nil; e = e.parent {
		elems = append(elems, e)
	}
	// As apimachinery: a named element is ".name" (just "name" at the root),
	// an unnamed one is "[index]", so an empty key is "[]" and so is the
	// empty root path that stands for a whole object.
	var b strings.Builder
	for i := len(elems) - 1; i >= 0; i-- {
		e := elems[i]
		if e.name == "" {
			fmt.Fprintf(&b, "[%s]", e.index)
			continue
		}
		if e.parent != nil {
			b.WriteByte('.')
		}
		b.WriteString(e.name)
	}
	return b.String()
}

// ErrorType is the kind of a validation error.
type ErrorType string

// Error types and their rendered text.
const (
	ErrorTypeNotFound     ErrorType = "FieldValueNotFound"
	ErrorTypeRequired     ErrorType = "FieldValueRequired"
	ErrorTypeDuplicate    ErrorType = "FieldValueDuplicate"
	ErrorTypeInvalid      ErrorType = "FieldValueInvalid"
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	ErrorTypeForbidden    ErrorType = "FieldValueForbidden"
	ErrorTypeTooLong      ErrorType = "FieldValueTooLong"
	ErrorTypeTooMany      ErrorType = "FieldValueTooMany"
	ErrorTypeInternal     ErrorType = "InternalError"
)

// String returns the text the API server prints for t.
func (t ErrorType) String() string {
	switch t {
	case ErrorTypeNotFound:
		return "Not found"
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeTooMany:
		return "Too many"
	case ErrorTypeInternal:
		return "Internal error"
	}
	return string(t)
}

// Error is one validation failure at a field.
type Error struct {
	Type     ErrorType
	Field    string
	BadValue any
	Detail   string
}

// omitValue marks errors whose text has no value part.
type omitValue struct{}

// OmitValue is the BadValue of Required, Forbidden and similar errors.
var OmitValue = omitValue{}

// Error renders "<field>: <type>[: <value>][: <detail>]".
func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.ErrorBody()) }

// ErrorBody renders the text after the field path.
func (e *Error) ErrorBody() string {
	var s string
	switch {
	case e.Type == ErrorTypeRequired || e.Type == ErrorTypeForbidden || e.Type == ErrorTypeTooLong || e.Type == ErrorTypeInternal:
		s = e.Type.String()
	case e.BadValue == OmitValue:
		s = e.Type.String()
	default:
		s = fmt.Sprintf("%s: %s", e.Type, RenderValue(e.BadValue))
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// RenderValue renders a bad value as Kubernetes 1.34+ does: strings quoted,
// numbers and bools plain, pointers dereferenced, everything else as JSON. A
// nil value or nil pointer is the string "null", quoted, as apimachinery
// substitutes it before rendering (`spec.selector: Invalid value: "null":
// field is immutable`); a nil map or slice is JSON null, unquoted.
func RenderValue(v any) string {
	if v == nil {
		return `"null"`
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return `"null"`
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.String:
		return strconv.Quote(rv.String())
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(rv.Uint(), 10)
	}
	b, err := json.Marshal(rv.Interface())
	if err != nil {
		return fmt.Sprintf("%#v", rv.Interface())
	}
	return string(b)
}

// ErrorList is every error found; validation never stops at the first.
type ErrorList []*Error

// Required returns a "Required value" error.
func Required(p *Path, detail string) *Error {
	return &Error{Type: ErrorTypeRequired, Field: p.String(), BadValue: OmitValue, Detail: detail}
}

// Invalid returns an "Invalid value" error.
func Invalid(p *Path, value any, detail string) *Error {
	return &Error{Type: ErrorTypeInvalid, Field: p.String(), BadValue: value, Detail: detail}
}

// Forbidden returns a "Forbidden" error.
func Forbidden(p *Path, detail string) *Error {
	return &Error{Type: ErrorTypeForbidden, Field: p.String(), BadValue: OmitValue, Detail: detail}
}

// Duplicate returns a "Duplicate value" error.
func Duplicate(p *Path, value any) *Error {
	return &Error{Type: ErrorTypeDuplicate, Field: p.String(), BadValue: value}
}

// NotFound returns a "Not found" error.
func NotFound(p *Path, value any) *Error {
	return &Error{Type: ErrorTypeNotFound, Field: p.String(), BadValue: value}
}

// TooLong returns a "Too long" error: "may not be more than N bytes".
func TooLong(p *Path, value any, max int) *Error {
	return &Error{Type: ErrorTypeTooLong, Field: p.String(), BadValue: value,
		Detail: fmt.Sprintf("may not be more than %d bytes", max)}
}

// NotSupported returns an "Unsupported value" error listing the supported values.
func NotSupported(p *Path, value any, valid []string) *Error {
	quoted := make([]string, len(valid))
	for i, v := range valid {
		quoted[i] = strconv.Quote(v)
	}
	detail := ""
	if len(valid) > 0 {
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return &Error{Type: ErrorTypeNotSupported, Field: p.String(), BadValue: value, Detail: detail}
}

// Error renders the list as the API server does: one error plain, several in
// brackets separated by ", ", duplicates removed.
func (l ErrorList) Error() string {
	msgs := l.Messages()
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Messages returns each distinct error's text, in order.
func (l ErrorList) Messages() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range l {
		s := e.Error()
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
