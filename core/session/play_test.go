package session

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlaySecond: a second of the play loop is Step(1): the same trace,
// the seek under way stopped first, nothing drawn (the loop draws); pace is
// called between its pieces with the second before shown, and the meter
// counts the work, not the time parked there.
func TestPlaySecond(t *testing.T) {
	t.Parallel()
	var clk time.Duration
	played := New(testLibrary(), func() time.Duration { return clk })
	var stops []string
	played.OnStop = func(why string) { stops = append(stops, why) }
	stepped, _ := newSession(t)
	require.NoError(t, played.LoadBuiltin("alpha"))
	require.NoError(t, stepped.LoadBuiltin("alpha"))
	stops = nil
	played.OnChange = func() { t.Error("PlaySecond draws nothing") }
	calls := 0
	for i := int64(0); i < 5; i++ {
		played.PlaySecond(func() bool {
			calls++
			assert.Equal(t, i, played.Sim.T(), "the second before is shown")
			clk += time.Second // parked for a second
			return true
		})
		stepped.Step(1)
		var a, b bytes.Buffer
		require.NoError(t, played.Sim.WriteTraceLine(&a))
		require.NoError(t, stepped.Sim.WriteTraceLine(&b))
		require.Equal(t, b.String(), a.String())
	}
	assert.Equal(t, int64(5), played.Sim.T())
	assert.Positive(t, calls)
	assert.Equal(t, []string{"stopped by a step", "stopped by a step", "stopped by a step", "stopped by a step", "stopped by a step"}, stops)
	// Parked seconds are not work: a frame still fits the rest of the
	// scenario (55 s).
	assert.Equal(t, 55, played.PlayFrame(1000))
}

// TestPlaySecondMetersAPaceThatDidNotPark: a pace call that did not park
// is the second's work (its own cost included), as in a seek's paced
// second; only parked time is left off the meter.
func TestPlaySecondMetersAPaceThatDidNotPark(t *testing.T) {
	t.Parallel()
	var clk time.Duration
	played := New(testLibrary(), func() time.Duration { return clk })
	require.NoError(t, played.LoadBuiltin("alpha"))
	for range 5 {
		played.PlaySecond(func() bool {
			clk += time.Second // a second of work, no park
			return false
		})
	}
	assert.Equal(t, int64(5), played.Sim.T())
	assert.Equal(t, 1, played.PlayFrame(1000), "seconds that cost seconds: one a frame")
}
