//go:build js && wasm

package main

import (
	"syscall/js"

	"converge/core/session"
	"converge/scenarios"
)

func main() {
	install(js.Global(), session.NewLibrary(scenarios.FS), newApp)
	select {} // keep the Go runtime alive for the page's calls
}

// install makes the page's bridge, whose instances draw with newRenderer,
// and settles the boot handshake found on global.converge._boot, or,
// without one, sets global.converge to the raw bridge. It returns the page
// (nil if building it panicked).
func install(global js.Value, lib *session.Library, newRenderer RendererFunc) (p *page) {
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
