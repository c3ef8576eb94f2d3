package manifest

import (
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// describe names what a node holds, for "cannot decode X into ..." messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch t := n.ShortTag(); t {
	case "!!str", "!!timestamp", "!!binary":
		return "a string"
	case "!!bool":
		return "a boolean"
	case "!!int":
		return "the integer " + n.Value
	case "!!float":
		return "the number " + n.Value
	case "!!null":
		return "null"
	default:
		return "a value tagged " + t
	}
}

// typeName names what a Go type expects, for the same messages.
func typeName(t reflect.Type) string {
	if t == nodeType || t == nodePtrType {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a value"
}

func (d *decoder) typeError(n *yaml.Node, p path, want string, hint string) {
	d.problem(n, "cannot decode %s into %s (%s)%s", describe(n), p, want, hint)
}

func isStringTag(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode {
		return false
	}
	switch n.ShortTag() {
	case "!!str", "!!timestamp", "!!binary":
		return true
	}
	return false
}

// stringValue returns a string scalar's value. A number or boolean where a
// string belongs (`image: 1.0`, a label `version: 1.0`) is refused with the
// fix: quote it.
func (d *decoder) stringValue(n *yaml.Node, p path) (string, bool) {
	if isStringTag(n) {
		return n.Value, true
	}
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int", "!!float", "!!bool":
			d.problem(n, "%s: must be a string; quote it: %s", p, strconv.Quote(n.Value))
			return "", false
		}
	}
	d.typeError(n, p, "a string", "")
	return "", false
}

func (d *decoder) decodeBool(n *yaml.Node, v reflect.Value, p path) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		var b bool
		if err := n.Decode(&b); err == nil {
			v.SetBool(b)
			return
		}
	}
	hint := ""
	if isStringTag(n) {
		switch strings.ToLower(n.Value) {
		case "yes", "no", "on", "off", "y", "n", "true", "false":
			hint = "; write true or false"
		}
	}
	d.typeError(n, p, "a boolean", hint)
}

// numericHint suggests removing quotes from a quoted number.
func numericHint(n *yaml.Node) string {
	if isStringTag(n) {
		if _, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64); err == nil {
			return "; remove the quotes"
		}
	}
	return ""
}

func (d *decoder) decodeInt(n *yaml.Node, v reflect.Value, p path) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		d.typeError(n, p, "an integer", numericHint(n))
		return
	}
	var i int64
	if err := n.Decode(&i); err != nil || v.OverflowInt(i) {
		d.problem(n, "cannot decode %s into %s: out of range for a %d-bit integer", n.Value, p, v.Type().Bits())
		return
	}
	v.SetInt(i)
}

func (d *decoder) decodeUint(n *yaml.Node, v reflect.Value, p path) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		d.typeError(n, p, "a non-negative integer", numericHint(n))
		return
	}
	if strings.HasPrefix(n.Value, "-") {
		d.problem(n, "cannot decode %s into %s (a non-negative integer)", n.Value, p)
		return
	}
	var u uint64
	if err := n.Decode(&u); err != nil || v.OverflowUint(u) {
		d.problem(n, "cannot decode %s into %s: out of range for a %d-bit unsigned integer", n.Value, p, v.Type().Bits())
		return
	}
	v.SetUint(u)
}

func (d *decoder) decodeFloat(n *yaml.Node, v reflect.Value, p path) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		var f float64
		if err := n.Decode(&f); err == nil {
			v.SetFloat(f)
			return
		}
	}
	d.typeError(n, p, "a number", numericHint(n))
}
