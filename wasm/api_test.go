//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"honnef.co/go/js/dom/v2"

	"converge/core/scenario"
	"converge/core/session"
	"converge/core/sim"
	"converge/core/simtest"
	"converge/core/simtest/simrun"
)

// The raw bridge under Node (no DOM): what converge.js wraps.

var webYAML = `name: basic-loop
title: Basic
duration: 60s
objects:
` + simtest.DeploymentYAML("web", 2, "nginx") + `steps:
- at: 20s
  expect: deployment/web .status.availableReplicas == 2
`

const otherYAML = `name: other
title: Other
duration: 30s
`

// newTestPage makes a page on the test library, with nothing loaded.
func newTestPage(t *testing.T) *page {
	t.Helper()
	return newPage(testLib(), nil)
}

// rawCall calls obj.name(args...) the way converge.js does, failing the
// test on a thrown (returned) Error unless wantErr.
func rawCall(obj js.Value, name string, args ...any) js.Value {
	return obj.Call(name, args...)
}

// errorOf is the message of a returned Error object, "" for any other value.
func errorOf(v js.Value) string {
	if v.Type() == js.TypeObject && v.InstanceOf(js.Global().Get("Error")) {
		return v.Get("name").String() + ": " + v.Get("message").String()
	}
	return ""
}

// decode parses a JSON string result into T.
func decode[T any](t *testing.T, v js.Value) T {
	t.Helper()
	require.Equal(t, js.TypeString, v.Type(), "result %s: %s", v.Type(), errorOf(v))
	var out T
	require.NoError(t, json.Unmarshal([]byte(v.String()), &out), v.String())
	return out
}

type loadResult struct {
	OK     bool `json:"ok"`
	Errors []struct {
		Line    int    `json:"line"`
		Col     int    `json:"col"`
		Message string `json:"message"`
	} `json:"errors"`
	Error string `json:"error"`
}

type traceHead struct {
	T           int64 `json:"t"`
	Deployments []struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	} `json:"deployments"`
	Pods []json.RawMessage `json:"pods"`
}

func TestLoadKeepsTheOldSimulationOnErrors(t *testing.T) {
	t.Parallel()
	obj := newTestPage(t).def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	rawCall(obj, "step", 5)

	bad := decode[loadResult](t, rawCall(obj, "load", "name: broken\nobjects: 3\n"))

	assert.False(t, bad.OK)
	require.NotEmpty(t, bad.Errors)
	assert.Equal(t, 2, bad.Errors[0].Line)
	assert.Positive(t, bad.Errors[0].Col)
	assert.NotEmpty(t, bad.Errors[0].Message)
	assert.Equal(t, 5, rawCall(obj, "time").Int(), "the old simulation stays, at its time")
	assert.Equal(t, webYAML, rawCall(obj, "source").String())
}

func TestLoadBuiltin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		arg     string
		wantOK  bool
		wantErr string
	}{
		{name: "a known name", arg: "other", wantOK: true},
		{name: "an unknown name lists the known ones", arg: "nope",
			wantErr: `there is no built-in scenario "nope"; the built-in ones are basic-loop, other, zz-broken`},
		{name: "an invalid built-in gives its problems", arg: "zz-broken"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newTestPage(t)
			got := decode[loadResult](t, rawCall(p.def.obj, "loadBuiltin", tc.arg))
			assert.Equal(t, tc.wantOK, got.OK)
			assert.Equal(t, tc.wantErr, got.Error)
			if tc.arg == "zz-broken" {
				require.Len(t, got.Errors, 1)
				assert.Equal(t, 2, got.Errors[0].Line)
			}
			if tc.wantOK {
				assert.Equal(t, tc.arg, p.def.Name)
				assert.Equal(t, tc.arg, rawCall(p.def.obj, "name").String())
			}
		})
	}
}

func TestValidateDoesNotLoad(t *testing.T) {
	t.Parallel()
	obj := newTestPage(t).def.obj
	assert.True(t, decode[loadResult](t, rawCall(obj, "validate", webYAML)).OK)
	assert.False(t, decode[loadResult](t, rawCall(obj, "validate", "bogus: 1")).OK)
	assert.Equal(t, "Error: "+session.ErrNoScenario.Error(), errorOf(rawCall(obj, "snapshot")))
}

