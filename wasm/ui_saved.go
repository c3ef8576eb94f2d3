//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"converge/core/library"
	"converge/core/view"
)

// savedPanel is the My scenarios tab: the scenario that runs saved under a
// name, the saved ones listed with Open, Rename, Duplicate, Download and
// Delete, and Import of a .yaml file. The list lives in the page's library
// (storage_js.go); each change reads it again, in a goroutine. The texts
// and decisions are core/view's (SavedListOf, SaveButtonOf, ...).
type savedPanel struct {
	el, name, save, importBtn, file, download, problem, notice, empty, list *node
	rows                                                                    *keyed[savedRow]
	// entries are the saved scenarios as last read; loaded once read.
	entries []library.Entry
	loaded  bool
	// renaming and deleting are the rows that ask for a new name or
	// confirm a delete.
	renaming, deleting string
	// named is the scenario the name field was last filled for.
	named any
}

type savedRow struct {
	el, name, meta, rename, actions, confirm *node
	renameInput                              *node
}

func newSaved(a *app) *savedPanel {
	d := a.d
	p := &savedPanel{el: d.el("div", "cv-panel cv-saved")}
	intro := d.el("p", "cv-muted cv-small", "Your own scenarios, kept in this browser. Save keeps the scenario that runs, "+
		"with the steps added from the console; Import adds a .yaml file (or drop one on the editor).")
	p.name = d.el("input", "cv-input cv-saved-name")
	p.name.setAttr("type", "text")
	p.name.setAttr("aria-label", "Name to save the scenario as")
	p.name.setAttr("maxlength", "64")
	p.name.setAttr("spellcheck", "false")
	p.save = button(d, "cv-btn cv-primary", "Save", "Save the scenario that runs under this name")
	p.file = d.el("input", "cv-file")
	p.file.setAttr("type", "file")
	p.file.setAttr("accept", ".yaml,.yml")
	p.file.setHidden(true)
	p.importBtn = button(d, "cv-btn", "Import .yaml…", "Import a scenario or manifests from a .yaml file")
	p.download = button(d, "cv-btn", "Download .yaml", "Download the scenario that runs")
	label := d.el("label", "cv-saved-label").add(d.el("span", "", "Name"), p.name)
	p.problem = d.el("p", "cv-small cv-bad")
	p.problem.setHidden(true)
	p.notice = d.el("p", "cv-small cv-saved-notice")
	p.notice.setHidden(true)
	p.empty = d.el("p", "cv-muted")
	p.list = d.el("ul", "cv-saved-list")
	p.list.setAttr("aria-label", "My scenarios")
	p.el.add(intro, d.el("div", "cv-toolbar cv-saved-bar").add(label, p.save, p.importBtn, p.download, p.file), p.problem, p.notice, p.empty, p.list)
	p.rows = newKeyed(p.list, func(string) *savedRow { return newSavedRow(d) }, func(r *savedRow) *node { return r.el })

	a.ls.on(p.name, "input", func(dom.Event) { p.draw(a) })
	a.ls.on(p.name, "keydown", func(ev dom.Event) {
		if ev.Underlying().Get("key").String() == "Enter" {
			p.saveAs(a, p.name.value())
		}
	})
	a.ls.on(p.save, "click", func(dom.Event) { p.saveAs(a, p.name.value()) })
	a.ls.on(p.importBtn, "click", func(dom.Event) { p.file.Value.Call("click") })
	a.ls.on(p.file, "change", func(dom.Event) {
		if files := p.file.Value.Get("files"); files.Length() > 0 {
			a.importFile(files.Index(0))
		}
		p.file.setValue("")
	})
	a.ls.on(p.download, "click", func(dom.Event) { a.download("yaml") })
	a.ls.on(p.list, "click", func(ev dom.Event) {
		p.act(a, targetAttr(ev, "data-act"), targetAttr(ev, "data-name"))
	})
	a.ls.on(p.list, "keydown", func(ev dom.Event) {
		e := ev.Underlying()
		if e.Get("target").Get("tagName").String() != "INPUT" {
			return
		}
		switch e.Get("key").String() {
		case "Enter":
			p.act(a, "rename-ok", p.renaming)
		case "Escape":
			p.act(a, "rename-cancel", p.renaming)
		}
	})
	return p
}

