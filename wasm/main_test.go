//go:build js && wasm

package main

import (
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/version"
)

// bootRecorder is a stand-in for converge.js's `_boot` object that counts
// the calls the Go side makes.
type bootRecorder struct {
	obj              js.Value
	resolved         int
	rejected         []string
	resolveF, reject js.Func
}

func newBootRecorder(t *testing.T) *bootRecorder {
	t.Helper()
	b := &bootRecorder{obj: js.Global().Get("Object").New()}
	b.resolveF = js.FuncOf(func(js.Value, []js.Value) any {
		b.resolved++
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

func TestInstall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		withBoot bool
	}{
		{name: "booted by converge.js resolves ready once", withBoot: true},
		{name: "run on its own only installs", withBoot: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			api := js.Global().Get("Object").New()
			var boot *bootRecorder
			if tc.withBoot {
				boot = newBootRecorder(t)
				api.Set("_boot", boot.obj)
			}

			install(api)

			require.Equal(t, js.TypeString, api.Get("version").Type())
			assert.Equal(t, version.Version, api.Get("version").String())
			if boot != nil {
				assert.Equal(t, 1, boot.resolved)
				assert.Empty(t, boot.rejected)
			}
		})
	}
}

func TestInstallRejectsReadyWhenItPanics(t *testing.T) {
	t.Parallel()
	// A `_boot.resolve` that is not a function makes the call panic in Go:
	// install must reject ready with the reason, not crash the runtime.
	api := js.Global().Get("Object").New()
	boot := newBootRecorder(t)
	boot.obj.Set("resolve", 1)
	api.Set("_boot", boot.obj)

	assert.NotPanics(t, func() { install(api) })

	assert.Zero(t, boot.resolved)
	require.Len(t, boot.rejected, 1)
	assert.Contains(t, boot.rejected[0], "internal error: ")
	assert.Contains(t, boot.rejected[0], "resolve")
}