// step, seek and snapshot return the bytes of the trace line (the same
// bytes converge run --output jsonl writes: sim.TraceLine).
func TestStepSeekAndSnapshotAreTraceLines(t *testing.T) {
	t.Parallel()
	obj := newTestPage(t).def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	native := simrun.Load(t, webYAML)
	line := func(t int64) string {
		native.SeekTo(t)
		b, _ := native.TraceLine()
		return string(b)
	}

	assert.Equal(t, line(1), rawCall(obj, "step").String(), "step() is one second")
	assert.Equal(t, line(11), rawCall(obj, "step", 10).String())
	assert.Equal(t, line(11), rawCall(obj, "snapshot").String())
	assert.Equal(t, line(4), rawCall(obj, "seek", 4).String(), "backwards")
	assert.Equal(t, line(30), rawCall(obj, "seek", 30).String(), "forwards")
	assert.Equal(t, 35, rawCall(obj, "advance", 5).Int())
	assert.Equal(t, 33, rawCall(obj, "moveTo", 33).Int())
	assert.Equal(t, line(33), rawCall(obj, "snapshot").String())
	assert.Equal(t, 35, rawCall(obj, "moveTo", 35).Int())
	assert.Equal(t, 35, rawCall(obj, "horizon").Int())
	assert.Equal(t, 60, rawCall(obj, "duration").Int())
	head := decode[traceHead](t, rawCall(obj, "snapshot"))
	assert.Equal(t, int64(35), head.T)
	assert.Len(t, head.Pods, 2)
}

func TestArgumentsAreChecked(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	obj := p.def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	tests := []struct {
		name string
		fn   string
		args []any
		want string
	}{
		{name: "step needs a number", fn: "step", args: []any{"3"}, want: `TypeError: step: seconds must be a number, not the string "3"`},
		{name: "step needs whole seconds", fn: "step", args: []any{1.5}, want: "TypeError: step: seconds must be a whole number of seconds, not 1.5"},
		{name: "step needs at least one", fn: "step", args: []any{0}, want: "TypeError: step: seconds must be at least 1, not 0"},
		{name: "step stops at 24h", fn: "step", args: []any{86401}, want: "TypeError: step: t=86401 is past 24h, the longest a simulation runs"},
		{name: "seek needs t", fn: "seek", want: "TypeError: seek: t must be a second between 0 and 86400, not undefined"},
		{name: "seek refuses negatives", fn: "seek", args: []any{-1}, want: "TypeError: seek: t must be a second between 0 and 86400, not the number -1"},
		{name: "load needs a string", fn: "load", args: []any{42}, want: "TypeError: load: the scenario YAML must be a string, not the number 42"},
		{name: "run needs a string", fn: "run", want: "TypeError: run: the command line must be a string, not undefined"},
		{name: "snapshot takes nothing", fn: "snapshot", args: []any{1}, want: "TypeError: snapshot: takes at most 0 arguments, got 1"},
		{name: "mount needs a node", fn: "mount", args: []any{map[string]any{}}, want: "TypeError: mount: the element must be a DOM element or shadow root"},
		{name: "open takes an object", fn: "open", args: []any{"x"}, want: `TypeError: open: the attributes must be an object, not the string "x"`},
		{name: "open's share is a string", fn: "open", args: []any{map[string]any{"share": 42}}, want: `TypeError: open: share must be a string, not the number 42`},
		{name: "open's scenario is a string", fn: "open", args: []any{map[string]any{"scenario": true}}, want: `TypeError: open: scenario must be a string, not boolean`},
		{name: "fromFragment needs a string", fn: "fromFragment", args: []any{[]any{}}, want: "TypeError: fromFragment: the share payload must be a string, not an array"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target := obj
			if tc.fn == "fromFragment" {
				target = p.obj
			}
			assert.Equal(t, tc.want, errorOf(rawCall(target, tc.fn, tc.args...)))
		})
	}
	assert.Equal(t, 0, rawCall(obj, "time").Int(), "no failed call changed anything")
}

