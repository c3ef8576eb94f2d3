package wasmfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// LineStats says what StripLines removed.
type LineStats struct {
	Funcs      int // function records rewritten
	Tables     int // pc-value tables kept (stack deltas, safe points, stack maps, argument liveness)
	KeptBytes  int // their bytes
	FreedBytes int // bytes of the pc-value tables zeroed: file, line and inlining tables
	FileTab    int // bytes of the file and compilation-unit tables zeroed
	InlTree    int // bytes of inlining trees zeroed
	ArgInfo    int // bytes of argument info zeroed
}

// Go's pcdata index and funcdata index of the inlining tree
// (internal/abi.PCDATA_InlTreeIndex, FUNCDATA_InlTree), and the size of
// one of the tree's entries (runtime/symtabinl.go, inlinedCall).
const (
	pcdataInlTreeIndex  = 2
	pcdataArgLiveIndex  = 3
	funcdataInlTree     = 3
	funcdataArgInfo     = 5
	funcdataArgLiveInfo = 6
	sizeofInlinedCall   = 16
	noFuncdata          = ^uint32(0)
)

// sizeofFunc is the fixed part of the runtime's _func record
// (runtime/runtime2.go): ten 4-byte fields, then funcID, flag, a pad byte
// and nfuncdata; the pcdata and funcdata offsets follow it.
const sizeofFunc = 44

