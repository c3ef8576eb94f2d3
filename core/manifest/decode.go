package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DecodeInto decodes n (a document or any node) into the value v points to,
// by v's `json` tags, the way encoding/json would decode the equivalent JSON,
// but strictly: unknown fields, duplicate keys and values of the wrong type are
// problems with their line and column, and decoding goes on after each one so
// that all of them are reported. Aliases are expanded first (see Expand).
//
// Embedded structs without a json name are inlined; omitempty and omitzero do
// not matter for decoding. Types implementing json.Unmarshaler receive the
// JSON form of their subtree, and an error they return is placed at the node.
// A field of type yaml.Node or *yaml.Node receives the (expanded) node itself,
// so callers can decode it later. null leaves a field at its zero value.
//
// It returns where each field path was written.
func DecodeInto(n *yaml.Node, v any, file string) (Positions, Problems) {
	x, probs := Expand(n, file)
	d := newDecoder(file, nil)
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		d.problem(x, "internal error: DecodeInto needs a non-nil pointer, not %T", v)
		return d.pos, append(probs, d.probs...)
	}
	root := x
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	d.pos.set("", posOf(root), posOf(root))
	d.decode(x, rv.Elem(), path{})
	return d.pos, append(probs, d.probs...)
}

type decoder struct {
	file    string
	probs   Problems
	pos     Positions
	structs map[reflect.Type]*structInfo
	// ignored lists, per struct type, Kubernetes fields that Converge does
	// not simulate: they are dropped with a note instead of an error.
	ignored map[reflect.Type][]string
}

func newDecoder(file string, ignored map[reflect.Type][]string) *decoder {
	return &decoder{file: file, pos: newPositions(), structs: map[reflect.Type]*structInfo{}, ignored: ignored}
}

func posOf(n *yaml.Node) Position { return Position{Line: max(n.Line, 1), Col: max(n.Column, 1)} }

func (d *decoder) problem(n *yaml.Node, format string, args ...any) {
	p := posOf(n)
	d.probs = append(d.probs, Problem{File: d.file, Line: p.Line, Col: p.Col, Message: fmt.Sprintf(format, args...)})
}

func (d *decoder) note(n *yaml.Node, format string, args ...any) {
	p := posOf(n)
	d.probs = append(d.probs, Problem{File: d.file, Line: p.Line, Col: p.Col, Message: fmt.Sprintf(format, args...), Note: true})
}

// path is a field path in two spellings: disp for messages
// (metadata.labels.app, metadata.annotations["a.b/c"]) and fp in
// core/validation/field's syntax for Positions (metadata.labels[app]).
type path struct{ disp, fp string }

func (p path) field(name string) path {
	if p.disp == "" {
		return path{name, name}
	}
	return path{p.disp + "." + name, p.fp + "." + name}
}

func (p path) index(i int) path {
	s := "[" + strconv.Itoa(i) + "]"
	return path{p.disp + s, p.fp + s}
}

func (p path) key(k string) path {
	fp := p.fp + "[" + k + "]"
	if isSimpleKey(k) {
		if p.disp == "" {
			return path{k, fp}
		}
		return path{p.disp + "." + k, fp}
	}
	return path{p.disp + "[" + strconv.Quote(k) + "]", fp}
}

// String is the path for messages; the top is "the document".
func (p path) String() string {
	if p.disp == "" {
		return "the document"
	}
	return p.disp
}

// isSimpleKey reports whether a map key can be written after a dot.
func isSimpleKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

var (
	nodeType        = reflect.TypeFor[yaml.Node]()
	nodePtrType     = reflect.TypeFor[*yaml.Node]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// isCustomTag reports a tag other than YAML's standard ones (!foo, !<x>).
func isCustomTag(t string) bool {
	switch t {
	case "!!str", "!!int", "!!float", "!!bool", "!!null", "!!timestamp", "!!binary", "!!map", "!!seq", "!!merge":
		return false
	}
	return t != ""
}

func (d *decoder) decode(n *yaml.Node, v reflect.Value, p path) {
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return
		}
		n = n.Content[0]
	}
	switch v.Type() {
	case nodeType:
		v.Set(reflect.ValueOf(*n))
		return
	case nodePtrType:
		v.Set(reflect.ValueOf(n))
		return
	}
	if isNull(n) {
		v.SetZero()
		return
	}
	if t := n.ShortTag(); isCustomTag(t) {
		d.problem(n, "unsupported YAML tag %s", t)
		return
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.decode(n, v.Elem(), p)
		return
	}
	if reflect.PointerTo(v.Type()).Implements(unmarshalerType) && v.CanAddr() {
		d.unmarshalJSON(n, v.Addr().Interface().(json.Unmarshaler), p)
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		d.decodeStruct(n, v, p)
	case reflect.Map:
		d.decodeMap(n, v, p)
	case reflect.Slice:
		d.decodeSlice(n, v, p)
	case reflect.String:
		if s, ok := d.stringValue(n, p); ok {
			v.SetString(s)
		}
	case reflect.Bool:
		d.decodeBool(n, v, p)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.decodeInt(n, v, p)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		d.decodeUint(n, v, p)
	case reflect.Float32, reflect.Float64:
		d.decodeFloat(n, v, p)
	case reflect.Interface:
		if b, ok := d.toJSON(n); ok {
			if err := json.Unmarshal(b, v.Addr().Interface()); err != nil {
				d.problem(n, "%s: %v", p, err)
			}
		}
	default:
		d.problem(n, "internal error: cannot decode into %s (Go type %s)", p, v.Type())
	}
}

