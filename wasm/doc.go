//go:build js && wasm

// Command wasm is Converge compiled to WebAssembly for the page: it makes
// the raw bridge object (api_page.go) and hands it to web/converge.js, then
// serves calls from the page until the page goes away. It binds; it does
// not decide.
//
// # What this package may hold
//
// The page's decisions live in two native, natively tested packages:
// core/session (the page's layer: each simulation's session, with what it
// opened and from where, its time, its seeks in slices and their refusals,
// its commands, its saved work; the page's address, which the command
// line reads and writes with the same type; the library's listing; the
// JSON shapes of the JS API; the downloads) and core/view (what each part
// of the page shows, and its texts). This package holds only:
//
//   - the bindings of the JS API: decoding a call's arguments from
//     js.Value, one call into a session, encoding its result;
//   - the DOM: building elements, applying the view models to them,
//     reading the user's input and events, and calling the session with
//     them;
//   - the browser's own services: the clipboard, history.replaceState,
//     Blob downloads, requestAnimationFrame and timeouts (which schedule a
//     seek's slices and the play loop), performance marks, IndexedDB and
//     sessionStorage (through core/library's Store).
//
// core/arch_page_test.go checks the rule that makes this so: of this
// module's packages, wasm imports only core/session, core/view,
// core/library (its store on browser storage), core/version, scenarios
// (the embedded library) and core/sim, and of core/sim it names only the
// types Sim and StepResult (what renderers read and draw), never a
// function, and it never changes a simulation itself (Step, SeekTo, Run,
// RemoveStep are the session's).
//
// # Boot
//
// Before running this program, converge.js puts a non-enumerable `_boot`
// object ({resolve, reject}) on globalThis.converge. main calls install,
// which builds the bridge and calls `_boot.resolve(bridge)`; converge.js
// keeps the raw bridge to itself and installs the documented API (class
// Simulation) on globalThis.converge. If building the bridge panics,
// install calls `_boot.reject(error)`. Run on its own (under Node, say,
// without converge.js) it sets globalThis.converge to the raw bridge
// itself: functions that return JSON strings and Error objects instead of
// plain objects and exceptions.
//
// converge.js then applies location.href to the default instance
// (converge.openURL; the result, with embed and error, is
// converge.startup), and web/app.js mounts the page:
// converge.mount(document.getElementById("app"), {embed:
// converge.startup.embed}).
//
// # Instances
//
// An Instance is one simulation on the page: the page itself (the default
// instance, globalThis.converge, id 1) or one <converge-sim>. The page
// keeps them in a handle table (instances); there is no package-level
// simulation. An Instance is a session (core/session.Session, embedded)
// with what binds it to the page: its JS object, its renderers and the
// seek in slices under way. Renderers read the session's fields (Sim,
// Source, Name, Err, Compare) and change it only through its methods
// (Load, LoadBuiltin, OpenSaved, Step, SeekTo, Run, RemoveStep), which
// end the seek under way first (Session.OnStop) and call Changed once the
// change is made (Session.OnChange). Open(address) is the instance's: the
// session decides what the address opens (on a corrupt share or an
// unknown name the default, with Err a sentence to show, such as "The
// shared scenario cannot be opened: share link is corrupt: .... Showing
// the built-in scenario rolling-update instead.", which the page shows
// with role="alert"), then the instance seeks to its t in slices.
//
// Any js.Func tied to an instance is released when it is disposed.
//
// # The raw bridge
//
// Every exported function goes through one wrapper (bridge_func.go, after
// hackpad's interop.SetFunc): it checks the arguments, recovers from a
// panic and turns a failure into what the caller expects, an Error or
// {ok: false, error}, so that no input and no bug stops the Go runtime.
// Snapshots cross as the very bytes `converge run --output jsonl` writes,
// as a string that converge.js parses.
//
// # Drawing
//
// A Renderer draws an instance into a DOM node. main passes the page's
// RendererFunc, newApp, to install, which hands it to the page and so to
// every instance it creates; Mount attaches one to a node and renders once,
// and reports false without a RendererFunc (the bridge's tests under Node
// pass nil). Changed renders every mount; a renderer that panics is
// reported with console.error (so the browser tests see it) and the others
// still render.
//
// The app (render.go) builds its elements once and applies the view models
// to them part by part on every render, updating elements by key (keyed in
// render_dom.go: a pod tile keeps its element while the pod lives), and
// inserting every string from the user or the simulation as text, never as
// HTML. Only the parts on screen are computed. A mount clears its node
// first (the page's "Loading…" text, or a shadow root), and in the embed
// view adds a <link rel=stylesheet> to style.css next to converge.js,
// since a shadow root has no stylesheet of its own.
//
// The console and the editor keep what the user typed between renders in
// their view models, view.Console and view.Editor: history, completion,
// suggestions, the log's texts, the editor's edited state, problems and
// status line. The panels read them and draw.
//
// # One render per action
//
// A user's action, such as a console command, the rollback button, the
// selectors' apply, the editor's Apply, a step or a seek, runs inside
// Instance.Batch: the changes it makes draw nothing until it ends, and then
// every renderer draws once, with the state the whole action produced
// (app.command is the path of every kubectl command). Only a tab click and
// the play button draw a part on its own (the tab, the timeline).
//
// # The address
//
// The page (not an embed) rewrites its address with history.replaceState
// so that a reload or a copied address opens what it shows, at its second
// (app.syncAddress; Session.PageAddress decides, with session.Address,
// the one type the page and the command line read and write addresses
// with): ?scenario=NAME&t=T while the scenario is
// exactly a built-in one, #s=SHARE&t=T once it is the user's own (a
// console command, the editor's Apply, a link, My scenarios, an import).
// An action that changes the scenario writes it at once; a change of time
// alone (a step, a seek, a pause: player.halt) writes it 400 ms after time
// stops moving (app.addressLater), since browsers limit how often a page
// may rewrite its address. A scenario too large for a link leaves the
// address as it was; the Share button says why. Share copies the same link
// with the page's origin (navigator.clipboard.writeText, called from the
// click handler, which the browser requires), or shows it to copy by hand.
//
// # My scenarios, the draft and the downloads
//
// The page's library (core/library: saved scenarios and the editor's
// draft) lives in hackpadfs' IndexedDB filesystem, opened on first use
// (storage_js.go), or in a mem filesystem where IndexedDB cannot be used
// (no indexedDB, as under Node; one that throws or refuses to open; a
// write refused later, such as its quota), which the page says once
// (view.StorageNotice). IndexedDB calls block on promises, so every use
// runs in a goroutine (app.async, makePromise, time.AfterFunc), one at a
// time (storage.use, which core/session's SavedAction, SaveAs and Import
// are given), never on the event loop. The JS API's save, saved,
// openSaved, deleteSaved, renameSaved, duplicateSaved and storage return
// Promises (api_saved.go). The editor keeps its text as a draft 600 ms
// after typing stops (ui_draft.go) and, once the page has opened, offers a
// draft whose text differs from the editor's. The downloads are made in
// Go (Session.Download: ScenarioFile, KubectlFile, TraceFile, ChartsFile)
// and handed to the browser as a Blob. Instance.SaveWork (Session.SaveWork
// decides) keeps what the user would lose if the page stopped (a scenario
// of their own, the editor's edits as the draft), for whatever must stop
// the runtime.
//
// # Embedding
//
// <converge-sim> (web/converge-sim.js) opens its attributes in its own
// instance (open), then mounts it on its shadow root with {embed: true}.
// When mount returns false (no renderer) the element shows the instance's
// error itself, in a <p role="alert" part="message">; otherwise the
// renderer shows it.
//
// # Seeks in slices
//
// Nothing blocks the page for long (docs/limits.md). A seek goes in slices
// of about 50 ms, one per animation frame (seek.go; session.Seek decides
// what a slice does): the page's scrubber, its step back, the &t= of an
// address and <converge-sim t=...> (Open) and the JS API's seekAsync. A
// short one is done in its first slice, at once; a longer one shows its
// progress under the timeline with Cancel (a progressRenderer draws it
// between slices, the rest of the page waits for the end) and draws the
// whole page once when it is there. Any other change of the instance
// stops it at the whole second it reached. Every step and seek is timed
// (session.Meter): the synchronous seek, moveTo, step and advance refuse a
// jump estimated beyond about a second (Session.CheckStep, CheckSeek), with
// a message that names seekAsync, and the play loop computes at most a
// slice's worth per frame (Session.PlayFrame).
//
// # Costs and profiling
//
// A trace-line snapshot of 1,000 pods is 2.2 MB of JSON. The engine writes
// it from each object's JSON, which the store keeps per version
// (sim.WriteTraceLine), into the instance's buffer: in headless chromium
// about 5 ms when only a few objects changed, against about 40 ms to
// marshal it whole before. The page itself never goes through the JSON
// API: it calls Step or SeekTo, then the view models, which read the Go
// objects. docs/performance.md has the figures and how to measure them.
//
// Setting globalThis.convergeProfile = true makes the play loop and the
// renders record converge:frame, converge:render and converge:PART measures
// on the performance timeline (BenchmarkBrowserUIPlay and
// TestUIEachActionRendersOnce in cmd/converge read them).
//
// # Tests
//
// What the page decides is tested natively in core/session and core/view.
// This package's tests run compiled to wasm under Node (make test-wasm),
// without a DOM: they drive the raw bridge (its argument checks, its
// conversions, its promises) and mount fake renderers. The
// page itself is tested in a browser by cmd/converge's browser tests
// (chromedp), which compare wasm snapshots with native ones byte for byte,
// drive the page as a user does, and check, for instance, that a corrupt
// share (/#s=AAAA-corrupt) or an unknown ?scenario=nope shows
// converge.startup.error somewhere in the page's text (the document or
// shadow roots) within 3 s of ready, and that a renderer mounted on a
// detached element logs no console error.
package main
