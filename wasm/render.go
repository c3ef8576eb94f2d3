//go:build js && wasm

package main

import (
	"honnef.co/go/js/dom/v2"

	"converge/core/sim"
	"converge/core/view"
)

// app draws one instance: the whole page, or the compact embed view of
// <converge-sim> and ?embed=1. It builds its elements once and then, on
// every Render, applies the view model (core/view) to them part by part;
// only the parts on screen are computed.
type app struct {
	inst *Instance
	opts MountOptions
	d    doc
	// mount is the node the app draws into; el the app's own container.
	mount dom.Node
	el    *node
	ls    listeners
	// sim is the simulation last drawn: a new one (a load) resets the
	// parts that keep state about the old one.
	sim *sim.Sim
	// focus is the Deployment the rollout, charts, revisions and
	// selectors are about ("" for the first by name).
	focus string
	// console is the kubectl console's log and history: the commands of
	// the console and the page's buttons (app.command).
	console view.Console

	alert      *node
	loading    *node
	embedTitle *node
	intro      *introPart
	timeline   *timelinePart
	caption    *captionPart
	lessons    *lessonsPart
	why        *whyPart
	rollout    *rolloutPart
	// compare is the Compare view, built the first time the instance
	// compares variants, inside compareSlot.
	compare     *comparePart
	compareSlot *node
	loop        *loopPart
	tabs        *tabsPart
	play        *player
	// rescue keeps the page's rescue copy (rescue.go).
	rescue rescuer
	// shareBar is Share, Download and the note under them; keeper keeps
	// the editor's draft. Both nil in the embed view.
	shareBar *sharePart
	keeper   *draftKeeper
	// embed is the Embed button and its snippets; nil in the embed view.
	embed *embedPart
}

// panel is one tab of the page.
type panel interface {
	root() *node
	render(a *app)
}

// newApp is the page's RendererFunc (main hands it to newPage).
func newApp(inst *Instance, mount dom.Node, opts MountOptions) Renderer {
	a := &app{inst: inst, opts: opts, d: newDoc(), mount: mount}
	a.build()
	return a
}

var _ Renderer = (*app)(nil)

// build makes the page's skeleton. The embed view has the timeline, the
// why-line, the rollout and the loop; the page adds the scenario picker
// and intro, and the tabs below.
func (a *app) build() {
	d := a.d
	a.el = d.el("div", "cv-app")
	a.el.setAttr("data-instance", itoa(a.inst.ID))
	// Replace what the mount point showed before the simulator started.
	a.mount.SetTextContent("")
	a.alert = d.el("p", "cv-alert")
	a.alert.setAttr("role", "alert")
	a.alert.setHidden(true)
	a.loading = d.el("p", "cv-status", "Loading the scenario…")
	a.play = newPlayer(a)
	if a.opts.Speed > 0 {
		a.play.speed = nearestSpeed(a.opts.Speed)
	}
	a.timeline = newTimeline(a)
	a.caption = newCaption(a)
	a.why = newWhy(a)
	a.rollout = newRollout(a)
	a.compareSlot = d.el("div", "cv-compare-slot")
	a.loop = newLoop(a)
	if a.opts.Embed {
		a.embedTitle = d.el("p", "cv-embed-title")
		a.el.add(a.embedTitle, a.alert, a.loading, a.timeline.el, a.compareSlot, a.why.el, a.rollout.el, a.loop.el)
	} else {
		a.intro = newIntro(a)
		a.shareBar = newShare(a)
		a.keeper = newDraftKeeper(a)
		a.embed = newEmbed(a)
		a.shareBar.share.Value.Call("after", a.embed.btn.Value)
		a.intro.bar.add(a.shareBar.el)
		a.tabs = newTabs(a)
		main := d.el("div", "cv-main").add(a.compareSlot, a.why.el, a.rollout.el, a.tabs.el)
		a.lessons = newLessons(a)
		side := d.el("aside", "cv-side").add(a.intro.el, a.lessons.el, a.loop.el, a.intro.checksEl)
		side.setAttr("aria-label", "Scenario and controllers")
		a.el.add(a.offerRescue(), a.alert, a.intro.bar, a.shareBar.note, a.embed.panel, a.keeper.offer, a.timeline.el, a.loading, d.el("div", "cv-grid").add(main, side))
	}
	if a.opts.Embed {
		a.el.setClass("cv-app cv-embed")
		a.mount.AppendChild(a.styleLink())
		switch a.opts.Controls {
		case "compact":
			a.timeline.backBtn.setHidden(true)
			a.timeline.stepBtn.setHidden(true)
			a.timeline.speed.setHidden(true)
			a.timeline.el.setClass("cv-timeline cv-timeline-compact")
		case "none":
			a.timeline.el.setHidden(true)
		}
	}
	a.placeCaption()
	a.mount.AppendChild(a.el.BasicHTMLElement)
	a.keys()
	if a.keeper != nil {
		a.async(a.keeper.offerDraft)
	}
}

