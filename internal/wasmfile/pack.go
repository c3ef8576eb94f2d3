package wasmfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// PackGap is the gap `make build` packs with (tools/wasmdist).
const PackGap = 64

// Pack returns b with its data section rewritten so that segments closer
// than gap bytes are one segment, with the zeros between them written out.
//
// Go's linker leaves out every run of 8 or more zero bytes, starting a new
// segment after it (cmd/link/internal/wasm, writeDataSec), up to 100,000
// segments: for Converge's wasm that is the limit, and the segments'
// headers (memory index, offset expression, length) come to about 800 KB,
// which compress badly since every offset differs. Zeros compress to
// almost nothing, so with gap 64 the file grows by about 1 MB raw and
// shrinks by about 5% with gzip or brotli (docs/performance.md).
//
// The result initialises the same memory: linear memory starts zeroed, so
// writing zeros where no segment wrote changes nothing, and the segments
// do not overlap (Pack checks). Only the data section changes.
func Pack(b []byte, gap int) ([]byte, error) {
	if gap < 1 {
		return nil, fmt.Errorf("gap %d: want at least 1", gap)
	}
	m, err := Parse(b)
	if err != nil {
		return nil, err
	}
	segs := append([]Segment(nil), m.Segments...)
	sort.SliceStable(segs, func(i, j int) bool { return segs[i].Addr < segs[j].Addr })
	var merged []Segment
	for i := 0; i < len(segs); {
		// Segments i..j-1 become one.
		start, end := segs[i].Addr, segs[i].Addr+uint64(len(segs[i].Data))
		j := i + 1
		for ; j < len(segs); j++ {
			if segs[j].Addr < end {
				return nil, errors.New("data segments overlap: not packing")
			}
			if segs[j].Addr-end >= uint64(gap) {
				break
			}
			end = segs[j].Addr + uint64(len(segs[j].Data))
		}
		data := make([]byte, end-start)
		for _, s := range segs[i:j] {
			copy(data[s.Addr-start:], s.Data)
		}
		merged = append(merged, Segment{Addr: start, Data: data})
		i = j
	}
	return withSegments(b, m, merged)
}

// withSegments returns b, which Parse read into m, with its data section
// holding segs instead.
func withSegments(b []byte, m *Module, segs []Segment) ([]byte, error) {
	var sec bytes.Buffer
	sec.Write(uleb(uint64(len(segs))))
	for _, s := range segs {
		if s.Addr > 1<<31-1 {
			return nil, fmt.Errorf("data segment at %#x: beyond an i32 offset", s.Addr)
		}
		sec.WriteByte(0)    // active, memory 0
		sec.WriteByte(0x41) // i32.const
		sec.Write(sleb(int64(s.Addr)))
		sec.WriteByte(0x0b) // end
		sec.Write(uleb(uint64(len(s.Data))))
		sec.Write(s.Data)
	}
	out := bytes.NewBuffer(make([]byte, 0, len(b)+sec.Len()))
	out.Write(b[:8])
	for _, s := range m.Sections {
		if s.ID != SecData {
			out.Write(b[s.Start:s.End])
			continue
		}
		out.WriteByte(SecData)
		out.Write(uleb(uint64(sec.Len())))
		out.Write(sec.Bytes())
	}
	return out.Bytes(), nil
}

// Strip returns b without its custom sections (function names, producers,
// build id): what -ldflags='-s -w' leaves of a Go wasm.
func Strip(b []byte) ([]byte, error) {
	m, err := Parse(b)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), b[:8]...)
	for _, s := range m.Sections {
		if s.ID != SecCustom {
			out = append(out, b[s.Start:s.End]...)
		}
	}
	return out, nil
}

func uleb(v uint64) []byte {
	var buf [binary.MaxVarintLen64]byte
	return buf[:binary.PutUvarint(buf[:], v)]
}

// sleb is v as a signed LEB128 (two's complement).
func sleb(v int64) []byte {
	var out []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}
