//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"converge/core/view"
)

// timelinePart is the time controls: play/pause, step back and forward,
// the speed, the current second and the scrubber with its markers.
type timelinePart struct {
	el, playBtn, backBtn, stepBtn, speed, now, clock, scrub, marks *node
	markers                                                        *keyed[node]
	// bands are where the focus Deployment's rollouts spent their time
	// (view.TimeBands), under the scrubber; deadline the progress
	// deadline's mark.
	bandsEl, deadline *node
	bands             *keyed[node]
	// seeking shows a seek in slices: its text, its bar and Cancel.
	seeking, seekText, seekBar, seekCancel *node
}

func newTimeline(a *app) *timelinePart {
	d := a.d
	t := &timelinePart{el: d.el("section", "cv-timeline")}
	t.el.setAttr("aria-label", "Time")
	t.playBtn = button(d, "cv-btn cv-play", "Play", "Play (space)")
	t.backBtn = button(d, "cv-btn", "◀ 1s", "Step back one second (←)")
	t.stepBtn = button(d, "cv-btn", "1s ▶", "Step one second (→)")
	t.speed = d.el("select", "cv-speed")
	t.speed.setAttr("aria-label", "Speed")
	for _, s := range speeds {
		o := d.el("option", "", strconv.Itoa(s)+"×")
		o.setAttr("value", strconv.Itoa(s))
		t.speed.add(o)
	}
	t.speed.setValue(strconv.Itoa(a.play.speed))
	t.now = d.el("output", "cv-now")
	t.now.setAttr("aria-live", "off")
	t.clock = d.el("span", "cv-clock")
	t.scrub = d.el("input", "cv-scrub")
	t.scrub.setAttr("type", "range")
	t.scrub.setAttr("min", "0")
	t.scrub.setAttr("step", "1")
	t.scrub.setAttr("aria-label", "Time (seconds); drag to seek")
	t.marks = d.el("div", "cv-marks")
	t.marks.setAttr("aria-hidden", "true")
	t.bandsEl = d.el("div", "cv-time-bands")
	t.bandsEl.setAttr("aria-hidden", "true")
	t.bands = newKeyed(t.bandsEl, func(string) *node { return d.el("span", "cv-time-band") }, func(n *node) *node { return n })
	t.deadline = d.el("span", "cv-deadline-mark")
	t.deadline.setHidden(true)
	t.bandsEl.add(t.deadline)
	track := d.el("div", "cv-track").add(t.marks, t.scrub, t.bandsEl)
	t.markers = newKeyed(t.marks, func(string) *node { return d.el("span", "cv-mark") }, func(n *node) *node { return n })
	clock := d.el("div", "cv-time").add(t.now, t.clock)
	t.el.add(d.el("div", "cv-controls").add(t.playBtn, t.backBtn, t.stepBtn, t.speed), clock, track, t.newSeeking(a))

	a.ls.on(t.playBtn, "click", func(dom.Event) { a.play.toggle() })
	a.ls.on(t.stepBtn, "click", func(dom.Event) { a.stepBy(1) })
	a.ls.on(t.backBtn, "click", func(dom.Event) { a.stepBy(-1) })
	a.ls.on(t.speed, "change", func(dom.Event) {
		v, _ := strconv.Atoi(t.speed.value())
		a.play.setSpeed(v)
	})
	a.ls.on(t.scrub, "input", func(dom.Event) {
		v, err := strconv.ParseInt(t.scrub.value(), 10, 64)
		if err == nil {
			a.seek(v)
		}
	})
	a.ls.on(t.marks, "click", func(ev dom.Event) {
		if v, err := strconv.ParseInt(targetAttr(ev, "data-t"), 10, 64); err == nil {
			a.seek(v)
		}
	})
	return t
}

// button makes a button with a label and an accessible name.
func button(d doc, class, label, aria string) *node {
	b := d.el("button", class, label)
	b.setAttr("type", "button")
	if aria != "" {
		b.setAttr("aria-label", aria)
		b.setAttr("title", aria)
	}
	return b
}