// StripLines returns b, a wasm built by Go 1.26, without what only a
// traceback reads: in every function record of the runtime's pclntab the
// file and line tables, the inlining index and the arguments' liveness
// index are set to "none", the pc-value tables that only they used are
// zeroed and the others moved together; the inlining trees and the
// argument info the records pointed to, and the file and compilation-unit
// tables, are zeroed. What the runtime needs to run (stack deltas, stack
// maps, stack objects, safe points, open-coded defers, function names) is
// kept byte for byte. A traceback then names its functions with "?:0" for
// the file and line, without their arguments' values and without the
// frames the compiler inlined; runtime.Caller has no file or line. Zeros
// take no room once Pack leaves long runs of them out (docs/performance.md
// has the sizes).
//
// It checks the layout it rewrites (the pclntab's header, the function
// table's order, every table ending inside the pc-value tables, no kept
// funcdata sharing bytes with what it zeroes) and returns an error rather
// than a wasm it did not understand.
func StripLines(b []byte) ([]byte, LineStats, error) {
	var st LineStats
	m, err := Parse(b)
	if err != nil {
		return nil, st, err
	}
	if len(m.Segments) == 0 {
		return nil, st, errors.New("no data segments")
	}
	base, img, err := MemImage(m.Segments)
	if err != nil {
		return nil, st, err
	}
	at := func(addr uint64, n uint64) ([]byte, error) {
		if addr < base || addr+n > base+uint64(len(img)) || addr+n < addr {
			return nil, fmt.Errorf("address %#x+%d outside the data", addr, n)
		}
		return img[addr-base : addr-base+n], nil
	}
	md, err := FindModuledata(base, img)
	if err != nil {
		return nil, st, err
	}
	word := md.Word
	pctabAddr, pctabLen := word(MdPctab), word(MdPctab+1)
	pclnAddr, pclnLen := word(MdPclntable), word(MdPclntable+1)
	ftabAddr, ftabLen := word(MdFtab), word(MdFtab+1)
	gofunc := word(MdGofunc)
	pctab, err := at(pctabAddr, pctabLen)
	if err != nil {
		return nil, st, fmt.Errorf("pc-value tables: %w", err)
	}
	records, err := at(pclnAddr, pclnLen)
	if err != nil {
		return nil, st, fmt.Errorf("function records: %w", err)
	}
	if ftabLen > uint64(len(img))/8 || word(MdCutab+1) > uint64(len(img))/4 {
		return nil, st, errors.New("function or compilation-unit table longer than the data")
	}
	ftab, err := at(ftabAddr, 8*ftabLen)
	if err != nil {
		return nil, st, fmt.Errorf("function table: %w", err)
	}
	if ftabLen < 1 {
		return nil, st, errors.New("empty function table")
	}

	// The tables to keep, by their offset in pctab, and their lengths.
	keep := map[uint32]int{}
	type field struct{ off int } // offset in records of a uint32 naming a table
	var keepFields, dropFields []field
	var prevEntry uint32
	// zeroed are the parts of gofunc to zero: inlining trees and argument
	// info, which only tracebacks read. funcdataFields and nfuncdatas are
	// every record's funcdata offsets, to check that none of the funcdata
	// kept starts inside them (the linker shares identical funcdata).
	type span struct{ lo, hi uint32 }
	var zeroed []span
	var funcdataFields []field
	var nfuncdatas []int
	for i := uint64(0); i+1 < ftabLen; i++ {
		entry := binary.LittleEndian.Uint32(ftab[8*i:])
		funcoff := uint64(binary.LittleEndian.Uint32(ftab[8*i+4:]))
		if i > 0 && entry < prevEntry {
			return nil, st, fmt.Errorf("function table out of order at %d", i)
		}
		prevEntry = entry
		if funcoff+sizeofFunc > uint64(len(records)) {
			return nil, st, fmt.Errorf("function record %d at %d: outside the records", i, funcoff)
		}
		f := records[funcoff:]
		if got := binary.LittleEndian.Uint32(f); got != entry {
			return nil, st, fmt.Errorf("function record %d: entry %#x, the table says %#x", i, got, entry)
		}
		npcdata := uint64(binary.LittleEndian.Uint32(f[28:]))
		if funcoff+sizeofFunc+4*npcdata > uint64(len(records)) || npcdata > 16 {
			return nil, st, fmt.Errorf("function record %d: %d pcdata tables", i, npcdata)
		}
		o := int(funcoff)
		keepFields = append(keepFields, field{o + 16}) // pcsp
		dropFields = append(dropFields, field{o + 20}, field{o + 24})
		for k := 0; k < int(npcdata); k++ {
			fo := field{o + sizeofFunc + 4*k}
			if k == pcdataInlTreeIndex || k == pcdataArgLiveIndex {
				dropFields = append(dropFields, fo)
			} else {
				keepFields = append(keepFields, fo)
			}
		}
		nfuncdata := uint64(f[43])
		if funcoff+sizeofFunc+4*(npcdata+nfuncdata) > uint64(len(records)) {
			return nil, st, fmt.Errorf("function record %d: %d funcdata", i, nfuncdata)
		}
		if npcdata > pcdataInlTreeIndex && nfuncdata > funcdataInlTree {
			fd := f[sizeofFunc+4*npcdata+4*funcdataInlTree:]
			tree := binary.LittleEndian.Uint32(fd)
			index := binary.LittleEndian.Uint32(f[sizeofFunc+4*pcdataInlTreeIndex:])
			if tree != noFuncdata && index != 0 {
				top, err := tableMax(pctab, index)
				if err != nil {
					return nil, st, err
				}
				if top >= 0 {
					n := uint64(top+1) * sizeofInlinedCall
					if _, err := at(gofunc+uint64(tree), n); err != nil {
						return nil, st, fmt.Errorf("function record %d: inlining tree: %w", i, err)
					}
					zeroed = append(zeroed, span{tree, tree + uint32(n)})
					st.InlTree += int(n)
				}
				binary.LittleEndian.PutUint32(fd, noFuncdata)
			}
		}
		// The arguments a traceback prints, and their liveness.
		if nfuncdata > funcdataArgInfo {
			fd := f[sizeofFunc+4*npcdata+4*funcdataArgInfo:]
			if info := binary.LittleEndian.Uint32(fd); info != noFuncdata {
				if _, err := at(gofunc+uint64(info), 1); err != nil {
					return nil, st, fmt.Errorf("function record %d: argument info: %w", i, err)
				}
				n, err := argInfoLen(img[gofunc+uint64(info)-base:])
				if err != nil {
					return nil, st, fmt.Errorf("function record %d: %w", i, err)
				}
				zeroed = append(zeroed, span{info, info + uint32(n)})
				st.ArgInfo += n
				binary.LittleEndian.PutUint32(fd, noFuncdata)
			}
		}
		if nfuncdata > funcdataArgLiveInfo {
			binary.LittleEndian.PutUint32(f[sizeofFunc+4*npcdata+4*funcdataArgLiveInfo:], noFuncdata)
		}
		funcdataFields = append(funcdataFields, field{o + sizeofFunc + 4*int(npcdata)})
		nfuncdatas = append(nfuncdatas, int(nfuncdata))
		binary.LittleEndian.PutUint32(f[36:], 0) // startLine
		st.Funcs++
	}
	slices.SortFunc(zeroed, func(a, b span) int { return int(a.lo) - int(b.lo) })
	for k, fl := range funcdataFields {
		for j := 0; j < nfuncdatas[k]; j++ {
			off := binary.LittleEndian.Uint32(records[fl.off+4*j:])
			if off == noFuncdata {
				continue
			}
			i, _ := slices.BinarySearchFunc(zeroed, off, func(z span, off uint32) int { return int(z.lo) - int(off) })
			if (i < len(zeroed) && zeroed[i].lo == off) || (i > 0 && off < zeroed[i-1].hi) {
				return nil, st, fmt.Errorf("funcdata at %#x, which is kept, shares bytes with what only tracebacks read", off)
			}
		}
	}
	for _, z := range zeroed {
		clear(img[gofunc+uint64(z.lo)-base : gofunc+uint64(z.hi)-base])
	}
	for _, fl := range keepFields {
		off := binary.LittleEndian.Uint32(records[fl.off:])
		if off == 0 {
			continue
		}
		if _, ok := keep[off]; ok {
			continue
		}
		n, err := tableLen(pctab, off)
		if err != nil {
			return nil, st, err
		}
		keep[off] = n
	}
	// Move the kept tables together, in their order, after pctab's first
	// byte (offset 0 means no table).
	offs := make([]uint32, 0, len(keep))
	for off := range keep {
		offs = append(offs, off)
	}
	slices.Sort(offs)
	packed := []byte{pctab[0]}
	moved := make(map[uint32]uint32, len(offs))
	for _, off := range offs {
		moved[off] = uint32(len(packed))
		packed = append(packed, pctab[off:int(off)+keep[off]]...)
		st.KeptBytes += keep[off]
	}
	st.Tables = len(offs)
	st.FreedBytes = len(pctab) - len(packed)
	copy(pctab, packed)
	clear(pctab[len(packed):])
	for _, fl := range keepFields {
		if off := binary.LittleEndian.Uint32(records[fl.off:]); off != 0 {
			binary.LittleEndian.PutUint32(records[fl.off:], moved[off])
		}
	}
	for _, fl := range dropFields {
		binary.LittleEndian.PutUint32(records[fl.off:], 0)
	}
	// The compilation units' file lists and the file names: only line
	// lookups read them.
	cutab, err := at(word(MdCutab), 4*word(MdCutab+1))
	if err != nil {
		return nil, st, fmt.Errorf("compilation-unit table: %w", err)
	}
	filetab, err := at(word(MdFiletab), word(MdFiletab+1))
	if err != nil {
		return nil, st, fmt.Errorf("file table: %w", err)
	}
	clear(cutab)
	clear(filetab)
	st.FileTab = len(cutab) + len(filetab)

	out, err := withSegments(b, m, segments(base, img, 8))
	return out, st, err
}

