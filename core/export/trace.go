package export

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"converge/core/scenario"
	"converge/core/sim"
)

// Trace writes the trace of scn (docs/trace.md) from t=0 to until, one
// JSON object a line and one line a second: the bytes `converge run FILE
// --output jsonl --until UNTIL` writes for the same scenario (cmd/converge
// tests that they agree). until is at most scenario.MaxDuration.
func Trace(w io.Writer, scn *scenario.Scenario, until time.Duration) error {
	if until < 0 || until > scenario.MaxDuration {
		return fmt.Errorf("trace: until %v is not between 0s and 24h", until)
	}
	s, err := sim.New(scn, sim.Options{CheckpointEvery: -1})
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	out := bufio.NewWriterSize(w, 1<<16)
	end := int64(until / time.Second)
	for {
		line, err := s.TraceLine()
		if err != nil {
			return fmt.Errorf("trace at %ds: %w", s.T(), err)
		}
		out.Write(line)
		out.WriteByte('\n')
		if s.T() >= end {
			break
		}
		s.Step(1)
	}
	return out.Flush()
}
