package export

import (
	"bufio"
	"bytes"
	"io"
	"time"

	"converge/core/scenario"
)

// Trace writes the trace of scn (docs/trace.md) from t=0 to until, one
// JSON object a line and one line a second: the bytes `converge run FILE
// --output jsonl --until UNTIL` writes for the same scenario (cmd/converge
// tests that they agree). until is at most scenario.MaxDuration.
func Trace(w io.Writer, scn *scenario.Scenario, until time.Duration) error {
	ts, err := NewTraceStream(scn, until)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(w, 1<<16)
	var b bytes.Buffer
	for {
		b.Reset()
		done, err := ts.Next(&b, 1)
		if err != nil {
			return err
		}
		out.Write(b.Bytes())
		if done {
			return out.Flush()
		}
	}
}
