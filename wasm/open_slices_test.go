//go:build js && wasm

package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest"
)

// bigShare is a share of 1,000 pods on 20 nodes: an open long enough to
// take several slices.
func bigShare(t *testing.T) string {
	t.Helper()
	src := simtest.RolloutYAML(simtest.RolloutOptions{Name: "big", Duration: "60s", Nodes: 20, PodsPerNode: 110,
		Replicas: 1000, Image: "nginx:1.25"})
	share, err := scenario.EncodeShare([]byte(src))
	require.NoError(t, err)
	return share
}

// TestOpenAsyncIsOpen: openAsync and openURLAsync resolve with what open
// and openURL return, and leave the instance where they leave it; an open
// of 1,000 pods takes more than one slice.
func TestOpenAsyncIsOpen(t *testing.T) {
	t.Parallel()
	big := bigShare(t)
	tests := []struct {
		name     string
		sync     string
		arg      any
		wantMany bool
	}{
		{name: "a built-in at a time", sync: "open", arg: map[string]any{"scenario": "other", "t": "7"}},
		{name: "nothing opens the default", sync: "open", arg: nil},
		{name: "a corrupt share falls back", sync: "open", arg: map[string]any{"share": "%%%"}},
		{name: "an address", sync: "openURL", arg: "http://h/?scenario=other&t=12&embed=1"},
		{name: "1,000 pods", sync: "open", arg: map[string]any{"share": big}, wantMany: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			whole := newTestPage(t).def.obj
			want := decode[openResult](t, rawCall(whole, tc.sync, tc.arg))
			p := newTestPage(t)
			// The smallest budget: an open of many pieces parks at
			// some, however fast the machine (50 ms was not always
			// used up by 1,000 pods).
			p.def.openBudget = time.Nanosecond
			s := awaitSettled(t, rawCall(p.def.obj, tc.sync+"Async", tc.arg))
			require.False(t, s.rejected, s.msg)
			assert.Equal(t, want, decode[openResult](t, s.value))
			assert.Equal(t, rawCall(whole, "source").String(), rawCall(p.def.obj, "source").String())
			assert.Equal(t, rawCall(whole, "snapshot").String(), rawCall(p.def.obj, "snapshot").String())
			if tc.wantMany {
				assert.Greater(t, p.def.openSlices, 1, "the open went in slices")
			}
		})
	}
}

// TestACallFinishesTheOpenFirst: a call on the instance while its open
// goes in slices finishes the open at once and sees the opened scenario;
// the promise still resolves with the result.
func TestACallFinishesTheOpenFirst(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	p.def.openBudget = time.Nanosecond
	promise := rawCall(p.def.obj, "openAsync", map[string]any{"share": bigShare(t)})
	require.NotNil(t, p.def.opening, "the open is parked after its first slice")
	assert.Equal(t, 0, rawCall(p.def.obj, "time").Int())
	require.NotNil(t, p.def.Sim)
	assert.Equal(t, "big", p.def.Sim.Scenario().Name)
	assert.Nil(t, p.def.opening)
	s := awaitSettled(t, promise)
	require.False(t, s.rejected, s.msg)
	assert.True(t, decode[openResult](t, s.value).OK)
}
