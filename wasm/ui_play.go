//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"converge/core/session"
	"converge/core/view"
)

// speeds are the play speeds: simulated seconds per real second.
var speeds = []int{1, 2, 4, 8, 16, 32, 64}

// player drives play from requestAnimationFrame: each frame it adds the
// real time since the last frame, times the speed, and steps the whole
// simulated seconds that have accumulated in one batch (playSeconds), so
// that a frame costs one step and one render however fast it plays; a
// second that costs more than a frame's budget goes across frames.
type player struct {
	a       *app
	playing bool
	speed   int
	// acc is the simulated time owed, in real-time units times speed.
	acc time.Duration
	// last is the previous frame's timestamp; 0 before the first.
	last time.Duration
	// frame is the pending requestAnimationFrame id, 0 when none.
	frame int
	// frames counts the frames that stepped (for tests and the probe).
	frames int
}

func newPlayer(a *app) *player { return &player{a: a, speed: 4} }

func (p *player) toggle() {
	if p.playing {
		p.pause()
	} else {
		p.start()
	}
}

func (p *player) start() {
	s := p.a.inst.Sim
	if s == nil {
		return
	}
	if s.T() >= int64(s.Duration().Seconds()) {
		// At the end: play from the start again, drawn once.
		p.a.inst.Batch(func() {
			p.a.inst.SeekTo(0)
			p.resume()
		})
		return
	}
	p.resume()
	p.drawControls()
}

// resume starts the frames without drawing anything.
func (p *player) resume() {
	p.playing = true
	p.last = 0
	p.acc = 0
	p.request()
}

// pause stops play and draws the play button (the pause button, space,
// the end of the scenario).
func (p *player) pause() {
	p.halt()
	p.drawControls()
}

// halt stops play without drawing anything, for an action whose one render
// follows (Instance.Batch): a step, a seek, a command, an Apply.
func (p *player) halt() {
	p.playing = false
	p.stop()
	// The address follows the second where time stops.
	p.a.addressLater()
}

// drawControls draws the timeline alone, which shows whether it plays.
func (p *player) drawControls() {
	if p.a.inst.Sim != nil {
		profiling().part("timeline", func() { p.a.timeline.render(p.a) })
		p.a.caption.render(p.a)
	}
}

// reset stops play after a load.
func (p *player) reset() {
	p.playing = false
	p.stop()
}

func (p *player) stop() {
	p.a.inst.finishPlay()
	if p.frame != 0 {
		dom.GetWindow().CancelAnimationFrame(p.frame)
		p.frame = 0
	}
}

func (p *player) request() {
	if p.frame == 0 {
		p.frame = dom.GetWindow().RequestAnimationFrame(p.tick)
	}
}

func (p *player) setSpeed(v int) {
	for _, s := range speeds {
		if s == v {
			p.speed = v
		}
	}
}

// nearestSpeed is the fastest of speeds that is not faster than v (the
// slowest for less): the speed attribute of <converge-sim> asks for any.
func nearestSpeed(v int) int {
	out := speeds[0]
	for _, s := range speeds {
		if s <= v {
			out = s
		}
	}
	return out
}

// tick is one animation frame.
func (p *player) tick(now time.Duration) {
	p.frame = 0
	if !p.playing || p.a.inst.Sim == nil {
		return
	}
	if j := p.a.inst.playing; j != nil {
		// A second goes on from the last frame; the time owed meanwhile
		// is dropped, as PlayFrame drops what does not fit.
		p.last = now
		defer p.profile()()
		j.step()
		if p.playing {
			p.request()
		}
		return
	}
	if p.last != 0 {
		p.acc += (now - p.last) * time.Duration(p.speed)
	}
	p.last = now
	n := int(p.acc / time.Second)
	if n > 0 {
		defer p.profile()()
		p.acc -= time.Duration(n) * time.Second
		// A frame computes at most what fits in a slice of work
		// (Session.PlayFrame).
		n = p.a.inst.PlayFrame(n)
		atNote := false
		if n > 0 && p.a.notesOn() {
			// Play stops at a note that pauses (render_notes.go).
			n, atNote = view.PlayStep(p.a.inst.Sim, n)
		}
		if n > 0 {
			p.frames++
			// One render once the seconds are done, with the play button
			// already off at the end.
			p.a.inst.playSeconds(n, session.PlayBudget, func(k int) {
				p.a.inst.Batch(func() {
					if p.a.inst.AtEnd() || atNote && k == n {
						p.halt()
					}
				})
			})
		} else if p.a.inst.AtEnd() {
			p.pause()
		}
		if !p.playing {
			return
		}
	}
	p.request()
}

