//go:build js && wasm

package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"converge/core/sim"
)

// Instance is one simulation on the page (the page itself, or one
// <converge-sim>). Its fields are read by renderers; only the bridge
// (api*.go) changes them, and then calls Changed.
type Instance struct {
	// ID is the instance's handle in the table (the default instance is 1).
	ID int
	// Sim is the simulation; nil until a scenario is loaded.
	Sim *sim.Sim
	// Source is the YAML last loaded successfully (the editor's text).
	Source []byte
	// Name is the built-in scenario's name when Source came from the
	// library, "" otherwise.
	Name string
	// Err is the message to show when the instance could not load what it
	// was asked to (a corrupt share link, an unknown built-in name); ""
	// when there is none. The previous simulation, if any, is kept.
	Err string

	renderers []Renderer
	// funcs are the js.Funcs made for this instance (its JS object's
	// methods); dispose releases them.
	funcs    []js.Func
	obj      js.Value // the instance's JS object (the raw Go functions)
	disposed bool
}

// Renderer draws an instance into part of the DOM; the UI engineer
// implements it (wasm/render*.go).
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
}

// NewRenderer is set by the UI code (wasm/render*.go) in an init func; nil
// means nothing is drawn.
var NewRenderer func(inst *Instance, root dom.Node, opts MountOptions) Renderer

// Changed calls every mounted renderer's Render. The bridge calls it after
// each change; a renderer may call it too after changing the instance
// through the bridge's Go functions.
func (i *Instance) Changed() {
	for _, r := range i.renderers {
		r.Render(i)
	}
}
