//go:build js && wasm

package main

import (
	"syscall/js"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/session"
	"converge/core/version"
)

// bootRecorder is a stand-in for converge.js's `_boot` object that records
// the calls the Go side makes.
type bootRecorder struct {
	obj              js.Value
	resolved         []js.Value
	rejected         []string
	resolveF, reject js.Func
}

func newBootRecorder(t *testing.T) *bootRecorder {
	t.Helper()
	b := &bootRecorder{obj: js.Global().Get("Object").New()}
	b.resolveF = js.FuncOf(func(_ js.Value, args []js.Value) any {
		b.resolved = append(b.resolved, args[0])
		return nil
	})
	b.reject = js.FuncOf(func(_ js.Value, args []js.Value) any {
		b.rejected = append(b.rejected, args[0].Get("message").String())
		return nil
	})
	t.Cleanup(func() {
		b.resolveF.Release()
		b.reject.Release()
	})
	b.obj.Set("resolve", b.resolveF)
	b.obj.Set("reject", b.reject)
	return b
}

// testLib is a library of two small scenarios.
func testLib() *session.Library {
	return session.NewLibrary(fstest.MapFS{
		"basic-loop.yaml": {Data: []byte(webYAML)},
		"other.yaml":      {Data: []byte(otherYAML)},
		"zz-broken.yaml":  {Data: []byte("name: zz-broken\nbogus: 1\n")},
	})
}

func TestInstall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		withBoot bool
	}{
		{name: "booted by converge.js resolves with the bridge once", withBoot: true},
		{name: "run on its own sets globalThis.converge to the bridge", withBoot: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			global := js.Global().Get("Object").New()
			var boot *bootRecorder
			if tc.withBoot {
				api := js.Global().Get("Object").New()
				boot = newBootRecorder(t)
				api.Set("_boot", boot.obj)
				global.Set("converge", api)
			}

			p := install(global, testLib(), nil)
			require.NotNil(t, p)

			var raw js.Value
			if boot != nil {
				require.Len(t, boot.resolved, 1)
				assert.Empty(t, boot.rejected)
				raw = boot.resolved[0]
			} else {
				raw = global.Get("converge")
			}
			assert.True(t, raw.Equal(p.obj))
			assert.Equal(t, version.Version, raw.Get("version").String())
			assert.Equal(t, 1, raw.Get("default").Get("id").Int())
			assert.Equal(t, js.TypeFunction, raw.Get("create").Type())
		})
	}
}

func TestInstallRejectsReadyWhenItPanics(t *testing.T) {
	t.Parallel()
	// A `_boot.resolve` that is not a function makes the call panic in Go:
	// install must reject ready with the reason, not crash the runtime.
	global := js.Global().Get("Object").New()
	api := js.Global().Get("Object").New()
	boot := newBootRecorder(t)
	boot.obj.Set("resolve", 1)
	api.Set("_boot", boot.obj)
	global.Set("converge", api)

	var p *page
	assert.NotPanics(t, func() { p = install(global, testLib(), nil) })

	assert.Nil(t, p)
	assert.Empty(t, boot.resolved)
	require.Len(t, boot.rejected, 1)
	assert.Contains(t, boot.rejected[0], "internal error: ")
}
