package manifest

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		mismatched,
		kubectlGetOutput,
		deployHead + "spec:\n  replicass: 3\n  replicas: x\n",
		"apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {<<: {x: y}}}\n",
		"a: &a [*a]\n",
		"{\"apiVersion\": \"v1\", \"kind\": \"Pod\"}",
		"apiVersion: v1\nkind: Pod\nspec: !foo {}\n---\n[",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, probs := Decode(data, "f.yaml")
		for _, p := range probs {
			if p.Line < 1 || p.Col < 1 {
				t.Fatalf("problem without a position: %q", p.String())
			}
		}
		if probs.HasErrors() && len(docs) > 0 && len(probs.Errors()) == 0 {
			t.Fatal("inconsistent problems")
		}
		for _, d := range docs {
			_ = Validate(d)
		}
		_, _ = DecodeObjects(data, "f.yaml")
	})
}

// FuzzAliasBudget: with any limit, a stream that ParseDocuments accepts
// expands (Expand) within it, without Expand refusing anything for size;
// a stream it refuses is refused at an alias (a '*' in the text). The
// limits are small, so that the fuzzer reaches them with short inputs.
func FuzzAliasBudget(f *testing.F) {
	for _, s := range []string{
		"a: &a [x, y]\nb: [*a, *a, *a]\n",
		"a: &a {k: v}\nb: {<<: *a, c: *a}\n",
		"a: &a0 [lol, lol]\nb: &a1 [*a0, *a0]\nc: &a2 [*a1, *a1]\nd: [*a2, *a2, *a2]\n",
		"x: &a \"" + strings.Repeat("x", 100) + "\"\ny: [*a, *a, *a, *a]\n---\nz: &b [*b]\n",
		"a: &a [*a]\n",
		"a: &é [ü]\nb: [*é, *é]\n",
	} {
		f.Add([]byte(s), uint16(64))
	}
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) {
		if len(data) > 1<<12 {
			return
		}
		docs, probs := parseDocuments(data, "f.yaml", len(data)+int(limit))
		var added int64
		for _, d := range docs {
			x, ps := expandWithin(d, "f.yaml", int64(limit))
			if len(ps) > 0 {
				for _, p := range ps {
					if strings.Contains(p.Message, "excessive aliasing") {
						t.Fatalf("ParseDocuments accepted what Expand refuses: %s", p)
					}
				}
				return // an alias inside its own node: the sizes below do not add up
			}
			added += treeBytes(x) - sourceBytes(d)
		}
		for _, p := range probs {
			if strings.Contains(p.Message, "excessive aliasing") {
				if c := charAt(data, p.Line, p.Col); c != '*' {
					t.Fatalf("the problem is at %q, not at an alias: %s", c, p)
				}
				return
			}
		}
		if added > int64(limit) {
			t.Fatalf("aliases add %d bytes, beyond the limit of %d", added, limit)
		}
	})
}

// treeBytes is what the nodes of an expanded tree count (nodeBytes).
func treeBytes(n *yaml.Node) int64 {
	if n == nil {
		return 0
	}
	s := nodeBytes(n)
	for _, c := range n.Content {
		s += treeBytes(c)
	}
	return s
}

// sourceBytes is treeBytes of a tree as written: an alias counts nothing.
func sourceBytes(n *yaml.Node) int64 {
	if n == nil || n.Kind == yaml.AliasNode {
		return 0
	}
	s := nodeBytes(n)
	for _, c := range n.Content {
		s += sourceBytes(c)
	}
	return s
}

// charAt is the character at a 1-based line and column (in characters).
func charAt(data []byte, line, col int) rune {
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return 0
	}
	for i, r := range []rune(lines[line-1]) {
		if i == col-1 {
			return r
		}
	}
	return 0
}
