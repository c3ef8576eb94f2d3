//go:build js && wasm

package main

import (
	"honnef.co/go/js/dom/v2"

	"converge/core/sim"
	"converge/core/view"
)

// consolePanel draws the kubectl console (view.Console, which decides):
// a command line with history (up/down) and tab completion, and the
// commands run so far with kubectl's output. A command that changes the
// cluster becomes a step of the scenario one second from now
// (Instance.Run), so the timeline and a share link replay it.
type consolePanel struct {
	el, log, input, hint, empty *node
	suggestions                 *keyed[node]
	items                       *keyed[consoleItem]
	// scrolledTo is the key of the newest entry when the log last
	// scrolled to its end.
	scrolledTo string
}

type consoleItem struct{ el, cmd, out, err *node }

func newConsole(a *app) *consolePanel {
	d := a.d
	p := &consolePanel{el: d.el("div", "cv-panel cv-console")}
	intro := d.el("p", "cv-muted cv-small", "Run kubectl against the simulated cluster. A command that changes something runs one second "+
		"from now and becomes a step (the Steps tab lists it, with Remove); one that is refused changes nothing. "+
		"The scenario's own steps show here as they run. Tab completes, ↑ ↓ walk the history, / comes here from anywhere.")
	p.log = d.el("div", "cv-log")
	p.log.setAttr("role", "log")
	p.log.setAttr("aria-live", "polite")
	p.log.setAttr("aria-label", "Console output")
	// The log scrolls: a tab stop lets a keyboard scroll it (axe's
	// scrollable-region-focusable).
	p.log.setAttr("tabindex", "0")
	p.input = d.el("input", "cv-input cv-mono cv-cmd")
	p.input.setAttr("type", "text")
	p.input.setAttr("spellcheck", "false")
	p.input.setAttr("autocomplete", "off")
	p.input.setAttr("autocapitalize", "off")
	p.input.setAttr("aria-label", "kubectl command")
	p.input.setAttr("placeholder", "get pods -o wide")
	p.hint = d.el("p", "cv-hint cv-mono")
	p.hint.setHidden(true)
	p.empty = d.el("p", "cv-log-empty", "Nothing run yet. Type a command below, or try one of these.")
	suggest := d.el("div", "cv-suggest").add(d.el("span", "cv-muted", "Try:"))
	p.suggestions = newKeyed(suggest, func(c string) *node {
		b := button(d, "cv-btn", c, "Put kubectl "+c+" on the command line")
		b.setAttr("data-command", c)
		return b
	}, func(n *node) *node { return n })
	prompt := d.el("label", "cv-prompt").add(d.el("span", "cv-mono", "$ kubectl"), p.input)
	p.el.add(intro, suggest, p.log, prompt, p.hint)
	a.ls.on(suggest, "click", func(ev dom.Event) {
		if c := targetAttr(ev, "data-command"); c != "" {
			p.input.setValue(c)
			p.input.Focus()
		}
	})
	p.log.add(p.empty)
	p.items = newKeyed(p.log, func(string) *consoleItem {
		it := &consoleItem{el: d.el("div", "cv-entry"), cmd: d.el("pre", "cv-echo"), out: d.el("pre", "cv-out"), err: d.el("pre", "cv-err")}
		it.el.add(it.cmd, it.out, it.err)
		return it
	}, func(it *consoleItem) *node { return it.el })
	a.ls.on(p.input, "keydown", func(ev dom.Event) {
		switch ev.Underlying().Get("key").String() {
		case "Enter":
			ev.PreventDefault()
			p.submit(a)
		case "ArrowUp":
			ev.PreventDefault()
			p.browse(a, -1)
		case "ArrowDown":
			ev.PreventDefault()
			p.browse(a, 1)
		case "Tab":
			ev.PreventDefault()
			p.complete(a)
		case "Escape":
			p.hint.setHidden(true)
		}
	})
	return p
}

func (p *consolePanel) root() *node { return p.el }

func (p *consolePanel) render(a *app) {
	a.console.Follow(a.inst.Sim)
	entries := a.console.Entries()
	p.empty.setHidden(len(entries) > 0)
	p.suggestions.sync(view.ConsoleSuggestions(a.inst.Sim, a.focus), func(int, *node) {})
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = e.Key
	}
	p.items.sync(keys, func(i int, it *consoleItem) {
		e := entries[i]
		it.cmd.setText(e.Echo)
		it.out.setText(e.Output)
		it.out.setHidden(e.Output == "")
		it.err.setText(e.Error)
		it.err.setHidden(e.Error == "")
		cls := "cv-entry"
		switch {
		case e.Waiting:
			cls += " cv-waiting"
		case e.Refused:
			cls += " cv-refused"
		}
		if e.Scripted {
			cls += " cv-scripted"
		}
		it.el.setClass(cls)
	})
	// A new entry shows: the log scrolls to its end.
	if n := len(keys); n > 0 && keys[n-1] != p.scrolledTo {
		p.scrolledTo = keys[n-1]
		p.log.Value.Set("scrollTop", p.log.Value.Get("scrollHeight"))
	}
}

// submit runs the command line (Enter).
func (p *consolePanel) submit(a *app) {
	cmd, run := a.console.Submit(p.input.value())
	p.input.setValue("")
	p.hint.setHidden(true)
	if !run {
		// A blank line, or clear.
		profiling().part("tab", func() { p.render(a) })
		return
	}
	a.command(cmd, view.FromConsole, nil)
}

// browse walks the history: dir −1 older, +1 newer.
func (p *consolePanel) browse(a *app, dir int) {
	if line, ok := a.console.Browse(dir, p.input.value()); ok {
		p.input.setValue(line)
	}
}

// complete completes the last word (Tab).
func (p *consolePanel) complete(a *app) {
	c := view.CompleteLine(p.input.value(), a.inst.Complete)
	p.input.setValue(c.Line)
	p.hint.setText(c.Hint)
	p.hint.setHidden(c.Hint == "")
}

// command runs a kubectl command line, typed in the console or from a
// button elsewhere (the rollback button, the selectors' apply), as one
// action drawn once: it pauses, runs the command, logs it in the console,
// rewrites the address when the command joined the scenario, shows the tab
// the console says, and calls then (if not nil) with the result, all before
// the one render.
func (a *app) command(cmd string, from view.CommandSource, then func(r sim.StepResult)) {
	a.inst.Batch(func() {
		a.play.halt()
		r := a.inst.Run(cmd)
		after := a.console.Record(cmd, r, from)
		if after.Share {
			a.shareURL()
		}
		if after.Tab != "" {
			a.selectTab(after.Tab)
		}
		if then != nil {
			then(r)
		}
	})
}
