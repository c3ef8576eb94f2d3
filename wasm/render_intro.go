//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"converge/core/view"
)

// introPart is the scenario picker (a bar above the timeline) and the
// scenario's card: its title, its description and its checks (the expect
// steps), which turn green or red as time passes.
type introPart struct {
	bar, picker, own, el, title, desc, more, checksEl, empty *node
	// expanded shows the whole description.
	expanded bool
	checks   *keyed[checkRow]
	// library is the picker's list, loaded once.
	library []entry
	listed  bool
}

type entry struct{ name, title, description string }

type checkRow struct {
	el, icon, at, text, got *node
}

var checkIcons = map[string]string{"passed": "✓", "failed": "✕", "pending": "○"}

func newIntro(a *app) *introPart {
	d := a.d
	in := &introPart{bar: d.el("div", "cv-bar-top"), el: d.el("section", "cv-card cv-intro")}
	in.picker = d.el("select", "cv-picker")
	in.picker.setAttr("aria-label", "Built-in scenario")
	label := d.el("label", "cv-picker-label").add(d.el("span", "", "Scenario"), in.picker)
	in.bar.add(label)
	in.title = d.el("h2", "cv-intro-title")
	in.desc = d.el("p", "cv-desc cv-clamp")
	in.more = button(d, "cv-link cv-more-btn", "Read more", "")
	in.more.setAttr("aria-expanded", "false")
	in.empty = d.el("p", "cv-muted cv-small", "This scenario has no expect steps.")
	list := d.el("ul", "cv-checks")
	list.setAttr("aria-label", "The scenario's checks")
	in.el.add(in.title, in.desc, in.more)
	in.checksEl = d.el("section", "cv-card cv-checks-card").add(d.el("h2", "", "Checks"),
		d.el("p", "cv-muted cv-small", "The scenario's expect steps, as of now."), in.empty, list)
	in.checksEl.setAttr("aria-label", "Checks")
	a.ls.on(in.more, "click", func(dom.Event) {
		in.expanded = !in.expanded
		in.desc.setClass(map[bool]string{true: "cv-desc", false: "cv-desc cv-clamp"}[in.expanded])
		in.more.setText(map[bool]string{true: "Show less", false: "Read more"}[in.expanded])
		in.more.setAttr("aria-expanded", map[bool]string{true: "true", false: "false"}[in.expanded])
	})
	in.checks = newKeyed(list, func(string) *checkRow {
		c := &checkRow{el: d.el("li", "cv-check"), icon: d.el("span", "cv-check-icon"), at: d.el("button", "cv-link cv-mono"),
			text: d.el("span", "cv-mono"), got: d.el("span", "cv-got cv-muted")}
		c.icon.setAttr("aria-hidden", "true")
		c.at.setAttr("type", "button")
		c.el.add(c.icon, c.at, c.text, c.got)
		return c
	}, func(c *checkRow) *node { return c.el })
	a.ls.on(in.picker, "change", func(dom.Event) {
		name := in.picker.value()
		if name == "" {
			return
		}
		if err := a.inst.LoadBuiltin(name); err == nil {
			a.syncAddress()
		}
	})
	a.ls.on(list, "click", func(ev dom.Event) {
		if v, err := strconv.ParseInt(targetAttr(ev, "data-t"), 10, 64); err == nil {
			a.seek(v)
		}
	})
	return in
}

func (in *introPart) render(a *app) {
	if !in.listed {
		in.listed = true
		a.fillPicker(in) // by lesson, numbered (render_lessons.go)
		in.own = a.d.el("option", "", view.OwnScenario)
		in.own.SetAttribute("value", "") // an option without a value takes its text
		in.picker.add(in.own)
	}
	// The picker names a built-in only while the scenario is exactly it:
	// an edit, a console step, a link or My scenarios make it the user's
	// own.
	pk := view.PickerOf(a.inst.Origin(), a.inst.Sim.Scenario())
	in.picker.setValue(pk.Value)
	in.own.setAttr("title", pk.OwnTitle)
	s := a.inst.Sim
	intro := view.IntroOf(s)
	in.title.setText(intro.Title)
	in.desc.setText(intro.Description)
	in.desc.setHidden(intro.Description == "")
	in.more.setHidden(len(intro.Description) < 220)
	checks := view.Checks(s)
	in.empty.setHidden(len(checks) > 0)
	keys := make([]string, len(checks))
	for i, c := range checks {
		keys[i] = c.Key
	}
	in.checks.sync(keys, func(i int, r *checkRow) {
		c := checks[i]
		r.el.setClass("cv-check cv-check-" + c.State)
		r.icon.setText(checkIcons[c.State])
		r.at.setText(c.At)
		r.at.setAttr("data-t", strconv.FormatInt(c.T, 10))
		r.at.setAttr("aria-label", "Go to "+c.At+" ("+c.State+")")
		r.text.setText(c.Text)
		got := c.Got
		if c.After != "" {
			got += " — " + c.After
		}
		r.got.setText(got)
		r.got.setHidden(c.Got == "" || c.State == "passed")
	})
}

// replaceURL updates the page's address (not for an embed) without a
// navigation, so that a reload or a copied link opens the same thing.
func (a *app) replaceURL(search string) {
	if a.opts.Embed {
		return
	}
	js.Global().Get("history").Call("replaceState", nil, "", search)
}

// shareURL puts the current scenario (with the steps added at run time)
// and second into the address (syncAddress).
func (a *app) shareURL() { a.syncAddress() }
