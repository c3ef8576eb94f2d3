//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"converge/core/session"
)

// Instance is one simulation on the page (the page itself, or one
// <converge-sim>): its session (core/session, which decides everything
// about it) and what binds it to the page: its JS object, its renderers
// and the seek in slices under way. Renderers read the session's fields
// (Sim, Source, Name, Err, Compare, ...) and change it only through its
// methods: the session's, promoted (Load, LoadBuiltin, OpenSaved, Step,
// SeekTo, Run, RemoveStep), which end the seek under way first
// (Session.OnStop: stopSeek) and call Changed once the change is made
// (Session.OnChange), and the instance's own Open and SeekAsync.
type Instance struct {
	*session.Session
	// ID is the instance's handle in the page's table (the default
	// instance, globalThis.converge, is 1).
	ID int

	// storage is the page's library of saved scenarios and draft.
	storage *storage
	// newRenderer makes the renderers that Mount attaches; nil draws
	// nothing.
	newRenderer RendererFunc
	mounts      []mount
	// batching counts the Batch calls under way: Changed waits for the
	// outermost one to end.
	batching int
	// funcs are the js.Funcs of the instance's JS object; dispose releases
	// them.
	funcs    []js.Func
	obj      js.Value
	disposed bool
	// seek is the seek in slices under way, if any (seek.go).
	seek *seekJob
	// opening is the open in slices under way, if any (open_slices.go);
	// openSlices how many slices the last one took so far.
	opening    *openJob
	openSlices int
	// openBudget, when positive, replaces session.SliceBudget as the work
	// a slice of an open does before it parks: tests make every open go
	// in slices whatever the machine's speed.
	openBudget time.Duration
	// seekBudget, when positive, replaces session.SliceBudget as the work
	// a seek's paced second does in one frame before it parks (tests).
	seekBudget time.Duration
	// playing is the play's seconds under way, if any (ui_play.go).
	playing *playJob
}

// mount is one renderer and the node it draws into.
type mount struct {
	root     js.Value
	renderer Renderer
}

// Renderer draws an instance into part of the DOM; app (render.go) is the
// page's.
type Renderer interface {
	// Render is called after every change (load, step, seek, run).
	Render(inst *Instance)
	// Dispose removes what the renderer drew and releases its js.Funcs.
	Dispose()
}

// MountOptions says how a renderer draws.
type MountOptions struct {
	// Embed is the compact view of <converge-sim> and ?embed=1: no editor
	// chrome.
	Embed bool
	// Controls are the embed view's time controls: "full" (or ""), every
	// one; "compact", play and the scrubber; "none", no timeline at all.
	Controls string
	// Autoplay plays each scenario the view opens from where it opens.
	Autoplay bool
	// Speed is the play speed to start with (nearestSpeed); 0 is the
	// default.
	Speed int
	// Captions shows the scenario's notes in the embed view and stops play
	// at those that pause (the page always does; render_notes.go).
	Captions bool
}

// RendererFunc makes a renderer of inst that draws into root. main passes
// the page's (newApp) to newPage; the instances hand it to Mount.
type RendererFunc func(inst *Instance, root dom.Node, opts MountOptions) Renderer

// Changed calls every mounted renderer's Render. The instance's methods
// call it after each change; inside Batch it waits for the batch to end. A
// renderer that panics is reported on the console (console.error) and the
// others still render.
func (i *Instance) Changed() {
	if i.batching > 0 {
		return
	}
	// The variants of the Compare view follow the lead (Sim) to its
	// second, however it got there (a step, a seek in slices, a command).
	i.Follow()
	for _, m := range i.mounts {
		renderSafely(i, m.renderer)
	}
}

// Batch runs f, one user action that may change the instance several times
// (pause, run a command, note its result), and then calls Changed once:
// every renderer draws once per action, with the state the whole action
// produced. The methods f calls draw nothing; a Batch inside f is part of
// the outer one.
func (i *Instance) Batch(f func()) {
	i.batching++
	func() {
		defer func() { i.batching-- }()
		f()
	}()
	i.Changed()
}

func renderSafely(i *Instance, r Renderer) {
	defer func() {
		if v := recover(); v != nil {
			js.Global().Get("console").Call("error", fmt.Sprintf("converge: internal error while drawing simulation %d: %s", i.ID, panicText(v)))
		}
	}()
	r.Render(i)
}

// Open is Session.Open, then the seek to the address's t (in slices when
// it is far: Open returns with the seek under way), and Changed.
func (i *Instance) Open(a session.Address) session.Open {
	i.finishOpen()
	return i.opened(i.Session.Open(a))
}

// opened is the rest of Open once the session has opened o: the seek to
// its t, and Changed.
func (i *Instance) opened(o session.Open) session.Open {
	if o.Sim != nil {
		i.Batch(func() { i.SeekAsync(o.T, nil, js.Undefined(), nil) })
		return o
	}
	i.Changed()
	return o
}

// Mount attaches a renderer (the instance's RendererFunc) drawing into
// root and renders once. It reports false when the instance has no
// RendererFunc. Mounting on a node again replaces its renderer.
func (i *Instance) Mount(root js.Value, opts MountOptions) bool {
	i.Unmount(root)
	if i.newRenderer == nil {
		return false
	}
	r := i.newRenderer(i, &dom.BasicNode{Value: root}, opts)
	if r == nil {
		return false
	}
	i.mounts = append(i.mounts, mount{root: root, renderer: r})
	renderSafely(i, r)
	return true
}

// Unmount disposes the renderer drawing into root, if any.
func (i *Instance) Unmount(root js.Value) {
	kept := i.mounts[:0]
	for _, m := range i.mounts {
		if m.root.Equal(root) {
			m.renderer.Dispose()
			continue
		}
		kept = append(kept, m)
	}
	i.mounts = kept
}

// dispose disposes every renderer, drops the simulation and releases the
// instance's js.Funcs. The instance is unusable afterwards.
func (i *Instance) dispose() {
	i.Close(fmt.Sprintf("simulation %d is disposed", i.ID))
	for _, m := range i.mounts {
		m.renderer.Dispose()
	}
	i.mounts = nil
	for _, f := range i.funcs {
		f.Release()
	}
	i.funcs = nil
	i.disposed = true
}

// instances is the handle table of one page: id → *Instance. main makes
// one; nothing else holds instances.
type instances struct {
	lib         *session.Library
	storage     *storage
	newRenderer RendererFunc
	next        int
	byID        map[int]*Instance
	// budget is what the instances may hold together (budget.go).
	budget int64
}

// newInstances makes the table of a page whose library is lib and whose
// instances draw with newRenderer (nil: they draw nothing).
func newInstances(lib *session.Library, newRenderer RendererFunc) *instances {
	return &instances{lib: lib, newRenderer: newRenderer, byID: map[int]*Instance{}, budget: session.PageMemoryBudget}
}

// create adds an instance with no simulation.
func (t *instances) create() *Instance {
	t.next++
	inst := &Instance{Session: session.New(t.lib, monotonic), ID: t.next, storage: t.storage, newRenderer: t.newRenderer}
	inst.OnStop = func(why string) {
		inst.finishPlay()
		inst.stopSeek(&stopError{why})
	}
	inst.OnChange = inst.Changed
	t.byID[inst.ID] = inst
	return inst
}

// remove disposes the instance id and forgets it.
func (t *instances) remove(id int) {
	if inst, ok := t.byID[id]; ok {
		inst.dispose()
		delete(t.byID, id)
	}
}

// len is the number of live instances.
func (t *instances) len() int { return len(t.byID) }
