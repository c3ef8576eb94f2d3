package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestClockAdvancesOnlyWhenTold(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("X", 3600))
	c := New(start)
	assert.Equal(t, time.UTC, c.Now().Location(), "the clock is in UTC")
	assert.True(t, c.Now().Equal(start))
	c.Advance(1500 * time.Millisecond)
	c.Advance(-time.Hour)
	assert.Equal(t, 1500*time.Millisecond, c.Elapsed())
	assert.EqualValues(t, 1, c.Seconds())
	assert.True(t, c.Start().Equal(start))

	d := c.Clone()
	d.Advance(time.Minute)
	assert.EqualValues(t, 1, c.Seconds(), "a clone moves on its own")
	assert.EqualValues(t, 61, d.Seconds())
	c.Set(start.Add(10 * time.Second))
	assert.EqualValues(t, 10, c.Seconds())
}