func newSavedRow(d doc) *savedRow {
	r := &savedRow{el: d.el("li", "cv-saved-row"), name: d.el("span", "cv-saved-title"), meta: d.el("span", "cv-muted cv-small cv-saved-meta")}
	r.renameInput = d.el("input", "cv-input cv-saved-rename")
	r.renameInput.setAttr("type", "text")
	r.renameInput.setAttr("maxlength", "64")
	r.renameInput.setAttr("aria-label", "New name")
	r.rename = d.el("span", "cv-saved-renaming")
	r.actions = d.el("span", "cv-saved-actions")
	r.confirm = d.el("span", "cv-saved-confirm")
	head := d.el("span", "cv-saved-head").add(r.name, r.rename, r.meta)
	r.el.add(head, r.actions, r.confirm)
	return r
}

func (p *savedPanel) root() *node { return p.el }

// render draws the panel, and reads the library the first time.
func (p *savedPanel) render(a *app) {
	if !p.loaded {
		p.loaded = true
		p.refresh(a)
	}
	if p.named != any(a.inst.Sim) {
		p.named = a.inst.Sim
		p.name.setValue(view.SaveName(a.inst.SavedAs, a.inst.Sim.Scenario()))
	}
	p.draw(a)
}

// refresh reads the library again and draws the panel.
func (p *savedPanel) refresh(a *app) {
	a.async(func() {
		var list []library.Entry
		err := a.inst.storage.use(func(st *library.Store) (err error) {
			list, err = st.List()
			return err
		})
		if err != nil {
			p.problem.setText("My scenarios cannot be read: " + err.Error())
			p.problem.setHidden(false)
			return
		}
		p.entries = list
		p.draw(a)
		a.storageChanged()
	})
}

// draw applies the panel's state.
func (p *savedPanel) draw(a *app) {
	btn := view.SaveButtonOf(p.name.value(), p.entries)
	p.save.setText(btn.Label)
	p.save.setBool("disabled", btn.Disabled)
	p.problem.setText(btn.Problem)
	p.problem.setHidden(btn.Problem == "")
	n := a.inst.storage.state().Notice
	p.notice.setText(n)
	p.notice.setHidden(n == "")
	l := view.SavedListOf(p.entries, time.Local, a.inst.SavedAs)
	p.empty.setText(l.Empty)
	p.empty.setHidden(l.Empty == "")
	keys := make([]string, len(l.Rows))
	for i, r := range l.Rows {
		keys[i] = r.Key
	}
	p.rows.sync(keys, func(i int, r *savedRow) { p.drawRow(a, l.Rows[i], r) })
}

func (p *savedPanel) drawRow(a *app, row view.SavedRow, r *savedRow) {
	d := a.d
	r.el.setClass(map[bool]string{true: "cv-saved-row cv-saved-open", false: "cv-saved-row"}[row.Open])
	r.name.setText(row.Name)
	r.meta.setText(row.Modified + " · " + row.Size)
	renaming, deleting := p.renaming == row.Name, p.deleting == row.Name
	r.name.setHidden(renaming)
	r.rename.setHidden(!renaming)
	r.actions.setHidden(renaming || deleting)
	r.confirm.setHidden(!deleting)
	act := func(label, action, aria string) *node {
		b := button(d, "cv-btn cv-small-btn", label, aria)
		b.setAttr("data-act", action)
		b.setAttr("data-name", row.Name)
		return b
	}
	// The buttons carry the row's name; a row keeps its key, so they are
	// made once.
	if r.actions.Value.Get("childElementCount").Int() == 0 {
		r.actions.add(act("Open", "open", "Open "+row.Name), act("Rename", "rename", "Rename "+row.Name),
			act("Duplicate", "duplicate", "Duplicate "+row.Name), act("Download", "download", "Download "+row.Name+".yaml"),
			act("Delete", "delete", "Delete "+row.Name))
		r.rename.add(r.renameInput, act("Rename", "rename-ok", "Rename to the new name"), act("Cancel", "rename-cancel", "Keep the name"))
		r.confirm.add(d.el("span", "cv-small", "Delete “"+row.Name+"”?"), act("Delete", "delete-ok", "Delete "+row.Name+" for good"),
			act("Keep", "delete-cancel", "Keep "+row.Name))
	}
}

// act runs a row's button.
func (p *savedPanel) act(a *app, action, name string) {
	if action == "" {
		return
	}
	switch action {
	case "rename":
		p.renaming, p.deleting = name, ""
		p.draw(a)
		if r := p.rows.get(name); r != nil {
			r.renameInput.setValue(name)
			r.renameInput.Focus()
			r.renameInput.Value.Call("select")
		}
		return
	case "rename-cancel", "delete-cancel":
		p.renaming, p.deleting = "", ""
		p.draw(a)
		return
	case "delete":
		p.deleting, p.renaming = name, ""
		p.draw(a)
		return
	}
	var newName string
	if action == "rename-ok" {
		if r := p.rows.get(name); r != nil {
			newName = r.renameInput.value()
		}
	}
	a.async(func() { p.run(a, action, name, newName) })
}

