package export

import (
	"bytes"
	"fmt"
	"time"

	"converge/core/scenario"
	"converge/core/sim"
)

// MaxTraceDownload bounds the trace the page builds for Download, Trace:
// 256 MiB, which it holds in memory until the file is saved. A longer
// trace is refused before it starts, from its estimate, or as soon as it
// goes beyond; `converge run FILE --output jsonl` writes any trace, line by
// line. docs/limits.md lists every limit.
const MaxTraceDownload = 256 << 20

// TraceStream writes a trace (the bytes of Trace) in slices, so that the
// page can build a long one between frames, show its progress and stop it:
// each Next writes the lines of the next seconds. Estimate says how large
// the whole will be, from the lines written so far.
type TraceStream struct {
	s   *sim.Sim
	end int64
	// written and lines count what Next has written; last is the size of
	// the last line.
	written, lines int64
	last           int
	done           bool
	limit          int64
}

// NewTraceStream starts the trace of scn from t=0 to until (at most
// scenario.MaxDuration).
func NewTraceStream(scn *scenario.Scenario, until time.Duration) (*TraceStream, error) {
	if until < 0 || until > scenario.MaxDuration {
		return nil, fmt.Errorf("trace: until %v is not between 0s and 24h", until)
	}
	s, err := sim.New(scn, sim.Options{CheckpointEvery: -1})
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	return &TraceStream{s: s, end: int64(until / time.Second), limit: -1}, nil
}

// Limit makes Next fail once the trace goes beyond max bytes
// (MaxTraceDownload for the page).
func (ts *TraceStream) Limit(max int64) { ts.limit = max }

// Next writes the lines of up to n more seconds (at least one) to b and
// reports whether the trace is complete.
func (ts *TraceStream) Next(b *bytes.Buffer, n int) (bool, error) {
	for i := 0; i < max(n, 1) && !ts.done; i++ {
		before := b.Len()
		if err := ts.s.WriteTraceLine(b); err != nil {
			return false, fmt.Errorf("trace at %ds: %w", ts.s.T(), err)
		}
		b.WriteByte('\n')
		ts.last = b.Len() - before
		ts.written += int64(ts.last)
		ts.lines++
		if ts.limit >= 0 && ts.written > ts.limit {
			return false, ts.tooLarge(ts.written)
		}
		if ts.s.T() >= ts.end {
			ts.done = true
			break
		}
		ts.s.Step(1)
	}
	return ts.done, nil
}

// Progress is the seconds written and the lines the whole trace has.
func (ts *TraceStream) Progress() (written, total int64) { return ts.lines, ts.end + 1 }

// Estimate is the size the whole trace will have: what is written, and for
// each line to come the larger of the mean line so far and the last line
// (a rollout's lines grow as its pods appear).
func (ts *TraceStream) Estimate() int64 {
	if ts.lines == 0 {
		return 0
	}
	per := max(ts.written/ts.lines, int64(ts.last))
	return ts.written + per*(ts.end+1-ts.lines)
}

// CheckEstimate fails when the estimate goes beyond the limit, so that a
// trace too large is refused after its first slice rather than near its
// end.
func (ts *TraceStream) CheckEstimate() error {
	if ts.limit >= 0 && ts.Estimate() > ts.limit {
		return ts.tooLarge(ts.Estimate())
	}
	return nil
}

func (ts *TraceStream) tooLarge(size int64) error {
	return fmt.Errorf("the trace would be about %s, more than the page can build (%s); "+
		"`converge run FILE --output jsonl` writes it line by line", Size(size), Size(ts.limit))
}

// Size is a byte count for people: "512 bytes", "2.5 MB", "1.3 GB".
func Size(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000_000:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	case n < 1000_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}

// ProgressText is what the page says as it builds the trace: the seconds
// written of all, and the bytes of about how many.
func (ts *TraceStream) ProgressText() string {
	written, total := ts.Progress()
	return fmt.Sprintf("Building the trace: %s of %s seconds, %s of about %s. Dismiss to cancel.",
		thousands(written), thousands(total), Size(ts.written), Size(ts.Estimate()))
}

// thousands writes n with thousands separators: 86,401.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
