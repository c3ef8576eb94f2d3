package wasmfile

import (
	"bytes"
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module builds a binary from sections (id, payload).
func module(sections ...[]byte) []byte {
	out := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		out = append(out, s[0])
		out = append(out, uleb(uint64(len(s)-1))...)
		out = append(out, s[1:]...)
	}
	return out
}

func section(id byte, parts ...[]byte) []byte {
	return append([]byte{id}, bytes.Join(parts, nil)...)
}

func name(s string) []byte { return append(uleb(uint64(len(s))), s...) }

func dataSection(segs ...Segment) []byte {
	parts := [][]byte{uleb(uint64(len(segs)))}
	for _, s := range segs {
		parts = append(parts, []byte{0, 0x41}, sleb(int64(s.Addr)), []byte{0x0b}, uleb(uint64(len(s.Data))), s.Data)
	}
	return section(SecData, parts...)
}

// image is the memory the segments initialise, up to the last byte written.
func image(segs []Segment) []byte {
	var out []byte
	for _, s := range segs {
		if end := int(s.Addr) + len(s.Data); end > len(out) {
			out = append(out, make([]byte, end-len(out))...)
		}
		copy(out[s.Addr:], s.Data)
	}
	return out
}

func sample() []byte {
	imports := section(SecImport, uleb(2),
		name("go"), name("debug"), []byte{0}, uleb(0), // a function
		name("go"), name("mem"), []byte{2, 0}, uleb(1)) // a memory
	code := section(SecCode, uleb(2), uleb(3), []byte{0, 0x01, 0x0b}, uleb(2), []byte{0, 0x0b})
	names := section(SecCustom, name("name"), []byte{1}, uleb(17), uleb(2), uleb(1), name("main.a"), uleb(2), name("main.b"))
	data := dataSection(Segment{10, []byte("ab")}, Segment{14, []byte("cd")}, Segment{200, []byte("ef")}, Segment{1 << 20, []byte("g")})
	return module(imports, code, data, names)
}

func TestParse(t *testing.T) {
	t.Parallel()
	m, err := Parse(sample())
	require.NoError(t, err)
	assert.Equal(t, 1, m.Imports)
	assert.Equal(t, [][]byte{{0, 0x01, 0x0b}, {0, 0x0b}}, m.Bodies)
	assert.Equal(t, map[int]string{1: "main.a", 2: "main.b"}, m.Names)
	assert.Equal(t, []Segment{{10, []byte("ab")}, {14, []byte("cd")}, {200, []byte("ef")}, {1 << 20, []byte("g")}}, m.Segments)
	require.Len(t, m.Sections, 4)
	assert.Equal(t, "name", m.Sections[3].Name)
}

func TestParseRefusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []byte
	}{
		{"not wasm", []byte("hello world")},
		{"version 2", []byte("\x00asm\x02\x00\x00\x00")},
		{"a section longer than the file", append(module(), SecCode, 50, 1)},
		{"a passive data segment", module(section(SecData, uleb(1), []byte{1}, uleb(0)))},
		{"a segment offset that is not a constant", module(section(SecData, uleb(1), []byte{0, 0x23, 0, 0x0b}, uleb(0)))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.in)
			assert.Error(t, err)
		})
	}
}

func TestPackJoinsCloseSegments(t *testing.T) {
	t.Parallel()
	in := sample()
	out, err := Pack(in, 64)
	require.NoError(t, err)
	before, err := Parse(in)
	require.NoError(t, err)
	after, err := Parse(out)
	require.NoError(t, err)
	assert.Equal(t, []Segment{{10, []byte("ab\x00\x00cd")}, {200, []byte("ef")}, {1 << 20, []byte("g")}}, after.Segments)
	assert.Equal(t, image(before.Segments), image(after.Segments), "the same memory")
	assert.Equal(t, before.Bodies, after.Bodies)
	assert.Equal(t, before.Names, after.Names)

	_, err = Pack(module(dataSection(Segment{10, []byte("abcd")}, Segment{12, []byte("x")})), 64)
	assert.ErrorContains(t, err, "overlap")
	_, err = Pack(in, 0)
	assert.Error(t, err)
}

func TestStripDropsCustomSections(t *testing.T) {
	t.Parallel()
	out, err := Strip(sample())
	require.NoError(t, err)
	m, err := Parse(out)
	require.NoError(t, err)
	assert.Empty(t, m.Names)
	assert.Len(t, m.Sections, 3)
}

// The page's own wasm, when it is built, packs to the same memory.
func TestPackKeepsTheBuiltWasmsMemory(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile("../../web/dist/converge.wasm")
	if err != nil {
		t.Skip("web/dist/converge.wasm is not built (make build)")
	}
	out, err := Pack(in, 4096)
	require.NoError(t, err)
	a, err := Parse(in)
	require.NoError(t, err)
	b, err := Parse(out)
	require.NoError(t, err)
	assert.Less(t, len(b.Segments), len(a.Segments))
	sort.Slice(a.Segments, func(i, j int) bool { return a.Segments[i].Addr < a.Segments[j].Addr })
	assert.True(t, bytes.Equal(image(a.Segments), image(b.Segments)), "the same memory")
	assert.Equal(t, len(a.Bodies), len(b.Bodies))
}
