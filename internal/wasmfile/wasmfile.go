// Package wasmfile reads the parts of a WebAssembly binary that the build
// tools need (tools/wasmsize measures them, tools/wasmdist packs the data)
// and rewrites its data section with fewer segments (Pack). It reads the
// binary format of the WebAssembly 2.0 spec, section 5.5, as far as Go's
// linker writes it: active data segments of memory 0 at constant offsets.
package wasmfile

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Module is what Parse reads of a WebAssembly binary: its sections, the
// bodies of its functions with their names, and its data segments.
type Module struct {
	// Sections are the module's sections in file order.
	Sections []Section
	// Imports counts the imported functions: function index Imports+k is
	// the k-th body.
	Imports int
	// Bodies are the code section's function bodies.
	Bodies [][]byte
	// Names maps a function index to its name (the "name" custom section,
	// which -ldflags=-s strips).
	Names map[int]string
	// Segments are the data section's active segments, in file order.
	Segments []Segment
}

// Section is one section: its id (0 for a custom one), its custom name,
// and where it lies in the file, header included.
type Section struct {
	ID         byte
	Name       string
	Start, End int
	Payload    []byte
}

// Segment is a data segment: bytes placed at a linear-memory address.
type Segment struct {
	Addr uint64
	Data []byte
}

// Section ids of the WebAssembly binary format (spec 5.5.2).
const (
	SecCustom = 0
	SecImport = 2
	SecCode   = 10
	SecData   = 11
)

var errTruncated = errors.New("truncated")

// reader reads the binary format's LEB128 numbers and vectors.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) uleb() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = errTruncated
		return 0
	}
	r.off += n
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.err = errTruncated
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)-r.off) {
		r.err = errTruncated
		return nil
	}
	out := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return out
}

func (r *reader) name() string { return string(r.bytes(r.uleb())) }

// Parse reads a WebAssembly binary. The module's byte slices point into b.
func Parse(b []byte) (*Module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" || binary.LittleEndian.Uint32(b[4:]) != 1 {
		return nil, errors.New("not a WebAssembly binary (version 1)")
	}
	m := &Module{Names: map[int]string{}}
	r := &reader{b: b, off: 8}
	for r.off < len(b) && r.err == nil {
		start := r.off
		s := Section{ID: r.byte(), Start: start}
		s.Payload = r.bytes(r.uleb())
		s.End = r.off
		if r.err != nil {
			break
		}
		if err := m.readSection(&s); err != nil {
			return nil, fmt.Errorf("section %d at byte %d: %w", s.ID, start, err)
		}
		m.Sections = append(m.Sections, s)
	}
	if r.err != nil {
		return nil, fmt.Errorf("at byte %d: %w", r.off, r.err)
	}
	return m, nil
}

func (m *Module) readSection(s *Section) error {
	r := &reader{b: s.Payload}
	switch s.ID {
	case SecCustom:
		s.Name = r.name()
		if s.Name == "name" {
			m.readNames(r)
		}
	case SecImport:
		m.readImports(r)
	case SecCode:
		for n := r.uleb(); n > 0 && r.err == nil; n-- {
			m.Bodies = append(m.Bodies, r.bytes(r.uleb()))
		}
	case SecData:
		m.readData(r)
	}
	return r.err
}

// readImports counts the imported functions (the other kinds of import
// take no function index).
func (m *Module) readImports(r *reader) {
	for n := r.uleb(); n > 0 && r.err == nil; n-- {
		r.name() // module
		r.name() // field
		switch kind := r.byte(); kind {
		case 0: // function: a type index
			r.uleb()
			m.Imports++
		case 1: // table: reftype, limits
			r.byte()
			readLimits(r)
		case 2: // memory: limits
			readLimits(r)
		case 3: // global: valtype, mutability
			r.byte()
			r.byte()
		default:
			r.err = fmt.Errorf("import kind %d", kind)
		}
	}
}

func readLimits(r *reader) {
	if r.byte()&1 == 1 {
		r.uleb()
	}
	r.uleb()
}

// readNames reads the function names subsection of the name section.
func (m *Module) readNames(r *reader) {
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		sub := &reader{b: r.bytes(r.uleb())}
		if id != 1 {
			continue
		}
		for n := sub.uleb(); n > 0 && sub.err == nil; n-- {
			idx := sub.uleb()
			m.Names[int(idx)] = sub.name()
		}
		if sub.err != nil {
			r.err = sub.err
		}
	}
}

// readData reads the active segments of memory 0 whose offset is an
// i32.const or i64.const expression, as Go's linker writes them.
func (m *Module) readData(r *reader) {
	for n := r.uleb(); n > 0 && r.err == nil; n-- {
		if flags := r.uleb(); flags != 0 {
			r.err = fmt.Errorf("data segment flags %d (only active segments of memory 0 are read)", flags)
			return
		}
		var addr uint64
		switch op := r.byte(); op {
		case 0x41, 0x42: // i32.const, i64.const: a signed LEB128
			addr = r.sleb()
		default:
			r.err = fmt.Errorf("data segment offset opcode %#x", op)
			return
		}
		if end := r.byte(); end != 0x0b {
			r.err = fmt.Errorf("data segment offset is not a constant expression")
			return
		}
		m.Segments = append(m.Segments, Segment{Addr: addr, Data: r.bytes(r.uleb())})
	}
}

// sleb reads a signed LEB128 (two's complement, unlike binary.Varint's
// zig-zag), returned as its 64-bit pattern.
func (r *reader) sleb() uint64 {
	var result int64
	var shift uint
	for r.err == nil {
		c := r.byte()
		result |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				result |= -1 << shift
			}
			return uint64(result)
		}
		if shift >= 64 {
			r.err = errTruncated
		}
	}
	return 0
}
