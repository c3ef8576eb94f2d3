package wasmfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every optimisation is optional: a wasm whose layout StripLines does not
// recognise is packed with its file and line numbers, and runs; one that
// is not a wasm at all comes back as it was.
func TestOptimiseFallsBackToThePlainWasm(t *testing.T) {
	t.Parallel()
	raw, goroot := buildLines(t)
	m, err := Parse(raw)
	require.NoError(t, err)
	// An unknown layout: a segment below Go's data, where nothing reads,
	// that starts like a pclntab header, which no moduledata points to.
	decoy := append([]Segment{{Addr: 8, Data: []byte("\xf1\xff\xff\xff\x00\x00\x01\x08 not a pclntab header, a decoy.")}}, m.Segments...)
	unknown, err := withSegments(raw, m, decoy)
	require.NoError(t, err)
	overlapping, err := withSegments(raw, m, append(m.Segments, Segment{Addr: m.Segments[0].Addr, Data: m.Segments[0].Data}))
	require.NoError(t, err)

	const out = "sum 8024016 100\nrecovered: runtime error: index out of range [3] with length 0\ncaller main.caller "
	tests := []struct {
		name    string
		in      []byte
		lines   bool
		skipped []string // the steps skipped, each with the start of its reason
		run     string   // what the result prints, or "" when it is not a program
		same    bool     // the result is the input
	}{
		{name: "go build's wasm", in: raw, run: out + "false\n"},
		{name: "with -lines", in: raw, lines: true, run: out + "true\n"},
		{name: "unknown layout", in: unknown, skipped: []string{StepStripLines + ": skipped (no runtime moduledata"}, run: out + "true\n"},
		{name: "overlapping segments", in: overlapping, lines: true, skipped: []string{StepPack + ": skipped (data segments overlap"}, same: true},
		{name: "not a wasm", in: []byte("not a wasm"), skipped: []string{StepStripLines, StepPack}, same: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, steps := Optimise(tc.in, tc.lines)
			want := 2
			if tc.lines {
				want = 1
			}
			require.Len(t, steps, want)
			var skipped []Step
			for _, s := range steps {
				if !s.Applied() {
					skipped = append(skipped, s)
				}
			}
			require.Len(t, skipped, len(tc.skipped), "%v", steps)
			for i, s := range skipped {
				assert.Contains(t, s.String(), tc.skipped[i])
			}
			if tc.same {
				assert.Equal(t, tc.in, got)
			} else {
				assert.NotEqual(t, tc.in, got)
			}
			if tc.run != "" {
				stdout, stderr, err := runWasm(t, goroot, got)
				require.NoError(t, err, stderr)
				assert.Equal(t, tc.run, stdout)
			}
		})
	}
}
