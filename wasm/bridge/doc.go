// Package bridge is the pure half of the wasm bridge (package wasm): what
// the page opens for its address, the built-in library's listing, and the
// JSON shapes that cross into JavaScript. It has no syscall/js, so it builds
// and is tested natively; package wasm only converts its values to and from
// js.Value.
package bridge
