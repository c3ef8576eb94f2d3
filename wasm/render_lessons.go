//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"converge/core/lesson"
	"converge/core/view"
	"converge/scenarios"
)

// The learning path on the page (core/lesson; docs/page.md "Lessons"): the
// picker lists the library by lesson, numbered, and the Lessons card in
// the side column shows the lesson of the scenario open, its scenarios
// with those finished ticked, and Next. A built-in scenario played to its
// end is finished; the progress stays in the browser (localStorage).

// progressKey is the localStorage key of the reader's progress.
const progressKey = "converge.lessons.v1"

// lessonPath is the learning path, read once; nil if it does not parse
// (scenarios' tests make sure it does).
var lessonPath = func() *lesson.Path {
	p, err := lesson.Parse(scenarios.Lessons)
	if err != nil {
		return nil
	}
	return p
}()

// fillPicker lists the library in the picker: one group per lesson, each
// scenario numbered ("1.2 The basic loop").
func (a *app) fillPicker(in *introPart) {
	list := a.inst.Scenarios()
	names := make([]string, len(list))
	titles := map[string][2]string{}
	for i, e := range list {
		names[i] = e.Name
		titles[e.Name] = [2]string{e.Title, e.Description}
		in.library = append(in.library, entry{name: e.Name, title: e.Title, description: e.Description})
	}
	var groups []lesson.Group
	if lessonPath != nil {
		groups = lessonPath.Groups(names)
	} else {
		groups = []lesson.Group{{Names: names, Numbers: make([]string, len(names))}}
	}
	for _, g := range groups {
		parent := in.picker
		if g.Number > 0 {
			og := a.d.el("optgroup", "")
			og.setAttr("label", strconv.Itoa(g.Number)+". "+g.Title)
			in.picker.add(og)
			parent = og
		} else if len(groups) > 1 {
			og := a.d.el("optgroup", "")
			og.setAttr("label", "More")
			in.picker.add(og)
			parent = og
		}
		for i, name := range g.Names {
			label := titles[name][0]
			if g.Numbers[i] != "" {
				label = g.Numbers[i] + " " + label
			}
			o := a.d.el("option", "", label)
			o.setAttr("value", name)
			o.setAttr("title", titles[name][1])
			parent.add(o)
		}
	}
}

// lessonsPart is the Lessons card.
type lessonsPart struct {
	el, head, summary, list, next, count *node
	// drawn is what the card shows: "NAME/DONE-COUNT", to redraw on change.
	drawn    string
	progress lesson.Progress
	loaded   bool
}

func newLessons(a *app) *lessonsPart {
	d := a.d
	l := &lessonsPart{el: d.el("section", "cv-card cv-lessons"), head: d.el("h2", "cv-lessons-head"),
		summary: d.el("p", "cv-muted cv-small"), list: d.el("ol", "cv-lesson-list"), count: d.el("p", "cv-muted cv-small cv-lessons-count"),
		next: button(d, "cv-btn cv-lesson-next", "Next", "")}
	l.el.setAttr("aria-label", "Lessons")
	l.el.add(l.head, l.summary, l.list, l.next, l.count)
	l.el.setHidden(true)
	open := func(name string) {
		if name != "" && a.inst.LoadBuiltin(name) == nil {
			a.syncAddress()
		}
	}
	a.ls.on(l.list, "click", func(ev dom.Event) { open(targetAttr(ev, "data-name")) })
	a.ls.on(l.next, "click", func(dom.Event) { open(l.next.Value.Get("dataset").Get("name").String()) })
	return l
}

// render shows the lesson of the built-in scenario open (none for another
// scenario) and marks it finished once played to its end.
func (l *lessonsPart) render(a *app) {
	if lessonPath == nil || a.inst.Sim == nil {
		l.el.setHidden(true)
		return
	}
	if !l.loaded {
		l.loaded = true
		l.progress = lesson.ParseProgress(storageGet(progressKey))
	}
	s := a.inst.Sim
	name := view.PickerOf(a.inst.Origin(), s.Scenario()).Value
	step, ok := lessonPath.Find(name)
	if !ok {
		l.el.setHidden(true)
		return
	}
	if s.T() >= int64(s.Duration().Seconds()) && !l.progress.Has(name) {
		l.progress = lessonPath.Mark(l.progress, name)
		storageSet(progressKey, l.progress.String())
	}
	done, total := lessonPath.Count(l.progress, step.Lesson)
	key := name + "/" + strconv.Itoa(len(l.progress.Done))
	l.el.setHidden(false)
	if key == l.drawn {
		return
	}
	l.drawn = key
	les := lessonPath.Lessons[step.Lesson-1]
	l.head.setText("Lesson " + strconv.Itoa(step.Lesson) + " of " + strconv.Itoa(len(lessonPath.Lessons)) + ": " + les.Title)
	l.summary.setText(les.Summary)
	l.list.SetTextContent("")
	titles := map[string]string{}
	for _, e := range a.intro.library {
		titles[e.name] = e.title
	}
	for i, n := range les.Scenarios {
		li := a.d.el("li", "cv-lesson-item")
		b := button(a.d, "cv-link cv-lesson-link", strconv.Itoa(step.Lesson)+"."+strconv.Itoa(i+1)+" "+orName(titles[n], n), "")
		b.setAttr("data-name", n)
		mark := a.d.el("span", "cv-lesson-mark", "○")
		mark.setAttr("aria-hidden", "true")
		if l.progress.Has(n) {
			mark.setText("✓")
			li.setClass("cv-lesson-item cv-lesson-done")
			b.setAttr("aria-label", b.Value.Get("textContent").String()+" (done)")
		}
		if n == name {
			li.setClass(li.Value.Get("className").String() + " cv-lesson-current")
			b.setAttr("aria-current", "step")
		}
		li.add(mark, b)
		l.list.add(li)
	}
	next := lessonPath.Next(name)
	l.next.setHidden(next == "")
	if next != "" {
		ns, _ := lessonPath.Find(next)
		l.next.setText("Next: " + ns.Number() + " " + orName(titles[next], next) + " ▶")
		l.next.setAttr("data-name", next)
	}
	l.count.setText(strconv.Itoa(done) + " of " + strconv.Itoa(total) + " in this lesson played to the end; " +
		strconv.Itoa(len(l.progress.Done)) + " of " + strconv.Itoa(len(lessonPath.Steps())) + " in all.")
}

func orName(title, name string) string {
	if title == "" {
		return name
	}
	return title
}

// storageGet reads localStorage, "" when it cannot (storage disabled, a
// sandboxed frame).
func storageGet(key string) (v string) {
	defer func() {
		if recover() != nil {
			v = ""
		}
	}()
	ls := js.Global().Get("localStorage")
	if !ls.Truthy() {
		return ""
	}
	got := ls.Call("getItem", key)
	if got.Type() != js.TypeString {
		return ""
	}
	return got.String()
}

// storageSet writes localStorage, silently doing nothing when it cannot:
// the progress is a convenience.
func storageSet(key, value string) {
	defer func() { _ = recover() }()
	if ls := js.Global().Get("localStorage"); ls.Truthy() {
		ls.Call("setItem", key, value)
	}
}
