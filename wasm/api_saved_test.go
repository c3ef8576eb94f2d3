//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"syscall/js"
	"testing"

	"github.com/hack-pad/hackpadfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/export"
	"converge/core/library"
	"converge/core/scenario"
)

type savedEntry struct {
	Name     string `json:"name"`
	Modified string `json:"modified"`
	Size     int    `json:"size"`
}

// settle awaits the Promise a raw function returned, failing the test if
// the function threw (returned an Error) instead.
func settle(t *testing.T, v js.Value) (js.Value, error) {
	t.Helper()
	require.Empty(t, errorOf(v), "the function returned an Error instead of a Promise")
	require.True(t, v.InstanceOf(js.Global().Get("Promise")), "a Promise")
	return await(v)
}

// My scenarios through the raw bridge, under Node: there is no IndexedDB,
// so the library is in memory, and storage() says so.
func TestSavedScenariosThroughTheBridge(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	obj := p.def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	rawCall(obj, "seek", 10)
	run := decode[struct{ OK bool }](t, rawCall(obj, "run", "scale deployment/web --replicas=3"))
	require.True(t, run.OK)

	v, err := settle(t, rawCall(obj, "save", "my web"))
	require.NoError(t, err)
	e := decode[savedEntry](t, v)
	assert.Equal(t, "my web", e.Name)
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$`, e.Modified, "RFC 3339 in UTC")
	scn := rawCall(obj, "scenario").String()
	assert.Equal(t, len(scn), e.Size, "the scenario as it runs, console step included")
	assert.Equal(t, "my web", p.def.SavedAs)

	_, err = settle(t, rawCall(obj, "save", "api"))
	require.NoError(t, err)
	v, err = settle(t, rawCall(obj, "saved"))
	require.NoError(t, err)
	list := decode[[]savedEntry](t, v)
	require.Len(t, list, 2)
	assert.Equal(t, []string{"api", "my web"}, []string{list[0].Name, list[1].Name})

	// Another instance opens it: the same scenario, at t=0.
	other := p.newObject(p.instances.create())
	v, err = settle(t, rawCall(other, "openSaved", "my web"))
	require.NoError(t, err)
	assert.True(t, decode[loadResult](t, v).OK)
	assert.Equal(t, scn, rawCall(other, "scenario").String())
	assert.Equal(t, 0, rawCall(other, "time").Int())

	v, err = settle(t, rawCall(obj, "renameSaved", "api", "api v2"))
	require.NoError(t, err)
	assert.Equal(t, "api v2", decode[savedEntry](t, v).Name)
	v, err = settle(t, rawCall(obj, "duplicateSaved", "my web"))
	require.NoError(t, err)
	assert.Equal(t, "my web copy", decode[savedEntry](t, v).Name)
	_, err = settle(t, rawCall(obj, "deleteSaved", "api v2"))
	require.NoError(t, err)
	v, _ = settle(t, rawCall(obj, "saved"))
	list = decode[[]savedEntry](t, v)
	assert.Len(t, list, 2)

	_, err = settle(t, rawCall(obj, "openSaved", "nope"))
	assert.EqualError(t, err, `file does not exist: there is no saved scenario "nope"`)
	_, err = settle(t, rawCall(obj, "save", "../x"))
	assert.EqualError(t, err, `invalid name "../x": a name may not start with "."`)
	assert.Equal(t, `TypeError: save: the name must be a string, not the number 3`, errorOf(rawCall(obj, "save", 3)),
		"a wrong argument is thrown at once")

	v, err = settle(t, rawCall(obj, "storage"))
	require.NoError(t, err)
	st := decode[storageState](t, v)
	assert.False(t, st.Persistent)
	assert.Contains(t, st.Notice, "kept in memory only")
	assert.Contains(t, st.Notice, "this browser offers no IndexedDB")
}

// A page whose storage refuses writes after opening goes on in memory.
func TestStorageFallsBackToMemory(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	p.storage = newStorage(func() (hackpadfs.FS, error) { return nil, errors.New("SecurityError: access denied") })
	require.NoError(t, p.storage.use(func(st *library.Store) error {
		_, err := st.Save("x", []byte("name: x\n"))
		return err
	}))
	assert.Contains(t, p.storage.Notice(), "(SecurityError: access denied)")
	assert.Equal(t, "", p.storage.Notice(), "the notice is given once")
}

// The downloads through the bridge are the native bytes: the trace is
// export.Trace of the scenario as it runs.
func TestExportsThroughTheBridge(t *testing.T) {
	t.Parallel()
	obj := newTestPage(t).def.obj
	require.True(t, decode[loadResult](t, rawCall(obj, "load", webYAML)).OK)
	rawCall(obj, "seek", 10)
	decode[struct{ OK bool }](t, rawCall(obj, "run", "scale deployment/web --replicas=3"))

	type file struct{ Name, Type, Text string }
	tr := decode[file](t, rawCall(obj, "exportTrace"))
	assert.Equal(t, "basic-loop.jsonl", tr.Name)
	scn, probs := scenario.Parse([]byte(rawCall(obj, "scenario").String()), "basic-loop.yaml")
	require.False(t, probs.HasErrors())
	var b bytes.Buffer
	require.NoError(t, export.Trace(&b, scn, scn.Duration))
	assert.True(t, b.String() == tr.Text, "the wasm's trace is the native one")

	sh := decode[file](t, rawCall(obj, "exportKubectl"))
	assert.Equal(t, "basic-loop.sh", sh.Name)
	assert.Contains(t, sh.Text, "\nat 11\nstep 'scale deployment/web --replicas=3'")
	svg := decode[file](t, rawCall(obj, "exportCharts"))
	assert.Equal(t, "image/svg+xml", svg.Type)
	y := decode[file](t, rawCall(obj, "exportScenario"))
	assert.Equal(t, rawCall(obj, "scenario").String(), y.Text)
	var anyJSON map[string]any
	assert.Error(t, json.Unmarshal([]byte(tr.Text), &anyJSON), "JSONL: one object a line, not one document")
}

// SaveWork keeps a scenario of the user's own, under one name however
// often it is called, and leaves a built-in one as loaded alone.
func TestSaveWork(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	inst := p.def
	require.NoError(t, inst.LoadBuiltin("basic-loop"))
	name, err := inst.SaveWork()
	require.NoError(t, err)
	assert.Equal(t, "", name, "a built-in as loaded needs no saving")

	inst.SeekTo(10)
	require.True(t, inst.Run("scale deployment/web --replicas=3").OK)
	name, err = inst.SaveWork()
	require.NoError(t, err)
	assert.Equal(t, "basic-loop", name)
	require.True(t, inst.Run("scale deployment/web --replicas=4").OK)
	name, err = inst.SaveWork()
	require.NoError(t, err)
	assert.Equal(t, "basic-loop", name, "the second call replaces the first save")
	var list []library.Entry
	require.NoError(t, p.storage.use(func(st *library.Store) (err error) {
		list, err = st.List()
		return err
	}))
	require.Len(t, list, 1)
	data, err := p.readSaved("basic-loop")
	require.NoError(t, err)
	want, err := inst.Sim.Scenario().Marshal()
	require.NoError(t, err)
	assert.Equal(t, string(want), string(data))
}
