//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// This file holds the few DOM helpers every part of the page uses. They
// wrap honnef.co/go/js/dom/v2 with two habits:
//
//   - a node remembers what it last set (text, attributes, class), so that
//     a render that changes nothing makes no call into JS (each costs about
//     as much as a hundred Go function calls);
//   - elements are wrapped directly as dom.BasicHTMLElement: dom.WrapElement
//     looks up the constructor among dozens of classes, one JS call each,
//     which would dominate the creation of a thousand pod tiles;
//   - nothing here goes through dom/v2's wrappers that choose a type per
//     element or event (WrapNode, WrapElement, Event.Target, the events
//     AddEventListener hands over): each links every element and event type
//     of the package and their methods into the wasm, about 1,300 functions
//     and 50 KB of its brotli size (docs/performance.md). Listeners get a
//     plain *dom.BasicEvent, and targetAttr reads the target's attribute.
//
// Every string that comes from the user or the simulation goes in through
// SetTextContent or SetAttribute, never as HTML, with one exception: the pod
// tiles of a large grid go in as markup (render_tiles.go), built by
// view.AppendTileHTML, which escapes every text it writes
// (TestAppendTileHTMLEscapesEveryText).

const svgNS = "http://www.w3.org/2000/svg"

// node is one element and what was last written to it.
type node struct {
	*dom.BasicHTMLElement
	text    string
	hasText bool
	class   string
	attrs   map[string]string
	hidden  bool
	props   map[string]string
}

func wrap(v js.Value) *node {
	return &node{BasicHTMLElement: &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}}
}

// doc is the document the page draws into.
type doc struct{ v js.Value }

func newDoc() doc { return doc{v: dom.GetWindow().Document().Underlying()} }

// el creates an element with a class and, optionally, a text.
func (d doc) el(tag, class string, text ...string) *node {
	n := wrap(d.v.Call("createElement", tag))
	n.setClass(class)
	for _, t := range text {
		n.setText(t)
	}
	return n
}

// svg creates an SVG element.
func (d doc) svg(tag, class string) *node {
	n := wrap(d.v.Call("createElementNS", svgNS, tag))
	if class != "" {
		n.setAttr("class", class)
	}
	return n
}

func (n *node) setText(s string) {
	if n.hasText && n.text == s {
		return
	}
	n.text, n.hasText = s, true
	n.SetTextContent(s)
}

func (n *node) setClass(c string) {
	if n.class == c {
		return
	}
	n.class = c
	n.Value.Set("className", c)
}

// setAttr sets an attribute; "" removes it.
func (n *node) setAttr(k, v string) {
	if n.attrs == nil {
		n.attrs = map[string]string{}
	}
	old, ok := n.attrs[k]
	if ok && old == v {
		return
	}
	if !ok && v == "" {
		n.attrs[k] = ""
		return
	}
	n.attrs[k] = v
	if v == "" {
		n.RemoveAttribute(k)
		return
	}
	n.SetAttribute(k, v)
}

// setBool sets or removes a boolean attribute.
func (n *node) setBool(k string, on bool) {
	if on {
		n.setAttr(k, k)
	} else {
		n.setAttr(k, "")
	}
}

// setHidden shows or hides the element (the hidden property).
func (n *node) setHidden(h bool) {
	if n.hidden == h {
		return
	}
	n.hidden = h
	n.Value.Set("hidden", h)
}

// setStyle sets one CSS property through the CSSOM (never a style
// attribute string, which the page's CSP forbids).
func (n *node) setStyle(prop, v string) {
	if n.props == nil {
		n.props = map[string]string{}
	}
	if old, ok := n.props[prop]; ok && old == v {
		return
	}
	n.props[prop] = v
	n.Value.Get("style").Call("setProperty", prop, v)
}

// add appends children and returns n.
func (n *node) add(children ...*node) *node {
	for _, c := range children {
		n.Value.Call("appendChild", c.Value)
	}
	return n
}

// value is an input's, select's or textarea's value.
func (n *node) value() string { return n.Value.Get("value").String() }

func (n *node) setValue(v string) {
	if n.value() != v {
		n.Value.Set("value", v)
	}
}

// keyed keeps the children of parent in step with a list of keys: a child
// is created once for a new key, kept while its key stays and removed when
// it goes. Children move only when the order of the keys that stay
// changes.
//
// keyed[T] is a typed shell around children, which does the work on
// values of type any: a generic type is compiled once per shape of T, and
// the page has a dozen kinds of row, so a generic sync would be a dozen
// copies of it in the wasm (about 90 KB raw).
type keyed[T any] struct{ children }

// children is keyed's untyped state: every item is a *T of its keyed[T].
type children struct {
	parent *node
	byKey  map[string]any
	order  []string
	create func(key string) any
	root   func(any) *node
}