// tableLen is the length of the pc-value table at off: pairs of a zig-zag
// value delta and a pc delta, both varints, ended by a value delta of 0
// after the first pair (runtime/symtab.go, step).
func tableLen(pctab []byte, off uint32) (int, error) {
	p := int(off)
	first := true
	for {
		if p >= len(pctab) {
			return 0, fmt.Errorf("pc-value table at %d runs past the end", off)
		}
		if pctab[p] == 0 && !first {
			return p + 1 - int(off), nil
		}
		for k := 0; k < 2; k++ {
			_, n := binary.Uvarint(pctab[min(p, len(pctab)):])
			if n <= 0 {
				return 0, fmt.Errorf("pc-value table at %d: bad varint at %d", off, p)
			}
			p += n
		}
		first = false
	}
}

// argInfoLen is the length of a function's argument info (the
// compiler's emitArgInfo): offset and size pairs and one-byte markers
// (0xfb to 0xfe), ended by 0xff.
func argInfoLen(b []byte) (int, error) {
	for i := 0; i < len(b) && i < 1024; {
		switch c := b[i]; {
		case c == 0xff:
			return i + 1, nil
		case c >= 0xfb:
			i++
		default:
			i += 2
		}
	}
	return 0, errors.New("argument info without its end")
}

// tableMax is the largest value of the pc-value table at off.
func tableMax(pctab []byte, off uint32) (int32, error) {
	n, err := tableLen(pctab, off)
	if err != nil {
		return 0, err
	}
	p, end := int(off), int(off)+n-1
	val, top := int32(-1), int32(-1)
	for p < end {
		uv, k := binary.Uvarint(pctab[p:end])
		p += k
		val += int32(-(uint32(uv) & 1) ^ (uint32(uv) >> 1))
		top = max(top, val)
		_, k = binary.Uvarint(pctab[p:end])
		p += k
	}
	return top, nil
}

