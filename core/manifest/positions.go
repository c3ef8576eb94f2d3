package manifest

import (
	"sort"
	"strings"
)

// Position is a 1-based line and column in a file.
type Position struct {
	Line, Col int
}

// Positions maps the field paths of one decoded object to where they are
// written. Paths are in core/validation/field's syntax: fields joined by '.',
// list elements as [0], map entries as [key] (metadata.labels[app],
// spec.template.spec.containers[0].image). The empty path is the object
// itself. A field's position is that of its key; a list element's is that of
// the element.
type Positions struct {
	keys   map[string]Position
	values map[string]Position
}

func newPositions() Positions {
	return Positions{keys: map[string]Position{}, values: map[string]Position{}}
}

func (p Positions) set(path string, key, value Position) {
	if p.keys == nil {
		return
	}
	p.keys[path] = key
	p.values[path] = value
}

// Lookup returns the position of path, or of its nearest ancestor that was
// written in the file: a validation error about the defaulted field
// spec.strategy.rollingUpdate.maxSurge lands on `strategy:` when only the
// type was written, or on `spec:`.
func (p Positions) Lookup(path string) Position {
	return lookup(p.keys, path)
}

// LookupValue is Lookup for the position of the value rather than the key:
// in `replicas: three`, the position of `three`.
func (p Positions) LookupValue(path string) Position {
	return lookup(p.values, path)
}

// Has reports whether path itself was written in the file.
func (p Positions) Has(path string) bool {
	_, ok := p.keys[path]
	return ok
}

// Paths returns every recorded path, sorted.
func (p Positions) Paths() []string {
	out := make([]string, 0, len(p.keys))
	for k := range p.keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func lookup(m map[string]Position, path string) Position {
	for {
		if pos, ok := m[path]; ok {
			return pos
		}
		if path == "" {
			return Position{}
		}
		path = parentPath(path)
	}
}

// parentPath strips the last element of a field path:
// spec.containers[0].image → spec.containers[0] → spec.containers → spec → "".
func parentPath(path string) string {
	if strings.HasSuffix(path, "]") {
		if i := strings.LastIndexByte(path, '['); i >= 0 {
			return path[:i]
		}
		return ""
	}
	i := strings.LastIndexAny(path, ".]")
	switch {
	case i < 0:
		return ""
	case path[i] == ']':
		return path[:i+1]
	}
	return path[:i]
}