func newKeyed[T any](parent *node, create func(key string) *T, root func(*T) *node) *keyed[T] {
	return &keyed[T]{children{parent: parent, byKey: map[string]any{},
		create: func(key string) any { return create(key) },
		root:   func(it any) *node { return root(it.(*T)) }}}
}

// get is the item of key, or nil.
func (k *keyed[T]) get(key string) *T {
	it, _ := k.byKey[key].(*T)
	return it
}

// sync makes the children those of keys, in order, and calls update on
// each (new or kept) with its position. New children are added in one
// append call; a render where the keys did not change touches no child
// that update does not change.
func (k *keyed[T]) sync(keys []string, update func(i int, it *T)) {
	k.children.sync(keys, func(i int, it any) { update(i, it.(*T)) })
}

func (k *children) sync(keys []string, update func(i int, it any)) {
	if equalKeys(k.order, keys) {
		for i, key := range keys {
			update(i, k.byKey[key])
		}
		return
	}
	want := make(map[string]bool, len(keys))
	for _, key := range keys {
		want[key] = true
	}
	// Remove the children whose key went, keeping the old order of the rest.
	kept := k.order[:0]
	for _, key := range k.order {
		if want[key] {
			kept = append(kept, key)
			continue
		}
		if it := k.byKey[key]; it != nil {
			k.root(it).Remove()
		}
		delete(k.byKey, key)
	}
	// The common case: the kept keys lead in the same order and new keys
	// only follow them. Otherwise every child is appended again, in order.
	inPlace := len(kept) <= len(keys)
	for i := 0; inPlace && i < len(kept); i++ {
		inPlace = kept[i] == keys[i]
	}
	var add []any
	for i, key := range keys {
		it, ok := k.byKey[key]
		if !ok {
			it = k.create(key)
			k.byKey[key] = it
			add = append(add, k.root(it).Value)
		} else if !inPlace {
			add = append(add, k.root(it).Value)
		}
		update(i, it)
	}
	if len(add) > 0 {
		k.parent.Value.Call("append", add...)
	}
	k.order = append(k.order[:0], keys...)
}

func equalKeys(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// listeners owns a renderer's event handlers: dispose removes each from its
// target and releases its js.Func (dom/v2's Add/RemoveEventListener).
type listeners struct{ subs []subscription }

type subscription struct {
	target js.Value
	typ    string
	fn     js.Func
}

// eventTarget is anything that takes event listeners: a *node, the
// document.
type eventTarget interface{ Underlying() js.Value }

// on adds an event listener to target; f gets the event as a
// *dom.BasicEvent.
func (l *listeners) on(target eventTarget, typ string, f func(ev dom.Event)) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		f(&dom.BasicEvent{Value: args[0]})
		return nil
	})
	t := target.Underlying()
	t.Call("addEventListener", typ, fn, false)
	l.subs = append(l.subs, subscription{target: t, typ: typ, fn: fn})
}

func (l *listeners) release() {
	for _, s := range l.subs {
		s.target.Call("removeEventListener", s.typ, s.fn, false)
		s.fn.Release()
	}
	l.subs = nil
}

// targetAttr is the attribute name of the element an event happened on,
// "" when it has none.
func targetAttr(ev dom.Event, name string) string {
	v := ev.Underlying().Get("target").Call("getAttribute", name)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// breakable lets a long identifier wrap after its separators (":", "/",
// ",", "=") rather than anywhere: it adds a zero-width space after each.
func breakable(s string) string {
	return breaker.Replace(s)
}

var breaker = strings.NewReplacer(":", ":\u200b", "/", "/\u200b", ",", ",\u200b")

// tableHead makes a table's head row from its column headers, and gives
// the table and the head their roles explicitly: on a narrow screen the
// table reflows to stacked rows (style.css), and CSS display must not take
// the table's meaning away from a screen reader.
func tableHead(d doc, table *node, heads []string) *node {
	table.setAttr("role", "table")
	head := d.el("tr", "")
	head.setAttr("role", "row")
	for _, h := range heads {
		th := d.el("th", "", h)
		th.setAttr("scope", "col")
		th.setAttr("role", "columnheader")
		head.add(th)
	}
	thead := d.el("thead", "")
	thead.setAttr("role", "rowgroup")
	return thead.add(head)
}

// tableBody is a tbody with its role (see tableHead).
func tableBody(d doc) *node {
	b := d.el("tbody", "")
	b.setAttr("role", "rowgroup")
	return b
}

// tableRow fills a body row with its cells, each labelled with its
// column's header (data-label), which a stacked row shows before the cell.
func tableRow(tr *node, heads []string, cells ...*node) *node {
	tr.setAttr("role", "row")
	for i, c := range cells {
		c.setAttr("role", "cell")
		if i < len(heads) {
			c.setAttr("data-label", heads[i])
		}
		tr.add(c)
	}
	return tr
}
