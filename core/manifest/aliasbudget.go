package manifest

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// aliasBudget checks, document by document, that alias expansion keeps a
// stream within MaxFileSize: the stream's own bytes plus, for every alias
// written in it, the bytes of the node it stands for, expanded. A node's
// bytes are what it would take written out in flow style (nodeBytes): its
// value and two bytes of punctuation, so that a list of ten thousand empty
// strings costs as much as the file that spells them out. The walk is
// linear: the expanded size of each anchored node is computed once.
//
// A worked example: a 62 KB file whose 40,000-byte string is aliased 5,500
// times expands to 220 MB; each alias adds 40,002 bytes, and of the
// 4,132,290 bytes the file leaves, 103 aliases fit: the 104th is refused.
type aliasBudget struct {
	// file is the stream's size; left is what aliases may still add.
	file int
	left int64
	// added is what the aliases walked so far add.
	added int64
	// sizes are the expanded sizes of the anchored nodes seen.
	sizes map[*yaml.Node]int64
	// active are the nodes being sized, so that an alias inside the node it
	// refers to (which Expand reports) counts nothing.
	active map[*yaml.Node]bool
}

// newAliasBudget is the budget of a stream of file bytes that may, with its
// aliases expanded, hold limit bytes.
func newAliasBudget(file, limit int) *aliasBudget {
	return &aliasBudget{file: file, left: max(int64(limit-file), 0), sizes: map[*yaml.Node]int64{}, active: map[*yaml.Node]bool{}}
}

// saturated bounds sizes, so that a deeply nested bomb cannot overflow them.
const saturated = int64(1) << 62

// nodeBytes is what one node counts when an alias copies it.
func nodeBytes(n *yaml.Node) int64 {
	return int64(len(n.Value)) + 2
}

// walk adds the aliases written in n to the budget and returns the first
// alias that goes over it, or nil.
func (b *aliasBudget) walk(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		b.added = min(b.added+b.size(n.Alias), saturated)
		if b.added > b.left {
			return n
		}
		return nil
	}
	for _, c := range n.Content {
		if at := b.walk(c); at != nil {
			return at
		}
	}
	return nil
}

// size is the expanded size of n: its own bytes and its children's, an
// alias counting as the node it refers to.
func (b *aliasBudget) size(n *yaml.Node) int64 {
	if n == nil || b.active[n] {
		return 0
	}
	if n.Kind == yaml.AliasNode {
		return b.size(n.Alias)
	}
	if s, ok := b.sizes[n]; ok {
		return s
	}
	b.active[n] = true
	s := nodeBytes(n)
	for _, c := range n.Content {
		s = min(s+b.size(c), saturated)
	}
	delete(b.active, n)
	if n.Anchor != "" {
		b.sizes[n] = s
	}
	return s
}

// detail says how the budget was spent, for the problem.
func (b *aliasBudget) detail() string {
	return fmt.Sprintf(" (the file has %s bytes; its aliases up to here add %s)", Thousands(int64(b.file)), Thousands(b.added))
}

// aliasProblem is the problem of an alias that expands the document beyond
// MaxFileSize.
func aliasProblem(file string, alias *yaml.Node, detail string) Problem {
	return Problem{File: file, Line: max(alias.Line, 1), Col: max(alias.Column, 1),
		Message: fmt.Sprintf("excessive aliasing: alias *%s expands the document beyond %d MiB, the limit of a file%s", alias.Value, MaxFileSize>>20, detail)}
}
