//go:build js && wasm

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A button's longer text becomes its accessible name only when it holds
// the visible label, as axe-core's label-content-name-mismatch compares.
func TestNameHolds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, aria, label string
		want              bool
	}{
		{"the label with the object", "Open web", "Open", true},
		{"symbols aside", "Step back 1s", "◀ 1s", true},
		{"case aside", "download web.yaml", "Download", true},
		{"a description", "Copy a link to this scenario at this second", "Share", false},
		{"a synonym", "Step back one second", "◀ 1s", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, nameHolds(tc.aria, tc.label))
		})
	}
}