func (d *decoder) unmarshalJSON(n *yaml.Node, u json.Unmarshaler, p path) {
	b, ok := d.toJSON(n)
	if !ok {
		return
	}
	if err := u.UnmarshalJSON(b); err != nil {
		d.problem(n, "%s: %v", p, err)
	}
}

// mapKey returns a mapping key as a string. Kubernetes turns YAML keys into
// JSON object keys, so any scalar works (`1: x` is key "1"); a mapping or list
// as a key does not.
func (d *decoder) mapKey(k *yaml.Node, p path) (string, bool) {
	if k.Kind != yaml.ScalarNode {
		d.problem(k, "%s: a key must be a string, not %s", p, describe(k))
		return "", false
	}
	if isNull(k) {
		return "", true
	}
	return k.Value, true
}

func (d *decoder) duplicate(k *yaml.Node, name string, first *yaml.Node, p path) {
	where := ""
	if p.disp != "" {
		where = " in " + p.disp
	}
	d.problem(k, "duplicate key %q%s (first at line %d)", name, where, posOf(first).Line)
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, p path) {
	if n.Kind != yaml.MappingNode {
		d.typeError(n, p, "a mapping", "")
		return
	}
	info := d.structInfo(v.Type())
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		name, ok := d.mapKey(k, p)
		if !ok {
			continue
		}
		if first, dup := seen[name]; dup {
			d.duplicate(k, name, first, p)
			continue
		}
		seen[name] = k
		f, ok := info.byName[name]
		if !ok {
			d.unknownField(k, name, v.Type(), info, p)
			continue
		}
		fp := p.field(name)
		d.pos.set(fp.fp, posOf(k), posOf(val))
		d.decode(val, v.FieldByIndex(f.index), fp)
	}
}

func (d *decoder) unknownField(k *yaml.Node, name string, t reflect.Type, info *structInfo, p path) {
	for _, ig := range d.ignored[t] {
		if ig == name {
			d.note(k, "ignored field %s: Converge does not simulate it", p.field(name).disp)
			return
		}
	}
	where := ""
	if p.disp != "" {
		where = " in " + p.disp
	}
	hint := ""
	if s := Suggest(name, info.names); s != "" {
		hint = fmt.Sprintf("; did you mean %q?", s)
	}
	d.problem(k, "unknown field %q%s%s", name, where, hint)
}

func (d *decoder) decodeMap(n *yaml.Node, v reflect.Value, p path) {
	t := v.Type()
	if n.Kind != yaml.MappingNode {
		d.typeError(n, p, "a mapping", "")
		return
	}
	if t.Key().Kind() != reflect.String {
		d.problem(n, "internal error: cannot decode into %s (Go type %s)", p, t)
		return
	}
	if v.IsNil() {
		v.Set(reflect.MakeMapWithSize(t, len(n.Content)/2))
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		name, ok := d.mapKey(k, p)
		if !ok {
			continue
		}
		if first, dup := seen[name]; dup {
			d.duplicate(k, name, first, p)
			continue
		}
		seen[name] = k
		kp := p.key(name)
		d.pos.set(kp.fp, posOf(k), posOf(val))
		ev := reflect.New(t.Elem()).Elem()
		d.decode(val, ev, kp)
		v.SetMapIndex(reflect.ValueOf(name).Convert(t.Key()), ev)
	}
}

func (d *decoder) decodeSlice(n *yaml.Node, v reflect.Value, p path) {
	if n.Kind != yaml.SequenceNode {
		d.typeError(n, p, typeName(v.Type()), "")
		return
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, c := range n.Content {
		ip := p.index(i)
		d.pos.set(ip.fp, posOf(c), posOf(c))
		d.decode(c, s.Index(i), ip)
	}
	v.Set(s)
}

// structInfo is the decodable fields of a struct type by JSON name.
type structInfo struct {
	byName map[string]fieldInfo
	names  []string // in declaration order, for suggestions
}

type fieldInfo struct {
	index []int
}

func (d *decoder) structInfo(t reflect.Type) *structInfo {
	if info, ok := d.structs[t]; ok {
		return info
	}
	info := &structInfo{byName: map[string]fieldInfo{}}
	d.structs[t] = info
	collectFields(t, nil, info)
	return info
}

// collectFields adds t's fields to info, inlining embedded structs that have
// no JSON name (TypeMeta's `json:",inline"`), as encoding/json does.
func collectFields(t reflect.Type, index []int, info *structInfo) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		idx := append(append([]int(nil), index...), i)
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			collectFields(f.Type, idx, info)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := info.byName[name]; dup {
			continue
		}
		info.byName[name] = fieldInfo{index: idx}
		info.names = append(info.names, name)
	}
}
