package store

import (
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"

	"converge/core/api"
)

// The trace lists every object of a kind in kubectl's order (namespace,
// then name) in Kubernetes' JSON, every second (docs/trace.md). Stored
// objects are immutable, so the store keeps, for the version of the state
// that asks, each object's JSON until the object is replaced and the
// sorted positions until a create or a delete: a trace line costs the
// objects that changed since the last one, not all of them. The JSON is
// also kept by object, shared with every clone (encodings), so that a
// state restored from a checkpoint does not encode again the objects some
// state already did.

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

// Sent is what a reader that keeps the objects it was sent (the page's
// JS API, which parses each object once) holds: every object of the last
// WriteJSONList calls, by identity, with the number it was sent as.
type Sent struct {
	prev, next map[api.Object]uint32
	last       uint32
}

// Begin starts a snapshot: what the last one wrote is what the reader
// holds now (everything it held before is dropped on both sides).
func (d *Sent) Begin() {
	d.prev, d.next = d.next, d.prev
	if d.next == nil {
		d.next = map[api.Object]uint32{}
	}
	clear(d.next)
}

// WriteJSONList writes every object of a kind as a JSON array, sorted as
// ByName, with the bytes json.Marshal gives for that slice of objects. The
// JSON of an object is encoded once and kept until the object is replaced.
// For a reader d that keeps what it was sent (nil: none), it writes each
// object d holds (d's last snapshot had it: stored objects are immutable)
// as its number instead, and each other as [number, JSON].
func (s *Store) WriteJSONList(w io.Writer, kind string, d *Sent) error {
	c, err := s.coll(kind)
	if err != nil {
		return err
	}
	sep := openBracket
	var num []byte
	for _, pos := range c.sorted() {
		num = append(num[:0], sep...)
		held := false
		if d != nil {
			obj := c.at(int(pos))
			var n uint32
			if n, held = d.prev[obj]; !held {
				d.last++
				n = d.last
				num = append(num, '[')
			}
			d.next[obj] = n
			num = strconv.AppendUint(num, uint64(n), 10)
			if !held {
				num = append(num, ',')
			}
		}
		if _, err := w.Write(num); err != nil {
			return err
		}
		if !held {
			b, err := c.encoded(int(pos), s.encoded)
			if err != nil {
				return err
			}
			if _, err := w.Write(b); err != nil {
				return err
			}
			if d != nil {
				if _, err := w.Write(closeBracket); err != nil {
					return err
				}
			}
		}
		sep = comma
	}
	if sep[0] == '[' {
		if _, err := w.Write(openBracket); err != nil {
			return err
		}
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
	return c.encoded(int(pos), s.encoded)
}

// encodings is the JSON of stored objects by identity, which a store
// shares with its clones (the checkpoints, the state a seek restores): an
// object is immutable, so its bytes are the same in every state that holds
// it, and a state restored from a checkpoint finds those of the objects it
// shares with any state that wrote a trace line. It keeps the objects it
// names alive, so it is dropped whole past maxSharedEncodings.
type encodings struct {
	m     map[api.Object][]byte
	bytes int64
}

// maxSharedEncodings bounds the bytes of the shared JSON (a 10,000-pod
// snapshot is about 20 MB).
const maxSharedEncodings = 48 << 20

// encoded returns the JSON of the object at pos, from this version's cache,
// then the shared one, encoding it the first time.
func (c *collection) encoded(pos int, shared *encodings) ([]byte, error) {
	if pos < len(c.enc) && c.enc[pos] != nil {
		return c.enc[pos], nil
	}
	obj := c.at(pos)
	b, ok := shared.m[obj]
	if !ok {
		var err error
		if b, err = json.Marshal(obj); err != nil {
			return nil, err
		}
		if shared.bytes+int64(len(b)) > maxSharedEncodings {
			clear(shared.m)
			shared.bytes = 0
		}
		shared.m[obj] = b
		shared.bytes += int64(len(b))
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

// CacheBytes estimates the heap of the caches: this version's sorted
// orders and the objects' JSON, its own or shared with its clones (which
// mostly hold the same bytes).
func (s *Store) CacheBytes() int64 {
	var n, own int64
	for _, c := range s.kinds {
		n += int64(cap(c.enc))*24 + int64(cap(c.order))*4
		for _, b := range c.enc {
			own += int64(cap(b))
		}
	}
	return n + max(own, s.encoded.bytes)
}
