//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"
	"unicode"

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
	// stop is the key of the marker that has the markers' tab stop.
	stop string
	// seeking shows a seek in slices: its text, its bar and Cancel.
	seeking, seekText, seekBar, seekCancel *node
}

func newTimeline(a *app) *timelinePart {
	d := a.d
	t := &timelinePart{el: d.el("section", "cv-timeline")}
	t.el.setAttr("aria-label", "Time")
	// Each button's accessible name holds its visible text (the arrows
	// aside), so that a voice user can say what they see; the key is in
	// aria-keyshortcuts and the hover text.
	t.playBtn = button(d, "cv-btn cv-play", "Play", "")
	t.playBtn.setAttr("title", "Play (space)")
	t.playBtn.setAttr("aria-keyshortcuts", "Space")
	t.backBtn = button(d, "cv-btn cv-step-back", "◀ 1s", "Step back 1s")
	t.backBtn.setAttr("title", "Step back one second (←)")
	t.backBtn.setAttr("aria-keyshortcuts", "ArrowLeft")
	t.stepBtn = button(d, "cv-btn cv-step", "1s ▶", "Step forward 1s")
	t.stepBtn.setAttr("title", "Step one second (→)")
	t.stepBtn.setAttr("aria-keyshortcuts", "ArrowRight")
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
	// The markers are buttons in one tab stop (a toolbar): Tab reaches the
	// current one, the arrows, Home and End move between them, Enter or a
	// click seeks there.
	t.marks = d.el("div", "cv-marks")
	t.marks.setAttr("role", "toolbar")
	t.marks.setAttr("aria-label", "Steps and warnings on the timeline")
	t.bandsEl = d.el("div", "cv-time-bands")
	t.bandsEl.setAttr("aria-hidden", "true")
	t.bands = newKeyed(t.bandsEl, func(string) *node { return d.el("span", "cv-time-band") }, func(n *node) *node { return n })
	t.deadline = d.el("span", "cv-deadline-mark")
	t.deadline.setHidden(true)
	t.bandsEl.add(t.deadline)
	track := d.el("div", "cv-track").add(t.marks, t.scrub, t.bandsEl)
	t.markers = newKeyed(t.marks, func(string) *node {
		b := d.el("button", "cv-mark")
		b.setAttr("type", "button")
		return b
	}, func(n *node) *node { return n })
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
			t.stop = targetAttr(ev, "data-key")
			a.seek(v)
		}
	})
	a.ls.on(t.marks, "keydown", func(ev dom.Event) { t.markerKey(ev) })
	return t
}

// markerKey moves the focus between the markers: ←/→ to the previous or
// next, Home and End to the first and the last. The keys stop here, so
// that the page's ← and → do not also step the time.
func (t *timelinePart) markerKey(ev dom.Event) {
	keys := t.markers.order
	if len(keys) == 0 {
		return
	}
	i := 0
	for j, k := range keys {
		if k == t.stop {
			i = j
		}
	}
	switch ev.Underlying().Get("key").String() {
	case "ArrowRight", "ArrowDown":
		i = min(i+1, len(keys)-1)
	case "ArrowLeft", "ArrowUp":
		i = max(i-1, 0)
	case "Home":
		i = 0
	case "End":
		i = len(keys) - 1
	default:
		return
	}
	ev.PreventDefault()
	ev.StopPropagation()
	t.stop = keys[i]
	t.drawStops()
	t.markers.get(keys[i]).Focus()
}

// drawStops gives the marker t.stop (the first when it is gone) the one
// tab stop of the markers.
func (t *timelinePart) drawStops() {
	stop := t.stop
	if t.markers.get(stop) == nil && len(t.markers.order) > 0 {
		stop = t.markers.order[0]
	}
	for _, k := range t.markers.order {
		if k == stop {
			t.markers.get(k).setAttr("tabindex", "0")
		} else {
			t.markers.get(k).setAttr("tabindex", "-1")
		}
	}
}

// button makes a button with a label and a longer text, aria: its hover
// text, and its accessible name too when it holds the label ("Open web"
// for "Open"), since a name must contain the visible text (WCAG 2.5.3, so
// that a voice user can say what they see); otherwise the name is the
// label and aria its description ("Share": "Copy a link ...").
func button(d doc, class, label, aria string) *node {
	b := d.el("button", class, label)
	b.setAttr("type", "button")
	if aria != "" {
		b.setAttr("title", aria)
		if nameHolds(aria, label) {
			b.setAttr("aria-label", aria)
		}
	}
	return b
}

// nameHolds reports whether the accessible name holds the visible label,
// compared as axe-core's label-content-name-mismatch does: case aside,
// and only letters, digits and spaces ("◀ 1s" is "1s").
func nameHolds(name, label string) bool {
	norm := func(s string) string {
		var sb strings.Builder
		for _, r := range strings.ToLower(s) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' {
				sb.WriteRune(r)
			}
		}
		return strings.Join(strings.Fields(sb.String()), " ")
	}
	return strings.Contains(norm(name), norm(label))
}

func (t *timelinePart) render(a *app) {
	t.drawSeeking(a)
	tl := view.TimelineOf(a.inst.Sim)
	tl.Markers = a.withNoteMarks(tl.Markers)
	if a.play.playing {
		t.playBtn.setText("Pause")
		t.playBtn.setAttr("title", "Pause (space)")
	} else {
		t.playBtn.setText("Play")
		t.playBtn.setAttr("title", "Play (space)")
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
		n.setAttr("aria-label", m.Label)
		n.setAttr("data-t", strconv.FormatInt(m.T, 10))
		n.setAttr("data-key", m.Key)
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
	t.drawStops()
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
