//go:build js && wasm

// Command wasm is Converge compiled to WebAssembly for the page: it installs
// the JS API on globalThis.converge and then serves calls from the page until
// the page goes away.
//
// web/converge.js loads this program. Before running it, converge.js creates
// globalThis.converge with its `ready` Promise and a private `_boot` object
// ({resolve, reject}); this program fills in the API and calls
// `_boot.resolve()`, which resolves `converge.ready`. Run on its own (under
// Node, say) it creates globalThis.converge itself.
package main

import (
	"syscall/js"

	"converge/core/version"
)

func main() {
	api := js.Global().Get("converge")
	if api.Type() != js.TypeObject {
		api = js.Global().Get("Object").New()
		js.Global().Set("converge", api)
	}
	install(api)
	select {} // keep the Go runtime alive for the page's calls
}

// install puts the API on api (the globalThis.converge object) and then
// settles the boot handshake: `api._boot.resolve()` once everything is in
// place, or `api._boot.reject(error)` if installing panicked. Without a
// `_boot` object it only installs.
func install(api js.Value) {
	var boot js.Value
	defer func() {
		if r := recover(); r != nil {
			if boot.Type() == js.TypeObject {
				boot.Call("reject", js.Global().Get("Error").New("internal error: "+panicText(r)))
			}
		}
	}()
	boot = api.Get("_boot")
	api.Set("version", version.Version)
	if boot.Type() == js.TypeObject {
		boot.Call("resolve")
	}
}

// panicText is the message of a recovered panic value. (No fmt: the
// skeleton stays small.)
func panicText(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	default:
		return "unexpected panic"
	}
}
