package manifest

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// MaxDepth bounds how deeply the lists and mappings of a document may
// nest, counted from the document's top (a Deployment's deepest field,
// spec.template.spec.affinity.nodeAffinity...values, is about 12 levels
// down; a scenario adds 3). The one limit, checked as each document is read
// (ParseDocuments), natively and in the page alike: a document nested
// deeper is refused at the first node beyond it, before anything walks it
// recursively (the JSON of get -o json, the page's snapshots, the
// JavaScript values the page builds). An alias counts as the node it
// stands for. docs/limits.md lists every limit.
const MaxDepth = 100

// depthCheck finds the first node deeper than limit in a document, aliases
// followed; the depth of each anchored node is computed once.
type depthCheck struct {
	limit  int
	depths map[*yaml.Node]int
	active map[*yaml.Node]bool
}

func newDepthCheck(limit int) *depthCheck {
	return &depthCheck{limit: limit, depths: map[*yaml.Node]int{}, active: map[*yaml.Node]bool{}}
}

// tooDeep returns the first node of n (a document) that lies beyond the
// limit, or nil. The walk stops there, so it never goes deeper than the
// limit itself.
func (d *depthCheck) tooDeep(n *yaml.Node) *yaml.Node {
	for _, c := range n.Content {
		if _, at := d.walk(c, 1); at != nil {
			return at
		}
	}
	return nil
}

// walk checks n at depth level (1 for the document's top node) and returns
// the nesting of its lists and mappings (1 for a flat one, 0 for a scalar),
// or the node beyond the limit.
func (d *depthCheck) walk(n *yaml.Node, level int) (int, *yaml.Node) {
	if n == nil {
		return 0, nil
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil || d.active[n.Alias] {
			return 0, nil
		}
		if h, ok := d.depths[n.Alias]; ok {
			if level-1+h > d.limit {
				return 0, n
			}
			return h, nil
		}
		d.active[n.Alias] = true
		h, at := d.walk(n.Alias, level)
		delete(d.active, n.Alias)
		if at != nil {
			return 0, n // the alias is where the document goes too deep
		}
		return h, nil
	}
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return 0, nil
	}
	if level > d.limit {
		return 0, n
	}
	h := 1
	for _, c := range n.Content {
		ch, at := d.walk(c, level+1)
		if at != nil {
			return 0, at
		}
		h = max(h, 1+ch)
	}
	if n.Anchor != "" {
		d.depths[n] = h
	}
	return h, nil
}

// depthProblem is the problem of a node beyond MaxDepth.
func depthProblem(file string, n *yaml.Node, limit int) Problem {
	what := "a mapping"
	if n.Kind == yaml.SequenceNode {
		what = "a list"
	} else if n.Kind == yaml.AliasNode {
		what = "alias *" + n.Value + ", which"
	}
	return Problem{File: file, Line: max(n.Line, 1), Col: max(n.Column, 1),
		Message: fmt.Sprintf("nesting too deep: %s nests more than %d levels down, the limit of a document", what, limit)}
}

// ValueTooDeep reports whether v (what encoding/json or yaml decodes: maps
// and lists) nests its lists and mappings more than MaxDepth levels down,
// v itself being level 1: the same limit for a value that does not come
// from a file (kubectl patch -p). The walk goes no deeper than the limit.
func ValueTooDeep(v any) bool { return valueTooDeep(v, 1) }

func valueTooDeep(v any, level int) bool {
	switch x := v.(type) {
	case map[string]any:
		if level > MaxDepth {
			return true
		}
		for _, k := range x {
			if valueTooDeep(k, level+1) {
				return true
			}
		}
	case map[any]any:
		if level > MaxDepth {
			return true
		}
		for _, k := range x {
			if valueTooDeep(k, level+1) {
				return true
			}
		}
	case []any:
		if level > MaxDepth {
			return true
		}
		for _, e := range x {
			if valueTooDeep(e, level+1) {
				return true
			}
		}
	}
	return false
}
