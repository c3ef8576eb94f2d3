package manifest

import (
	"bytes"
	"encoding/json"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// IsJSONNumber reports whether s is a number in JSON's syntax (RFC 8259
// section 6): `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`. A YAML
// number written this way is passed through as written ("0.50" stays
// "0.50").
func IsJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		digits()
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// toJSON converts an expanded subtree to JSON the way Kubernetes' YAML
// decoding does (sigs.k8s.io/yaml): mapping keys become strings, scalars get
// their resolved YAML type. Problems (duplicate keys, non-scalar keys,
// infinities, unknown tags) are reported at their node.
func (d *decoder) toJSON(n *yaml.Node) ([]byte, bool) {
	var buf bytes.Buffer
	before := len(d.probs)
	d.writeJSON(&buf, n, path{})
	return buf.Bytes(), len(d.probs) == before
}

func (d *decoder) writeJSON(buf *bytes.Buffer, n *yaml.Node, p path) {
	if t := n.ShortTag(); n.Kind != yaml.ScalarNode && isCustomTag(t) {
		d.problem(n, "unsupported YAML tag %s", t)
		buf.WriteString("null")
		return
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			d.writeJSON(buf, n.Content[0], p)
			return
		}
		buf.WriteString("null")
	case yaml.MappingNode:
		buf.WriteByte('{')
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		first := true
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			name, ok := d.mapKey(k, p)
			if !ok {
				continue
			}
			if f, dup := seen[name]; dup {
				d.duplicate(k, name, f, p)
				continue
			}
			seen[name] = k
			if !first {
				buf.WriteByte(',')
			}
			first = false
			kb, _ := json.Marshal(name)
			buf.Write(kb)
			buf.WriteByte(':')
			d.writeJSON(buf, v, p.key(name))
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			d.writeJSON(buf, c, p.index(i))
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		d.writeScalar(buf, n)
	default:
		d.problem(n, "internal error: unexpanded alias")
		buf.WriteString("null")
	}
}

func (d *decoder) writeScalar(buf *bytes.Buffer, n *yaml.Node) {
	switch t := n.ShortTag(); t {
	case "!!null":
		buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			d.problem(n, "invalid boolean %q", n.Value)
		}
		buf.WriteString(strconv.FormatBool(b))
	case "!!int", "!!float":
		if IsJSONNumber(n.Value) {
			buf.WriteString(n.Value)
			return
		}
		var v any
		if err := n.Decode(&v); err != nil {
			d.problem(n, "invalid number %q", n.Value)
			buf.WriteString("0")
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			d.problem(n, "invalid number %q: JSON has no infinities or NaN", n.Value)
			buf.WriteString("0")
			return
		}
		buf.Write(b)
	case "!!str", "!!timestamp", "!!binary":
		b, _ := json.Marshal(n.Value)
		buf.Write(b)
	default:
		d.problem(n, "unsupported YAML tag %s", t)
		buf.WriteString("null")
	}
}
