package session

import (
	"fmt"
	"time"

	"converge/core/api"
	"converge/core/manifest"
	"converge/core/sim"
)

// The page never blocks for long (docs/limits.md): a seek far ahead goes in
// slices of SliceBudget, each in its own animation frame (package wasm
// schedules them; Seek decides what each does), and a synchronous call
// that would compute more than MaxBlock of work is refused (CheckBlock),
// with a message that names seekAsync. How long a simulated second takes
// is measured per instance (Meter).

// MaxBlock is how long one synchronous call may keep the page busy: about
// a second.
const MaxBlock = time.Second

// SliceBudget is the work one slice of a seek does before it yields to the
// page, which then draws its progress and handles input.
const SliceBudget = 50 * time.Millisecond

// Before anything is measured, a simulated second is estimated to cost
// priorBase plus priorPerObject for each stored object: measured in
// headless chromium, about 130 µs a second for 5 pods and 5 ms for 10,000.
const (
	priorBase      = 100 * time.Microsecond
	priorPerObject = 40 * time.Nanosecond
)

// Meter measures how long one simulated second of an instance takes to
// compute. The zero value has measured nothing.
type Meter struct {
	perSecond time.Duration
	known     bool
}

// Observe records that computing seconds simulated seconds took took.
// Recent measurements weigh most: a rollout costs more than a settled
// cluster.
func (m *Meter) Observe(seconds int64, took time.Duration) {
	if seconds <= 0 {
		return
	}
	rate := took / time.Duration(seconds)
	if !m.known {
		m.perSecond, m.known = rate, true
		return
	}
	m.perSecond = (7*m.perSecond + 3*rate) / 10
}

// PerSecond is the cost of one simulated second of s: measured, or, before
// any measurement, estimated from the number of objects s holds.
func (m *Meter) PerSecond(s *sim.Sim) time.Duration {
	if m.known {
		return max(m.perSecond, time.Microsecond)
	}
	n := 0
	for _, r := range api.Resources() {
		n += s.Store().Count(r.Kind)
	}
	return priorBase + time.Duration(n)*priorPerObject
}

// Estimate is how long computing seconds simulated seconds of s takes.
func (m *Meter) Estimate(s *sim.Sim, seconds int64) time.Duration {
	return time.Duration(max(seconds, 0)) * m.PerSecond(s)
}

// TooLongError is the refusal of a synchronous call whose work would keep
// the page busy beyond MaxBlock.
type TooLongError struct {
	// Call is the call as written ("seek(86400)", "step(3600)"), Target
	// the second it goes to, Seconds the simulated seconds it computes and
	// Estimate how long that takes.
	Call            string
	Target, Seconds int64
	Estimate        time.Duration
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("%s would compute %s simulated seconds, about %s of work that would freeze the page; "+
		"use seekAsync(%d), which works in slices", e.Call, manifest.Thousands(e.Seconds), roundEstimate(e.Estimate), e.Target)
}

