package manifest

import (
	"reflect"
	"strconv"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
)

// Doc is one decoded object with where its fields were written.
type Doc struct {
	Object    api.Object
	Positions Positions
	// Line and Col are where the object's mapping starts.
	Line, Col int
	// File is the file the object came from.
	File string
	// Node is the node the object was decoded from, with aliases expanded
	// and server-set fields removed; it can be placed in another document.
	Node *yaml.Node
}

// Decode decodes every object of a YAML or JSON stream: one or several
// documents, each an object or a List of objects. It returns the objects that
// decoded without error, in order, and every problem, sorted by position;
// the problems may be only notes (dropped server-set fields).
func Decode(data []byte, file string) ([]Doc, Problems) {
	nodes, probs := ParseDocuments(data, file)
	var docs []Doc
	for _, n := range nodes {
		ds, ps := DecodeNodes(n, file)
		docs = append(docs, ds...)
		probs = append(probs, ps...)
	}
	probs.Sort()
	return docs, probs
}

// DecodeObjects decodes data as `kubectl apply -f` reads a file: every
// object, or an error (Problems, errors only) naming each problem with
// source as the file name.
func DecodeObjects(data []byte, source string) ([]api.Object, error) {
	docs, probs := Decode(data, source)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	out := make([]api.Object, len(docs))
	for i, d := range docs {
		out[i] = d.Object
	}
	return out, nil
}

// DecodeNodes decodes the object or the List of objects in a node.
func DecodeNodes(node *yaml.Node, file string) ([]Doc, Problems) {
	x, probs := Expand(node, file)
	ds, ps := decodeObjects(unwrapDocument(x), file, true)
	if probs.HasErrors() {
		ds = nil
	}
	return ds, append(probs, ps...)
}

func unwrapDocument(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	return n
}

func problemAt(file string, n *yaml.Node, msg string) Problem {
	p := posOf(n)
	return Problem{File: file, Line: p.Line, Col: p.Col, Message: msg}
}

// lookupKey returns the value of key in a mapping, and the key node.
func lookupKey(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// decodeObjects decodes one expanded object node; with lists set, a List's
// items too.
func decodeObjects(n *yaml.Node, file string, lists bool) ([]Doc, Problems) {
	if n.Kind != yaml.MappingNode {
		return nil, Problems{problemAt(file, n, "a manifest must be a mapping with apiVersion and kind, not "+describe(n))}
	}
	avKey, avNode := lookupKey(n, "apiVersion")
	kKey, kNode := lookupKey(n, "kind")
	var probs Problems
	for _, c := range []struct {
		name      string
		key, node *yaml.Node
	}{{"apiVersion", avKey, avNode}, {"kind", kKey, kNode}} {
		switch {
		case c.node == nil || isNull(c.node) || (isStringTag(c.node) && c.node.Value == ""):
			at := n
			if c.key != nil {
				at = c.key
			}
			probs = append(probs, problemAt(file, at, c.name+" not set"))
		case !isStringTag(c.node):
			probs = append(probs, problemAt(file, c.node, "cannot decode "+describe(c.node)+" into "+c.name+" (a string)"))
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	av, kind := avNode.Value, kNode.Value
	if lists && listItemKind(av, kind) != "" {
		return decodeList(n, file, listItemKind(av, kind))
	}
	k, msg, ok := lookupKind(av, kind)
	if !ok {
		at := kNode
		if retiredVersions[av] || kindKnown(kind) {
			at = avNode
		}
		return nil, Problems{problemAt(file, at, msg)}
	}
	d := newDecoder(file, ignoredFields)
	dropServerSet(d, n)
	obj := k.new()
	d.pos.set("", posOf(n), posOf(n))
	d.decode(n, reflect.ValueOf(obj).Elem(), path{})
	if d.probs.HasErrors() {
		return nil, d.probs
	}
	p := posOf(n)
	return []Doc{{Object: obj, Positions: d.pos, Line: p.Line, Col: p.Col, File: file, Node: n}}, d.probs
}

func kindKnown(kind string) bool {
	for _, k := range kinds {
		if k.kind == kind {
			return true
		}
	}
	return false
}

// decodeList decodes the items of a List (want "*": any kind) or of a typed
// list such as DeploymentList (want the item kind). Its metadata is ignored.
func decodeList(n *yaml.Node, file, want string) ([]Doc, Problems) {
	var probs Problems
	var items *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "apiVersion", "kind", "metadata":
		case "items":
			items = v
		default:
			hint := ""
			if s := Suggest(k.Value, []string{"apiVersion", "kind", "metadata", "items"}); s != "" {
				hint = "; did you mean " + strconv.Quote(s) + "?"
			}
			probs = append(probs, problemAt(file, k, "unknown field "+strconv.Quote(k.Value)+" in a List"+hint))
		}
	}
	if items == nil || isNull(items) {
		return nil, probs
	}
	if items.Kind != yaml.SequenceNode {
		return nil, append(probs, problemAt(file, items, "cannot decode "+describe(items)+" into items (a list)"))
	}
	var docs []Doc
	for _, it := range items.Content {
		ds, ps := decodeObjects(it, file, false)
		probs = append(probs, ps...)
		for _, d := range ds {
			if want != "*" && d.Object.GetTypeMeta().Kind != want {
				probs = append(probs, problemAt(file, it, "a "+want+"List holds only "+want+"s, not "+d.Object.GetTypeMeta().Kind))
				continue
			}
			docs = append(docs, d)
		}
	}
	return docs, probs
}

// dropServerSet removes, with a note each, the fields of `kubectl get -o
// yaml` output that the API server sets: status, metadata.uid and the like,
// and the revision and last-applied annotations. A null or empty value (as
// `kubectl create --dry-run -o yaml` prints `creationTimestamp: null` and
// `status: {}`) is dropped without a note. n is a private copy.
func dropServerSet(d *decoder, n *yaml.Node) {
	removeKey(d, n, "status", path{})
	_, meta := lookupKey(n, "metadata")
	if meta == nil || meta.Kind != yaml.MappingNode {
		return
	}
	mp := path{}.field("metadata")
	for _, k := range serverSetMetadata {
		removeKey(d, meta, k, mp)
	}
	_, ann := lookupKey(meta, "annotations")
	if ann == nil || ann.Kind != yaml.MappingNode {
		return
	}
	ap := mp.field("annotations")
	for _, k := range serverSetAnnotations {
		removeKey(d, ann, k, ap)
	}
	if len(ann.Content) == 0 {
		removeKey(d, meta, "annotations", mp)
	}
}

// removeKey deletes every pair with this key from a mapping.
func removeKey(d *decoder, m *yaml.Node, key string, p path) {
	out := m.Content[:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != key {
			out = append(out, k, v)
			continue
		}
		if !isEmptyValue(v) {
			d.note(k, "dropped server-set field %s", keyPath(p, key).disp)
		}
	}
	m.Content = out
}

// keyPath is p.field for metadata fields and p.key for annotation keys.
func keyPath(p path, key string) path {
	if p.disp == "metadata.annotations" {
		return p.key(key)
	}
	return p.field(key)
}

func isEmptyValue(v *yaml.Node) bool {
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		return len(v.Content) == 0
	case yaml.ScalarNode:
		return isNull(v) || (isStringTag(v) && v.Value == "")
	}
	return false
}
