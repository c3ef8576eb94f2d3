//go:build js && wasm

package main

import (
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"honnef.co/go/js/dom/v2"
)

// mount's options reach the renderer: what <converge-sim>'s controls,
// autoplay and speed attributes become (docs/js-api.md); a bad one is an
// error and draws nothing.
func TestMountOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts any
		want MountOptions
		err  string
	}{
		{name: "none", opts: nil, want: MountOptions{}},
		{name: "embed", opts: map[string]any{"embed": true}, want: MountOptions{Embed: true}},
		{name: "all", opts: map[string]any{"embed": true, "controls": "compact", "autoplay": true, "speed": 16},
			want: MountOptions{Embed: true, Controls: "compact", Autoplay: true, Speed: 16}},
		{name: "no controls", opts: map[string]any{"controls": "none"}, want: MountOptions{Controls: "none"}},
		{name: "a speed of 0 is the default", opts: map[string]any{"speed": 0}, want: MountOptions{}},
		{name: "null values are absent", opts: map[string]any{"controls": nil, "speed": nil}, want: MountOptions{}},
		{name: "unknown controls", opts: map[string]any{"controls": "tiny"},
			err: `TypeError: mount: the option controls must be "full", "compact" or "none", not "tiny"`},
		{name: "controls not a string", opts: map[string]any{"controls": 3}, err: "TypeError: mount: the option controls must be a string"},
		{name: "speed not a number", opts: map[string]any{"speed": "fast"}, err: "TypeError: mount: the option speed must be a number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var made []MountOptions
			p := newPage(testLib(), func(inst *Instance, root dom.Node, opts MountOptions) Renderer {
				made = append(made, opts)
				return &fakeRenderer{}
			})
			obj := p.newObject(p.instances.create())
			rawCall(obj, "load", webYAML)
			got := rawCall(obj, "mount", shadowRoot(), tc.opts)
			if tc.err != "" {
				assert.Equal(t, tc.err, errorOf(got))
				assert.Empty(t, made, "nothing is drawn")
				return
			}
			require.Equal(t, js.TypeBoolean, got.Type(), errorOf(got))
			assert.Equal(t, []MountOptions{tc.want}, made)
		})
	}
}

// nearestSpeed is the fastest speed not above the one asked for.
func TestNearestSpeed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want int }{{1, 1}, {3, 2}, {4, 4}, {16, 16}, {50, 32}, {64, 64}, {1000, 64}, {0, 1}, {-5, 1}} {
		assert.Equal(t, tc.want, nearestSpeed(tc.in), "speed %d", tc.in)
	}
}