func roundEstimate(d time.Duration) string {
	if d >= 10*time.Second {
		return d.Round(time.Second).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// CheckBlock refuses (a *TooLongError) a call that moves s to target by
// computing seconds simulated seconds, when the estimate of that work is
// beyond MaxBlock.
func (m *Meter) CheckBlock(s *sim.Sim, call string, target, seconds int64) error {
	if est := m.Estimate(s, seconds); est > MaxBlock {
		return &TooLongError{Call: call, Target: target, Seconds: seconds, Estimate: est}
	}
	return nil
}

// SeekWork is how many simulated seconds SeekTo(t) computes from where s
// is: from the checkpoint it restores, or from the current second.
func SeekWork(s *sim.Sim, t int64) int64 {
	return t - s.SeekStart(t)
}

// Seek moves a simulation to Target in slices (Slice). Between slices it
// is at a whole second, where a cancelled seek leaves it.
type Seek struct {
	Sim *sim.Sim
	// From is the second the slices compute from (the checkpoint restored,
	// or where the simulation was); Target the second it goes to.
	From, Target int64
	meter        *Meter
	now          func() time.Duration
	restored     bool
	// last is how many seconds the seek's last Step computed (0: none yet).
	last int64
	// halted ends the slice under way after the second it is computing.
	halted bool
}

// Halt makes the slice under way (SlicePaced, parked mid-second) end with
// the second it is computing: the seek is being stopped where it is.
func (k *Seek) Halt() { k.halted = true }

// NewSeek prepares the seek of s to target; now is a monotonic clock (the
// page's performance.now). Nothing is computed until Slice.
func NewSeek(s *sim.Sim, target int64, m *Meter, now func() time.Duration) *Seek {
	return &Seek{Sim: s, From: s.SeekStart(target), Target: target, meter: m, now: now}
}

// Slice does about SliceBudget of work, in whole seconds (at least one),
// measuring it on the meter, and reports whether the seek is done. The
// first slice restores the checkpoint the seek starts from. A seek's first
// Step computes one second and each next one at most twice the last: the
// meter's figure is an average (or, before any measurement, a guess from
// the object count) that a rollout's seconds can exceed a hundredfold, and
// a step sized by it alone once computed a rollout of 1,000 pods in one
// task of several seconds.
func (k *Seek) Slice() bool {
	return k.SlicePaced(nil)
}

// SlicePaced is Slice, but a step of one second (the first of a seek, or
// one the meter says costs the slice's whole budget or more) is computed
// with sim.Sim.StepPaced: pace is called between its pieces, and may park
// the caller's goroutine until a later frame (it says whether it did), so that a second that costs
// more than a slice (a rollout's at 10,000 pods) goes across frames while
// the readers show the second before. Parked time is not counted on the
// meter; a slice whose second parked ends when that second is done. nil
// is Slice.
func (k *Seek) SlicePaced(pace func() (parked bool)) bool {
	start := k.now()
	if !k.restored {
		k.restored = true
		if k.Sim.T() != k.From {
			k.Sim.SeekTo(k.From)
		}
	}
	for k.Sim.T() < k.Target && !k.halted {
		left := SliceBudget - (k.now() - start)
		if left <= 0 {
			break
		}
		n := min(max(int64(left/k.meter.PerSecond(k.Sim)), 1), max(2*k.last, 1), k.Target-k.Sim.T())
		k.last = n
		if n > 1 || pace == nil {
			began := k.now()
			k.Sim.Step(int(n))
			k.meter.Observe(n, k.now()-began)
			continue
		}
		work, parked := stepPacedSecond(k.Sim, k.now, pace)
		k.meter.Observe(1, work)
		if parked {
			break // it went across frames: the slice ends with it
		}
	}
	return k.Sim.T() >= k.Target
}

// Progress is how far a seek has come, as the JS API's onProgress and the
// page's progress bar show it.
type Progress struct {
	// T is the second the simulation is at; From and Target as in Seek.
	T      int64 `json:"t"`
	From   int64 `json:"from"`
	Target int64 `json:"target"`
	// Fraction is the part done, 0 to 1.
	Fraction float64 `json:"fraction"`
}

// Progress is the seek's progress now.
func (k *Seek) Progress() Progress {
	p := Progress{T: k.Sim.T(), From: k.From, Target: k.Target, Fraction: 1}
	if k.Target > k.From && p.T < k.Target {
		p.Fraction = float64(max(p.T-k.From, 0)) / float64(k.Target-k.From)
	}
	return p
}

// stepPacedSecond computes the simulation's next second with
// sim.Sim.StepPaced, calling pace between its pieces, and returns the time
// it took less the time pace spent parked (pace says whether it parked; a
// call that did not park is work, its own cost included) and whether it
// parked at all. Play and a seek's paced second meter their work with it.
func stepPacedSecond(sm *sim.Sim, now func() time.Duration, pace func() (parked bool)) (work time.Duration, parked bool) {
	began := now()
	var waited time.Duration
	sm.StepPaced(func() {
		at := now()
		if pace() {
			parked = true
			waited += now() - at
		}
	})
	return now() - began - waited, parked
}