// run does what a row's button asks (Session.SavedAction), in a
// goroutine.
func (p *savedPanel) run(a *app, action, name, newName string) {
	out := a.inst.SavedAction(a.inst.storage.use, action, name, newName)
	switch {
	case out.Bad:
		a.shareBar.say(out.Msg, view.ToneBad, "")
		return
	case out.Download != nil:
		saveFile(out.Download.Name, out.Download.Type, out.Download.Data)
		return
	case out.Opened:
		a.syncAddress()
	}
	p.renaming, p.deleting = "", ""
	a.shareBar.say(out.Msg, view.ToneOK, "")
	p.refresh(a)
}

// saveAs saves the scenario that runs under name.
func (p *savedPanel) saveAs(a *app, name string) {
	if a.inst.Sim == nil || view.SaveButtonOf(name, p.entries).Disabled {
		return
	}
	edited := a.editor() != nil && a.editor().model.Edited()
	inst := a.inst
	a.async(func() {
		out := inst.SaveAs(inst.storage.use, name, edited)
		if out.Bad {
			a.shareBar.say(out.Msg, view.ToneBad, "")
			return
		}
		a.shareBar.say(out.Msg, view.ToneOK, "")
		p.refresh(a)
	})
}

// editor is the page's editor panel; nil in the embed view.
func (a *app) editor() *editorPanel {
	if a.tabs == nil {
		return nil
	}
	p, _ := a.tabs.panels["editor"].(*editorPanel)
	return p
}

// savedList is the page's My scenarios panel; nil in the embed view.
func (a *app) savedList() *savedPanel {
	if a.tabs == nil {
		return nil
	}
	p, _ := a.tabs.panels["saved"].(*savedPanel)
	return p
}

// storageChanged shows the storage notice when there is a new one (the
// library is in memory), and redraws My scenarios.
func (a *app) storageChanged() {
	if n := a.inst.storage.Notice(); n != "" && !a.opts.Embed {
		a.shareBar.say(n, view.ToneBad, "")
	}
	if p := a.savedList(); p != nil && p.loaded {
		p.draw(a)
	}
}

// importFile reads a file the user chose or dropped: a valid scenario is
// saved in My scenarios under the file's name and opened; one with
// problems goes into the editor, to fix there.
func (a *app) importFile(file js.Value) {
	fileName := file.Get("name").String()
	if imp := view.ImportOf(fileName, int64(file.Get("size").Float())); imp.Refused != "" {
		a.shareBar.say(imp.Refused, view.ToneBad, "")
		return
	}
	inst := a.inst
	a.async(func() {
		v, err := await(file.Call("text"))
		if err != nil {
			a.shareBar.say("“"+fileName+"” cannot be read: "+err.Error(), view.ToneBad, "")
			return
		}
		data := []byte(v.String())
		out := inst.Import(inst.storage.use, fileName, data)
		if out.Invalid {
			if ed := a.editor(); ed != nil {
				a.selectTab("editor")
				ed.setEdit(a, string(data))
				a.keeper.edited(string(data))
			}
		}
		if out.Bad {
			a.shareBar.say(out.Msg, view.ToneBad, "")
			return
		}
		a.syncAddress()
		a.shareBar.say(out.Msg, view.ToneOK, "")
		if p := a.savedList(); p != nil {
			p.refresh(a)
		}
	})
}

// dropTarget makes el take .yaml files dropped on it (importFile).
func (a *app) dropTarget(el *node) {
	a.ls.on(el, "dragover", func(ev dom.Event) {
		if types := ev.Underlying().Get("dataTransfer").Get("types"); types.Truthy() && types.Call("includes", "Files").Bool() {
			ev.PreventDefault()
			el.Value.Get("classList").Call("add", "cv-drop")
		}
	})
	a.ls.on(el, "dragleave", func(dom.Event) { el.Value.Get("classList").Call("remove", "cv-drop") })
	a.ls.on(el, "drop", func(ev dom.Event) {
		el.Value.Get("classList").Call("remove", "cv-drop")
		files := ev.Underlying().Get("dataTransfer").Get("files")
		if !files.Truthy() || files.Length() == 0 {
			return
		}
		ev.PreventDefault()
		a.importFile(files.Index(0))
	})
}