// profile records a frame's work on the performance timeline as a
// "converge:frame" measure when globalThis.convergeProfile is set (the
// browser benchmark sets it); it returns the func that ends the frame.
func (p *player) profile() func() {
	g := js.Global()
	if !g.Get("convergeProfile").Truthy() {
		return func() {}
	}
	perf := g.Get("performance")
	start := perf.Call("now")
	return func() {
		opts := g.Get("Object").New()
		opts.Set("start", start)
		opts.Set("end", perf.Call("now"))
		perf.Call("measure", "converge:frame", opts)
	}
}

// profiler records parts of a render as "converge:PART" measures while
// globalThis.convergeProfile is set; the zero value records nothing.
type profiler struct{ perf js.Value }

func profiling() profiler {
	g := js.Global()
	if !g.Get("convergeProfile").Truthy() {
		return profiler{}
	}
	return profiler{perf: g.Get("performance")}
}

func (p profiler) part(name string, f func()) {
	if p.perf.IsUndefined() {
		f()
		return
	}
	start := p.perf.Call("now")
	f()
	opts := js.Global().Get("Object").New()
	opts.Set("start", start)
	opts.Set("end", p.perf.Call("now"))
	p.perf.Call("measure", "converge:"+name, opts)
}

// frameWork is work done in a goroutine that parks once its frame has
// used its budget (due, park) until the next frame resumes it (step): a
// second of play, or of a seek (seek.go), that costs more than a frame goes
// across frames. Meanwhile the simulation's readers show the second before
// (sim.Sim.StepPaced). hurry makes it go on without parking: the second is
// being finished.
type frameWork struct {
	budget, began   time.Duration
	hurry, parked   bool
	resume, yielded chan struct{}
}

func newFrameWork(budget time.Duration) frameWork {
	return frameWork{budget: budget, began: monotonic(), resume: make(chan struct{}, 1), yielded: make(chan struct{}, 1)}
}

// due is whether the frame's budget is used and the work should park.
func (w *frameWork) due() bool { return !w.hurry && monotonic()-w.began >= w.budget }

// park parks the work's goroutine until step.
func (w *frameWork) park() {
	w.parked = true
	w.yielded <- struct{}{}
	<-w.resume
	w.began = monotonic()
}

// step resumes the parked work for a frame; it returns when the work parks
// again or is done.
func (w *frameWork) step() {
	w.parked = false
	w.resume <- struct{}{}
	<-w.yielded
}

// finish finishes the parked work without parking again.
func (w *frameWork) finish() {
	if w.parked {
		w.hurry = true
		w.step()
	}
}

// playJob is a frame's seconds of play (player.tick) computed as
// frameWork (session.PlayBudget; Session.PlaySecond's pace): the seconds
// done are drawn before the job parks. No new second starts once the
// budget is used. Any change of the session finishes the second under way
// first, at once (finishPlay, from Session.OnStop), as does stopping play.
type playJob struct {
	frameWork
	inst *Instance
	// fresh counts the seconds done and not drawn yet.
	fresh int
}

// playSeconds computes up to n seconds of play, each paced with budget,
// then calls end with how many it computed (fewer than n when the budget
// ran out). It returns when they are done or the job parks; then
// i.playing is the job until it ends.
func (i *Instance) playSeconds(n int, budget time.Duration, end func(k int)) {
	j := &playJob{frameWork: newFrameWork(budget), inst: i}
	i.playing = j
	go func() {
		k := 0
		for k < n && (k == 0 || !j.hurry && !j.due()) {
			i.PlaySecond(j.pace)
			k++
			j.fresh++
		}
		i.playing = nil
		end(k)
		j.parked = false
		j.yielded <- struct{}{}
	}()
	<-j.yielded
}

// pace parks the job once the frame has used its budget, after drawing
// the seconds it has done, until the next frame resumes it (step), and
// says whether it did.
func (j *playJob) pace() bool {
	if !j.due() {
		return false
	}
	if j.fresh > 0 {
		j.fresh = 0
		j.inst.Changed()
	}
	j.park()
	return true
}

// finishPlay finishes the second of play under way, if one is parked,
// without parking again: it is drawn, and then the caller changes the
// session or stops play.
func (i *Instance) finishPlay() {
	if j := i.playing; j != nil {
		j.finish()
	}
}
