// Package clock is the simulated clock every component reads. It starts at
// api.Epoch (2026-01-01T00:00:00Z) and moves only when the simulation advances
// it, one second per tick; nothing in Converge reads the wall clock.
package clock

import "time"

// Clock is a settable clock. The zero value is not useful; use New.
type Clock struct {
	start time.Time
	now   time.Time
}

// New returns a clock at start (converted to UTC).
func New(start time.Time) *Clock {
	s := start.UTC()
	return &Clock{start: s, now: s}
}

// Now returns the current simulated time.
func (c *Clock) Now() time.Time { return c.now }

// Start returns the time of t=0.
func (c *Clock) Start() time.Time { return c.start }

// Elapsed returns the simulated time since start.
func (c *Clock) Elapsed() time.Duration { return c.now.Sub(c.start) }

// Seconds returns the whole simulated seconds since start: the tick number.
func (c *Clock) Seconds() int64 { return int64(c.now.Sub(c.start) / time.Second) }

// Advance moves the clock forward by d; a negative d is ignored.
func (c *Clock) Advance(d time.Duration) {
	if d > 0 {
		c.now = c.now.Add(d)
	}
}

// Set moves the clock to t (used when a checkpoint is restored).
func (c *Clock) Set(t time.Time) { c.now = t.UTC() }

// Clone returns an independent clock at the same time.
func (c *Clock) Clone() *Clock { x := *c; return &x }
