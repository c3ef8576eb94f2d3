//go:build js && wasm

package main

import (
	"honnef.co/go/js/dom/v2"

	"converge/core/sim"
	"converge/core/view"
)

// whyPart is the first thing on the page: per Deployment, one sentence
// saying what the rollout waits for and which bound blocks it.
type whyPart struct {
	el, title, empty *node
	lines            *keyed[whyLine]
	// rejected lists the refusals of this second (view.Rejections): the
	// API server's or kubectl's text, where the eye is.
	rejected *keyed[rejectedLine]
	// drain says what a waiting drain waits on, with its budget's numbers
	// (view.Screen); drift what happened within a second (view.Drift).
	drain, drainText, budget *node
	drift                    *keyed[driftLine]
	writers                  *writersPart
}

type driftLine struct{ el, badge, text *node }

type whyLine struct {
	el, badge, name, headline, budget, pods, acted, undone, detail, times *node
}

type rejectedLine struct{ el, badge, what, msg *node }

var kindLabels = map[string]string{
	"acting": "Acting", "progressing": "Progressing", "waiting": "Waiting", "paused": "Paused", "stuck": "Stuck",
	"refused": "Refused", "in-sync": "In sync", "error": "Failing",
}

func newWhy(a *app) *whyPart {
	d := a.d
	w := &whyPart{el: d.el("section", "cv-card cv-why")}
	w.el.setAttr("aria-labelledby", "cv-why-title-"+itoa(a.inst.ID))
	w.title = d.el("h2", "cv-why-title", "Why is it waiting?")
	w.title.SetID("cv-why-title-" + itoa(a.inst.ID))
	w.empty = d.el("p", "cv-muted")
	list := d.el("div", "cv-why-lines")
	list.setAttr("aria-live", "polite")
	rej := d.el("div", "cv-why-rejected")
	rej.setAttr("aria-live", "polite")
	w.writers = newWriters(a)
	w.drain = d.el("div", "cv-why-line cv-kind-waiting cv-drain")
	w.drainText, w.budget = d.el("p", "cv-screen-text"), d.el("p", "cv-budget-line cv-mono")
	w.drain.add(d.el("div", "cv-why-head").add(d.el("span", "cv-badge cv-badge-waiting", "Drain waits")), w.drainText, w.budget)
	w.drain.setAttr("aria-live", "polite")
	w.drain.setHidden(true)
	driftEl := d.el("div", "cv-why-drift")
	driftEl.setAttr("aria-live", "polite")
	w.drift = newKeyed(driftEl, func(string) *driftLine {
		l := &driftLine{el: d.el("div", "cv-why-line cv-kind-drift"), badge: d.el("span", "cv-badge cv-badge-drift"), text: d.el("p", "cv-screen-text")}
		l.el.add(d.el("div", "cv-why-head").add(l.badge), l.text)
		return l
	}, func(l *driftLine) *node { return l.el })
	w.el.add(w.title, rej, w.drain, driftEl, w.empty, list, w.writers.el)
	w.rejected = newKeyed(rej, func(string) *rejectedLine {
		l := &rejectedLine{el: d.el("div", "cv-why-line cv-kind-rejected"), badge: d.el("span", "cv-badge cv-badge-rejected", "Rejected"),
			what: d.el("span", "cv-rejected-what cv-mono"), msg: d.el("pre", "cv-rejected-msg")}
		l.el.add(d.el("div", "cv-why-head").add(l.badge, l.what), l.msg)
		return l
	}, func(l *rejectedLine) *node { return l.el })
	w.lines = newKeyed(list, func(key string) *whyLine {
		l := &whyLine{el: d.el("div", "cv-why-line"), badge: d.el("span", "cv-badge"), name: d.el("button", "cv-link cv-why-name"),
			headline: d.el("p", "cv-headline"), budget: d.el("p", "cv-why-budget"), pods: d.el("p", "cv-why-pods"), acted: d.el("p", "cv-why-acted"),
			undone: d.el("p", "cv-why-undone"), detail: d.el("p", "cv-why-detail cv-mono"), times: d.el("p", "cv-times cv-mono")}
		l.name.setAttr("type", "button")
		l.name.setText("deployment/" + key)
		l.name.setAttr("title", "Show deployment/"+key+" in the rollout, charts and revisions")
		a.ls.on(l.name, "click", func(dom.Event) {
			a.focus = key
			a.changed()
			a.rollout.reveal()
		})
		l.el.add(d.el("div", "cv-why-head").add(l.badge, l.name), l.headline, l.budget, l.pods, l.acted, l.undone, l.detail, l.times)
		return l
	}, func(l *whyLine) *node { return l.el })
	return w
}

