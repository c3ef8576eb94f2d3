//go:build js && wasm

package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// keys installs the keyboard shortcuts: space plays or pauses, the arrows
// step (shift: ten seconds), "/" goes to the console, Escape leaves the
// field being typed in (the console, the editor, a filter, a select), so
// that the shortcuts work again. On the page they work anywhere except
// while typing; in an embed, while focus is inside it.
func (a *app) keys() {
	var target eventTarget = a.el
	if !a.opts.Embed {
		target = dom.GetWindow().Document()
	}
	a.ls.on(target, "keydown", func(ev dom.Event) {
		e := ev.Underlying()
		if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
			return
		}
		key := e.Get("key").String()
		if key == "Escape" && typing(e, key) {
			// After the field's own use of Escape (closing the console's
			// hint, cancelling a rename), which does not stop it.
			e.Call("composedPath").Index(0).Call("blur")
			return
		}
		if e.Get("defaultPrevented").Bool() || typing(e, key) {
			return
		}
		step := int64(1)
		if e.Get("shiftKey").Bool() {
			step = 10
		}
		switch e.Get("key").String() {
		case " ", "Spacebar":
			a.play.toggle()
		case "ArrowRight":
			a.stepBy(step)
		case "ArrowLeft":
			a.stepBy(-step)
		case "/":
			if a.tabs == nil {
				return
			}
			a.showTab("console")
			a.tabs.panels["console"].(*consolePanel).input.Focus()
		default:
			return
		}
		ev.PreventDefault()
	})
}

// typing reports whether a key belongs to the control that has focus: any
// key in a text field or a select (the scrubber's arrows move it), space
// on a button (it presses the button).
func typing(e js.Value, key string) bool {
	path := e.Call("composedPath")
	t := path.Index(0)
	if t.IsUndefined() || t.IsNull() || t.Get("tagName").IsUndefined() {
		return false
	}
	switch t.Get("tagName").String() {
	case "INPUT", "TEXTAREA", "SELECT":
		return true
	case "BUTTON":
		return key == " " || key == "Spacebar" || key == "Enter"
	}
	return t.Get("isContentEditable").Truthy()
}
