// Package session is the page's native layer: everything the page decides,
// natively built and tested, which package wasm (the page compiled to
// WebAssembly) only binds to the DOM and to browser storage.
//
// It holds the page's address (Address: what ?scenario=, #s=, &t=, &embed=
// and &compare= ask for, read by the page and `converge unshare`, and built
// by the page, its Share and Embed buttons and `converge share`), what an
// address opens (Decide), the built-in library's listing, the JSON shapes
// that cross into JavaScript, the downloads, the seeks in slices and their
// refusals (Meter, Seek), and one simulation on the page with everything
// that changes it (Session: load, open, step, seek, run a command, remove a
// step, and the messages they show).
//
// It has no syscall/js, no wall clock and no goroutines (core/arch_test.go):
// what it needs of the browser (a monotonic clock to measure work) it is
// given.
package session
