//go:build js && wasm

package main

import (
	"bytes"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"converge/core/compare"
	"converge/core/kubectl"
	"converge/core/scenario"
	"converge/core/sim"
	"converge/core/view"
	"converge/wasm/bridge"
)

// Instance is one simulation on the page (the page itself, or one
// <converge-sim>). Renderers read its fields; they change it only through
// its methods (Load, LoadBuiltin, Open, Step, SeekTo, Run), each of which
// calls Changed itself once the change is made.
type Instance struct {
	// ID is the instance's handle in the page's table (the default
	// instance, globalThis.converge, is 1).
	ID int
	// Sim is the simulation; nil until a scenario is loaded.
	Sim *sim.Sim
	// Source is the YAML last loaded successfully (the editor's text).
	// Steps added at run time are not in it: Sim.Scenario().Marshal() has
	// them.
	Source []byte
	// Name is the built-in scenario's name when Source came from the
	// library, "" otherwise.
	Name string
	// Err is the message to show when the instance could not open what its
	// address (or its element's attributes) asked for: a corrupt share
	// link, an unknown built-in name. It says what is shown instead. ""
	// when there is none; the next successful load clears it.
	Err string
	// Compare is the Compare view's variants (core/compare), led by Sim:
	// every variant of Sim's scenario on Sim's clock. It is set whenever
	// the scenario has variants, or the compare view was asked for
	// (&compare=1, <converge-sim compare>: then a scenario without
	// variants is one column); nil otherwise. Step, SeekTo and Run move
	// every variant.
	Compare *compare.Run
	// WantCompare is whether the compare view was asked for.
	WantCompare bool
	// SavedAs is the saved scenario (My scenarios) the simulation was
	// opened from or last saved as; "" for none. A load clears it.
	SavedAs string
	// origin is where the scenario came from, for the picker and the
	// page's links (Origin).
	origin view.Origin

	lib *bridge.Library
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
	// line is the buffer snapshots are written into (traceLine).
	line bytes.Buffer
	// seek is the instance's seeking: its meter and the seek in slices
	// under way (seek.go).
	seek seeker
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

// ErrNoScenario is the error of a call that needs a simulation before one
// is loaded.
var ErrNoScenario = errors.New("no scenario is loaded: call load or loadBuiltin first")

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
	i.follow()
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

// Load replaces the simulation with one of src, at t=0, and calls Changed.
// On problems it keeps the previous simulation and returns them (with
// their line:col); a valid scenario returns its notes, if any.
func (i *Instance) Load(src []byte) scenario.Problems {
	p := bridge.Prepare(src, "scenario.yaml")
	if p.Sim != nil {
		i.stopSeek(&stopError{"stopped by a load"})
		i.set(p.Sim, p.Source, "")
	}
	return p.Problems
}

// LoadBuiltin loads the library's scenario name, at t=0, and calls
// Changed. An unknown name is a *bridge.UnknownScenarioError; a built-in
// that does not parse, its problems (a scenario.Problems).
func (i *Instance) LoadBuiltin(name string) error {
	src, err := i.lib.Source(name)
	if err != nil {
		return err
	}
	p := bridge.Prepare(src, name+".yaml")
	if p.Sim == nil {
		return p.Problems.Errors()
	}
	i.stopSeek(&stopError{"stopped by a load"})
	i.set(p.Sim, p.Source, name)
	return nil
}

func (i *Instance) set(s *sim.Sim, src []byte, name string) {
	i.Sim, i.Source, i.Name, i.Err, i.SavedAs = s, src, name, "", ""
	i.origin = view.Origin{Name: name, LoadedSteps: len(s.Scenario().Steps)}
	i.compareVariants()
	i.Changed()
}

// OpenSaved loads data, the saved scenario name, as Load does, and
// remembers the name (SavedAs).
func (i *Instance) OpenSaved(name string, data []byte) scenario.Problems {
	var probs scenario.Problems
	i.Batch(func() {
		probs = i.Load(data)
		if !probs.HasErrors() {
			i.SavedAs = name
		}
	})
	return probs
}

// Origin is where the scenario came from: a built-in's name and its steps
// then, or nothing for a scenario of the user's own (view.Origin).
func (i *Instance) Origin() view.Origin { return i.origin }

// compareVariants sets Compare for the current Sim (see Compare). A
// variant that cannot start is said in Err, and the single view shown.
func (i *Instance) compareVariants() {
	i.Compare = nil
	if i.Sim == nil || (!i.WantCompare && len(i.Sim.Scenario().Variants) == 0) {
		return
	}
	r, err := compare.Around(i.Sim, sim.Options{})
	if err != nil {
		i.Err = joinSentences(i.Err, "The variants cannot be compared: "+err.Error()+".")
		return
	}
	i.Compare = r
}

// joinSentences joins two messages, either of which may be "".
func joinSentences(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + " " + b
}

// follow brings the other variants to Sim's second.
func (i *Instance) follow() {
	if i.Compare != nil {
		i.Compare.Follow()
	}
}

// Open opens what an address asks for (bridge.Decide: a share, a built-in
// name, a time), falling back to the library's default with Err set when it
// cannot, then seeks to the address's t (in slices when it is far: Open
// returns with the seek under way) and calls Changed.
func (i *Instance) Open(a bridge.Address) bridge.Open {
	o := bridge.DecideAddress(a, i.lib)
	i.stopSeek(&stopError{"stopped by an open"})
	i.Err = o.Error
	i.WantCompare = o.Compare
	if o.Sim != nil {
		i.Sim, i.Source, i.Name, i.SavedAs = o.Sim, o.Source, o.Name, ""
		i.origin = view.Origin{Name: o.Name, LoadedSteps: len(o.Sim.Scenario().Steps)}
		i.compareVariants()
		i.Batch(func() { i.SeekAsync(o.T, nil, js.Undefined(), nil) })
		return o
	}
	i.compareVariants()
	i.Changed()
	return o
}

// Outcomes are the outcomes of every variant so far (compare.Run.Outcomes
// at the current second): one variant, named after the scenario, when the
// instance is not compared.
func (i *Instance) Outcomes() compare.Table {
	if i.Compare != nil {
		i.follow()
		return i.Compare.Outcomes(i.Sim.T())
	}
	r, err := compare.Around(i.Sim, sim.Options{})
	if err != nil {
		return compare.Table{Variants: []compare.VariantOutcome{}}
	}
	return r.Outcomes(i.Sim.T())
}

// RolloutTimes is where the time of each rollout of the Deployment named
// name (or the first by name, when "") went up to now, the latest first;
// empty without such a Deployment.
func (i *Instance) RolloutTimes(name string) []view.RolloutTime {
	if name == "" {
		if d := view.Focus(i.Sim, ""); d != nil {
			name = d.Name
		}
	}
	if name == "" {
		return []view.RolloutTime{}
	}
	return view.RolloutTimes(i.Sim, name)
}

// Scenarios lists the built-in library.
func (i *Instance) Scenarios() []bridge.Info { return i.lib.List() }

// MaxSeconds is the furthest a simulation goes: the longest a scenario may
// run.
const MaxSeconds = int64(scenario.MaxDuration / time.Second)

// Step advances the simulation by n seconds (n < 1 counts as 1, and it
// stops at MaxSeconds; it may pass the scenario's duration) and calls
// Changed. Without a simulation it does nothing.
func (i *Instance) Step(n int) {
	if i.Sim == nil {
		return
	}
	i.stopSeek(&stopError{"stopped by a step"})
	left := MaxSeconds - i.Sim.T()
	if left <= 0 {
		return
	}
	k := min(int64(max(n, 1)), left)
	i.measured(k, func() { i.Sim.Step(int(k)) })
	i.Changed()
}

// SeekTo moves the simulation to second t (clamped to 0..MaxSeconds),
// replaying from a checkpoint when t is in the past, and calls Changed.
// Without a simulation it does nothing.
func (i *Instance) SeekTo(t int64) {
	if i.Sim == nil {
		return
	}
	i.stopSeek(&stopError{"stopped by a seek"})
	t = min(max(t, 0), MaxSeconds)
	i.measured(bridge.SeekWork(i.Sim, t), func() { i.Sim.SeekTo(t) })
	i.Changed()
}

// Run runs a kubectl command line (sim.Run: a command that changes the
// cluster becomes a step of the scenario one second from now, and the
// simulation advances to run it) and calls Changed. Without a simulation it
// returns ErrNoScenario's text as the result's error.
func (i *Instance) Run(line string) sim.StepResult {
	if i.Sim == nil {
		return sim.StepResult{Action: line, Error: ErrNoScenario.Error(), Index: -1}
	}
	i.stopSeek(&stopError{"stopped by a command"})
	var r sim.StepResult
	if i.Compare != nil {
		i.follow()
		r = i.Compare.Run(line)
	} else {
		r = i.Sim.Run(line)
	}
	i.Changed()
	return r
}

// RemoveStep takes out step i of the scenario, one added at run time
// (sim.RemoveStep), and calls Changed. Without a simulation it returns
// ErrNoScenario.
func (i *Instance) RemoveStep(index int) error {
	if i.Sim == nil {
		return ErrNoScenario
	}
	i.stopSeek(&stopError{"stopped by removing a step"})
	err := i.Sim.RemoveStep(index)
	i.Changed()
	return err
}

// Complete returns the console's tab completions of line's last word.
func (i *Instance) Complete(line string) []string {
	var env *kubectl.Env
	if i.Sim != nil {
		env = i.Sim.Env()
	}
	out := kubectl.Complete(env, line)
	if out == nil {
		out = []string{}
	}
	return out
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
	i.stopSeek(&stopError{fmt.Sprintf("simulation %d is disposed", i.ID)})
	for _, m := range i.mounts {
		m.renderer.Dispose()
	}
	i.mounts = nil
	i.Sim, i.Source, i.Compare = nil, nil, nil
	for _, f := range i.funcs {
		f.Release()
	}
	i.funcs = nil
	i.disposed = true
}

// instances is the handle table of one page: id → *Instance. main makes
// one; nothing else holds instances.
type instances struct {
	lib         *bridge.Library
	storage     *storage
	newRenderer RendererFunc
	next        int
	byID        map[int]*Instance
	// budget is what the instances may hold together (budget.go).
	budget int64
}

// newInstances makes the table of a page whose library is lib and whose
// instances draw with newRenderer (nil: they draw nothing).
func newInstances(lib *bridge.Library, newRenderer RendererFunc) *instances {
	return &instances{lib: lib, newRenderer: newRenderer, byID: map[int]*Instance{}, budget: PageMemoryBudget}
}

// create adds an instance with no simulation.
func (t *instances) create() *Instance {
	t.next++
	inst := &Instance{ID: t.next, lib: t.lib, storage: t.storage, newRenderer: t.newRenderer}
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