// Moduledata is the runtime's moduledata of a Go wasm (runtime/symtab.go),
// which the linker fills in: where the pclntab's tables, the type
// descriptors, the variables and gofunc lie. Word(Md...) reads a field.
type Moduledata struct {
	Addr  uint64
	words [moduledataWords]uint64
}

// Word is the moduledata's i-th 8-byte word: a pointer, or a slice's
// pointer, length or capacity.
func (md *Moduledata) Word(i int) uint64 { return md.words[i] }

// Field indexes (8-byte words) of runtime.moduledata in Go 1.26 that the
// build tools read: a slice field's pointer, then its length.
const (
	MdPCHeader    = 0
	MdFuncnametab = 1
	MdCutab       = 4
	MdFiletab     = 7
	MdPctab       = 10
	MdPclntable   = 13
	MdFtab        = 16
	MdNoptrdata   = 24
	MdEnoptrdata  = 25
	MdData        = 26
	MdEdata       = 27
	MdTypes       = 37
	MdEtypes      = 38
	MdGofunc      = 40
)

// moduledataWords counts the words Moduledata reads: up to gofunc's.
const moduledataWords = MdGofunc + 1

// FindModuledata finds the runtime's moduledata in img, the memory from
// address base: it starts with a pointer to the pclntab's header (Go
// 1.20's magic 0xfffffff1, two zero pads, the instruction size, pointer
// size 8) and the funcnametab slice, which starts at the header plus its
// funcnameOffset.
func FindModuledata(base uint64, img []byte) (*Moduledata, error) {
	i := bytes.Index(img, []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8})
	if i < 0 || i+40 > len(img) {
		return nil, errors.New("no Go 1.20+ pclntab header")
	}
	hdr := base + uint64(i)
	funcnameOff := binary.LittleEndian.Uint64(img[i+32:])
	var want [16]byte
	binary.LittleEndian.PutUint64(want[:], hdr)
	binary.LittleEndian.PutUint64(want[8:], hdr+funcnameOff)
	j := bytes.Index(img, want[:])
	if j < 0 || j+8*moduledataWords > len(img) {
		return nil, errors.New("no runtime moduledata")
	}
	md := &Moduledata{Addr: base + uint64(j)}
	for k := range md.words {
		md.words[k] = binary.LittleEndian.Uint64(img[j+8*k:])
	}
	return md, nil
}

// MemImage is the memory the segments initialise, from the lowest address
// they write to the highest (that address and the bytes), at most
// maxImage bytes.
func MemImage(segs []Segment) (uint64, []byte, error) {
	lo, hi := segs[0].Addr, segs[0].Addr
	for _, s := range segs {
		end := s.Addr + uint64(len(s.Data))
		if end < s.Addr {
			return 0, nil, fmt.Errorf("data segment at %#x: past the end of memory", s.Addr)
		}
		lo = min(lo, s.Addr)
		hi = max(hi, end)
	}
	if hi-lo > maxImage {
		return 0, nil, fmt.Errorf("data segments span %d bytes: more than the %d a Go wasm's data has", hi-lo, maxImage)
	}
	img := make([]byte, hi-lo)
	for _, s := range segs {
		copy(img[s.Addr-lo:], s.Data)
	}
	return lo, img, nil
}

// maxImage bounds the data StripLines reads (Converge's is about 5 MB).
const maxImage = 1 << 28

// segments cuts img into segments at every run of at least gap zeros, as
// Go's linker does with 8.
func segments(base uint64, img []byte, gap int) []Segment {
	var out []Segment
	start, zeros := -1, 0
	for i, c := range img {
		if c != 0 {
			if start < 0 {
				start = i
			}
			zeros = 0
			continue
		}
		zeros++
		if start >= 0 && zeros >= gap {
			out = append(out, Segment{Addr: base + uint64(start), Data: img[start : i+1-zeros]})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, Segment{Addr: base + uint64(start), Data: img[start : len(img)-zeros]})
	}
	return out
}
