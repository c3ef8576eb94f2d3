//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"converge/core/view"
)

// speeds are the play speeds: simulated seconds per real second.
var speeds = []int{1, 2, 4, 8, 16, 32, 64}

// player drives play from requestAnimationFrame: each frame it adds the
// real time since the last frame, times the speed, and steps the whole
// simulated seconds that have accumulated in one batch (Step(n)), so that
// a frame costs one step and one render however fast it plays.
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
			// One render, with the play button already off at the end.
			p.a.inst.Batch(func() {
				p.a.inst.Step(n)
				if p.a.inst.AtEnd() || atNote {
					p.halt()
				}
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