func TestRunJoinsTheScenario(t *testing.T) {
	t.Parallel()
	obj := newTestPage(t).def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	rawCall(obj, "seek", 10)

	read := decode[sim.StepResult](t, rawCall(obj, "run", "get deployments"))
	mut := decode[sim.StepResult](t, rawCall(obj, "run", "kubectl scale deployment/web --replicas=4"))
	bad := decode[sim.StepResult](t, rawCall(obj, "run", "scale deployment/nope --replicas=1"))

	assert.True(t, read.OK)
	assert.Contains(t, read.Output, "web")
	assert.True(t, mut.OK, mut.Error)
	assert.Equal(t, "deployment.apps/web scaled", mut.Output)
	assert.Equal(t, "11s", mut.At)
	assert.False(t, bad.OK)
	assert.Contains(t, bad.Error, `deployments.apps "nope" not found`)
	yaml := rawCall(obj, "scenario").String()
	assert.Contains(t, yaml, "kubectl: scale deployment/web --replicas=4")
	assert.NotContains(t, yaml, "get deployments", "a read-only command does not join")

	frag := rawCall(obj, "shareFragment").String()
	p2 := newTestPage(t)
	assert.Equal(t, yaml, rawCall(p2.obj, "fromFragment", frag).String(), "fromFragment(shareFragment()) == scenario()")
}

func TestFragments(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	frag := rawCall(p.obj, "toFragment", otherYAML).String()
	assert.Equal(t, otherYAML, rawCall(p.obj, "fromFragment", frag).String())
	assert.Equal(t, "Error: share link is corrupt: illegal base64 data at input byte 0",
		errorOf(rawCall(p.obj, "fromFragment", "!!")))
}

func TestReadingFunctions(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	obj := p.def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	rawCall(obj, "seek", 25)

	hist := decode[[]sim.Sample](t, rawCall(obj, "history"))
	exps := decode[[]sim.StepResult](t, rawCall(obj, "expectations"))
	comp := decode[[]string](t, rawCall(obj, "complete", "scale deployment/"))
	none := decode[[]string](t, rawCall(obj, "complete", "zzz"))
	list := decode[[]map[string]string](t, rawCall(p.obj, "scenarios"))

	assert.Len(t, hist, 26, "one sample per second 0..25")
	require.Len(t, exps, 1)
	assert.True(t, exps[0].OK, exps[0].Error)
	assert.Contains(t, comp, "deployment/web")
	assert.NotNil(t, none)
	assert.Equal(t, []map[string]string{
		{"name": "basic-loop", "title": "Basic", "description": ""},
		{"name": "other", "title": "Other", "description": ""},
		{"name": "zz-broken", "title": "zz-broken", "description": ""},
	}, list)
	assert.Equal(t, "", rawCall(obj, "error").String())
}

type openResult struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Name  string `json:"name"`
	T     int64  `json:"t"`
	Embed bool   `json:"embed"`
}

func TestOpen(t *testing.T) {
	t.Parallel()
	share, err := scenario.EncodeShare([]byte(otherYAML))
	require.NoError(t, err)
	tests := []struct {
		name     string
		fn       string
		arg      any
		want     openResult
		wantScn  string
		wantTime int
	}{
		{name: "a built-in at a time", fn: "open", arg: map[string]any{"scenario": "other", "t": "7"},
			want: openResult{OK: true, Name: "other", T: 7}, wantScn: "other", wantTime: 7},
		{name: "t as a number", fn: "open", arg: map[string]any{"scenario": "other", "t": 3, "embed": true},
			want: openResult{OK: true, Name: "other", T: 3, Embed: true}, wantScn: "other", wantTime: 3},
		{name: "a share", fn: "open", arg: map[string]any{"share": share},
			want: openResult{OK: true}, wantScn: "other"},
		{name: "nothing opens the default", fn: "open", arg: nil,
			want: openResult{OK: true, Name: "basic-loop"}, wantScn: "basic-loop"},
		{name: "a corrupt share falls back with a message", fn: "open", arg: map[string]any{"share": "%%%"},
			want:    openResult{Name: "basic-loop", Error: "The shared scenario cannot be opened: share link is corrupt: illegal base64 data at input byte 0. Showing the built-in scenario basic-loop instead."},
			wantScn: "basic-loop"},
		{name: "an address", fn: "openURL", arg: "http://h/?scenario=other&t=12&embed=1",
			want: openResult{OK: true, Name: "other", T: 12, Embed: true}, wantScn: "other", wantTime: 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newTestPage(t)
			got := decode[openResult](t, rawCall(p.def.obj, tc.fn, tc.arg))
			assert.Equal(t, tc.want, got)
			require.NotNil(t, p.def.Sim)
			assert.Equal(t, tc.wantScn, p.def.Sim.Scenario().Name)
			assert.Equal(t, tc.wantTime, rawCall(p.def.obj, "time").Int())
			assert.Equal(t, tc.want.Error, rawCall(p.def.obj, "error").String())
		})
	}
}

