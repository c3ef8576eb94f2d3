package wasmfile

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildLines builds testdata/lines for wasm as `make build` builds the page.
func buildLines(t *testing.T) (wasm []byte, goroot string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a wasm program")
	}
	out := filepath.Join(t.TempDir(), "lines.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Dir = "testdata/lines"
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWORK=off", "GOFLAGS=")
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	root, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	return b, strings.TrimSpace(string(root))
}

// runWasm runs a js/wasm program under Node, as `go test` runs wasm tests.
func runWasm(t *testing.T, goroot string, wasm []byte, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed, and CI is set")
		}
		t.Skip("node is not installed")
	}
	file := filepath.Join(t.TempDir(), "prog.wasm")
	require.NoError(t, os.WriteFile(file, wasm, 0o644))
	cmd := exec.Command(filepath.Join(goroot, "lib", "wasm", "go_js_wasm_exec"), append([]string{file}, args...)...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// A program without its line numbers runs as it did: its stacks grow and
// are scanned, panics are recovered, callers are named. Only where a
// traceback says the file and line does it differ.
func TestStripLinesKeepsAProgramRunning(t *testing.T) {
	t.Parallel()
	raw, goroot := buildLines(t)
	stripped, st, err := StripLines(raw)
	require.NoError(t, err)
	assert.Greater(t, st.Funcs, 500)
	assert.Greater(t, st.FreedBytes, st.KeptBytes/2, "line tables are most of the pc-value tables")
	assert.Greater(t, st.FileTab, 0)

	packedRaw, err := Pack(raw, PackGap)
	require.NoError(t, err)
	packedStripped, err := Pack(stripped, PackGap)
	require.NoError(t, err)
	assert.Less(t, len(packedStripped), len(packedRaw))

	want := "sum 8024016 100\nrecovered: runtime error: index out of range [3] with length 0\ncaller main.caller "
	out, _, err := runWasm(t, goroot, packedRaw)
	require.NoError(t, err)
	assert.Equal(t, want+"true\n", out)
	out, _, err = runWasm(t, goroot, packedStripped)
	require.NoError(t, err)
	assert.Equal(t, want+"false\n", out, "the same work; runtime.Caller has no file or line")

	_, trace, err := runWasm(t, goroot, packedStripped, "panic")
	require.Error(t, err)
	assert.Contains(t, trace, "panic: assignment to entry in nil map")
	assert.Contains(t, trace, "main.main()")
	assert.Contains(t, trace, "?:0")
	assert.NotContains(t, trace, "main.go:")
	_, trace, err = runWasm(t, goroot, packedRaw, "panic")
	require.Error(t, err)
	assert.Contains(t, trace, "main.go:")

	// A damaged program is refused or stripped, never a panic: bytes of
	// the data changed at random, in the pclntab most of all.
	m, err := Parse(raw)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 120 {
		bad := bytes.Clone(raw)
		seg := m.Segments[rng.IntN(len(m.Segments))]
		if len(seg.Data) == 0 {
			continue
		}
		// Segment data lies in the file at the same offset as in m.
		off := bytes.Index(raw, seg.Data)
		for range 1 + rng.IntN(8) {
			bad[off+rng.IntN(len(seg.Data))] = byte(rng.Uint32())
		}
		assert.NotPanics(t, func() { _, _, _ = StripLines(bad) })
	}

	// Stripping what is stripped changes nothing more.
	again, st2, err := StripLines(stripped)
	require.NoError(t, err)
	assert.Equal(t, 0, st2.InlTree)
	a, err := Parse(again)
	require.NoError(t, err)
	b, err := Parse(stripped)
	require.NoError(t, err)
	assert.Equal(t, image(b.Segments), image(a.Segments))
}

func TestStripLinesRefusesWhatItDoesNotKnow(t *testing.T) {
	t.Parallel()
	_, _, err := StripLines(sample())
	assert.ErrorContains(t, err, "pclntab header")
	_, _, err = StripLines(module())
	assert.ErrorContains(t, err, "no data segments")
	_, _, err = StripLines([]byte("not wasm"))
	assert.Error(t, err)
}

func TestTableLen(t *testing.T) {
	t.Parallel()
	// value +1 over 2 pcs, value +1 (zig-zag 2) over 300 pcs, end.
	tab := []byte{9, 2, 2, 2, 0xac, 0x02, 0, 7}
	n, err := tableLen(tab, 1)
	require.NoError(t, err)
	assert.Equal(t, 6, n)
	top, err := tableMax(tab, 1)
	require.NoError(t, err)
	assert.Equal(t, int32(1), top)
	// A first value delta of 0 does not end the table.
	n, err = tableLen([]byte{0, 0, 4, 0}, 1)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	_, err = tableLen([]byte{0, 2, 2}, 1)
	assert.ErrorContains(t, err, "past the end")
	_, err = tableLen([]byte{0, 2, 0x80}, 1)
	assert.Error(t, err)
}

func FuzzStripLines(f *testing.F) {
	f.Add(sample())
	f.Add(module(dataSection(Segment{16, []byte("\xf1\xff\xff\xff\x00\x00\x01\x08")})))
	f.Add(module(dataSection(Segment{0, []byte("x")}, Segment{1 << 31, []byte("y")})))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, _, err := StripLines(b)
		if err == nil {
			_, err = Parse(out)
			require.NoError(t, err, "StripLines wrote a wasm Parse cannot read")
		}
	})
}
