package export

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest/simrun"
)

// Trace writes the bytes of the engine's golden traces (core/sim's
// testdata, which `converge run --output jsonl` also writes; cmd/converge
// checks that side).
func TestTraceEqualsTheGoldenTraces(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../sim/testdata/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			scn, probs := scenario.Parse(data, f)
			require.False(t, probs.HasErrors(), "%v", probs)
			want, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".golden.jsonl")
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, Trace(&got, scn, scn.Duration))
			assert.True(t, bytes.Equal(want, got.Bytes()), "the trace of %s differs from its golden", f)
		})
	}
}

func TestTraceStopsAtUntil(t *testing.T) {
	t.Parallel()
	scn := simrun.Builtin(t, "basic-loop")
	var b bytes.Buffer
	require.NoError(t, Trace(&b, scn, 0))
	assert.Equal(t, 1, bytes.Count(b.Bytes(), []byte("\n")), "until 0s is t=0 alone")
	assert.True(t, bytes.HasPrefix(b.Bytes(), []byte(`{"t":0,`)))
	b.Reset()
	require.NoError(t, Trace(&b, scn, 5*time.Second))
	assert.Equal(t, 6, bytes.Count(b.Bytes(), []byte("\n")))
	assert.Error(t, Trace(&b, scn, 25*time.Hour))
	assert.Error(t, Trace(&b, scn, -time.Second))
}