func TestInstancesAreIndependent(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	a := rawCall(p.obj, "create")
	b := rawCall(p.obj, "create")
	require.Equal(t, 3, rawCall(p.obj, "count").Int())
	assert.Equal(t, 2, a.Get("id").Int())
	assert.Equal(t, 3, b.Get("id").Int())
	require.True(t, decode[loadResult](t, rawCall(a, "load", webYAML)).OK)
	require.True(t, decode[loadResult](t, rawCall(b, "loadBuiltin", "other")).OK)

	rawCall(a, "seek", 20)
	rawCall(b, "step", 3)
	decode[sim.StepResult](t, rawCall(a, "run", "scale deployment/web --replicas=5"))

	assert.Equal(t, 21, rawCall(a, "time").Int())
	assert.Equal(t, 3, rawCall(b, "time").Int())
	assert.NotContains(t, rawCall(b, "scenario").String(), "replicas=5")
	assert.Equal(t, "Error: "+session.ErrNoScenario.Error(), errorOf(rawCall(p.def.obj, "time")), "the default is untouched")

	rawCall(a, "dispose")
	assert.Equal(t, 2, rawCall(p.obj, "count").Int())
	assert.Equal(t, 3, rawCall(b, "time").Int(), "b lives on")
	// wasm_exec.js logs "call to released function" and returns undefined;
	// converge.js throws before calling a disposed instance.
	assert.True(t, rawCall(a, "time").IsUndefined(), "a's functions are released")
}

// fakeRenderer records its calls; a panicking one panics in Render.
type fakeRenderer struct {
	renders  []int64
	disposed int
	panics   bool
}

func (r *fakeRenderer) Render(inst *Instance) {
	if r.panics {
		panic("drawing failed")
	}
	var t int64 = -1
	if inst.Sim != nil {
		t = inst.Sim.T()
	}
	r.renders = append(r.renders, t)
}

func (r *fakeRenderer) Dispose() { r.disposed++ }

var _ Renderer = (*fakeRenderer)(nil)

func TestChangesRenderEveryMountAndDisposeDisposesThem(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	inst := p.instances.create()
	obj := p.newObject(inst)
	good, bad := &fakeRenderer{}, &fakeRenderer{panics: true}
	root := js.Global().Get("Object").New()
	inst.mounts = append(inst.mounts, mount{root: root, renderer: bad}, mount{root: js.Global().Get("Object").New(), renderer: good})

	rawCall(obj, "load", webYAML)
	rawCall(obj, "step", 2)
	rawCall(obj, "seek", 1)
	decode[sim.StepResult](t, rawCall(obj, "run", "cordon node-1"))
	rawCall(obj, "unmount", root)

	assert.Equal(t, []int64{0, 2, 1, 2}, good.renders, "load, step, seek, run; a panicking renderer does not stop the others")
	assert.Equal(t, 1, bad.disposed, "unmount disposes the renderer on that node")
	rawCall(obj, "dispose")
	assert.Equal(t, 1, good.disposed)
	assert.Nil(t, inst.Sim)
}

func TestMountWithoutARendererDrawsNothing(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	rawCall(p.def.obj, "load", webYAML)
	node := js.Global().Get("Object").New()
	node.Set("nodeType", 11) // what a shadow root has; Node has no DOM
	got := rawCall(p.def.obj, "mount", node, map[string]any{"embed": true})
	require.Equal(t, js.TypeBoolean, got.Type(), errorOf(got))
	assert.False(t, got.Bool())
}

func TestAPanicIsAnInternalErrorNotACrash(t *testing.T) {
	t.Parallel()
	boom := func(args) (any, error) { panic("boom") }
	tests := []struct {
		name string
		kind kind
		want func(t *testing.T, v any)
	}{
		{name: "a value function returns an Error", kind: valueFunc, want: func(t *testing.T, v any) {
			assert.Equal(t, "Error: internal error: f: boom", errorOf(v.(js.Value)))
		}},
		{name: "an outcome function returns ok:false", kind: outcomeFunc, want: func(t *testing.T, v any) {
			assert.JSONEq(t, `{"ok":false,"error":"internal error: f: boom"}`, v.(string))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out any
			require.NotPanics(t, func() { out = call("f", tc.kind, boom, nil) })
			tc.want(t, out)
		})
	}
}

// shadowRoot is a stand-in for a shadow root (Node has no DOM).
func shadowRoot() js.Value {
	node := js.Global().Get("Object").New()
	node.Set("nodeType", 11)
	return node
}