// styleLink is the page's stylesheet for a shadow root, found next to
// converge.js (whose script element a docs page has), or at the
// document's base.
func (a *app) styleLink() *dom.BasicHTMLElement {
	href := "style.css"
	scripts := a.d.v.Call("querySelectorAll", `script[src$="converge.js"]`)
	if scripts.Length() > 0 {
		href = scripts.Index(0).Get("src").String()
		href = href[:len(href)-len("converge.js")] + "style.css"
	}
	link := a.d.el("link", "")
	link.setAttr("rel", "stylesheet")
	link.setAttr("href", href)
	return link.BasicHTMLElement
}

// Render applies the instance's current state to the page.
func (a *app) Render(inst *Instance) {
	a.inst = inst
	a.alert.setText(inst.Err)
	a.alert.setHidden(inst.Err == "")
	s := inst.Sim
	a.loading.setHidden(s != nil)
	if s == nil {
		return
	}
	if s != a.sim {
		a.sim = s
		a.newSim()
	}
	prof := profiling()
	prof.part("render", func() { a.renderParts(prof) })
	a.keepRescue()
}

// renderParts draws every part on screen.
func (a *app) renderParts(prof profiler) {
	prof.part("timeline", func() { a.timeline.render(a) })
	a.caption.render(a)
	// The Compare view takes the place of the why-lines and the rollout
	// when the instance compares variants (Instance.Compare).
	compared := a.inst.Compare != nil
	if compared && a.compare == nil {
		a.compare = newCompare(a)
		a.compareSlot.add(a.compare.el)
	}
	a.compareSlot.setHidden(!compared)
	a.why.el.setHidden(compared)
	a.rollout.el.setHidden(compared)
	if compared {
		prof.part("compare", func() { a.compare.render(a) })
	} else {
		prof.part("why", func() { a.why.render(a) })
		prof.part("rollout", func() { a.rollout.render(a) })
	}
	a.loop.el.setHidden(compared && a.opts.Embed)
	if !compared || !a.opts.Embed {
		prof.part("loop", func() { a.loop.render(a) })
	}
	if !a.opts.Embed {
		prof.part("intro", func() { a.intro.render(a) })
		a.lessons.render(a)
		prof.part("tab", func() { a.tabs.render(a) })
		a.embed.render(a)
	} else {
		a.embedTitle.setText(view.IntroOf(a.inst.Sim).Title)
	}
}

// Progress draws the progress of a seek in slices alone (between slices,
// the rest of the page waits for the seek to end).
func (a *app) Progress(inst *Instance) {
	a.inst = inst
	a.timeline.drawSeeking(a)
}

var _ progressRenderer = (*app)(nil)

// newSim resets what belongs to the previous simulation.
func (a *app) newSim() {
	if d := focusName(a.sim, a.focus); d != a.focus {
		a.focus = d
	}
	a.play.reset()
	if a.opts.Autoplay {
		a.play.resume()
	}
	if a.tabs != nil {
		a.tabs.newSim(a)
	}
}

// Dispose removes the page and releases every listener and the play loop.
func (a *app) Dispose() {
	a.play.stop()
	a.ls.release()
	a.el.Remove()
}

// changed re-renders after the app itself changed something that is not
// the instance (the tab, the focus, a filter).
func (a *app) changed() { a.Render(a.inst) }
