package session

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/sim"
)

// fakeClock advances by step on every reading: each Step the seek makes
// seems to take that long.
type fakeClock struct{ at, step time.Duration }

func (c *fakeClock) now() time.Duration {
	c.at += c.step
	return c.at
}

func newSim(t *testing.T) *sim.Sim {
	t.Helper()
	p := Prepare([]byte(alphaYAML), "a.yaml")
	require.NotNil(t, p.Sim, "%v", p.Problems)
	return p.Sim
}

func TestMeter(t *testing.T) {
	t.Parallel()
	s := newSim(t)
	var m Meter
	prior := m.PerSecond(s)
	assert.Greater(t, prior, priorBase, "the prior counts the objects")
	m.Observe(100, 100*time.Millisecond)
	assert.Equal(t, time.Millisecond, m.PerSecond(s), "the first measurement replaces the prior")
	m.Observe(10, 110*time.Millisecond)
	assert.Equal(t, 4*time.Millisecond, m.PerSecond(s), "later ones weigh 30%")
	assert.Equal(t, 400*time.Millisecond, m.Estimate(s, 100))
	m.Observe(0, time.Hour)
	assert.Equal(t, 4*time.Millisecond, m.PerSecond(s), "nothing computed, nothing learnt")
}

// TestCheckBlock: a synchronous call whose estimate is beyond a second is
// refused with a message that names seekAsync.
func TestCheckBlock(t *testing.T) {
	t.Parallel()
	s := newSim(t)
	m := Meter{perSecond: 127 * time.Microsecond, known: true}
	assert.NoError(t, m.CheckBlock(s, "seek(7000)", 7000, 7000), "0.9 s")
	err := m.CheckBlock(s, "seek(86400)", 86400, 86400)
	var tl *TooLongError
	require.ErrorAs(t, err, &tl)
	assert.EqualError(t, err, "seek(86400) would compute 86,400 simulated seconds, about 11s of work that would freeze the page; "+
		"use seekAsync(86400), which works in slices")
	err = m.CheckBlock(s, "step(9000)", 9010, 9000)
	assert.EqualError(t, err, "step(9000) would compute 9,000 simulated seconds, about 1.1s of work that would freeze the page; "+
		"use seekAsync(9010), which works in slices")
}

// TestSeekInSlices: each slice does about SliceBudget of work in whole
// seconds, the meter learns from it, and the end is SeekTo's state.
func TestSeekInSlices(t *testing.T) {
	t.Parallel()
	s := newSim(t)
	want := newSim(t)
	want.SeekTo(45)
	wantLine, err := want.TraceLine()
	require.NoError(t, err)

	clock := &fakeClock{step: 5 * time.Millisecond}
	m := &Meter{perSecond: 10 * time.Millisecond, known: true}
	k := NewSeek(s, 45, m, clock.now)
	assert.Equal(t, Progress{T: 0, From: 0, Target: 45, Fraction: 0}, k.Progress())
	slices := 0
	for !k.Slice() {
		slices++
		p := k.Progress()
		assert.Greater(t, p.T, int64(0))
		assert.Less(t, p.Fraction, 1.0)
		require.Less(t, slices, 45, "every slice computes at least a second")
	}
	assert.Greater(t, slices, 1, "45 seconds at the measured cost take more than one slice")
	assert.Equal(t, int64(45), s.T())
	assert.Equal(t, 1.0, k.Progress().Fraction)
	got, err := s.TraceLine()
	require.NoError(t, err)
	assert.True(t, string(got) == string(wantLine), "the same state as SeekTo(45)")
}

// TestSeekRampsUp: a seek's first step computes one second and each next
// one at most twice the last, whatever the meter guessed: before any
// measurement the guess (from the object count) is a fraction of a
// millisecond, which would have sized the first step at hundreds of
// seconds.
func TestSeekRampsUp(t *testing.T) {
	t.Parallel()
	s := newSim(t)
	clock := &fakeClock{step: 4 * time.Millisecond}
	m := &Meter{}
	require.Less(t, m.PerSecond(s), time.Millisecond, "the prior guess is cheap")
	k := NewSeek(s, 600, m, clock.now)
	assert.False(t, k.Slice())
	// now() is read three times a step at 4 ms each: within the 50 ms
	// budget, steps of at most 1, 2, 4 and 8 seconds (the meter, once it
	// has measured, may ask for fewer). Sized by the guess, the first step
	// alone would have been over 200 seconds.
	assert.LessOrEqual(t, s.T(), int64(1+2+4+8), "one second first, then at most doubling")
	assert.GreaterOrEqual(t, s.T(), int64(1+2))
}

// TestSeekBackRestoresFirst: a seek back restores the checkpoint before
// the target in its first slice and replays from there.
func TestSeekBackRestoresFirst(t *testing.T) {
	t.Parallel()
	s := newSim(t)
	s.SeekTo(55)
	clock := &fakeClock{step: time.Microsecond}
	k := NewSeek(s, 33, &Meter{}, clock.now)
	assert.Equal(t, int64(30), k.From)
	assert.True(t, k.Slice(), "3 seconds fit in one slice")
	assert.Equal(t, int64(33), s.T())
}

// TestSeekSlicePaced: a slice's one-second step is computed with
// StepPaced; a pace that does not park costs the slice nothing. A pace that parks (here it advances the clock by a frame, as
// a goroutine parked until the next frame would see it) ends the slice
// with that second, and the parked time is not on the meter; meanwhile the
// readers show the second before; the end is SeekTo's state.
func TestSeekSlicePaced(t *testing.T) {
	t.Parallel()
	s := newSim(t)
	want := newSim(t)
	want.SeekTo(45)
	wantLine, err := want.TraceLine()
	require.NoError(t, err)

	clock := &fakeClock{step: time.Microsecond}
	m := &Meter{}
	k := NewSeek(s, 45, m, clock.now)
	paces, parks := 0, 0
	before := s.T()
	pace := func() bool {
		paces++
		assert.Equal(t, before, s.T(), "a reader sees the second before, never half a second")
		if paces%3 == 0 {
			parks++
			clock.at += time.Second // parked until a later frame
			return true
		}
		return false
	}
	assert.False(t, k.SlicePaced(pace), "the first slice's second parked")
	assert.Equal(t, int64(1), s.T(), "a slice whose second parked ends with that second")
	require.Positive(t, parks)
	assert.Less(t, m.PerSecond(s), 100*time.Millisecond, "the meter does not count the parked second")

	for slices := 0; ; slices++ {
		require.Less(t, slices, 100)
		before = s.T()
		if k.SlicePaced(pace) {
			break
		}
	}
	assert.Equal(t, int64(45), s.T())
	got, err := s.TraceLine()
	require.NoError(t, err)
	assert.True(t, string(got) == string(wantLine), "the same state as SeekTo(45)")

	// A pace that never parks: the slice goes on past its paced second.
	s = newSim(t)
	k = NewSeek(s, 45, &Meter{}, (&fakeClock{step: time.Microsecond}).now)
	assert.True(t, k.SlicePaced(func() bool { return false }), "45 quiet seconds fit in one slice")
}