func TestMountDrawsWithTheRendererThePageWasGiven(t *testing.T) {
	t.Parallel()
	var made []MountOptions
	fake := &fakeRenderer{}
	p := newPage(testLib(), func(inst *Instance, root dom.Node, opts MountOptions) Renderer {
		made = append(made, opts)
		return fake
	})
	obj := p.newObject(p.instances.create())
	rawCall(obj, "load", webYAML)
	got := rawCall(obj, "mount", shadowRoot(), map[string]any{"embed": true})
	require.Equal(t, js.TypeBoolean, got.Type(), errorOf(got))
	assert.True(t, got.Bool())
	assert.Equal(t, []MountOptions{{Embed: true}}, made, "every instance of the page draws with it")
	assert.Equal(t, []int64{0}, fake.renders, "mount renders once")
	rawCall(obj, "step", 1)
	assert.Equal(t, []int64{0, 1}, fake.renders)
}

func TestBatchRendersOncePerAction(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		do   func(inst *Instance)
		want []int64
	}{
		{name: "a command", do: func(inst *Instance) { inst.Run("scale deployment/web --replicas=3") }, want: []int64{1}},
		{name: "several changes", do: func(inst *Instance) {
			inst.Step(2)
			inst.Run("cordon node-1")
			inst.SeekTo(10)
		}, want: []int64{10}},
		{name: "a batch in a batch", do: func(inst *Instance) {
			inst.Batch(func() { inst.Step(1) })
			inst.Step(1)
		}, want: []int64{2}},
		{name: "nothing changed", do: func(*Instance) {}, want: []int64{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newTestPage(t)
			inst := p.instances.create()
			require.False(t, inst.Load([]byte(webYAML)).HasErrors())
			r := &fakeRenderer{}
			inst.mounts = append(inst.mounts, mount{root: shadowRoot(), renderer: r})
			inst.Batch(func() { tc.do(inst) })
			assert.Equal(t, tc.want, r.renders, "one render, of the state the action produced")
			inst.Step(1)
			assert.Len(t, r.renders, len(tc.want)+1, "after the batch every change renders again")
		})
	}
}

func TestBatchEndsWhenItsActionPanics(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	inst := p.instances.create()
	require.False(t, inst.Load([]byte(webYAML)).HasErrors())
	r := &fakeRenderer{}
	inst.mounts = append(inst.mounts, mount{root: shadowRoot(), renderer: r})
	assert.Panics(t, func() { inst.Batch(func() { panic("boom") }) })
	inst.Step(1)
	assert.Equal(t, []int64{1}, r.renders, "the instance renders again")
}

func TestStepsAndRemoveStep(t *testing.T) {
	t.Parallel()
	obj := newTestPage(t).def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	rawCall(obj, "seek", 10)
	before := rawCall(obj, "scenario").String()
	refused := decode[sim.StepResult](t, rawCall(obj, "run", "scale deployment/nope --replicas=1"))
	assert.False(t, refused.OK)
	assert.Equal(t, 10, rawCall(obj, "time").Int(), "a refused command keeps the clock")
	assert.Equal(t, before, rawCall(obj, "scenario").String(), "and is no step")

	require.True(t, decode[sim.StepResult](t, rawCall(obj, "run", "scale deployment/web --replicas=4")).OK)
	type row struct {
		Index  int    `json:"index"`
		At     string `json:"at"`
		Action string `json:"action"`
		State  string `json:"state"`
		Output string `json:"output"`
		Added  bool   `json:"added"`
	}
	steps := decode[[]row](t, rawCall(obj, "steps"))
	var added *row
	for i := range steps {
		if steps[i].Added {
			added = &steps[i]
		}
	}
	require.NotNil(t, added)
	assert.Equal(t, row{Index: added.Index, At: "11s", Action: "kubectl scale deployment/web --replicas=4", State: "ok",
		Output: "deployment.apps/web scaled", Added: true}, *added)

	assert.Equal(t, map[string]any{"ok": true}, decode[map[string]any](t, rawCall(obj, "removeStep", added.Index)))
	assert.Equal(t, before, rawCall(obj, "scenario").String())
	assert.Equal(t, 11, rawCall(obj, "time").Int(), "the simulation stays at its second")
	bad := decode[map[string]any](t, rawCall(obj, "removeStep", 99))
	assert.Equal(t, false, bad["ok"])
	assert.Contains(t, bad["error"], "no step 99")
	assert.Equal(t, "TypeError: removeStep: the step's index must be a whole number, not the string \"x\"", errorOf(rawCall(obj, "removeStep", "x")))
}
