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

// TraceStream writes Trace's bytes in slices, counts its progress, and
// estimates the whole from the first slice: the page's Download, Trace
// builds a long trace between frames and refuses one beyond
// MaxTraceDownload after its first slice, not after gigabytes.
func TestTraceStreamInSlices(t *testing.T) {
	t.Parallel()
	scn := simrun.Builtin(t, "basic-loop")
	var whole bytes.Buffer
	require.NoError(t, Trace(&whole, scn, scn.Duration))
	ts, err := NewTraceStream(scn, scn.Duration)
	require.NoError(t, err)
	var got, slice bytes.Buffer
	slices := 0
	for {
		slice.Reset()
		done, err := ts.Next(&slice, 10)
		require.NoError(t, err)
		got.Write(slice.Bytes())
		slices++
		written, total := ts.Progress()
		assert.Equal(t, int64(scn.Duration/time.Second)+1, total)
		if slices == 1 {
			assert.Equal(t, int64(10), written)
			est := ts.Estimate()
			assert.InDelta(t, whole.Len(), est, float64(whole.Len())/2, "the estimate after one slice is within half of the size")
			assert.Regexp(t, `^Building the trace: 10 of 76 seconds, \d+\.\d kB of about \d+\.\d [kM]B\. Dismiss to cancel\.$`, ts.ProgressText())
		}
		if done {
			break
		}
	}
	assert.Equal(t, whole.String(), got.String(), "the same bytes as Trace")
	assert.Equal(t, int64(whole.Len()), ts.Estimate(), "at the end the estimate is the size")
	assert.Equal(t, 8, slices, "76 lines in slices of 10")

	// The 24 h scenario with 5 pods: refused after its first slice.
	day, probs := scenario.Parse([]byte(`name: day
duration: 24h
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 5
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "nginx:1.27"}]}
`), "day.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	ts, err = NewTraceStream(day, day.Duration)
	require.NoError(t, err)
	ts.Limit(MaxTraceDownload)
	slice.Reset()
	_, err = ts.Next(&slice, 30)
	require.NoError(t, err)
	err = ts.CheckEstimate()
	require.Error(t, err)
	assert.Regexp(t, `^the trace would be about \d+\.\d GB, more than the page can build \(268\.4 MB\); `+"`converge run FILE --output jsonl` writes it line by line$", err.Error())
	t.Logf("24h, 5 pods: estimate %s after 30 s, %d bytes a line", Size(ts.Estimate()), ts.Written()/30)
}

// Written is the bytes written so far.
func (ts *TraceStream) Written() int64 { return ts.written }
