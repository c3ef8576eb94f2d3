//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"honnef.co/go/js/dom/v2"

	"converge/core/api"
	"converge/core/view"
)

// consolePanel is the kubectl console: a command line with history
// (up/down) and tab completion (kubectl.Complete), and the commands run so
// far with kubectl's output. A command that changes the cluster becomes a
// step of the scenario one second from now (Instance.Run), so the timeline
// and a share link replay it.
type consolePanel struct {
	el, log, input, hint, empty *node
	suggestions                 *keyed[node]
	entries                     []consoleEntry
	items                       *keyed[consoleItem]
	history                     []string
	// pos is the history position while browsing with the arrows
	// (len(history) when not browsing); draft the line typed before.
	pos   int
	draft string
}

type consoleEntry struct {
	key, cmd, at, out, err string
	ok, step               bool
}

type consoleItem struct{ el, cmd, out, err *node }

// suggestionsFor are the commands offered to a new user, about the
// Deployment in focus.
func suggestionsFor(a *app) []string {
	out := []string{"get pods -o wide", "get rs"}
	d := view.Focus(a.inst.Sim, a.focus)
	if d == nil {
		return append(out, "create deployment web --image=nginx:1.27 --replicas=3")
	}
	ref := "deployment/" + d.Name
	n := api.Deref(d.Spec.Replicas, 1)
	return append(out, "rollout status "+ref, "rollout history "+ref, "scale "+ref+" --replicas="+strconv.Itoa(int(n)+2),
		"set env "+ref+" DEMO=1", "rollout undo "+ref, "describe "+ref)
}

// maxConsoleEntries bounds the log.
const maxConsoleEntries = 200

func newConsole(a *app) *consolePanel {
	d := a.d
	p := &consolePanel{el: d.el("div", "cv-panel cv-console")}
	intro := d.el("p", "cv-muted cv-small", "Run kubectl against the simulated cluster: get, describe, scale, set image, rollout undo, "+
		"cordon, drain, delete… A command that changes something runs one second from now and joins the scenario. "+
		"Tab completes, ↑ and ↓ walk the history, / comes here from anywhere.")
	p.log = d.el("div", "cv-log")
	p.log.setAttr("role", "log")
	p.log.setAttr("aria-live", "polite")
	p.log.setAttr("aria-label", "Console output")
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
		if c := ev.Target().GetAttribute("data-command"); c != "" {
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
			p.run(a, p.input.value())
		case "ArrowUp":
			ev.PreventDefault()
			p.browse(-1)
		case "ArrowDown":
			ev.PreventDefault()
			p.browse(1)
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
	p.empty.setHidden(len(p.entries) > 0)
	p.suggestions.sync(suggestionsFor(a), func(int, *node) {})
	keys := make([]string, len(p.entries))
	for i, e := range p.entries {
		keys[i] = e.key
	}
	p.items.sync(keys, func(i int, it *consoleItem) {
		e := p.entries[i]
		echo := "$ kubectl " + e.cmd
		if e.step {
			echo += "    # a step at " + e.at
		}
		it.cmd.setText(echo)
		it.out.setText(e.out)
		it.out.setHidden(e.out == "")
		it.err.setText(e.err)
		it.err.setHidden(e.err == "")
	})
}

// run runs one command line and echoes it with kubectl's output.
func (p *consolePanel) run(a *app, line string) {
	line = strings.TrimSpace(line)
	p.input.setValue("")
	p.hint.setHidden(true)
	if line == "" {
		return
	}
	cmd := strings.TrimSpace(strings.TrimPrefix(line, "kubectl "))
	if cmd == "kubectl" {
		cmd = ""
	}
	if len(p.history) == 0 || p.history[len(p.history)-1] != cmd {
		p.history = append(p.history, cmd)
	}
	p.pos, p.draft = len(p.history), ""
	if cmd == "clear" {
		p.entries = nil
		p.render(a)
		return
	}
	n := len(p.entries)
	key := strconv.Itoa(n)
	if n > 0 {
		last, _ := strconv.Atoi(p.entries[n-1].key)
		key = strconv.Itoa(last + 1)
	}
	e := consoleEntry{key: key, cmd: cmd}
	// The entry goes in before Run renders, so that the echo shows with
	// the state the command produced.
	p.entries = append(p.entries, e)
	if len(p.entries) > maxConsoleEntries {
		p.entries = p.entries[len(p.entries)-maxConsoleEntries:]
	}
	a.play.pause()
	r := a.inst.Run(cmd)
	last := &p.entries[len(p.entries)-1]
	last.out, last.err, last.ok, last.at = r.Output, r.Error, r.OK, r.At
	last.step = r.Index >= 0
	if last.step {
		a.shareURL()
	}
	a.showTab("console")
	p.log.Value.Set("scrollTop", p.log.Value.Get("scrollHeight"))
}

// browse walks the history: dir −1 older, +1 newer.
func (p *consolePanel) browse(dir int) {
	if len(p.history) == 0 {
		return
	}
	if p.pos == len(p.history) {
		p.draft = p.input.value()
	}
	p.pos = min(max(p.pos+dir, 0), len(p.history))
	if p.pos == len(p.history) {
		p.input.setValue(p.draft)
		return
	}
	p.input.setValue(p.history[p.pos])
}

// complete completes the last word: one candidate replaces it, several
// extend it to their common prefix and are listed below.
func (p *consolePanel) complete(a *app) {
	line := p.input.value()
	words := a.inst.Complete("kubectl " + line)
	if len(words) == 0 {
		p.hint.setText("no completion")
		p.hint.setHidden(false)
		return
	}
	start := strings.LastIndexAny(line, " \t") + 1
	current := line[start:]
	if len(words) == 1 {
		p.input.setValue(line[:start] + words[0] + " ")
		p.hint.setHidden(true)
		return
	}
	prefix := words[0]
	for _, w := range words[1:] {
		for !strings.HasPrefix(w, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if len(prefix) > len(current) {
		p.input.setValue(line[:start] + prefix)
	}
	shown := words
	if len(shown) > 30 {
		shown = shown[:30]
	}
	text := strings.Join(shown, "  ")
	if len(words) > len(shown) {
		text += "  … " + strconv.Itoa(len(words)-len(shown)) + " more"
	}
	p.hint.setText(text)
	p.hint.setHidden(false)
}

// echo adds a command run elsewhere (the rollback button, the selectors'
// apply) to the log, as if typed.
func (p *consolePanel) echo(a *app, cmd, out, errText, at string, step bool) {
	key := "0"
	if n := len(p.entries); n > 0 {
		last, _ := strconv.Atoi(p.entries[n-1].key)
		key = strconv.Itoa(last + 1)
	}
	p.entries = append(p.entries, consoleEntry{key: key, cmd: cmd, out: out, err: errText, at: at, ok: errText == "", step: step})
	if len(p.entries) > maxConsoleEntries {
		p.entries = p.entries[len(p.entries)-maxConsoleEntries:]
	}
	if a.tabs != nil && a.tabs.active == "console" {
		p.render(a)
	}
}

// console is the page's console panel.
func (a *app) console() *consolePanel { return a.tabs.panels["console"].(*consolePanel) }
