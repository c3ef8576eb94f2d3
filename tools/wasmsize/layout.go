package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sort"

	"converge/internal/wasmfile"
)

// memory is the linear memory the data segments initialise, zero where no
// segment writes (Go's linker leaves long runs of zeros out).
type memory struct {
	segments []wasmfile.Segment // by address
}

func newMemory(segs []wasmfile.Segment) *memory {
	s := append([]wasmfile.Segment(nil), segs...)
	sort.Slice(s, func(i, j int) bool { return s[i].Addr < s[j].Addr })
	return &memory{segments: s}
}

// image is memory's bytes from lo to hi.
func (m *memory) image(lo, hi uint64) []byte {
	if hi <= lo {
		return nil
	}
	out := make([]byte, hi-lo)
	for _, s := range m.segments {
		end := s.Addr + uint64(len(s.Data))
		if end <= lo || s.Addr >= hi {
			continue
		}
		from, to := max(s.Addr, lo), min(end, hi)
		copy(out[from-lo:], s.Data[from-s.Addr:to-s.Addr])
	}
	return out
}

// fileBytes counts the segment bytes (what the file holds) between lo and hi.
func (m *memory) fileBytes(lo, hi uint64) int {
	n := 0
	for _, s := range m.segments {
		end := s.Addr + uint64(len(s.Data))
		if end <= lo || s.Addr >= hi {
			continue
		}
		n += int(min(end, hi) - max(s.Addr, lo))
	}
	return n
}

func (m *memory) u64(addr uint64) uint64 {
	return binary.LittleEndian.Uint64(m.image(addr, addr+8))
}

// region is a named address range of the data.
type region struct {
	name   string
	lo, hi uint64
}

// goRegions finds the parts of a Go program's data through the runtime's
// moduledata (runtime/symtab.go), which the linker fills in: the
// pclntab's tables (function names, file names, pc-value tables, function
// records), the type descriptors (with the string literals, which the
// wasm linker places among them), the initialised variables. What lies
// outside them is the rest of the read-only data: static tables, the
// functions' stack maps and other funcdata, embedded files.
func goRegions(m *memory) ([]region, error) {
	// The pcHeader: Go 1.20's magic, two zero pads, the minimum
	// instruction size, the pointer size (8 on wasm).
	hdr, ok := m.find(func(b []byte) int {
		return bytes.Index(b, []byte{0xf1, 0xff, 0xff, 0xff, 0, 0})
	})
	if !ok {
		return nil, errors.New("no Go pclntab header (is this a Go 1.20+ program?)")
	}
	funcnameOff := m.u64(hdr + 8 + 8 + 8 + 8)
	// moduledata starts with a pointer to the pcHeader, then the
	// funcnametab slice, which starts at pcHeader+funcnameOffset.
	var want [16]byte
	binary.LittleEndian.PutUint64(want[:], hdr)
	binary.LittleEndian.PutUint64(want[8:], hdr+funcnameOff)
	md, ok := m.find(func(b []byte) int { return bytes.Index(b, want[:]) })
	if !ok {
		return nil, errors.New("no runtime moduledata")
	}
	word := func(i int) uint64 { return m.u64(md + uint64(8*i)) }
	slice := func(i int, elem uint64) (uint64, uint64) { return word(i), word(i) + elem*word(i+1) }
	var regions []region
	add := func(name string, lo, hi uint64) {
		if hi > lo {
			regions = append(regions, region{name, lo, hi})
		}
	}
	// Field indexes (8-byte words) of runtime.moduledata in Go 1.26.
	lo, hi := slice(1, 1)
	add("pclntab: function names", lo, hi)
	cuLo, _ := slice(4, 4)
	_, fileHi := slice(7, 1)
	add("pclntab: file table", cuLo, fileHi)
	lo, hi = slice(10, 1)
	add("pclntab: pc-value tables", lo, hi)
	lo, hi = slice(13, 1)
	add("pclntab: function records", lo, hi)
	add("pclntab: header", hdr, hdr+funcnameOff)
	add("initialised variables without pointers (noptrdata)", word(24), word(25))
	add("initialised variables (data)", word(26), word(27))
	// On wasm the linker places string literals among the types, so this
	// region holds both.
	add("type descriptors and string literals", word(37), word(38))
	sort.Slice(regions, func(i, j int) bool { return regions[i].lo < regions[j].lo })
	return regions, nil
}

// find returns the address where match finds something in the segments'
// bytes (segment by segment: a header does not straddle a gap of zeros).
func (m *memory) find(match func([]byte) int) (uint64, bool) {
	for _, s := range m.segments {
		if i := match(s.Data); i >= 0 {
			return s.Addr + uint64(i), true
		}
	}
	return 0, false
}
