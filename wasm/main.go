//go:build js && wasm

// Command wasm is Converge compiled to WebAssembly for the page: it makes
// the raw bridge object (api_page.go) and hands it to web/converge.js, then
// serves calls from the page until the page goes away.
//
// Boot handshake with converge.js: before running this program, converge.js
// puts a non-enumerable `_boot` object ({resolve, reject}) on
// globalThis.converge. This program builds the bridge and calls
// `_boot.resolve(bridge)`; converge.js keeps the raw bridge to itself and
// installs the documented API (class Simulation) on globalThis.converge.
// If building the bridge panics, it calls `_boot.reject(error)`.
//
// Run on its own (under Node, say, without converge.js) it sets
// globalThis.converge to the raw bridge itself: functions that return JSON
// strings and Error objects instead of plain objects and exceptions.
package main

import (
	"syscall/js"

	"converge/scenarios"
	"converge/wasm/bridge"
)

func main() {
	install(js.Global(), bridge.NewLibrary(scenarios.FS), newApp)
	select {} // keep the Go runtime alive for the page's calls
}

// install makes the page's bridge, whose instances draw with newRenderer,
// and settles the boot handshake found on global.converge._boot, or,
// without one, sets global.converge to the raw bridge. It returns the page
// (nil if building it panicked).
func install(global js.Value, lib *bridge.Library, newRenderer RendererFunc) (p *page) {
	api := global.Get("converge")
	var boot js.Value
	if api.Type() == js.TypeObject {
		boot = api.Get("_boot")
	}
	defer func() {
		if r := recover(); r != nil {
			p = nil
			if boot.Type() == js.TypeObject {
				boot.Call("reject", jsError("Error", "internal error: "+panicText(r)))
			}
		}
	}()
	p = newPage(lib, newRenderer)
	if boot.Type() == js.TypeObject {
		boot.Call("resolve", p.obj)
	} else {
		global.Set("converge", p.obj)
	}
	return p
}
