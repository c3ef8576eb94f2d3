package main

import (
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
	var base uint64
	var img []byte
	if n := len(m.segments); n > 0 {
		last := m.segments[n-1]
		base = m.segments[0].Addr
		img = m.image(base, last.Addr+uint64(len(last.Data)))
	}
	md, err := wasmfile.FindModuledata(base, img)
	if err != nil {
		return nil, err
	}
	word := md.Word
	slice := func(i int, elem uint64) (uint64, uint64) { return word(i), word(i) + elem*word(i+1) }
	var regions []region
	add := func(name string, lo, hi uint64) {
		if hi > lo {
			regions = append(regions, region{name, lo, hi})
		}
	}
	lo, hi := slice(wasmfile.MdFuncnametab, 1)
	add("pclntab: function names", lo, hi)
	cuLo, _ := slice(wasmfile.MdCutab, 4)
	_, fileHi := slice(wasmfile.MdFiletab, 1)
	add("pclntab: file table", cuLo, fileHi)
	lo, hi = slice(wasmfile.MdPctab, 1)
	add("pclntab: pc-value tables", lo, hi)
	lo, hi = slice(wasmfile.MdPclntable, 1)
	add("pclntab: function records", lo, hi)
	// The pcHeader ends where the function names start.
	add("pclntab: header", word(wasmfile.MdPCHeader), word(wasmfile.MdFuncnametab))
	add("initialised variables without pointers (noptrdata)", word(wasmfile.MdNoptrdata), word(wasmfile.MdEnoptrdata))
	add("initialised variables (data)", word(wasmfile.MdData), word(wasmfile.MdEdata))
	// On wasm the linker places string literals among the types, so this
	// region holds both.
	add("type descriptors and string literals", word(wasmfile.MdTypes), word(wasmfile.MdEtypes))
	sort.Slice(regions, func(i, j int) bool { return regions[i].lo < regions[j].lo })
	return regions, nil
}
