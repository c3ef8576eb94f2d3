package store

import (
	"encoding/json"
	"io"
	"slices"
	"strings"

	"converge/core/api"
)

// The trace lists every object of a kind in kubectl's order (namespace,
// then name) in Kubernetes' JSON, every second (docs/trace.md). Stored
// objects are immutable, so the store keeps, for the version of the state
// that asks, each object's JSON until the object is replaced and the
// sorted positions until a create or a delete: a trace line costs the
// objects that changed since the last one, not all of them. A clone (a
// checkpoint) starts without these caches; they are never shared.

// ByName returns every object of a kind sorted by namespace and name, as
// `kubectl get` lists them (shared: do not modify).
func (s *Store) ByName(kind string) []api.Object {
	c, err := s.coll(kind)
	if err != nil {
		return nil
	}
	order := c.sorted()
	out := make([]api.Object, len(order))
	for i, pos := range order {
		out[i] = c.at(int(pos))
	}
	return out
}

// WriteJSONList writes every object of a kind as a JSON array, sorted as
// ByName, with the bytes json.Marshal gives for that slice of objects. The
// JSON of an object is encoded once and kept until the object is replaced.
func (s *Store) WriteJSONList(w io.Writer, kind string) error {
	c, err := s.coll(kind)
	if err != nil {
		return err
	}
	order := c.sorted()
	if len(order) == 0 {
		_, err := io.WriteString(w, "[]")
		return err
	}
	sep := openBracket
	for _, pos := range order {
		b, err := c.encoded(int(pos))
		if err != nil {
			return err
		}
		if _, err := w.Write(sep); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		sep = comma
	}
	_, err = w.Write(closeBracket)
	return err
}

var (
	openBracket  = []byte("[")
	comma        = []byte(",")
	closeBracket = []byte("]")
)

// EncodedJSON returns the JSON of the stored object of a kind with that
// key (namespace/name, or the name of a node): json.Marshal's bytes,
// cached as WriteJSONList caches them. The bytes are shared: do not modify.
func (s *Store) EncodedJSON(kind, namespace, name string) ([]byte, error) {
	c, err := s.coll(kind)
	if err != nil {
		return nil, err
	}
	if kind == api.KindNode {
		namespace = ""
	} else if namespace == "" {
		namespace = api.NamespaceDefault
	}
	pos, ok := c.index.Get(key(namespace, name))
	if !ok {
		return nil, notFound(kind, name)
	}
	return c.encoded(int(pos))
}

// AdoptEncodings takes from another store (one this store shares objects
// with: the state a seek left) the JSON of every object both hold at the
// same position, so that those are not encoded again. The work is a pointer
// comparison per position.
func (s *Store) AdoptEncodings(from *Store) {
	for kind, c := range s.kinds {
		f := from.kinds[kind]
		if f == nil || len(f.enc) == 0 {
			continue
		}
		n := min(c.n, len(f.enc))
		for pos := 0; pos < n; pos++ {
			if pos < len(c.enc) && c.enc[pos] != nil {
				continue
			}
			b := f.enc[pos]
			if b == nil || c.at(pos) != f.at(pos) {
				continue
			}
			if pos >= len(c.enc) {
				c.enc = slices.Grow(c.enc, c.n-len(c.enc))[:c.n]
			}
			c.enc[pos] = b
		}
	}
}

// encoded returns the JSON of the object at pos, encoding it the first
// time.
func (c *collection) encoded(pos int) ([]byte, error) {
	if pos < len(c.enc) && c.enc[pos] != nil {
		return c.enc[pos], nil
	}
	b, err := json.Marshal(c.at(pos))
	if err != nil {
		return nil, err
	}
	if pos >= len(c.enc) {
		c.enc = slices.Grow(c.enc, c.n-len(c.enc))[:c.n]
	}
	c.enc[pos] = b
	return b, nil
}

// sorted returns the positions of the objects in namespace and name order.
// It sorts only the positions added since it last ran (and drops the
// holes made since), then merges them in.
func (c *collection) sorted() []int32 {
	if c.ordered == c.n && !c.orderHoles {
		return c.order
	}
	old := c.order
	if c.orderHoles {
		kept := old[:0]
		for _, pos := range old {
			if c.at(int(pos)) != nil {
				kept = append(kept, pos)
			}
		}
		old = kept
	}
	var added []int32
	for pos := c.ordered; pos < c.n; pos++ {
		if c.at(pos) != nil {
			added = append(added, int32(pos))
		}
	}
	c.ordered, c.orderHoles = c.n, false
	if len(added) == 0 {
		c.order = old
		return old
	}
	slices.SortFunc(added, c.compare)
	merged := make([]int32, 0, len(old)+len(added))
	i, j := 0, 0
	for i < len(old) && j < len(added) {
		if c.compare(added[j], old[i]) < 0 {
			merged = append(merged, added[j])
			j++
		} else {
			merged = append(merged, old[i])
			i++
		}
	}
	merged = append(append(merged, old[i:]...), added[j:]...)
	c.order = merged
	return merged
}

// compare orders two positions by namespace, then name (kubectl's order;
// keys are unique, so it is total).
func (c *collection) compare(a, b int32) int {
	ma, mb := c.at(int(a)).GetObjectMeta(), c.at(int(b)).GetObjectMeta()
	if n := strings.Compare(ma.Namespace, mb.Namespace); n != 0 {
		return n
	}
	return strings.Compare(ma.Name, mb.Name)
}

// CacheBytes estimates the heap of the live version's caches, which clones
// do not share: the objects' JSON and the sorted orders.
func (s *Store) CacheBytes() int64 {
	var n int64
	for _, c := range s.kinds {
		n += int64(cap(c.enc))*24 + int64(cap(c.order))*4
		for _, b := range c.enc {
			n += int64(cap(b))
		}
	}
	return n
}