func (t *timelinePart) render(a *app) {
	t.drawSeeking(a)
	tl := view.TimelineOf(a.inst.Sim)
	if a.play.playing {
		t.playBtn.setText("Pause")
		t.playBtn.setAttr("aria-label", "Pause (space)")
	} else {
		t.playBtn.setText("Play")
		t.playBtn.setAttr("aria-label", "Play (space)")
	}
	t.playBtn.setAttr("aria-pressed", strconv.FormatBool(a.play.playing))
	t.backBtn.setBool("disabled", tl.T == 0)
	t.now.setText("t = " + tl.Now + " of " + tl.SpanText)
	t.clock.setText(tl.Clock + " UTC")
	t.scrub.setAttr("max", strconv.FormatInt(tl.Span, 10))
	t.scrub.setValue(strconv.FormatInt(tl.T, 10))
	t.scrub.setAttr("aria-valuetext", tl.Now)
	keys := make([]string, len(tl.Markers))
	for i, m := range tl.Markers {
		keys[i] = m.Key
	}
	t.markers.sync(keys, func(i int, n *node) {
		m := tl.Markers[i]
		n.setClass("cv-mark cv-mark-" + m.Kind)
		n.setStyle("left", m.Left+"%")
		n.setAttr("title", m.Label)
		n.setAttr("data-t", strconv.FormatInt(m.T, 10))
	})
	bands, mark := view.TimeBands(a.inst.Sim, a.focus)
	bandKeys := make([]string, len(bands))
	for i, b := range bands {
		bandKeys[i] = b.Key
	}
	t.bands.sync(bandKeys, func(i int, n *node) {
		b := bands[i]
		n.setClass("cv-time-band cv-part-" + b.Part)
		n.setStyle("left", b.Left+"%")
		n.setStyle("width", b.Width+"%")
		n.setAttr("title", b.Label)
	})
	t.deadline.setHidden(mark == nil)
	if mark != nil {
		t.deadline.setClass("cv-deadline-mark cv-deadline-" + mark.Kind)
		t.deadline.setStyle("left", mark.Left+"%")
		t.deadline.setAttr("title", mark.Label)
	}
}

// stepBy pauses and moves by n seconds: forward by stepping, back by
// seeking (in slices, as any seek of the page: the checkpoint before may
// be far); the page draws once.
func (a *app) stepBy(n int64) {
	s := a.inst.Sim
	if s == nil {
		return
	}
	a.inst.Batch(func() {
		a.play.halt()
		if n > 0 {
			a.inst.Step(int(n))
		} else {
			a.inst.SeekAsync(s.T()+n, nil, js.Undefined(), nil)
		}
	})
}

// seek pauses and moves to second t, in slices when it is far (the
// progress shows under the scrubber, with Cancel); the page draws once
// when it is there.
func (a *app) seek(t int64) {
	if a.inst.Sim == nil {
		return
	}
	a.inst.Batch(func() {
		a.play.halt()
		a.inst.SeekAsync(t, nil, js.Undefined(), nil)
	})
}

// newSeeking builds the progress of a seek in slices: a status line, a
// bar and Cancel, hidden while there is none.
func (t *timelinePart) newSeeking(a *app) *node {
	d := a.d
	t.seeking = d.el("div", "cv-seeking")
	t.seeking.setAttr("role", "status")
	t.seekText = d.el("span", "cv-seek-text")
	t.seekBar = d.el("progress", "cv-seek-bar")
	t.seekBar.setAttr("aria-label", "Seek progress")
	t.seekCancel = button(d, "cv-btn", "Cancel", "Stop the seek here")
	t.seeking.add(t.seekText, t.seekBar, t.seekCancel)
	t.seeking.setHidden(true)
	a.ls.on(t.seekCancel, "click", func(dom.Event) { a.inst.CancelSeek() })
	return t.seeking
}

// drawSeeking shows the seek under way (view.SeekingOf), or hides it.
func (t *timelinePart) drawSeeking(a *app) {
	p, ok := a.inst.Seeking()
	t.seeking.setHidden(!ok)
	if !ok {
		return
	}
	v := view.SeekingOf(p.From, p.T, p.Target)
	t.seekText.setText(v.Text)
	t.seekBar.setAttr("max", strconv.FormatInt(max(v.Max, 1), 10))
	t.seekBar.setAttr("value", strconv.FormatInt(v.Value, 10))
}