func (w *whyPart) render(a *app) {
	screen := view.OnScreen(a.inst.Sim, a.console.Refusals())
	lines := view.WhyWith(a.inst.Sim, screen)
	rej := screen.Refusals
	w.drain.setHidden(screen.Waiting == "")
	w.drainText.setText(screen.Waiting)
	w.budget.setHidden(screen.Budget == nil)
	if screen.Budget != nil {
		w.budget.setText(screen.Budget.Text)
		w.budget.setClass(map[bool]string{true: "cv-budget-line cv-mono cv-refusing", false: "cv-budget-line cv-mono"}[screen.Budget.Refusing])
	}
	dkeys := make([]string, len(screen.Drift))
	for i, l := range screen.Drift {
		dkeys[i] = l.Key
	}
	w.drift.sync(dkeys, func(i int, l *driftLine) {
		l.badge.setText("Within one second · " + screen.Drift[i].Age)
		l.text.setText(screen.Drift[i].Text)
	})
	rkeys := make([]string, len(rej))
	for i, r := range rej {
		rkeys[i] = r.Key
	}
	w.rejected.sync(rkeys, func(i int, l *rejectedLine) {
		r := rej[i]
		what := "at " + r.At + " (" + r.Age + "): " + r.Action
		if r.Expected {
			what += " (the scenario expects this refusal)"
		}
		l.what.setText(what)
		l.msg.setText(r.Message)
	})
	w.empty.setHidden(len(lines) > 0 || len(rej) > 0 || screen.Waiting != "")
	if len(lines) == 0 && len(rej) == 0 {
		w.empty.setText(view.NoDeployment(a.inst.Sim, a.opts.Embed))
	}
	keys := make([]string, len(lines))
	for i, l := range lines {
		keys[i] = l.Key
	}
	focus := focusName(a.inst.Sim, a.focus)
	w.lines.sync(keys, func(i int, l *whyLine) {
		v := lines[i]
		cls := "cv-why-line cv-kind-" + v.Kind
		if v.Key == focus && len(lines) > 1 {
			cls += " cv-focus"
		}
		l.el.setClass(cls)
		l.badge.setClass("cv-badge cv-badge-" + v.Kind)
		l.badge.setText(kindLabels[v.Kind])
		l.headline.setText(v.Headline)
		l.budget.setText(v.Budget)
		l.budget.setHidden(v.Budget == "")
		l.pods.setText(v.Pods)
		l.pods.setClass(map[bool]string{true: "cv-why-pods cv-stuck", false: "cv-why-pods"}[v.Stuck])
		l.pods.setHidden(v.Pods == "")
		l.acted.setText(v.Acted)
		l.acted.setHidden(v.Acted == "")
		l.undone.setText(v.Undone)
		l.undone.setHidden(v.Undone == "")
		l.detail.setText(v.Detail)
		l.detail.setHidden(v.Detail == "")
		// Where the time of its latest rollout went, with the progress
		// deadline's countdown.
		times := view.RolloutTimes(a.inst.Sim, v.Key)
		l.times.setHidden(len(times) == 0)
		if len(times) > 0 {
			l.times.setText(times[0].Text)
			l.times.setAttr("data-deadline", times[0].DeadlineKind)
		}
	})
	w.writers.render(a)
}

// focusName is the name of the Deployment in focus, or "".
func focusName(s *sim.Sim, name string) string {
	if s == nil {
		return name
	}
	if d := view.Focus(s, name); d != nil {
		return d.Name
	}
	return ""
}
