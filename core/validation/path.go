package validation

import (
	"strings"

	"converge/core/validation/field"
)

// path is a field path that costs nothing until an error needs it: the
// validators walk every pod the simulation creates, and building a
// field.Path for each field they look at would allocate dozens of times per
// pod. A path lives on the stack of the validator that made it and points
// to its parent's; it is turned into a field.Path (and that into the error's
// string) only when an error is reported.
type path struct {
	parent *path
	name   string // a named element, or "" for an index or key
	index  int    // for an index element
	key    string // for a key element
	kind   pathKind
}

type pathKind uint8

const (
	named pathKind = iota
	indexed
	keyed
)

// root returns the path of a top-level field, e.g. root("spec").
func root(name string) path { return path{name: name} }

// child returns the path of a child field.
func (p *path) child(name string) path { return path{parent: p, name: name} }

// at returns the path of a list element.
func (p *path) at(i int) path { return path{parent: p, index: i, kind: indexed} }

// keyAt returns the path of a map entry.
func (p *path) keyAt(k string) path { return path{parent: p, key: k, kind: keyed} }

// fp builds the field.Path. The names are copied so that, for the escape
// analysis, nothing of p flows into the heap-allocated result: that is what
// keeps paths (and what they point to) on the stack.
func (p path) fp() *field.Path {
	if p.parent == nil {
		return field.NewPath(strings.Clone(p.name))
	}
	parent := p.parent.fp()
	switch p.kind {
	case indexed:
		return parent.Index(p.index)
	case keyed:
		return parent.Key(strings.Clone(p.key))
	}
	return parent.Child(strings.Clone(p.name))
}

// String renders the path (used in tests).
func (p path) String() string { return p.fp().String() }

// The error constructors of package field, at this path.

func (p path) required(detail string) *field.Error       { return field.Required(p.fp(), detail) }
func (p path) invalid(v any, detail string) *field.Error { return field.Invalid(p.fp(), v, detail) }
func (p path) forbidden(detail string) *field.Error      { return field.Forbidden(p.fp(), detail) }
func (p path) duplicate(v any) *field.Error              { return field.Duplicate(p.fp(), v) }
func (p path) notFound(v any) *field.Error               { return field.NotFound(p.fp(), v) }
func (p path) tooLong(v any, n int) *field.Error         { return field.TooLong(p.fp(), v, n) }
func (p path) notSupported(v any, valid []string) *field.Error {
	return field.NotSupported(p.fp(), v, valid)
}
